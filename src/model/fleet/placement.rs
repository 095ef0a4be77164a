//! The partitions under the hot-reels-only policy: the big keys placed one
//! by one, the tail as a Normal load per partition, P(some partition over
//! the cap) exact per placement and averaged over seeded placements.

use rand::RngExt;
use rand_distr::StandardNormal;
use rayon::prelude::*;
use serde::Serialize;
use statrs::distribution::{DiscreteCDF, Poisson};

use super::FleetPlan;
use crate::model::rng::chunk_rng;
use crate::model::stats::Z95;

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

/// The partitions under the whole fleet's writes.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct PartitionLoad {
    /// Store partitions.
    pub partitions: u64,
    /// Writes/s one partition accepts.
    pub cap: f64,
    /// The threshold that raised reels.
    pub threshold: f64,
    /// Shards each raised reel got.
    pub target_shards: u64,
    /// Shard keys over all reels.
    pub shard_keys: u64,
    /// Keys placed one by one (pinned, raised and top reels).
    pub explicit_keys: u64,
    /// Keys aggregated into the Normal tail load.
    pub tail_keys: u64,
    /// Tail load per partition: mean and standard deviation, writes/s.
    pub tail_partition_mean: f64,
    /// (the standard deviation)
    pub tail_partition_sd: f64,
    /// All likes/s / P.
    pub mean_partition_rate: f64,
    /// E[the hottest partition's mean writes/s] over placements.
    pub hottest_partition_rate: f64,
    /// Its standard error over the placements.
    pub hottest_partition_rate_se: f64,
    /// hottest_partition_rate / mean_partition_rate.
    pub hottest_to_mean: f64,
    /// P(some partition gets more than the cap in a second).
    pub p_over_cap_per_second: f64,
    /// Its standard error over the placements.
    pub p_over_cap_se: f64,
    /// Its 95% confidence interval, clamped to [0, 1].
    pub p_over_cap_ci95: [f64; 2],
    /// Seconds the risk covers.
    pub seconds: u64,
    /// P(some second over the cap during `seconds`), the placement fixed for
    /// the spell: the mean over placements of 1 - (1 - p_placement)^seconds
    /// (not 1 - (1 - mean p)^seconds, which the rare bad placements inflate).
    pub p_any_over_cap: f64,
    /// Its 95% confidence interval over the placements, clamped to [0, 1].
    pub p_any_over_cap_ci95: [f64; 2],
    /// Placements averaged.
    pub trials: u64,
    /// Seed of the placements.
    pub seed: u64,
}

/// One (threshold, shards) setting, the keys it puts on the partitions.
pub(super) struct Layout {
    /// Rates of the keys placed one by one (a reel's shards next to each
    /// other), as runs of equal rates: (rate, keys). Runs, not one entry a
    /// key, so a table whose every reel is hot costs its distinct rates,
    /// not its keys (up to 2,000,000), in every step of the search.
    pub(super) groups: Vec<(f64, u64)>,
    /// Keys in `groups`.
    explicit_keys: u64,
    /// Likes/s of the tail keys, and the sum of their squares.
    pub(super) tail_rate: f64,
    pub(super) tail_sq: f64,
    tail_keys: u64,
    shard_keys: u64,
}

