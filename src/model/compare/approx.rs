//! Uniqueness and approximate counters as `compare` rows (issue 11).
//!
//! "Likes" are one per user, so something must remember who liked: a set
//! per post (`SADD`/`SCARD`) or a like row per (user, reel). Approximate
//! structures (HyperLogLog, Count-Min) trade exactness for a fixed, small
//! memory. A hash (`HINCRBY`) keeps likes, shares and views in one key.
//! Every figure here is a closed-form estimate from the cited sources; the
//! over-cap risk of the hottest key comes from [`crate::model::exact::Risk`].

use rand::RngExt;
use serde::Serialize;

use super::verdict::{CountError, Fit, Verdict};
use super::CompareRow;
use crate::error::{InputError, InputResult};
use crate::model::exact::Risk;
use crate::model::rng::chunk_rng;
use crate::model::traffic::TrafficModel;
use crate::model::validate;
use crate::model::zipf::Zipf;

pub const SECONDS_PER_DAY: f64 = 86_400.0;

/// Redis HyperLogLog: 2^14 registers of 6 bits (hyperloglog.c, HLL_P = 14).
pub const REDIS_HLL_REGISTERS: u64 = 16_384;
pub const REDIS_HLL_BITS: u64 = 6;
/// Redis HLL header: "HYLL" magic 4 + encoding 1 + unused 3 + cached cardinality 8.
pub const REDIS_HLL_HEADER_BYTES: u64 = 16;
/// RedisBloom's Count-Min counters are 32-bit.
pub const COUNT_MIN_COUNTER_BYTES: u64 = 4;
/// Redis `set-max-intset-entries` default: integer sets up to this size are intsets.
pub const REDIS_INTSET_MAX_ENTRIES: u64 = 512;
/// Redis dict entry before 7.2: key, value and next pointers (dict.h).
pub const REDIS_DICT_ENTRY_BYTES: u64 = 24;
/// DynamoDB adds 100 bytes of index overhead to every item's stored size.
pub const DYNAMODB_ITEM_OVERHEAD_BYTES: u64 = 100;
/// A DynamoDB Query (also `Select=COUNT`) reads at most 1 MB per page.
pub const DYNAMODB_QUERY_PAGE_BYTES: u64 = 1 << 20;
/// Like row attribute names: "user_id" + "reel_id" + "liked_at".
pub const LIKE_ROW_NAME_BYTES: u64 = 7 + 7 + 8;
/// Like row: reel id and timestamp values, 8 bytes each.
pub const LIKE_ROW_OTHER_VALUE_BYTES: u64 = 8 + 8;
/// Auto partitions for like rows: the store splits until a partition runs
/// at most at this share of its cap (DynamoDB splits hot partitions; the
/// share is our assumption).
pub const LIKE_ROWS_PARTITION_LOAD: f64 = 0.5;

/// Everything the uniqueness / approximate rows need. Build with
/// [`ApproxInputs::new`] (defaults from the consts above), set fields, and
/// [`approx_rows`] validates before use. Error messages name the flags in
/// brackets below.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ApproxInputs {
    /// Likes/s on the hot post at the peak (`--rate`).
    pub rate: f64,
    /// Views of the count per second (`--views`).
    pub views: f64,
    /// Shard keys for the sharded rows (`--shards`).
    pub shards: u64,
    /// Writes/s one key may take (`--cap`).
    pub cap: f64,
    /// Duration the "any second over the cap" risk covers (`--duration`).
    pub seconds: f64,
    /// Likes a day over the fleet (`--likes-per-day`).
    pub likes_per_day: f64,
    /// Reels the fleet's likes spread over (`--reels`).
    pub reels: u64,
    /// Likes/s that raise a reel to `target_shards` (`--threshold`).
    pub threshold: f64,
    /// Shards of a raised reel (`--target-shards`).
    pub target_shards: u64,
    /// Bytes of one stored user id (`--user-id-bytes`).
    pub user_id_bytes: u64,
    /// Zipf exponent of reel popularity (`--zipf`).
    pub zipf_s: f64,
    /// Count-Min error share (`--epsilon`).
    pub epsilon: f64,
    /// Count-Min failure probability (`--delta`).
    pub delta: f64,
    /// Shares/s on the hot post (`--shares`); default rate x 0.1.
    pub shares: f64,
    /// Members of the hot post's set / like rows of the hot post
    /// (`--post-likes`); `None`: a day at the peak rate, at most the
    /// fleet's likes a day (an upper bound).
    pub post_likes: Option<f64>,
    /// Partitions of the like-row table (`--partitions`); `None`: enough
    /// for each to run at [`LIKE_ROWS_PARTITION_LOAD`] of the cap.
    pub partitions: Option<u64>,
    /// Servers caching the shown count (`--servers`).
    pub servers: u64,
    /// Seconds each caches it; 0 = no cache (`--cache-seconds`).
    pub cache_seconds: f64,
}

