//! The partitions under the hot-reels-only policy: the keys of a layout,
//! the hottest partition's load (the big keys placed one by one, the tail
//! as a Normal load per partition: drawn where an explicit key lands, in
//! aggregate elsewhere, [`super::tail_only`]), averaged over seeded
//! placements, and the chance of some partition over the cap, bracketed
//! ([`super::over_cap`]).

use rand::RngExt;
use rand_distr::StandardNormal;
use rayon::prelude::*;
use serde::Serialize;

use super::over_cap::{OverCapKind, Split};
use super::tail_only::TailOnly;
use super::FleetPlan;
use crate::model::rng::chunk_rng;

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
    /// E[the hottest partition's mean writes/s] over placements: a plain
    /// Monte Carlo mean over seeded placements (the rare bad placements
    /// hardly move a mean load).
    pub hottest_partition_rate: f64,
    /// Its standard error over the placements, writes/s.
    pub hottest_partition_rate_se: f64,
    /// hottest_partition_rate / mean_partition_rate.
    pub hottest_to_mean: f64,
    /// Keys whose count on a partition the chances over the cap sum
    /// exactly: the run of equal keys carrying the most likes, and the
    /// runs of the highest rates next to it that the sum affords.
    pub exact_keys: u64,
    /// The runs they make.
    pub exact_runs: u64,
    /// Likes/s of each key of the biggest run (0 when no key has likes).
    pub exact_run_rate: f64,
    /// P(some partition gets more than the cap in a second): at most this,
    /// the union bound over partitions (see `partition_p_over_cap_kind`).
    pub partition_p_over_cap_per_second: f64,
    /// Its natural log, finite where the probability underflows f64.
    pub partition_ln_p_over_cap_per_second: f64,
    /// And at least this, 1 - (1 - a)^P, a being one partition's chance:
    /// the partitions' loads are negatively associated.
    pub partition_p_over_cap_lower: f64,
    /// The union bound's standard error over the draws of the rest (the
    /// keys but the exact runs', and the tail): 0 when nothing is drawn.
    pub partition_p_over_cap_se: f64,
    /// From the bound below to the union bound, each moved out by 1.96
    /// standard errors of the draws: covers the chance unless the draws
    /// are off by more than that. Clamped to [0, 1].
    pub partition_p_over_cap_ci95: [f64; 2],
    /// What the chances over the cap (this second's and the spell's) are.
    pub partition_p_over_cap_kind: OverCapKind,
    /// Seconds the risk covers.
    pub seconds: u64,
    /// P(some second over the cap during `seconds`), the placement fixed
    /// for the spell: at most this, the union bound over partitions of one
    /// partition's chance over the spell.
    pub partition_p_any_over_cap: f64,
    /// Its natural log, finite where the probability underflows f64.
    pub partition_ln_p_any_over_cap: f64,
    /// And at least this (negative association, as for the second).
    pub partition_p_any_over_cap_lower: f64,
    /// From the bound below to the union bound, each moved out by 1.96
    /// standard errors of the draws, clamped to [0, 1].
    pub partition_p_any_over_cap_ci95: [f64; 2],
    /// Placements averaged for the hottest partition.
    pub trials: u64,
    /// Draws of the rest the chances over the cap average: `trials` (at
    /// least 2, for a standard error), or 0 where there is nothing to
    /// draw (no other key, no tail spread: the chances are then exact).
    pub rest_draws: u64,
    /// Seed of the placements and of the draws.
    pub seed: u64,
}

