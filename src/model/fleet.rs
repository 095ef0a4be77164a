//! The whole table of reels, not one hot key: how many reels the monitor
//! raises, what sharding adds in items and reads, and whether the store's
//! partitions hold when every shard key of every reel is hashed onto them.
//!
//! Popularity is Zipf (rank i gets R i^-s / H(n, s), H the generalized
//! harmonic number, from [`crate::model::zipf`]) or a list of per-reel
//! rates. Nothing is materialised per reel for Zipf: counts and sums over
//! rank ranges are closed forms (Euler–Maclaurin for H), so 100,000,000
//! reels cost what 1,000,000 do.
//!
//! Partition model (see docs/fleet.md): each shard key hashes to a uniformly
//! random partition. The few big keys (pinned reels, raised reels, the top
//! ranks) are placed explicitly by a seeded RNG; the millions of tiny tail
//! keys add to each partition a load that is, by the central limit theorem,
//! close to Normal(tail / P, sum r^2 (1/P)(1 - 1/P)) (multinomial placement).
//! Given a placement, likes arrive as Poisson, so partition p takes
//! Poisson(lambda_p) writes a second and
//! P(some partition over the cap) = 1 - prod_p (1 - P(Poisson(lambda_p) > cap)),
//! exact per placement; placements are averaged by Monte Carlo with a CI.

use rand::RngExt;
use rand_distr::StandardNormal;
use rayon::prelude::*;
use serde::Serialize;
use statrs::distribution::{DiscreteCDF, Poisson};

use crate::error::{InputError, InputResult};
use crate::model::rng::chunk_rng;
use crate::model::sizing::{shards_for, ReadPlan};
use crate::model::stats::{p_any, Z95};
use crate::model::validate;
use crate::model::zipf::Zipf;

/// Top ranks always placed key by key (the rest is the aggregated tail),
/// and the most ranks ever placed key by key.
const MIN_EXPLICIT_RANKS: u64 = 1_000;
const MAX_EXPLICIT_RANKS: u64 = 100_000;
/// Most keys placed one by one (memory and time per placement).
const MAX_EXPLICIT_KEYS: u64 = 2_000_000;
/// Placements per RNG stream ([`chunk_rng`] of the seed and the chunk
/// index): fixed, so results do not depend on threads.
const CHUNK: u64 = 16;
/// A partition whose Chernoff bound on P(over the cap) is below this is
/// counted as 0: P partitions then add at most P x 1e-30 to the chance.
const LN_NEGLIGIBLE: f64 = -69.0;

/// Where the background reels' rates come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PopularityLaw {
    /// Zipf over the ranks.
    Zipf,
    /// A list of per-reel rates (a CSV).
    Rates,
}

/// The background reels, ranked from the most liked.
#[derive(Debug, Clone)]
pub struct Background {
    reels: u64,
    total_rate: f64,
    kind: Kind,
}

#[derive(Debug, Clone)]
enum Kind {
    Zipf(Zipf),
    /// Sorted descending.
    Rates(Vec<f64>),
}

impl Background {
    /// `reels` Zipf reels sharing `total_rate` likes/s.
    pub fn zipf(reels: u64, total_rate: f64, exponent: f64) -> InputResult<Self> {
        let reels = validate::count("--reels", reels, crate::model::defaults::MAX_REELS)?;
        let total_rate = validate::rate("--likes-per-day", total_rate)?;
        if !exponent.is_finite() || !(0.0..=10.0).contains(&exponent) {
            return Err(InputError::new(
                "--zipf",
                format!("must be a number from 0 to 10 (got {exponent})"),
            ));
        }
        Ok(Background {
            reels,
            total_rate,
            kind: Kind::Zipf(Zipf::new(reels, exponent)),
        })
    }

    /// Reels with the given rates (any order); errors name the parameter `rates`.
    pub fn rates(mut rates: Vec<f64>) -> InputResult<Self> {
        let what = "rates";
        if rates.is_empty() {
            return Err(InputError::new(what, "has no reels (one rate per line)"));
        }
        validate::count(what, rates.len() as u64, crate::model::defaults::MAX_REELS)?;
        if let Some(bad) = rates.iter().find(|r| !r.is_finite() || **r < 0.0) {
            return Err(InputError::new(
                what,
                format!("rates must be finite numbers >= 0 (got {bad})"),
            ));
        }
        rates.sort_unstable_by(|a, b| b.total_cmp(a));
        let total_rate: f64 = rates.iter().rev().sum();
        validate::rate(what, total_rate)?;
        Ok(Background {
            reels: rates.len() as u64,
            total_rate,
            kind: Kind::Rates(rates),
        })
    }

