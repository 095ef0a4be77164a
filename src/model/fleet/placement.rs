//! The partitions under the hot-reels-only policy: the big keys placed one
//! by one, the tail as a Normal load per partition (drawn one by one where
//! an explicit key lands, in aggregate elsewhere: [`super::tail_only`]),
//! P(some partition over the cap) exact per placement and averaged over
//! seeded placements.

use rand::RngExt;
use rand_distr::StandardNormal;
use rayon::prelude::*;
use serde::Serialize;

use super::tail_only::TailOnly;
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
/// Memory the placements' per-partition loads may take over all lanes,
/// and what one partition takes in a lane (its load and, when touched, its
/// index): 1,000,000 partitions get 2 lanes.
const LANES_BUDGET_BYTES: u64 = 24 << 20;
const LANE_BYTES_PER_PARTITION: u64 = 12;

/// The partitions under the whole fleet's writes.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct PartitionLoad {
    /// Store partitions.
    pub partitions: u64,
    /// Writes/s one partition accepts.
    pub cap: f64,
    /// The monitor's threshold that raised reels, likes/s.
    pub threshold: f64,
    /// Shards each raised reel got.
    pub target_shards: u64,
    /// Shard keys over all reels.
    pub shard_keys: u64,
    /// Keys placed one by one (pinned, raised and top reels).
    pub explicit_keys: u64,
    /// Keys aggregated into the Normal tail load.
    pub tail_keys: u64,
    /// Tail load per partition: its mean, writes/s.
    pub tail_partition_mean: f64,
    /// Tail load per partition: its standard deviation, writes/s.
    pub tail_partition_sd: f64,
    /// All likes/s / P.
    pub mean_partition_rate: f64,
    /// E[the hottest partition's mean writes/s] over placements.
    pub hottest_partition_rate: f64,
    /// Its standard error over the placements, writes/s.
    pub hottest_partition_rate_se: f64,
    /// hottest_partition_rate / mean_partition_rate.
    pub hottest_to_mean: f64,
    /// P(some partition gets more than the cap in a second).
    pub partition_p_over_cap_per_second: f64,
    /// Its standard error over the placements (a probability's, 0..1).
    pub partition_p_over_cap_se: f64,
    /// Its 95% confidence interval, clamped to [0, 1].
    pub partition_p_over_cap_ci95: [f64; 2],
    /// Seconds the risk covers.
    pub seconds: u64,
    /// P(some second over the cap during `seconds`), the placement fixed for
    /// the spell: the mean over placements of 1 - (1 - p_placement)^seconds
    /// (not 1 - (1 - mean p)^seconds, which the rare bad placements inflate).
    pub partition_p_any_over_cap: f64,
    /// Its 95% confidence interval over the placements, clamped to [0, 1].
    pub partition_p_any_over_cap_ci95: [f64; 2],
    /// Placements averaged.
    pub trials: u64,
    /// Seed of the placements.
    pub seed: u64,
}

/// The work of one sampled placement, expected ([`FleetPlan::placement_work`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlacementWork {
    /// Partitions (the keys' loads are one array over them).
    pub partitions: u64,
    /// Keys placed one by one.
    pub keys: u64,
    /// Partitions some of them land on.
    pub touched: f64,
    /// Partitions drawn whose load is not negligible.
    pub busy: f64,
}

