//! Sizing by the rule of thumb: shards = ceil(peak / safe rate per key),
//! where the safe rate keeps headroom below the store's cap for the random
//! unevenness between shards.

use serde::Serialize;

use crate::error::{ParamError, ParamResult};
use crate::model::validate;

/// Where the safe rate per key comes from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SafeRate {
    /// Given directly (`--safe 700`).
    PerKey(f64),
    /// cap x (1 - headroom) (`--headroom 0.3` with a cap of 1,000 gives 700).
    Headroom(f64),
}

/// The validated inputs of a sizing.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SizingPlan {
    /// Peak likes per second to plan for.
    pub peak: f64,
    /// Writes a second one shard key accepts.
    pub cap: f64,
    /// Where the safe rate per key comes from.
    pub safe: SafeRate,
}

/// The rule-of-thumb sizing and what it implies at the peak.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Sizing {
    /// Peak likes per second.
    pub peak: f64,
    /// Writes a second one shard key accepts.
    pub cap: f64,
    /// The safe writes a second per shard key.
    pub safe_per_shard: f64,
    /// (cap - safe) / cap: the headroom planned per key.
    pub headroom: f64,
    /// Shards: ceil(peak / safe).
    pub shards: u64,
    /// peak / shards: the average writes per shard at the peak.
    pub mean_per_shard_at_peak: f64,
    /// (cap - mean) / cap: the share of the cap still unused on an average
    /// shard at the peak (at least the planned headroom).
    pub headroom_left: f64,
}

/// ceil(peak / safe), tolerant of the last-bit error of a computed safe rate
/// (1,000 x (1 - 0.3) is 700.0000000000001 in floating point; 14,000 / that
/// must still give 20, not 21).
pub fn shards_for(peak: f64, safe: f64) -> u64 {
    let ratio = peak / safe;
    let nearest = ratio.round();
    if (ratio - nearest).abs() <= 1e-9 * nearest.max(1.0) {
        nearest.max(1.0) as u64
    } else {
        ratio.ceil().max(1.0) as u64
    }
}

impl SizingPlan {
    /// Checks the inputs; errors name `--peak`, `--cap`, `--safe` and
    /// `--headroom` (a peak that needs more shards than supported names `--peak`).
    pub fn new(peak: f64, cap: f64, safe: SafeRate) -> ParamResult<Self> {
        validate::rate("peak", peak)?;
        validate::rate("cap", cap)?;
        match safe {
            SafeRate::PerKey(s) => {
                validate::positive("safe", s)?;
                if s > cap {
                    return Err(ParamError::other(
                        "safe",
                        format!("must not exceed the cap of {cap} writes/s per key (got {s})"),
                    ));
                }
            }
            SafeRate::Headroom(h) => {
                validate::in_half_open("headroom", h, 0.0, 1.0)?;
            }
        }
        let plan = SizingPlan { peak, cap, safe };
        let shards = shards_for(peak, plan.safe_per_shard());
        validate::count("peak", shards, crate::model::defaults::MAX_SHARDS).map_err(|_| {
            ParamError::other(
                "peak",
                format!(
                    "needs {shards} shards at {} writes/s per shard, more than the {} supported",
                    plan.safe_per_shard(),
                    crate::model::defaults::MAX_SHARDS
                ),
            )
        })?;
        Ok(plan)
    }

    /// The safe rate per key: as given, or cap x (1 - headroom).
    pub fn safe_per_shard(&self) -> f64 {
        match self.safe {
            SafeRate::PerKey(s) => s,
            SafeRate::Headroom(h) => self.cap * (1.0 - h),
        }
    }

    /// The rule-of-thumb sizing and what it leaves at the peak.
    pub fn size(&self) -> Sizing {
        let safe = self.safe_per_shard();
        let shards = shards_for(self.peak, safe);
        let mean = self.peak / shards as f64;
        let headroom = match self.safe {
            SafeRate::Headroom(h) => h,
            SafeRate::PerKey(s) => (self.cap - s) / self.cap,
        };
        Sizing {
            peak: self.peak,
            cap: self.cap,
            safe_per_shard: safe,
            headroom,
            shards,
            mean_per_shard_at_peak: mean,
            headroom_left: (self.cap - mean) / self.cap,
        }
    }
}

/// How the reads of a sharded count are served.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ReadPlan {
    /// Views of the count per second.
    pub views: f64,
    /// Likes servers, each with its own cache of the sum.
    pub servers: u64,
    /// How long a server keeps a sum; 0 means no cache.
    pub cache_seconds: f64,
    /// Items one batch read fetches (DynamoDB BatchGetItem: 100).
    pub batch_size: u64,
    /// The store's read cap per key (DynamoDB: 3,000 reads/s per partition).
    pub read_cap: f64,
}

/// What reading the count costs, with and without the cache.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReadCost {
    /// Views of the count per second.
    pub views: f64,
    /// Likes servers, each with its own cache of the sum.
    pub servers: u64,
    /// How long a server keeps a sum; 0 means no cache.
    pub cache_seconds: f64,
    /// Items one batch read fetches.
    pub batch_size: u64,
    /// Shards a sum reads.
    pub shards: u64,
    /// Every view sums every shard: views x shards.
    pub reads_uncached_per_second: f64,
    /// Each server sums at most once per cache period (and no more often
    /// than views arrive): min(views, servers / cache) x shards.
    pub reads_cached_per_second: f64,
    /// Sums per second with the cache: min(views, servers / cache).
    pub sums_cached_per_second: f64,
    /// Batch reads per second without the cache: views x ceil(shards / batch).
    pub batch_requests_uncached_per_second: f64,
    /// Batch reads per second with the cache: sums x ceil(shards / batch).
    pub batch_requests_cached_per_second: f64,
    /// Reads each shard key takes per second without the cache (= views).
    pub reads_per_shard_uncached: f64,
    /// Reads each shard key takes per second with the cache (= sums).
    pub reads_per_shard_cached: f64,
    /// The store's read cap per key.
    pub read_cap: f64,
}