    pub fn zipf_exponent(&self) -> Option<f64> {
        match self.kind {
            Kind::Zipf(z) => Some(z.exponent()),
            Kind::Rates(_) => None,
        }
    }

    /// The like rate of rank `i` (1-based).
    pub fn rate(&self, i: u64) -> f64 {
        match &self.kind {
            Kind::Zipf(z) => z.rate(i, self.total_rate),
            Kind::Rates(r) => r.get((i - 1) as usize).copied().unwrap_or(0.0),
        }
    }

    /// Reels with rate >= `threshold`: the first k ranks. Zipf:
    /// k = floor((R / (H threshold))^(1/s)), nudged by one where rounding
    /// put it on the wrong side.
    pub fn count_at_least(&self, threshold: f64) -> u64 {
        match &self.kind {
            Kind::Zipf(z) => z.count_at_least(self.total_rate, threshold),
            Kind::Rates(r) => r.partition_point(|&x| x >= threshold) as u64,
        }
    }

    /// sum of rate_i^power over ranks a..=b (power 1 or 2).
    pub fn sum_pow(&self, a: u64, b: u64, power: i32) -> f64 {
        let b = b.min(self.reels);
        if b < a {
            return 0.0;
        }
        match &self.kind {
            Kind::Zipf(z) => z.sum_rate_pow(a, b, self.total_rate, power),
            Kind::Rates(r) => r[(a - 1) as usize..b as usize]
                .iter()
                .map(|x| x.powi(power))
                .sum(),
        }
    }

    /// sum of min(scale x rate_i, limit) over ranks a..=b: the ranks whose
    /// scaled rate is at least the limit are the first j = count_at_least
    /// (limit / scale), each giving `limit`; the rest is scale x the rate sum.
    pub fn sum_min(&self, a: u64, b: u64, scale: f64, limit: f64) -> f64 {
        let b = b.min(self.reels);
        if b < a {
            return 0.0;
        }
        if !limit.is_finite() {
            return scale * self.sum_pow(a, b, 1);
        }
        let j = self.count_at_least(limit / scale);
        let capped = j.min(b).saturating_sub(a - 1);
        capped as f64 * limit + scale * self.sum_pow(a.max(j + 1), b, 1)
    }
}

/// The `[fleet]` section of a scenario; every field optional, flags win.
#[derive(Debug, Clone, Default, PartialEq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FleetConfig {
    /// Background reels (Zipf ranks).
    pub reels: Option<u64>,
    /// Background likes a day over all reels.
    pub likes_per_day: Option<f64>,
    /// Peak-hour rate / the day's mean rate.
    pub peak_factor: Option<f64>,
    /// Zipf exponent s.
    pub zipf_exponent: Option<f64>,
    /// A CSV of per-reel peak rates (reel_id,rate) instead of Zipf.
    pub rates_csv: Option<String>,
    pub views_per_like: Option<f64>,
    pub threshold: Option<f64>,
    pub target_shards: Option<u64>,
    pub partitions: Option<u64>,
    pub cap: Option<f64>,
    pub servers: Option<u64>,
    pub cache_seconds: Option<f64>,
    /// Seconds the risk covers.
    pub duration: Option<u64>,
    pub risk: Option<f64>,
    pub max_shards: Option<u64>,
    pub trials: Option<u64>,
    pub search_trials: Option<u64>,
    pub seed: Option<u64>,
    /// Named reels at a given rate on top of the background.
    #[serde(default)]
    pub hot_reels: Vec<PinnedConfig>,
}

/// One `[[fleet.hot_reels]]` entry.
#[derive(Debug, Clone, PartialEq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PinnedConfig {
    pub name: String,
    pub rate: f64,
    pub shards: Option<u64>,
}

/// A reel pinned at a given rate on top of the background.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PinnedReel {
    pub name: String,
    /// Likes/s at the peak.
    pub rate: f64,
    /// Shard keys it needs at least when raised (None: ceil(rate / safe));
    /// it gets the larger of this and the target.
    pub shards: Option<u64>,
}