impl ApproxInputs {
    /// The five figures every compare row shares; the rest take defaults.
    pub fn new(rate: f64, views: f64, shards: u64, cap: f64, seconds: f64) -> InputResult<Self> {
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
        };
        inputs.validate()?;
        Ok(inputs)
    }

    /// Checks every field; errors name the flag.
    pub fn validate(&self) -> InputResult<()> {
        validate::rate("--rate", self.rate)?;
        validate::rate("--views", self.views)?;
        validate::count("--shards", self.shards, crate::model::defaults::MAX_SHARDS)?;
        validate::positive("--cap", self.cap)?;
        if !self.seconds.is_finite() || self.seconds < 1.0 {
            return Err(InputError::new(
                "--duration",
                format!("must be at least 1 second (got {} s)", self.seconds),
            ));
        }
        validate::positive("--likes-per-day", self.likes_per_day)?;
        validate::count(
            "--reels",
            self.reels,
            crate::model::defaults::MAX_COMPARE_REELS,
        )?;
        validate::positive("--threshold", self.threshold)?;
        validate::count(
            "--target-shards",
            self.target_shards,
            crate::model::defaults::MAX_SHARDS,
        )?;
        validate::count("--user-id-bytes", self.user_id_bytes, 200)?;
        if !self.zipf_s.is_finite() || self.zipf_s < 0.0 || self.zipf_s > 10.0 {
            return Err(InputError::new(
                "--zipf",
                format!("must be a number from 0 to 10 (got {})", self.zipf_s),
            ));
        }
        validate::probability_open("--epsilon", self.epsilon)?;
        validate::probability_open("--delta", self.delta)?;
        validate::non_negative("--shares", self.shares)?;
        if self.shares > crate::model::defaults::MAX_RATE {
            return Err(InputError::new(
                "--shares",
                format!(
                    "must be at most {:e} shares/s (got {})",
                    crate::model::defaults::MAX_RATE,
                    self.shares
                ),
            ));
        }
        if let Some(p) = self.post_likes {
            validate::positive("--post-likes", p)?;
            if p > 1e15 {
                return Err(InputError::new(
                    "--post-likes",
                    format!("must be at most 1e15 (got {p})"),
                ));
            }
        }
        if let Some(p) = self.partitions {
            validate::count("--partitions", p, 10_000_000)?;
        }
        validate::count("--servers", self.servers, 10_000_000)?;
        validate::non_negative("--cache-seconds", self.cache_seconds)?;
        if self.cache_seconds > SECONDS_PER_DAY {
            return Err(InputError::new(
                "--cache-seconds",
                format!(
                    "must be at most 86400 (one day) (got {})",
                    self.cache_seconds
                ),
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
    /// [`crate::model::sizing::ReadPlan::cost`].
    pub fn sums_per_second(&self) -> f64 {
        if self.cache_seconds > 0.0 {
            self.views.min(self.servers as f64 / self.cache_seconds)
        } else {
            self.views
        }
    }
}

// ---------------------------------------------------------------- HLL

/// HyperLogLog relative standard error with `m` registers: 1.04 / sqrt(m)
/// (Flajolet, Fusy, Gandouet, Meunier 2007, "HyperLogLog: the analysis of a
/// near-optimal cardinality estimation algorithm", Theorem 1: beta_m / sqrt(m),
/// beta_m -> 1.03896).
pub fn hll_standard_error(registers: u64) -> f64 {
    1.04 / (registers as f64).sqrt()
}

/// Bytes of a dense Redis HLL: header + 16,384 x 6 bits = 16 + 12,288
/// (hyperloglog.c: HLL_DENSE_SIZE = HLL_HDR_SIZE + (HLL_REGISTERS*HLL_BITS+7)/8).
/// Small HLLs start sparse and are smaller; a hot post's is dense.
pub fn redis_hll_dense_bytes() -> u64 {
    REDIS_HLL_HEADER_BYTES + (REDIS_HLL_REGISTERS * REDIS_HLL_BITS).div_ceil(8)
}

// ----------------------------------------------------------- Count-Min

/// Count-Min dimensions for error share `epsilon` with probability
/// `1 - delta`: width w = ceil(e / epsilon), depth d = ceil(ln(1 / delta))
/// (Cormode & Muthukrishnan 2005, "An improved data stream summary: the
/// count-min sketch and its applications", Theorem 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct CountMinSize {
    pub width: u64,
    pub depth: u64,
}

impl CountMinSize {
    pub fn new(epsilon: f64, delta: f64) -> InputResult<Self> {
        validate::probability_open("--epsilon", epsilon)?;
        validate::probability_open("--delta", delta)?;
        Ok(CountMinSize {
            width: (std::f64::consts::E / epsilon).ceil() as u64,
            depth: (1.0 / delta).ln().ceil() as u64,
        })
    }

    /// Sketch bytes: w x d counters (RedisBloom: 4 bytes each).
    pub fn bytes(&self) -> u64 {
        self.width * self.depth * COUNT_MIN_COUNTER_BYTES
    }

    /// Bound on P(estimate - truth >= gap) for one item, N the sketch's
    /// total count. One row's overcount X is the sum of the other items in
    /// its cell, E[X] <= N / w, so Markov gives P(X >= gap) <= N / (w gap);
    /// the d rows use independent hashes, and the estimate is their minimum,
    /// so P(min >= gap) <= (N / (w gap))^d (the proof of C&M 2005 Thm 1, with
    /// gap = epsilon N this is e^-d <= delta). Capped at 1.
    pub fn p_overcount_at_least(&self, total: f64, gap: f64) -> f64 {
        if gap <= 0.0 {
            return 1.0;
        }
        let per_row = total / (self.width as f64 * gap);
        per_row.min(1.0).powi(self.depth as i32)
    }
}

/// What Count-Min costs as the hot-reel detector.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HotDetection {
    pub width: u64,
    pub depth: u64,
    pub sketch_bytes: u64,
    /// Likes/s the sketch counts: the hot reel's peak + the fleet's mean.
    pub window_rate: f64,
    /// epsilon x N: the overcount bound, likes/s (holds with P >= 1 - delta).
    pub error_bound: f64,
    /// Fleet reels truly at or above the threshold.
    pub reels_truly_above: u64,
    /// Expected fleet reels below the threshold reported above it (upper bound).
    pub expected_false_raises: f64,
    /// Extra shard items they cost: false raises x (target_shards - 1).
    pub extra_items: f64,
}

/// Count-Min as the hot-reel detector: the fleet's reels follow Zipf(s)
/// with the fleet's mean rate; the hot reel adds its peak to the sketch's
/// total N. A reel at true rate r < threshold T is falsely raised when its
/// overcount reaches T - r; summing the per-reel bound
/// [`CountMinSize::p_overcount_at_least`] gives the expected number (an upper
/// bound: Markov per row, independent rows). Count-Min never undercounts,
/// so there are no missed hot reels. Rates and counts scale together, so the
/// window length cancels out of N / (w (T - r)).
pub fn count_min_detection(inputs: &ApproxInputs) -> InputResult<HotDetection> {
    inputs.validate()?;
    let size = CountMinSize::new(inputs.epsilon, inputs.delta)?;
    let fleet = inputs.fleet_rate();
    let total = inputs.rate + fleet;
    let zipf = Zipf::new(inputs.reels, inputs.zipf_s);
    let mut above = 0u64;
    let mut false_raises = 0.0;
    for k in 1..=inputs.reels {
        let r = zipf.rate(k, fleet);
        if r >= inputs.threshold {
            above += 1;
        } else {
            false_raises += size.p_overcount_at_least(total, inputs.threshold - r);
        }
    }
    Ok(HotDetection {
        width: size.width,
        depth: size.depth,
        sketch_bytes: size.bytes(),
        window_rate: total,
        error_bound: inputs.epsilon * total,
        reels_truly_above: above,
        expected_false_raises: false_raises,
        extra_items: false_raises * (inputs.target_shards - 1) as f64,
    })
}

/// The false raises of real sketches: builds `trials` Count-Min sketches
/// (fully random column per reel and row, one stream per trial:
/// [`chunk_rng`]`(seed, trial)`),
/// adds the hot reel's peak and every fleet reel's Zipf rate, and counts
/// the reels below the threshold whose estimate (the minimum over rows)
/// reaches it. Returns the mean over trials. This checks how loose the
/// Markov bound of [`count_min_detection`] is: with one viral reel a cold
/// reel is raised only if it shares the viral reel's cell in all d rows.
pub fn simulate_count_min_false_raises(
    inputs: &ApproxInputs,
    trials: u64,
    seed: u64,
) -> InputResult<f64> {
    use rayon::prelude::*;
    inputs.validate()?;
    validate::count("--trials", trials, 10_000)?;
    let size = CountMinSize::new(inputs.epsilon, inputs.delta)?;
    let (w, d) = (size.width as usize, size.depth as usize);
    // Reel 0 is the viral reel; 1.. the fleet by rank.
    let mut rates = vec![inputs.rate];
    rates.extend(Zipf::new(inputs.reels, inputs.zipf_s).rates(inputs.fleet_rate()));
    let raised: u64 = (0..trials)
        .into_par_iter()
        .map(|t| {
            let stream = chunk_rng(seed, t);
            let mut cells = vec![0.0f64; w * d];
            let mut rng = stream.clone();
            for &r in &rates {
                for row in 0..d {
                    cells[row * w + rng.random_range(0..w)] += r;
                }
            }
            // Replay the same stream: each reel reads the cells it was added to.
            let mut rng = stream;
            let mut raised = 0u64;
            for (i, &r) in rates.iter().enumerate() {
                let mut estimate = f64::INFINITY;
                for row in 0..d {
                    estimate = estimate.min(cells[row * w + rng.random_range(0..w)]);
                }
                if i > 0 && r < inputs.threshold && estimate >= inputs.threshold {
                    raised += 1;
                }
            }
            raised
        })
        .sum();
    Ok(raised as f64 / trials as f64)
}

// ------------------------------------------------------------- Sets

/// jemalloc's size class for a small allocation, as Redis builds it
/// (`--with-lg-quantum=3`): multiples of 8 up to 64, then four classes per
/// doubling (80, 96, 112, 128, 160, ...).
pub fn jemalloc_size_class(bytes: u64) -> u64 {
    if bytes <= 64 {
        return bytes.max(1).div_ceil(8) * 8;
    }
    let group = 1u64 << (63 - (bytes - 1).leading_zeros());
    let spacing = group / 4;
    bytes.div_ceil(spacing) * spacing
}

/// Estimated bytes of a Redis set of `members` user ids, `id_bytes` each.
/// Up to 512 integer members it is an intset: 8 header bytes + one 2/4/8
/// byte integer per member (intset.h). Beyond, a hashtable; per member, in
/// the Redis <= 7.0 layout: a 24-byte dictEntry + the sds string (3-byte
/// sdshdr8 + id + NUL, rounded to jemalloc's class) + an 8-byte bucket
/// pointer per table slot (the table is the next power of two >= members).
/// An ESTIMATE: it leaves out the key and robj (~100 bytes per key). Redis
/// 7.2 stores a lone member straight in its bucket (redis/redis#11595:
/// 1M members took 46.29 MB before, 28.83 MB after), so newer Redis needs
/// about 24 bytes less per member.
pub fn redis_set_bytes(members: f64, id_bytes: u64) -> f64 {
    let members = members.max(0.0).ceil();
    if members <= REDIS_INTSET_MAX_ENTRIES as f64 {
        let width = match id_bytes {
            0..=2 => 2,
            3..=4 => 4,
            _ => 8,
        };
        return 8.0 + members * width as f64;
    }
    let sds = jemalloc_size_class(3 + id_bytes + 1) as f64;
    let slots = 2f64.powf(members.log2().ceil());
    members * (REDIS_DICT_ENTRY_BYTES as f64 + sds) + 8.0 * slots
}

/// How a like picks its shard set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ShardChoice {
    /// A uniformly random shard per write (fine for a plain counter).
    Random,
    /// shard = hash(user id) mod S: a user always lands in the same set.
    UserHash,
}

