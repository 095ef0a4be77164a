//! The inputs every uniqueness / approximate row shares, with their
//! defaults and checks (errors name the parameters; the shell names the flags).

use serde::Serialize;

use super::like_rows::LIKE_ROWS_PARTITION_LOAD;
use crate::error::{ParamError, ParamResult, Problem};
use crate::model::validate;

/// Seconds in a day: likes a day / this is the mean like rate.
pub const SECONDS_PER_DAY: f64 = 86_400.0;

/// Everything the uniqueness / approximate rows need. Build with
/// [`ApproxInputs::new`] (defaults from [`crate::model::defaults`]), set
/// fields, and [`approx_rows`](super::approx_rows) validates before use.
/// Errors name the parameters in brackets below (the names `compare`
/// records its inputs under, so the shell can name their flags).
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct ApproxInputs {
    /// Likes/s on the hot post at the peak (`rate`).
    pub rate: f64,
    /// Views of the count per second (`views`).
    pub views: f64,
    /// Shard keys for the sharded rows (`shards`).
    pub shards: u64,
    /// Writes/s one key may take (`cap`).
    pub cap: f64,
    /// Duration the "any second over the cap" risk covers (`duration_seconds`).
    pub seconds: f64,
    /// Likes a day over the fleet (`likes_per_day`).
    pub likes_per_day: f64,
    /// Reels the fleet's likes spread over (`reels`).
    pub reels: u64,
    /// Likes/s that raise a reel to `target_shards` (`threshold`).
    pub threshold: f64,
    /// Shards of a raised reel (`target_shards`).
    pub target_shards: u64,
    /// Bytes of one stored user id (`user_id_bytes`).
    pub user_id_bytes: u64,
    /// Zipf exponent of reel popularity (`zipf`).
    pub zipf_s: f64,
    /// Count-Min error share (`epsilon`).
    pub epsilon: f64,
    /// Count-Min failure probability (`delta`).
    pub delta: f64,
    /// Shares/s on the hot post (`shares`); default rate x 0.1.
    pub shares: f64,
    /// Members of the hot post's set / like rows of the hot post
    /// (`post_likes`); `None`: a day at the peak rate, at most the
    /// fleet's likes a day (an upper bound).
    pub post_likes: Option<f64>,
    /// Partitions of the like-row table (`partitions`); `None`: enough
    /// for each to run at [`LIKE_ROWS_PARTITION_LOAD`] of the cap.
    pub partitions: Option<u64>,
    /// Servers caching the shown count (`servers`).
    pub servers: u64,
    /// Seconds each caches it; 0 = no cache (`cache_seconds`).
    pub cache_seconds: f64,
    /// How the likes in a second are counted (the plan's law).
    pub traffic: crate::model::law::TrafficModel,
    /// How the app servers pick one of a sharded design's keys (the plan's
    /// writers); one key, or rows hashed onto partitions, split at random.
    pub writers: crate::model::picker::Writers,
}

impl ApproxInputs {
    /// The five figures every compare row shares; the rest take defaults.
    pub fn new(rate: f64, views: f64, shards: u64, cap: f64, seconds: f64) -> ParamResult<Self> {
        let inputs = ApproxInputs {
            rate,
            views,
            shards,
            cap,
            seconds,
            likes_per_day: crate::model::defaults::DEFAULT_LIKES_PER_DAY,
            reels: crate::model::defaults::DEFAULT_REELS,
            threshold: crate::model::defaults::DEFAULT_THRESHOLD,
            target_shards: crate::model::defaults::DEFAULT_TARGET_SHARDS,
            user_id_bytes: crate::model::defaults::DEFAULT_USER_ID_BYTES,
            zipf_s: crate::model::defaults::DEFAULT_ZIPF_EXPONENT,
            epsilon: crate::model::defaults::DEFAULT_EPSILON,
            delta: crate::model::defaults::DEFAULT_DELTA,
            shares: rate * crate::model::defaults::DEFAULT_SHARES_PER_LIKE,
            post_likes: None,
            partitions: None,
            servers: crate::model::defaults::DEFAULT_SERVERS,
            cache_seconds: crate::model::defaults::DEFAULT_CACHE_SECONDS,
            traffic: crate::model::law::TrafficModel::Fixed,
            writers: crate::model::picker::Writers {
                picker: crate::model::picker::Picker::Random,
                servers: crate::model::defaults::DEFAULT_SERVERS,
            },
        };
        inputs.validate()?;
        Ok(inputs)
    }