/// Everything `fleet` needs, validated.
#[derive(Debug, Clone)]
pub struct FleetPlan {
    pub background: Background,
    pub pinned: Vec<PinnedReel>,
    pub views_per_like: f64,
    /// The monitor raises a reel whose rate is at least this (likes/s).
    pub threshold: f64,
    /// Shards a raised reel gets.
    pub target_shards: u64,
    pub partitions: u64,
    /// Writes/s one partition accepts.
    pub cap: f64,
    /// Safe writes/s per shard key: sizes pinned reels without `shards`.
    pub safe: f64,
    /// Reads: views per reel are set per reel; servers and cache from here.
    pub reads: ReadPlan,
    /// Seconds the risk covers (the peak hour by default).
    pub seconds: u64,
    /// Accepted P(some partition over the cap during `seconds`).
    pub risk: f64,
    pub trials: u64,
    pub search_trials: u64,
    pub max_shards: u64,
    pub seed: u64,
}

/// Which reels get shard keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Policy {
    /// Every reel one counter item.
    OneCounterPerReel,
    /// Every reel the target shard count.
    EveryReelSharded,
    /// Only reels at or above the threshold sharded (the monitor's policy).
    HotReelsOnly,
}

/// Items and shard reads of one policy.
#[derive(Debug, Clone, Serialize)]
pub struct PolicyCost {
    /// one_counter_per_reel, every_reel_sharded or hot_reels_only.
    pub policy: Policy,
    /// Counter items stored (shard keys over all reels).
    pub items: u64,
    /// items / reels.
    pub items_per_reel: f64,
    /// Every view sums every shard of its reel.
    pub shard_reads_per_second_uncached: f64,
    /// Each server sums a reel at most once per cache period.
    pub shard_reads_per_second_cached: f64,
}

/// The partitions under the whole fleet's writes.
#[derive(Debug, Clone, Serialize)]
pub struct PartitionLoad {
    pub partitions: u64,
    pub cap: f64,
    pub threshold: f64,
    pub target_shards: u64,
    /// Shard keys over all reels.
    pub shard_keys: u64,
    /// Keys placed one by one (pinned, raised and top reels).
    pub explicit_keys: u64,
    /// Keys aggregated into the Normal tail load.
    pub tail_keys: u64,
    /// Tail load per partition: mean and standard deviation, writes/s.
    pub tail_partition_mean: f64,
    pub tail_partition_sd: f64,
    /// All likes/s / P.
    pub mean_partition_rate: f64,
    /// E[the hottest partition's mean writes/s] over placements.
    pub hottest_partition_rate: f64,
    pub hottest_partition_rate_se: f64,
    /// hottest_partition_rate / mean_partition_rate.
    pub hottest_to_mean: f64,
    /// P(some partition gets more than the cap in a second).
    pub p_over_cap_per_second: f64,
    pub p_over_cap_se: f64,
    pub p_over_cap_ci95: [f64; 2],
    /// P(some second over the cap during `seconds`): 1 - (1 - p)^seconds.
    pub seconds: u64,
    pub p_any_over_cap: f64,
    pub trials: u64,
    pub seed: u64,
}

/// The smallest target shard count (and, for it, the largest threshold)
/// that keeps P(any second over the cap during `seconds`) within the risk.
#[derive(Debug, Clone, Serialize)]
pub struct SearchResult {
    pub risk: f64,
    pub seconds: u64,
    pub thresholds: Vec<f64>,
    pub max_shards: u64,
    pub trials: u64,
    pub found: bool,
    pub shards: Option<u64>,
    pub threshold: Option<f64>,
    pub hot_reels: Option<u64>,
    /// Upper 95% bound of P(any second over the cap) at the answer.
    pub p_any_over_cap_upper: Option<f64>,
    /// Per threshold tried: the smallest shard count that met the risk.
    pub per_threshold: Vec<(f64, Option<u64>)>,
}

/// What `shardplan fleet` prints.
#[derive(Debug, Clone, Serialize)]
pub struct FleetReport {
    /// All reels: background + pinned.
    pub reels: u64,
    pub background_reels: u64,
    pub pinned_reels: u64,
    /// zipf or rates.
    pub popularity: PopularityLaw,
    pub zipf_exponent: Option<f64>,
    /// Background likes/s at the peak hour.
    pub background_rate: f64,
    /// Background + pinned likes/s.
    pub total_rate: f64,
    pub views_per_like: f64,
    /// views_per_like x total_rate.
    pub views_per_second: f64,
    pub threshold: f64,
    pub target_shards: u64,
    /// Reels at or above the threshold at the peak (background + pinned).
    pub hot_reels: u64,
    pub hot_background_reels: u64,
    pub hottest_reel_rate: f64,
    pub hottest_background_rate: f64,
    pub policies: Vec<PolicyCost>,
    pub partition_load: PartitionLoad,
    pub search: SearchResult,
}