/// The shard of a user under [`ShardChoice::UserHash`]: SplitMix64's
/// finaliser (Steele, Lea, Flood 2014) mod S. Any fixed, well-mixed hash
/// works; what matters is that it is a function of the user alone.
pub fn user_shard(user: u64, shards: u64) -> u64 {
    crate::model::rng::mix64(user) % shards
}

/// Result of the sharded-set demonstration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct SetShardCount {
    /// Distinct users who liked: the true count.
    pub users: u64,
    /// Sum of the shard sets' SCARDs: what the sharded set shows.
    pub scard_sum: u64,
}

/// Simulates `users` distinct users liking once, a share `repeat` of them
/// sending the SADD a second time (a retry after a timeout, or like, unlike
/// and like again), onto `shards` sets chosen by `choice`. With a random
/// shard the repeat lands in another set with probability (S - 1) / S and
/// the user is counted twice; with the user hash it lands in the same set
/// and SADD ignores it, so the sum of SCARDs is exact.
pub fn simulate_set_shards(
    users: u64,
    repeat: f64,
    shards: u64,
    choice: ShardChoice,
    seed: u64,
) -> InputResult<SetShardCount> {
    validate::count("--users", users, 100_000_000)?;
    if !(0.0..=1.0).contains(&repeat) {
        return Err(InputError::new(
            "--repeat",
            format!("must be a share from 0 to 1 (got {repeat})"),
        ));
    }
    validate::count("--shards", shards, crate::model::defaults::MAX_SHARDS)?;
    let mut rng = chunk_rng(seed, 0);
    let mut sets = vec![std::collections::HashSet::new(); shards as usize];
    for user in 0..users {
        let sends = if rng.random::<f64>() < repeat { 2 } else { 1 };
        for _ in 0..sends {
            let shard = match choice {
                ShardChoice::Random => rng.random_range(0..shards),
                ShardChoice::UserHash => user_shard(user, shards),
            };
            sets[shard as usize].insert(user);
        }
    }
    Ok(SetShardCount {
        users,
        scard_sum: sets.iter().map(|s| s.len() as u64).sum(),
    })
}