impl FleetPlan {
    /// The keys of the hot-only policy at `threshold` and `shards`.
    pub(super) fn layout(&self, threshold: f64, shards: u64) -> Layout {
        let bg = &self.background;
        let n = bg.reels;
        let k = bg.count_at_least(threshold);
        let mut e = n.min(k.clamp(MIN_EXPLICIT_RANKS, MAX_EXPLICIT_RANKS));
        if e.min(k).saturating_mul(shards) > MAX_EXPLICIT_KEYS {
            e = (MAX_EXPLICIT_KEYS / shards).max(1);
        }
        let mut groups: Vec<(f64, u64)> = Vec::new();
        let mut push = |rate: f64, keys: u64| match groups.last_mut() {
            Some((r, n)) if *r == rate => *n += keys,
            _ => groups.push((rate, keys)),
        };
        for r in &self.pinned {
            let s = if r.rate >= threshold {
                self.pinned_shards(r, shards)
            } else {
                1
            };
            push(r.rate / s as f64, s);
        }
        for i in 1..=e {
            let s = if i <= k { shards } else { 1 };
            push(bg.rate(i) / s as f64, s);
        }
        let explicit_keys: u64 = groups.iter().map(|g| g.1).sum();
        // Raised ranks past the explicit ones (only when k > MAX_EXPLICIT_RANKS)
        // have `shards` keys of rate/shards each: sum r^2 = rate^2 / shards.
        let raised_tail = k.saturating_sub(e);
        let tail_sq = bg.sum_pow(e + 1, k, 2) / shards as f64 + bg.sum_pow(e.max(k) + 1, n, 2);
        let tail_keys = raised_tail * shards + (n - e.max(k));
        Layout {
            shard_keys: explicit_keys + tail_keys,
            groups,
            explicit_keys,
            tail_rate: bg.sum_pow(e + 1, n, 1),
            tail_sq,
            tail_keys,
        }
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
                let mut acc = [0.0f64; 6];
                let seconds = self.seconds as f64;
                for _ in 0..CHUNK.min(trials - c * CHUNK) {
                    for l in loads.iter_mut() {
                        let z: f64 = rng.sample(StandardNormal);
                        *l = (tail_mean + tail_sd * z).max(0.0);
                    }
                    for &(r, n) in &layout.groups {
                        for _ in 0..n {
                            loads[rng.random_range(0..p) as usize] += r;
                        }
                    }
                    let max = loads.iter().copied().fold(0.0, f64::max);
                    let ln_ok: f64 = loads.iter().map(|&l| (-p_over(l, cap)).ln_1p()).sum();
                    let over = -ln_ok.exp_m1();
                    // The placement stays for the hot spell: P(no second
                    // over in T | placement) = (1 - over)^T.
                    let any = -(seconds * ln_ok).exp_m1();
                    acc[0] += max;
                    acc[1] += max * max;
                    acc[2] += over;
                    acc[3] += over * over;
                    acc[4] += any;
                    acc[5] += any * any;
                }
                acc
            })
            .collect::<Vec<_>>()
            .into_iter()
            // Summed in chunk order: the same bytes for any thread count.
            .fold([0.0; 6], |a, b| std::array::from_fn(|i| a[i] + b[i]));
        let t = trials as f64;
        let mean_se = |sum: f64, sq: f64| {
            let mean = sum / t;
            let var = ((sq / t - mean * mean) * t / (t - 1.0).max(1.0)).max(0.0);
            (mean, (var / t).sqrt())
        };
        let (hottest, hottest_se) = mean_se(sums[0], sums[1]);
        let (over, over_se) = mean_se(sums[2], sums[3]);
        let (any, any_se) = mean_se(sums[4], sums[5]);
        let mean_rate = self.total_rate() / pf;
        PartitionLoad {
            partitions: p,
            cap: self.cap,
            threshold,
            target_shards: shards,
            shard_keys: layout.shard_keys,
            explicit_keys: layout.explicit_keys,
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
            p_any_over_cap: any,
            p_any_over_cap_ci95: [(any - Z95 * any_se).max(0.0), (any + Z95 * any_se).min(1.0)],
            trials,
            seed: self.seed,
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
mod tests {
    use super::*;
    use crate::model::fleet::tests::{three_reels, zipf_plan};
    use crate::model::fleet::PinnedReel;

    /// Exact P(over) and E[max] for the three-reel fleet by listing the 2^5
    /// placements of its keys (300, 300, 150, 150, 100).
    fn three_reels_exact(cap: f64) -> (f64, f64) {
        let keys = [300.0, 300.0, 150.0, 150.0, 100.0];
        let (mut over, mut max) = (0.0, 0.0);
        for mask in 0u32..32 {
            let mut load = [0.0f64; 2];
            for (j, r) in keys.iter().enumerate() {
                load[(mask >> j & 1) as usize] += r;
            }
            let ok: f64 = load
                .iter()
                .map(|&l| {
                    if l == 0.0 {
                        1.0
                    } else {
                        Poisson::new(l).unwrap().cdf(cap as u64)
                    }
                })
                .product();
            over += (1.0 - ok) / 32.0;
            max += load[0].max(load[1]) / 32.0;
        }
        (over, max)
    }

    #[test]
    fn three_reels_on_two_partitions_match_enumeration() {
        let plan = three_reels(600.0);
        let l = plan.partition_load(250.0, 2, 20_000);
        assert_eq!(l.shard_keys, 5);
        assert_eq!(l.explicit_keys, 5);
        assert_eq!(l.tail_keys, 0);
        assert_eq!(l.mean_partition_rate, 500.0);
        let (over, max) = three_reels_exact(600.0);
        // Tolerance: 4 standard errors of the 20,000-placement mean.
        assert!(
            (l.p_over_cap_per_second - over).abs() < 4.0 * l.p_over_cap_se,
            "{} vs {over} (se {})",
            l.p_over_cap_per_second,
            l.p_over_cap_se
        );
        assert!((l.hottest_partition_rate - max).abs() < 4.0 * l.hottest_partition_rate_se);
        // By hand: the 32 splits give a busier side of 550 (8 times), 600 (6),
        // 700 (6), 750 (4), 850 (4), 900 (2), 1000 (2): mean 22,400 / 32 = 700.
        assert!((max - 700.0).abs() < 1e-9, "{max}");
    }

    #[test]
    fn p_over_skips_only_negligible_partitions() {
        // Below the skip the Chernoff bound is < e^-69; check the exact tail agrees.
        for lambda in [1.0, 100.0, 500.0, 700.0, 900.0, 1200.0] {
            let exact = Poisson::new(lambda).unwrap().sf(1000);
            let got = p_over(lambda, 1000.0);
            assert!((got - exact).abs() <= 1e-30, "{lambda}: {got} vs {exact}");
        }
        assert_eq!(p_over(0.0, 1000.0), 0.0);
    }

    #[test]
    fn one_pinned_reel_agrees_with_the_birthday_bound() {
        // 100 keys of 700 likes/s on 20,000 partitions, a background of 1 like/s:
        // a partition goes over 1,000 exactly when two keys share it, so the
        // chance is the birthday bound of `partitions::p_shared_partition`.
        let mut plan = zipf_plan(1000, 1.0, 1.0);
        plan.partitions = 20_000;
        plan.pinned = vec![PinnedReel {
            name: "post".into(),
            rate: 70_000.0,
            shards: Some(100),
        }];
        let l = plan.partition_load(300.0, 1, 2000);
        let want = crate::model::partitions::p_shared_partition(100, 20_000);
        assert!((want - 0.2188).abs() < 1e-3, "{want}");
        // 4 standard errors of the 2,000-placement mean.
        assert!(
            (l.p_over_cap_per_second - want).abs() < 4.0 * l.p_over_cap_se,
            "{} vs {want} (se {})",
            l.p_over_cap_per_second,
            l.p_over_cap_se
        );
    }
}