/// One (threshold, shards) setting, the keys it puts on the partitions.
struct Layout {
    /// Rates of the keys placed one by one.
    keys: Vec<f64>,
    tail_rate: f64,
    tail_sq: f64,
    tail_keys: u64,
    shard_keys: u64,
}

impl FleetPlan {
    /// Shard keys of a pinned reel when raised with target `shards`.
    pub fn pinned_shards(&self, reel: &PinnedReel, shards: u64) -> u64 {
        shards.max(
            reel.shards
                .unwrap_or_else(|| shards_for(reel.rate, self.safe)),
        )
    }

    fn all_reels(&self) -> u64 {
        self.background.reels + self.pinned.len() as u64
    }

    /// Items and shard reads for the three policies at the plan's threshold
    /// and target. Background reels in closed form; pinned reels through
    /// [`ReadPlan::cost`].
    pub fn policies(&self) -> Vec<PolicyCost> {
        let (t, s) = (self.threshold, self.target_shards);
        let bg = &self.background;
        let n = bg.reels;
        let k = bg.count_at_least(t);
        let limit = if self.reads.cache_seconds > 0.0 {
            self.reads.servers as f64 / self.reads.cache_seconds
        } else {
            f64::INFINITY
        };
        let v = self.views_per_like;
        // Background views and cached sums, all ranks / the raised ranks.
        let views_all = v * bg.total_rate;
        let views_hot = v * bg.sum_pow(1, k, 1);
        let sums_all = bg.sum_min(1, n, v, limit);
        let sums_hot = bg.sum_min(1, k, v, limit);
        let sf = s as f64;
        let pinned_cost = |shards: &dyn Fn(&PinnedReel) -> u64| {
            self.pinned.iter().fold((0u64, 0.0, 0.0), |acc, r| {
                let plan = ReadPlan {
                    views: v * r.rate,
                    ..self.reads
                };
                let c = plan.cost(shards(r));
                (
                    acc.0 + shards(r),
                    acc.1 + c.reads_uncached_per_second,
                    acc.2 + c.reads_cached_per_second,
                )
            })
        };
        let one = pinned_cost(&|_| 1);
        let all = pinned_cost(&|r| self.pinned_shards(r, s));
        let hot = pinned_cost(&|r| {
            if r.rate >= t {
                self.pinned_shards(r, s)
            } else {
                1
            }
        });
        let reels = self.all_reels() as f64;
        let row = |policy, items: u64, unc: f64, cached: f64| PolicyCost {
            policy,
            items,
            items_per_reel: items as f64 / reels,
            shard_reads_per_second_uncached: unc,
            shard_reads_per_second_cached: cached,
        };
        vec![
            row(
                Policy::OneCounterPerReel,
                n + one.0,
                views_all + one.1,
                sums_all + one.2,
            ),
            row(
                Policy::EveryReelSharded,
                n * s + all.0,
                views_all * sf + all.1,
                sums_all * sf + all.2,
            ),
            row(
                Policy::HotReelsOnly,
                n + k * (s - 1) + hot.0,
                views_all + views_hot * (sf - 1.0) + hot.1,
                sums_all + sums_hot * (sf - 1.0) + hot.2,
            ),
        ]
    }