/// Expected overcount of the random-shard sum: users x repeat x (S-1)/S.
pub fn expected_random_double_count(users: f64, repeat: f64, shards: u64) -> f64 {
    users * repeat * (shards as f64 - 1.0) / shards as f64
}

// --------------------------------------------------------- Like rows

/// Stored bytes of one like row (user_id, reel_id, liked_at), DynamoDB
/// sizing: attribute names + values + 100 bytes of per-item overhead
/// (DynamoDB developer guide, "Item sizes and formats"). An estimate.
pub fn like_row_bytes(user_id_bytes: u64) -> u64 {
    LIKE_ROW_NAME_BYTES + user_id_bytes + LIKE_ROW_OTHER_VALUE_BYTES + DYNAMODB_ITEM_OVERHEAD_BYTES
}

/// The like-row table's daily growth.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LikeRows {
    pub row_bytes: u64,
    pub rows_per_day: f64,
    pub bytes_per_day: f64,
    pub partitions: u64,
    /// Hot post's likes spread over the partitions by user id: rate / partitions.
    pub writes_per_partition: f64,
    /// Pages a `Select=COUNT` query over a reel_id index reads for the hot post.
    pub count_pages: f64,
}

pub fn like_rows(inputs: &ApproxInputs) -> LikeRows {
    let row_bytes = like_row_bytes(inputs.user_id_bytes);
    let partitions = inputs.partitions();
    LikeRows {
        row_bytes,
        rows_per_day: inputs.likes_per_day,
        bytes_per_day: inputs.likes_per_day * row_bytes as f64,
        partitions,
        writes_per_partition: inputs.rate / partitions as f64,
        count_pages: (inputs.post_likes() * row_bytes as f64 / DYNAMODB_QUERY_PAGE_BYTES as f64)
            .ceil(),
    }
}

