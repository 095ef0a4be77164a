//! Seeded Monte Carlo over placements, for more shards than the exact
//! busiest-partition sums handle.

use rand::RngExt;
use rayon::prelude::*;

use super::cap::PartitionTails;
use crate::model::rng::chunk_rng;

/// Placements per RNG stream: fixed, so results do not depend on threads.
const CHUNK: u64 = 64;

/// What Monte Carlo over placements estimates, with standard errors.
pub(super) struct McResult {
    /// Mean shard count on the busiest partition.
    pub(super) mean_max: f64,
    /// Its standard error.
    pub(super) mean_max_se: f64,
    /// Chance some partition goes over the cap in a second (with a load).
    pub(super) over: Option<f64>,
    /// Its standard error.
    pub(super) over_se: Option<f64>,
}

/// Monte Carlo over placements: for each random placement record the busiest
/// partition's shard count and, with a load, the exact chance that some
/// partition goes over the cap given that placement (a Rao-Blackwellised
/// estimate: lower variance than simulating seconds).
pub(super) fn monte_carlo(
    s: u64,
    p: u64,
    trials: u64,
    seed: u64,
    tails: Option<&PartitionTails>,
) -> McResult {
    let chunks = trials.div_ceil(CHUNK);
    let sums: (f64, f64, f64, f64) = (0..chunks)
        .into_par_iter()
        .map(|c| {
            let mut rng = chunk_rng(seed, c);
            let n = CHUNK.min(trials - c * CHUNK);
            let mut acc = (0.0, 0.0, 0.0, 0.0);
            let mut draws: Vec<u64> = Vec::with_capacity(s as usize);
            for _ in 0..n {
                draws.clear();
                draws.extend((0..s).map(|_| rng.random_range(0..p)));
                draws.sort_unstable();
                let mut max = 0u64;
                let mut log_ok = 0.0f64;
                for run in draws.chunk_by(|a, b| a == b) {
                    let k = run.len() as u64;
                    max = max.max(k);
                    if let Some(t) = tails {
                        log_ok += (-t.tail(k)).ln_1p();
                    }
                }
                let over = -log_ok.exp_m1();
                let m = max as f64;
                acc.0 += m;
                acc.1 += m * m;
                acc.2 += over;
                acc.3 += over * over;
            }
            acc
        })
        .reduce(
            || (0.0, 0.0, 0.0, 0.0),
            |x, y| (x.0 + y.0, x.1 + y.1, x.2 + y.2, x.3 + y.3),
        );
    let t = trials as f64;
    let se = |sum: f64, sq: f64| {
        let mean = sum / t;
        let var = ((sq / t - mean * mean) * t / (t - 1.0).max(1.0)).max(0.0);
        (mean, (var / t).sqrt())
    };
    let (mean_max, mean_max_se) = se(sums.0, sums.1);
    let (over, over_se) = se(sums.2, sums.3);
    McResult {
        mean_max,
        mean_max_se,
        over: tails.map(|_| over),
        over_se: tails.map(|_| over_se),
    }
}
