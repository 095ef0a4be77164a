//! Seeded Monte Carlo over placements, for more shards than the exact
//! busiest-partition sums handle.

use rand::RngExt;
use rayon::prelude::*;

use crate::model::rng::chunk_rng;

/// Placements per RNG stream: fixed, so results do not depend on threads.
const CHUNK: u64 = 64;

/// What Monte Carlo over placements estimates, with standard errors.
pub(super) struct McResult {
    /// Mean shard count on the busiest partition.
    pub(super) mean_max: f64,
    /// Its standard error.
    pub(super) mean_max_se: f64,
}

/// Monte Carlo over placements: for each random placement record the busiest
/// partition's shard count. (The cap chance is exact or a bound that holds,
/// from [`super::PartitionRisk`]: sampled placements miss the rare ones
/// that dominate it.)
pub(super) fn monte_carlo(s: u64, p: u64, trials: u64, seed: u64) -> McResult {
    let chunks = trials.div_ceil(CHUNK);
    let per_chunk: Vec<(f64, f64)> = (0..chunks)
        .into_par_iter()
        .map(|c| {
            let mut rng = chunk_rng(seed, c);
            let n = CHUNK.min(trials - c * CHUNK);
            let mut acc = (0.0, 0.0);
            let mut draws: Vec<u64> = Vec::with_capacity(s as usize);
            for _ in 0..n {
                draws.clear();
                draws.extend((0..s).map(|_| rng.random_range(0..p)));
                draws.sort_unstable();
                let max = draws
                    .chunk_by(|a, b| a == b)
                    .map(|run| run.len() as u64)
                    .max()
                    .unwrap_or(0);
                let m = max as f64;
                acc.0 += m;
                acc.1 += m * m;
            }
            acc
        })
        .collect();
    // Summed in chunk order: the same bytes for any thread count.
    let sums = per_chunk
        .into_iter()
        .fold((0.0, 0.0), |x, y| (x.0 + y.0, x.1 + y.1));
    let t = trials as f64;
    let se = |sum: f64, sq: f64| {
        let mean = sum / t;
        let var = ((sq / t - mean * mean) * t / (t - 1.0).max(1.0)).max(0.0);
        (mean, (var / t).sqrt())
    };
    let (mean_max, mean_max_se) = se(sums.0, sums.1);
    McResult {
        mean_max,
        mean_max_se,
    }
}