    /// Checks every field; errors name the flag.
    pub fn validate(&self) -> ParamResult<()> {
        validate::rate("rate", self.rate)?;
        validate::rate("views", self.views)?;
        validate::count("shards", self.shards, crate::model::defaults::MAX_SHARDS)?;
        validate::positive("cap", self.cap)?;
        if !self.seconds.is_finite() || self.seconds < 1.0 {
            return Err(ParamError::new(
                "duration_seconds",
                Problem::BelowOneSecond(self.seconds),
            ));
        }
        validate::positive("likes_per_day", self.likes_per_day)?;
        validate::count(
            "reels",
            self.reels,
            crate::model::defaults::MAX_COMPARE_REELS,
        )?;
        validate::positive("threshold", self.threshold)?;
        validate::count(
            "target_shards",
            self.target_shards,
            crate::model::defaults::MAX_SHARDS,
        )?;
        validate::count("user_id_bytes", self.user_id_bytes, 200)?;
        if !self.zipf_s.is_finite() || self.zipf_s < 0.0 || self.zipf_s > 10.0 {
            return Err(ParamError::new(
                "zipf",
                Problem::NumberOutside {
                    got: self.zipf_s,
                    lo: 0.0,
                    hi: 10.0,
                },
            ));
        }
        validate::probability_open("epsilon", self.epsilon)?;
        validate::probability_open("delta", self.delta)?;
        validate::non_negative("shares", self.shares)?;
        if self.shares > crate::model::defaults::MAX_RATE {
            return Err(ParamError::new(
                "shares",
                Problem::SharesRateAbove {
                    got: self.shares,
                    max: crate::model::defaults::MAX_RATE,
                },
            ));
        }
        if let Some(p) = self.post_likes {
            validate::positive("post_likes", p)?;
            if p > 1e15 {
                return Err(ParamError::new(
                    "post_likes",
                    Problem::Above { got: p, max: 1e15 },
                ));
            }
        }
        if let Some(p) = self.partitions {
            validate::count("partitions", p, 10_000_000)?;
        }
        validate::count("servers", self.servers, crate::model::defaults::MAX_SERVERS)?;
        validate::non_negative("cache_seconds", self.cache_seconds)?;
        if self.cache_seconds > SECONDS_PER_DAY {
            return Err(ParamError::new(
                "cache_seconds",
                Problem::AboveOneDay(self.cache_seconds),
            ));
        }
        Ok(())
    }

    /// Likes the hot post's set (or like rows) holds: the override, else a
    /// day at the peak rate capped at the fleet's day.
    pub fn post_likes(&self) -> f64 {
        self.post_likes
            .unwrap_or_else(|| (self.rate * SECONDS_PER_DAY).min(self.likes_per_day))
            .max(1.0)
    }

    /// Like-row table partitions: the override, else
    /// ceil(rate / (cap x [`LIKE_ROWS_PARTITION_LOAD`])).
    pub fn partitions(&self) -> u64 {
        self.partitions.unwrap_or_else(|| {
            ((self.rate / (self.cap * LIKE_ROWS_PARTITION_LOAD)).ceil() as u64).max(1)
        })
    }

    /// The fleet's mean like rate: likes a day / 86,400.
    pub fn fleet_rate(&self) -> f64 {
        self.likes_per_day / SECONDS_PER_DAY
    }

    /// Count recomputations a second: every view without a cache, else each
    /// server once per cache period (no more often than views arrive), as
    /// [`crate::model::read_cost::sums_per_second`].
    pub fn sums_per_second(&self) -> f64 {
        crate::model::read_cost::sums_per_second(self.views, self.servers, self.cache_seconds)
    }
}