impl ReadPlan {
    /// Checks the inputs; errors name `--views`, `--servers`,
    /// `--cache-seconds`, `--batch-size` and `--read-cap`.
    pub fn new(
        views: f64,
        servers: u64,
        cache_seconds: f64,
        batch_size: u64,
        read_cap: f64,
    ) -> ParamResult<Self> {
        validate::rate("views", views)?;
        validate::count("servers", servers, 10_000_000)?;
        validate::non_negative("cache_seconds", cache_seconds)?;
        if cache_seconds > 86_400.0 {
            return Err(ParamError::other(
                "cache_seconds",
                format!("must be at most 86400 (one day) (got {cache_seconds})"),
            ));
        }
        validate::count("batch_size", batch_size, 1_000_000)?;
        validate::rate("read_cap", read_cap)?;
        Ok(ReadPlan {
            views,
            servers,
            cache_seconds,
            batch_size,
            read_cap,
        })
    }

    /// What reading the sum of `shards` shards costs, with and without the
    /// cache.
    pub fn cost(&self, shards: u64) -> ReadCost {
        let s = shards as f64;
        let sums_cached = if self.cache_seconds > 0.0 {
            self.views.min(self.servers as f64 / self.cache_seconds)
        } else {
            self.views
        };
        let batches_per_sum = shards.div_ceil(self.batch_size) as f64;
        ReadCost {
            views: self.views,
            servers: self.servers,
            cache_seconds: self.cache_seconds,
            batch_size: self.batch_size,
            shards,
            reads_uncached_per_second: self.views * s,
            reads_cached_per_second: sums_cached * s,
            sums_cached_per_second: sums_cached,
            batch_requests_uncached_per_second: self.views * batches_per_sum,
            batch_requests_cached_per_second: sums_cached * batches_per_sum,
            reads_per_shard_uncached: self.views,
            reads_per_shard_cached: sums_cached,
            read_cap: self.read_cap,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn size(peak: f64, safe: SafeRate) -> Sizing {
        SizingPlan::new(peak, 1000.0, safe).unwrap().size()
    }

    #[test]
    fn reference_sizings() {
        assert_eq!(size(14_000.0, SafeRate::PerKey(700.0)).shards, 20);
        let s = size(14_000.0, SafeRate::Headroom(0.3));
        assert_eq!(s.shards, 20);
        assert!((s.safe_per_shard - 700.0).abs() < 1e-9);
        assert_eq!(size(13_500.0, SafeRate::PerKey(700.0)).shards, 20);
        assert_eq!(size(14_001.0, SafeRate::PerKey(700.0)).shards, 21);
        assert_eq!(size(200_000.0, SafeRate::PerKey(700.0)).shards, 286);
        assert_eq!(size(5.0 / 60.0, SafeRate::PerKey(700.0)).shards, 1);
    }

    #[test]
    fn headroom_left_at_peak() {
        let s = size(14_000.0, SafeRate::PerKey(700.0));
        assert_eq!(s.mean_per_shard_at_peak, 700.0);
        assert!((s.headroom_left - 0.3).abs() < 1e-12);
    }

    #[test]
    fn bad_sizing_inputs_name_the_flag() {
        let e = SizingPlan::new(14_000.0, 1000.0, SafeRate::PerKey(1200.0)).unwrap_err();
        assert_eq!(e.param, "safe");
        let e = SizingPlan::new(14_000.0, 1000.0, SafeRate::Headroom(1.0)).unwrap_err();
        assert_eq!(e.param, "headroom");
        let e = SizingPlan::new(f64::NAN, 1000.0, SafeRate::Headroom(0.3)).unwrap_err();
        assert_eq!(e.param, "peak");
        let e = SizingPlan::new(1e9, 1000.0, SafeRate::PerKey(1.0)).unwrap_err();
        assert_eq!(e.param, "peak");
    }

    #[test]
    fn reference_read_cost() {
        let plan = ReadPlan::new(50_000.0, 40, 2.0, 100, 3000.0).unwrap();
        let c = plan.cost(20);
        assert_eq!(c.reads_uncached_per_second, 1_000_000.0);
        assert_eq!(c.reads_cached_per_second, 400.0);
        assert_eq!(c.batch_requests_uncached_per_second, 50_000.0);
        assert_eq!(c.batch_requests_cached_per_second, 20.0);
        assert_eq!(c.reads_per_shard_uncached, 50_000.0);
        // 286 shards need 3 batch reads of 100 per sum.
        assert_eq!(plan.cost(286).batch_requests_cached_per_second, 60.0);
        // No cache: every view sums.
        let nocache = ReadPlan::new(50_000.0, 40, 0.0, 100, 3000.0).unwrap();
        assert_eq!(nocache.cost(20).reads_cached_per_second, 1_000_000.0);
        // Fewer views than cache refreshes: the cache cannot refresh more often than views arrive.
        let quiet = ReadPlan::new(5.0, 40, 2.0, 100, 3000.0).unwrap();
        assert_eq!(quiet.cost(1).reads_cached_per_second, 5.0);
    }
}