    /// The keys of the hot-only policy at `threshold` and `shards`.
    fn layout(&self, threshold: f64, shards: u64) -> Layout {
        let bg = &self.background;
        let n = bg.reels;
        let k = bg.count_at_least(threshold);
        let mut e = n.min(k.clamp(MIN_EXPLICIT_RANKS, MAX_EXPLICIT_RANKS));
        if e.min(k).saturating_mul(shards) > MAX_EXPLICIT_KEYS {
            e = (MAX_EXPLICIT_KEYS / shards).max(1);
        }
        let mut keys = Vec::new();
        for r in &self.pinned {
            let s = if r.rate >= threshold {
                self.pinned_shards(r, shards)
            } else {
                1
            };
            keys.extend(std::iter::repeat_n(r.rate / s as f64, s as usize));
        }
        for i in 1..=e {
            let s = if i <= k { shards } else { 1 };
            keys.extend(std::iter::repeat_n(bg.rate(i) / s as f64, s as usize));
        }
        // Raised ranks past the explicit ones (only when k > MAX_EXPLICIT_RANKS)
        // have `shards` keys of rate/shards each: sum r^2 = rate^2 / shards.
        let raised_tail = k.saturating_sub(e);
        let tail_sq = bg.sum_pow(e + 1, k, 2) / shards as f64 + bg.sum_pow(e.max(k) + 1, n, 2);
        let tail_keys = raised_tail * shards + (n - e.max(k));
        Layout {
            shard_keys: keys.len() as u64 + tail_keys,
            keys,
            tail_rate: bg.sum_pow(e + 1, n, 1),
            tail_sq,
            tail_keys,
        }
    }

    fn total_rate(&self) -> f64 {
        self.background.total_rate + self.pinned.iter().map(|r| r.rate).sum::<f64>()
    }