// -------------------------------------------------------------- Rows

/// Risk of the busiest of `keys` keys sharing `rate` writes/s (fixed
/// traffic, rate rounded up to a whole number). `None` past the exact
/// model's range (over 1e9 writes/s or 100,000 keys, e.g. auto partitions
/// of a huge rate on a small cap). Several rows share a (rate, keys) pair, so results are
/// kept: one distribution at 200K likes/s over 286 shards takes ~0.1 s.
struct RiskCache<'a> {
    inputs: &'a ApproxInputs,
    /// ((rate bits, keys), (P over cap per second, P any second over)).
    seen: Vec<((u64, u64), KeyRisk)>,
}

/// P(over the cap) per second and in any second of the duration.
type KeyRisk = (Option<f64>, Option<f64>);

impl<'a> RiskCache<'a> {
    fn new(inputs: &'a ApproxInputs) -> Self {
        RiskCache {
            inputs,
            seen: Vec::new(),
        }
    }

    fn risk(&mut self, rate: f64, keys: u64) -> anyhow::Result<KeyRisk> {
        let whole = rate.ceil();
        let key = (whole.to_bits(), keys);
        if let Some((_, r)) = self.seen.iter().find(|(k, _)| *k == key) {
            return Ok(*r);
        }
        let r = if whole > crate::model::defaults::MAX_RATE
            || keys > crate::model::defaults::MAX_SHARDS
        {
            (None, None)
        } else {
            let i = self.inputs;
            let risk = Risk::compute(whole, keys, i.cap, i.seconds, TrafficModel::Fixed)?;
            (Some(risk.p_over_cap_per_second), Some(risk.p_any_over_cap))
        };
        self.seen.push((key, r));
        Ok(r)
    }
}