/// One (threshold, shards) setting, the keys it puts on the partitions.
#[derive(PartialEq)]
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
        let head = bg.head_rates(e);
        for (i, rate) in (1..=e).zip(head.iter()) {
            let s = if i <= k { shards } else { 1 };
            push(rate / s as f64, s);
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
        let tail = self.tail_only(&layout);
        let chunks = trials.div_ceil(CHUNK);
        // A key of no likes changes no load: its partition stays tail-only.
        let placed: Vec<(f64, u64)> = layout
            .groups
            .iter()
            .copied()
            .filter(|g| g.0 > 0.0)
            .collect();
        // Each lane keeps one load per partition; lanes are few enough that
        // they stay within the budget whatever `--threads` says.
        let lanes = (LANES_BUDGET_BYTES / (LANE_BYTES_PER_PARTITION * p).max(1))
            .clamp(1, rayon::current_num_threads() as u64)
            .min(chunks.max(1));
        let per_lane: Vec<Vec<[f64; 6]>> = (0..lanes)
            .into_par_iter()
            .map(|lane| {
                let mut lane_loads = LaneLoads::new(p);
                (lane..chunks)
                    .step_by(lanes as usize)
                    .map(|c| {
                        let count = CHUNK.min(trials - c * CHUNK);
                        self.placements(c, count, &placed, &tail, &mut lane_loads)
                    })
                    .collect()
            })
            .collect();
        // Summed in chunk order (chunk c ran in lane c mod lanes): the same
        // bytes for any thread count.
        let sums = (0..chunks)
            .map(|c| per_lane[(c % lanes) as usize][(c / lanes) as usize])
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
            tail_partition_mean: tail.mean,
            tail_partition_sd: tail.sd,
            mean_partition_rate: mean_rate,
            hottest_partition_rate: hottest,
            hottest_partition_rate_se: hottest_se,
            hottest_to_mean: hottest / mean_rate,
            partition_p_over_cap_per_second: over,
            partition_p_over_cap_se: over_se,
            partition_p_over_cap_ci95: [
                (over - Z95 * over_se).max(0.0),
                (over + Z95 * over_se).min(1.0),
            ],
            seconds: self.seconds,
            partition_p_any_over_cap: any,
            partition_p_any_over_cap_ci95: [
                (any - Z95 * any_se).max(0.0),
                (any + Z95 * any_se).min(1.0),
            ],
            trials,
            seed: self.seed,
        }
    }

    /// What one of the report's placements draws, expected: its keys, the
    /// partitions they land on, and the partitions whose load is not
    /// negligible (each costs a Poisson tail): the tail-only ones the
    /// aggregate walks through, and the touched ones estimated as those
    /// holding a key that alone lifts the tail's mean past the skip. For
    /// the cost model, not a figure of the report.
    pub fn placement_work(&self) -> PlacementWork {
        let layout = self.layout(self.threshold, self.target_shards);
        let tail = self.tail_only(&layout);
        let placed = layout.groups.iter().filter(|g| g.0 > 0.0);
        let keys: u64 = placed.clone().map(|g| g.1).sum();
        let heavy: u64 = placed
            .filter(|g| !tail.skips(tail.mean + g.0))
            .map(|g| g.1)
            .sum();
        let pf = self.partitions as f64;
        // E[partitions some of the keys land on] = P (1 - (1 - 1/P)^keys).
        let touched = -pf * (keys as f64 * (-1.0 / pf).ln_1p()).exp_m1();
        let rest = (pf - touched).max(0.0);
        let walked = rest * tail.share_drawn();
        PlacementWork {
            partitions: self.partitions,
            keys,
            touched,
            busy: walked + touched.min(heavy as f64),
        }
    }

    /// The law of a partition's load when only tail keys land on it.
    pub(super) fn tail_only(&self, layout: &Layout) -> TailOnly {
        let pf = self.partitions as f64;
        TailOnly::new(
            layout.tail_rate / pf,
            (layout.tail_sq * (1.0 / pf) * (1.0 - 1.0 / pf))
                .max(0.0)
                .sqrt(),
            self.cap.floor(),
        )
    }

    /// `count` placements from chunk `c`'s stream: the sums of the
    /// busiest load, P(over in a second) and P(over in the spell), and of
    /// their squares. Only the partitions an explicit key lands on are
    /// drawn one by one; the others, tail-only, in aggregate.
    fn placements(
        &self,
        c: u64,
        count: u64,
        placed: &[(f64, u64)],
        tail: &TailOnly,
        lane: &mut LaneLoads,
    ) -> [f64; 6] {
        let mut rng = chunk_rng(self.seed, c);
        let p = u32::try_from(self.partitions).expect("at most MAX_FLEET_PARTITIONS partitions");
        let seconds = self.seconds as f64;
        let mut acc = [0.0f64; 6];
        for _ in 0..count {
            for &(r, n) in placed {
                for _ in 0..n {
                    let i = rng.random_range(0..p);
                    let l = &mut lane.loads[i as usize];
                    // Every placed key has likes: a load of 0 is untouched.
                    if *l == 0.0 {
                        lane.touched.push(i);
                    }
                    *l += r;
                }
            }
            let rest = self.partitions - lane.touched.len() as u64;
            let quiet = tail.draw(rest, &mut rng);
            let (mut max, mut ln_ok) = (quiet.busiest, quiet.ln_ok);
            for &i in &lane.touched {
                let z: f64 = rng.sample(StandardNormal);
                let l = std::mem::take(&mut lane.loads[i as usize]);
                let load = l + (tail.mean + tail.sd * z).max(0.0);
                max = max.max(load);
                ln_ok += tail.ln_ok(load);
            }
            lane.touched.clear();
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
    }
}

/// One lane's loads: one per partition, all 0 between placements (only the
/// touched ones are reset, so a placement costs its keys, not P), and the
/// partitions touched in the current placement.
struct LaneLoads {
    loads: Vec<f64>,
    touched: Vec<u32>,
}

impl LaneLoads {
    fn new(partitions: u64) -> LaneLoads {
        LaneLoads {
            loads: vec![0.0; partitions as usize],
            touched: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests;