/// The work of one trial, expected ([`FleetPlan::placement_work`]): a
/// sampled placement, and a draw of the rest for the chances over the cap.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlacementWork {
    /// Partitions (the keys' loads are one array over them).
    pub partitions: u64,
    /// Keys placed one by one.
    pub keys: u64,
    /// Partitions some of them land on (a Normal draw each).
    pub touched: f64,
    /// Keys of the rest a draw lands on its partition (a look-up each).
    pub rest_keys: f64,
    /// Poisson tails a draw sums over the exact runs' counts.
    pub terms: u64,
    /// Draws of the rest: `trials` (at least 2), or 0 where there is
    /// nothing to draw (one evaluation).
    pub draws: u64,
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
        let pf = self.partitions as f64;
        let tail = self.tail_only(&layout);
        let (hottest, hottest_se) = self.hottest(&layout, &tail, trials);
        let split = self.split(&layout);
        let [second, spell] = self.over_cap(&split, trials);
        let mean_rate = self.total_rate() / pf;
        PartitionLoad {
            partitions: self.partitions,
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
            exact_keys: split.exact.iter().map(|r| r.1).sum(),
            exact_runs: split.exact.len() as u64,
            exact_run_rate: split.exact.first().map_or(0.0, |r| r.0),
            partition_p_over_cap_per_second: second.ln_upper.exp(),
            partition_ln_p_over_cap_per_second: second.ln_upper,
            partition_p_over_cap_lower: second.ln_lower.exp(),
            partition_p_over_cap_se: second.se,
            partition_p_over_cap_ci95: second.ci95,
            partition_p_over_cap_kind: OverCapKind::UpperBound,
            seconds: self.seconds,
            partition_p_any_over_cap: spell.ln_upper.exp(),
            partition_ln_p_any_over_cap: spell.ln_upper,
            partition_p_any_over_cap_lower: spell.ln_lower.exp(),
            partition_p_any_over_cap_ci95: spell.ci95,
            trials,
            rest_draws: split.draws(trials),
            seed: self.seed,
        }
    }

    /// The hottest partition's load over `trials` seeded placements: its
    /// mean and standard error.
    fn hottest(&self, layout: &Layout, tail: &TailOnly, trials: u64) -> (f64, f64) {
        let p = self.partitions;
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
        let per_lane: Vec<Vec<[f64; 2]>> = (0..lanes)
            .into_par_iter()
            .map(|lane| {
                let mut lane_loads = LaneLoads::new(p);
                (lane..chunks)
                    .step_by(lanes as usize)
                    .map(|c| {
                        let count = CHUNK.min(trials - c * CHUNK);
                        self.placements(c, count, &placed, tail, &mut lane_loads)
                    })
                    .collect()
            })
            .collect();
        // Summed in chunk order (chunk c ran in lane c mod lanes): the same
        // bytes for any thread count.
        let [sum, sq] = (0..chunks)
            .map(|c| per_lane[(c % lanes) as usize][(c / lanes) as usize])
            .fold([0.0; 2], |a, b| [a[0] + b[0], a[1] + b[1]]);
        let t = trials as f64;
        let mean = sum / t;
        let var = ((sq / t - mean * mean) * t / (t - 1.0).max(1.0)).max(0.0);
        (mean, (var / t).sqrt())
    }

    /// What one trial draws, expected: the placement's keys and the
    /// partitions they land on (the tail-only ones cost one draw in all),
    /// and the draw of the rest: its keys on the partition and the Poisson
    /// tails it sums (counted on one draw at the rest's mean load). For
    /// the cost model, not a figure of the report.
    pub fn placement_work(&self) -> PlacementWork {
        let layout = self.layout(self.threshold, self.target_shards);
        let keys: u64 = layout
            .groups
            .iter()
            .filter(|g| g.0 > 0.0)
            .map(|g| g.1)
            .sum();
        let pf = self.partitions as f64;
        // E[partitions some of the keys land on] = P (1 - (1 - 1/P)^keys).
        let touched = -pf * (keys as f64 * (-1.0 / pf).ln_1p()).exp_m1();
        let split = self.split(&layout);
        PlacementWork {
            partitions: self.partitions,
            keys,
            touched,
            rest_keys: split.rest_keys() as f64 / pf,
            terms: self.over_cap_terms(&split),
            draws: split.draws(self.trials),
        }
    }

    /// One partition's load under `layout` ([`Split`]: the runs summed exactly
    /// and the rest, drawn).
    pub(super) fn split(&self, layout: &Layout) -> Split {
        // A key of no likes changes no load.
        let groups: Vec<(f64, u64)> = layout
            .groups
            .iter()
            .copied()
            .filter(|g| g.0 > 0.0)
            .collect();
        let tail = self.tail_only(layout);
        Split::new(
            &groups,
            (tail.mean, tail.sd),
            self.partitions,
            self.cap,
            self.seconds,
        )
    }

    /// The law of a partition's load when only tail keys land on it.
    pub(super) fn tail_only(&self, layout: &Layout) -> TailOnly {
        let pf = self.partitions as f64;
        TailOnly::new(
            layout.tail_rate / pf,
            (layout.tail_sq * (1.0 / pf) * (1.0 - 1.0 / pf))
                .max(0.0)
                .sqrt(),
        )
    }

    /// `count` placements from chunk `c`'s stream: the sums of the
    /// busiest load and of its square. Only the partitions an explicit key
    /// lands on are drawn one by one; the others, tail-only, in aggregate.
    fn placements(
        &self,
        c: u64,
        count: u64,
        placed: &[(f64, u64)],
        tail: &TailOnly,
        lane: &mut LaneLoads,
    ) -> [f64; 2] {
        let mut rng = chunk_rng(self.seed, c);
        let p = u32::try_from(self.partitions).expect("at most MAX_FLEET_PARTITIONS partitions");
        let mut acc = [0.0f64; 2];
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
            let mut max = tail.busiest(rest, &mut rng);
            for &i in &lane.touched {
                let z: f64 = rng.sample(StandardNormal);
                let l = std::mem::take(&mut lane.loads[i as usize]);
                max = max.max(l + (tail.mean + tail.sd * z).max(0.0));
            }
            lane.touched.clear();
            acc[0] += max;
            acc[1] += max * max;
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