/// The rows for `compare`: set, set-sharded, like-rows, hll, hll-sharded,
/// count-min, hash, hash-sharded. Validates the inputs first.
pub fn approx_rows(inputs: &ApproxInputs) -> anyhow::Result<Vec<CompareRow>> {
    inputs.validate()?;
    let s = inputs.shards;
    let sums = inputs.sums_per_second();
    let lag = inputs.cache_seconds;
    let post_likes = inputs.post_likes();
    let cap = inputs.cap;
    let mut risks = RiskCache::new(inputs);
    let mut rows = Vec::new();

    // One set per post: SADD per like (one hot key), SCARD per view.
    let set_bytes = redis_set_bytes(post_likes, inputs.user_id_bytes);
    let (p1, pany) = risks.risk(inputs.rate, 1)?;
    rows.push(CompareRow {
        strategy: "set".into(),
        exact: true,
        error: None,
        writes_per_key_per_second: inputs.rate,
        p_over_cap_per_second: p1,
        p_any_over_cap: pany,
        reads_per_second: sums,
        reads_per_view: 1.0,
        freshness_lag_seconds: lag,
        crash_loss_likes: 0.0,
        double_count_likes: 0.0,
        memory_bytes: Some(set_bytes),
        verdict: Verdict::Set {
            fit: Fit::of(inputs.rate, cap, p1),
            bytes_per_member: set_bytes / post_likes,
        },
    });

    // S sets, shard = hash(user) mod S: each user in exactly one set.
    let sharded_set_bytes = set_bytes_sharded(post_likes, inputs.user_id_bytes, s);
    let (p1, pany) = risks.risk(inputs.rate, s)?;
    rows.push(CompareRow {
        strategy: "set-sharded".into(),
        exact: true,
        error: None,
        writes_per_key_per_second: inputs.rate / s as f64,
        p_over_cap_per_second: p1,
        p_any_over_cap: pany,
        reads_per_second: sums * s as f64,
        reads_per_view: s as f64,
        freshness_lag_seconds: lag,
        crash_loss_likes: 0.0,
        double_count_likes: 0.0,
        memory_bytes: Some(sharded_set_bytes),
        verdict: Verdict::SetSharded,
    });

    // Like rows keyed by user id: writes spread over partitions.
    let lr = like_rows(inputs);
    let (p1, pany) = risks.risk(inputs.rate, lr.partitions)?;
    rows.push(CompareRow {
        strategy: "like-rows".into(),
        exact: true,
        error: None,
        writes_per_key_per_second: lr.writes_per_partition,
        p_over_cap_per_second: p1,
        p_any_over_cap: pany,
        reads_per_second: sums * lr.count_pages,
        reads_per_view: lr.count_pages,
        freshness_lag_seconds: lag,
        crash_loss_likes: 0.0,
        double_count_likes: 0.0,
        memory_bytes: Some(post_likes * lr.row_bytes as f64),
        verdict: Verdict::LikeRows {
            bytes_per_day: lr.bytes_per_day,
        },
    });

    // One HLL per post: PFADD per like, PFCOUNT per view.
    let hll_se = hll_standard_error(REDIS_HLL_REGISTERS);
    let hll_bytes = redis_hll_dense_bytes() as f64;
    let (p1, pany) = risks.risk(inputs.rate, 1)?;
    rows.push(CompareRow {
        strategy: "hll".into(),
        exact: false,
        error: Some(CountError::StandardError { share: hll_se }),
        writes_per_key_per_second: inputs.rate,
        p_over_cap_per_second: p1,
        p_any_over_cap: pany,
        reads_per_second: sums,
        reads_per_view: 1.0,
        freshness_lag_seconds: lag,
        crash_loss_likes: 0.0,
        double_count_likes: 0.0,
        memory_bytes: Some(hll_bytes),
        verdict: Verdict::Hll,
    });

    // S HLLs; any shard works (the union dedups), but reading merges S keys.
    let (p1, pany) = risks.risk(inputs.rate, s)?;
    rows.push(CompareRow {
        strategy: "hll-sharded".into(),
        exact: false,
        error: Some(CountError::StandardError { share: hll_se }),
        writes_per_key_per_second: inputs.rate / s as f64,
        p_over_cap_per_second: p1,
        p_any_over_cap: pany,
        reads_per_second: sums * s as f64,
        reads_per_view: s as f64,
        freshness_lag_seconds: lag,
        crash_loss_likes: 0.0,
        double_count_likes: 0.0,
        memory_bytes: Some(hll_bytes * s as f64),
        verdict: Verdict::HllSharded,
    });

    // Count-Min over the fleet: the hot-reel detector.
    let cm = count_min_detection(inputs)?;
    let (p1, pany) = risks.risk(cm.window_rate, 1)?;
    rows.push(CompareRow {
        strategy: "count-min".into(),
        exact: false,
        error: Some(CountError::Overcount {
            likes_per_second: cm.error_bound,
            confidence: 1.0 - inputs.delta,
        }),
        writes_per_key_per_second: cm.window_rate,
        p_over_cap_per_second: p1,
        p_any_over_cap: pany,
        reads_per_second: sums,
        reads_per_view: 1.0,
        freshness_lag_seconds: lag,
        crash_loss_likes: 0.0,
        double_count_likes: 1.0,
        memory_bytes: Some(cm.sketch_bytes as f64),
        verdict: Verdict::CountMin {
            width: cm.width,
            depth: cm.depth,
            sketch_bytes: cm.sketch_bytes,
            false_raises: cm.expected_false_raises,
            extra_items: cm.extra_items,
        },
    });

    // One hash per post: likes, shares and views fields.
    let hash_rate = inputs.rate + inputs.shares + inputs.views;
    let (p1, pany) = risks.risk(hash_rate, 1)?;
    rows.push(CompareRow {
        strategy: "hash".into(),
        exact: true,
        error: None,
        writes_per_key_per_second: hash_rate,
        p_over_cap_per_second: p1,
        p_any_over_cap: pany,
        reads_per_second: sums,
        reads_per_view: 1.0,
        freshness_lag_seconds: lag,
        crash_loss_likes: 0.0,
        double_count_likes: 1.0,
        memory_bytes: None,
        verdict: Verdict::Hash,
    });

    let (p1, pany) = risks.risk(hash_rate, s)?;
    rows.push(CompareRow {
        strategy: "hash-sharded".into(),
        exact: true,
        error: None,
        writes_per_key_per_second: hash_rate / s as f64,
        p_over_cap_per_second: p1,
        p_any_over_cap: pany,
        reads_per_second: sums * s as f64,
        reads_per_view: s as f64,
        freshness_lag_seconds: lag,
        crash_loss_likes: 0.0,
        double_count_likes: 1.0,
        memory_bytes: None,
        verdict: Verdict::HashSharded {
            fit: Fit::of(hash_rate / s as f64, cap, p1),
            hashes_for_mean: (hash_rate / cap).ceil(),
        },
    });

    Ok(rows)
}

/// S sets holding `members` in total, split evenly (each a set of its own).
pub fn set_bytes_sharded(members: f64, id_bytes: u64, shards: u64) -> f64 {
    shards as f64 * redis_set_bytes(members / shards as f64, id_bytes)
}

#[cfg(test)]
mod tests;