    /// The partitions under the hot-only policy at `threshold` and `shards`.
    pub fn partition_load(&self, threshold: f64, shards: u64, trials: u64) -> PartitionLoad {
        let layout = self.layout(threshold, shards);
        let p = self.partitions;
        let pf = p as f64;
        let tail_mean = layout.tail_rate / pf;
        let tail_sd = (layout.tail_sq * (1.0 / pf) * (1.0 - 1.0 / pf))
            .max(0.0)
            .sqrt();
        let cap = self.cap.floor();
        let chunks = trials.div_ceil(CHUNK);
        let sums = (0..chunks)
            .into_par_iter()
            .map(|c| {
                let mut rng = chunk_rng(self.seed, c);
                let mut loads = vec![0.0f64; p as usize];
                let mut acc = [0.0f64; 4];
                for _ in 0..CHUNK.min(trials - c * CHUNK) {
                    for l in loads.iter_mut() {
                        let z: f64 = rng.sample(StandardNormal);
                        *l = (tail_mean + tail_sd * z).max(0.0);
                    }
                    for &r in &layout.keys {
                        loads[rng.random_range(0..p) as usize] += r;
                    }
                    let max = loads.iter().copied().fold(0.0, f64::max);
                    let ln_ok: f64 = loads.iter().map(|&l| (-p_over(l, cap)).ln_1p()).sum();
                    let over = -ln_ok.exp_m1();
                    acc[0] += max;
                    acc[1] += max * max;
                    acc[2] += over;
                    acc[3] += over * over;
                }
                acc
            })
            .collect::<Vec<_>>()
            .into_iter()
            // Summed in chunk order: the same bytes for any thread count.
            .fold([0.0; 4], |a, b| {
                [a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3]]
            });
        let t = trials as f64;
        let mean_se = |sum: f64, sq: f64| {
            let mean = sum / t;
            let var = ((sq / t - mean * mean) * t / (t - 1.0).max(1.0)).max(0.0);
            (mean, (var / t).sqrt())
        };
        let (hottest, hottest_se) = mean_se(sums[0], sums[1]);
        let (over, over_se) = mean_se(sums[2], sums[3]);
        let mean_rate = self.total_rate() / pf;
        PartitionLoad {
            partitions: p,
            cap: self.cap,
            threshold,
            target_shards: shards,
            shard_keys: layout.shard_keys,
            explicit_keys: layout.keys.len() as u64,
            tail_keys: layout.tail_keys,
            tail_partition_mean: tail_mean,
            tail_partition_sd: tail_sd,
            mean_partition_rate: mean_rate,
            hottest_partition_rate: hottest,
            hottest_partition_rate_se: hottest_se,
            hottest_to_mean: hottest / mean_rate,
            p_over_cap_per_second: over,
            p_over_cap_se: over_se,
            p_over_cap_ci95: [
                (over - Z95 * over_se).max(0.0),
                (over + Z95 * over_se).min(1.0),
            ],
            seconds: self.seconds,
            p_any_over_cap: p_any(over, self.seconds as f64),
            trials,
            seed: self.seed,
        }
    }

    /// Thresholds the search tries: the plan's threshold x 1/4 .. 4.
    pub fn search_thresholds(&self) -> Vec<f64> {
        [0.25, 0.5, 1.0, 2.0, 4.0]
            .iter()
            .map(|m| self.threshold * m)
            .collect()
    }

    /// Does (threshold, shards) meet the risk? Uses the upper 95% bound of
    /// the per-second chance, so Monte Carlo noise does not pass a plan.
    fn meets(&self, threshold: f64, shards: u64) -> (bool, f64) {
        let l = self.partition_load(threshold, shards, self.search_trials);
        let upper = p_any(l.p_over_cap_ci95[1], self.seconds as f64);
        (upper <= self.risk, upper)
    }

    /// For each threshold in the grid, the fewest shards (at most
    /// `max_shards`) that meet the risk, by exponential then binary search
    /// (the chance falls as shards are added; every evaluation uses the same
    /// seed, so the Monte Carlo noise is common to all of them). The answer:
    /// the smallest such shard count, and the largest threshold giving it.
    pub fn search(&self) -> SearchResult {
        let thresholds = self.search_thresholds();
        let per_threshold: Vec<(f64, Option<u64>)> = thresholds
            .iter()
            .map(|&t| (t, self.fewest_shards(t)))
            .collect();
        let best = per_threshold
            .iter()
            .filter_map(|&(t, s)| s.map(|s| (s, t)))
            .min_by(|a, b| a.0.cmp(&b.0).then(b.1.total_cmp(&a.1)));
        SearchResult {
            risk: self.risk,
            seconds: self.seconds,
            thresholds,
            max_shards: self.max_shards,
            trials: self.search_trials,
            found: best.is_some(),
            shards: best.map(|b| b.0),
            threshold: best.map(|b| b.1),
            hot_reels: best.map(|b| self.hot_reels(b.1)),
            p_any_over_cap_upper: best.map(|b| self.meets(b.1, b.0).1),
            per_threshold,
        }
    }

    fn fewest_shards(&self, threshold: f64) -> Option<u64> {
        let found = crate::model::search::fewest_shards(self.max_shards, |s| {
            Ok::<_, std::convert::Infallible>(self.meets(threshold, s).0)
        });
        match found {
            Ok(s) => s,
            Err(never) => match never {},
        }
    }

    /// Reels at or above `threshold`, background and pinned.
    pub fn hot_reels(&self, threshold: f64) -> u64 {
        self.background.count_at_least(threshold)
            + self.pinned.iter().filter(|r| r.rate >= threshold).count() as u64
    }

    /// The whole report.
    pub fn evaluate(&self) -> FleetReport {
        let bg = &self.background;
        let hottest_bg = bg.rate(1);
        FleetReport {
            reels: self.all_reels(),
            background_reels: bg.reels,
            pinned_reels: self.pinned.len() as u64,
            popularity: match bg.kind {
                Kind::Zipf(_) => PopularityLaw::Zipf,
                Kind::Rates(_) => PopularityLaw::Rates,
            },
            zipf_exponent: bg.zipf_exponent(),
            background_rate: bg.total_rate,
            total_rate: self.total_rate(),
            views_per_like: self.views_per_like,
            views_per_second: self.views_per_like * self.total_rate(),
            threshold: self.threshold,
            target_shards: self.target_shards,
            hot_reels: self.hot_reels(self.threshold),
            hot_background_reels: bg.count_at_least(self.threshold),
            hottest_reel_rate: self
                .pinned
                .iter()
                .map(|r| r.rate)
                .fold(hottest_bg, f64::max),
            hottest_background_rate: hottest_bg,
            policies: self.policies(),
            partition_load: self.partition_load(self.threshold, self.target_shards, self.trials),
            search: self.search(),
        }
    }
}

/// P(Poisson(lambda) > cap) for a whole `cap`. Partitions far below the cap
/// are skipped when the Chernoff bound
/// P(X >= c) <= exp(-lambda) (e lambda / c)^c (c > lambda) is negligible.
pub fn p_over(lambda: f64, cap: f64) -> f64 {
    if lambda <= 0.0 {
        return 0.0;
    }
    let c = cap + 1.0;
    if c > lambda && c - lambda - c * (c / lambda).ln() < LN_NEGLIGIBLE {
        return 0.0;
    }
    match Poisson::new(lambda) {
        Ok(d) => d.sf(cap as u64),
        Err(_) => 0.0,
    }
}

#[cfg(test)]
mod tests;
