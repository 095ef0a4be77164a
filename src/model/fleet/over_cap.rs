//! The report's chance that some partition goes over its cap, in a second
//! and in some second of the hot spell: bracketed, not sampled blind.
//!
//! Given the loads (the placement and the tail stay for the spell), the
//! partitions go over independently, partition p with chance f(L_p): f = q,
//! q(l) = P(Poisson(l) > cap), in a second; f = g = 1 - (1 - q)^T in some
//! second of the spell's T. With a = E[f(L)] for one partition (they are
//! alike):
//!
//! - P(some partition over) <= P a, the union bound over partitions;
//! - P(some partition over) >= 1 - (1 - a)^P: the loads are negatively
//!   associated (each key's indicator of where it lands is a one-hot
//!   vector, which is; independent keys and the independent tail loads
//!   keep it; each L_p grows with its own partition's indicators and tail
//!   alone), so E[prod_p (1 - f(L_p))] <= prod_p E[1 - f(L_p)] (Joag-Dev
//!   and Proschan 1983, for non-negative functions that all fall, on
//!   disjoint coordinates): what `partitions`' risk uses for one reel.
//!
//! The two differ by about (P - 1) a / 2 of the figure: nothing where the
//! figure is small, and where it is near 1 the lower one tells it.
//!
//! a itself: L = sum_j K_j r_j + R. The K_j are the counts on the
//! partition of the runs of equal keys summed exactly (`split.rs`): the
//! run carrying the most likes (the search's bound takes it too) and the
//! heaviest runs next to it, K_j ~ Binomial(n_j, 1/P) independent, summed
//! over by the walk of `partitions`' risk (from the mode, until the terms
//! left are below e^-60 of the sum), one walk within another. R is the
//! rest, drawn: each of the other keys lands with chance 1/P (their count
//! M ~ Binomial(m, 1/P), the M a uniform subset of the m, Floyd's
//! algorithm), plus the tail's Normal load clipped at 0. Every draw of R
//! is weighed against every count at once (conditional Monte Carlo), so
//! the rare pile-ups that carry the risk (a dozen of the post's keys on
//! one partition, one placement in hundreds) are summed, never sampled.
//! A few heavy keys of the rest landing together would be as rare (a
//! hundred reels of 400 likes/s against a cap of 1,000: three on one
//! partition), so the drawn runs of the highest rates are drawn under an
//! exponential tilt (each key lands with chance w e^(theta r) / (1 - w +
//! w e^(theta r)), theta at the saddle point, `Split::tilt`) and each draw
//! weighed by its likelihood ratio: the loads that carry the figure are
//! drawn about as often as the others, and the weighted mean is the
//! figure whatever theta. What is left is sampled, with its standard error.
//! Each draw's sums are taken in logs, so a chance far below f64's range
//! keeps its digits.

use std::collections::{HashMap, HashSet};

use rayon::prelude::*;
use serde::Serialize;

use super::FleetPlan;
use crate::model::exact::special::{ln_add, ln_sf_independent};
use crate::model::rng::chunk_rng;
use crate::model::stats::Z95;
pub(super) use split::{Split, Tilt};

mod split;

/// Draws of the rest per RNG stream (`chunk_rng` of the seed and
/// [`STREAMS`] | the chunk's index): fixed, so results do not depend on
/// threads.
const CHUNK: u64 = 16;
/// The chunks' indices are apart from the placements' (which count from
/// 0), so the two figures draw from streams of their own.
const STREAMS: u64 = 1 << 63;

/// What the report's chances over the cap are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum OverCapKind {
    /// The union bound over partitions, an upper bound: P times one
    /// partition's chance a, summed exactly over the counts of the
    /// heaviest runs of keys on it and averaged over weighed draws of the
    /// rest (with a standard error); `_lower` is the bound below,
    /// 1 - (1 - a)^P, and `_ci95` the two moved out by the draws' error.
    UpperBound,
}

/// One chance, bracketed: what the report prints of it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Bracket {
    /// ln of the union bound P a, at most 0.
    pub(super) ln_upper: f64,
    /// ln of the bound below, 1 - (1 - a)^P.
    pub(super) ln_lower: f64,
    /// The union bound's standard error over the draws of the rest (0
    /// when nothing is drawn).
    pub(super) se: f64,
    /// The bound below at a - 1.96 se(a) and the union bound at
    /// a + 1.96 se(a): the two bounds widened by the draws' error.
    pub(super) ci95: [f64; 2],
}

impl FleetPlan {
    /// P(some partition over the cap) in a second and in some second of
    /// the spell, each bracketed, from the draws of the rest `trials` asks
    /// for ([`Split::draws`]; where there are none, the one rest there is).
    pub(super) fn over_cap(&self, split: &Split, trials: u64) -> [Bracket; 2] {
        let draws = split.draws(trials).max(1);
        let tilt = split.tilt();
        let chunks = draws.div_ceil(CHUNK);
        let per_chunk: Vec<[f64; 4]> = (0..chunks)
            .into_par_iter()
            .map(|c| self.draw_chunk(split, &tilt, c, CHUNK.min(draws - c * CHUNK)))
            .collect();
        // Summed in chunk order: the same bytes for any thread count.
        let sums = per_chunk.iter().fold([f64::NEG_INFINITY; 4], |a, b| {
            std::array::from_fn(|i| ln_add(a[i], b[i]))
        });
        let p = self.partitions;
        [
            bracket(sums[0], sums[1], draws, p),
            bracket(sums[2], sums[3], draws, p),
        ]
    }

    /// `count` draws of the rest from chunk `c`'s stream: the logs of the
    /// sums of each draw's weighed means over the exact counts (a
    /// second's, the spell's) and of their squares.
    fn draw_chunk(&self, split: &Split, tilt: &Tilt, c: u64, count: u64) -> [f64; 4] {
        let mut rng = chunk_rng(self.seed, STREAMS | c);
        let (mut seen, mut memo) = (HashSet::new(), HashMap::new());
        let mut acc = [f64::NEG_INFINITY; 4];
        for _ in 0..count {
            let rest = split.draw(tilt, &mut rng, &mut seen);
            let [q, g] = split
                .ln_means(rest.load, &mut memo)
                .map(|m| m + rest.ln_weight);
            acc = [
                ln_add(acc[0], q),
                ln_add(acc[1], 2.0 * q),
                ln_add(acc[2], g),
                ln_add(acc[3], 2.0 * g),
            ];
        }
        acc
    }

    /// The Poisson tails one draw of the rest sums, at the rest's mean
    /// load: for the cost model ([`super::PlacementWork`]).
    pub(super) fn over_cap_terms(&self, split: &Split) -> u64 {
        let mut memo = HashMap::new();
        split.ln_means(split.mean_rest(0.0), &mut memo);
        memo.len() as u64
    }
}

/// The bracket of a chance from the logs of its draws' sums of `x` (a
/// draw's weighed mean over the exact counts) and of `x^2`: a = their
/// mean, its standard error from their spread.
fn bracket(ln_sum: f64, ln_sum_sq: f64, draws: u64, partitions: u64) -> Bracket {
    let (n, p) = (draws as f64, partitions as f64);
    // a is at most 1; a mean of weighed draws past it (or a rounding) is
    // taken as 1.
    let ln_a = (ln_sum - n.ln()).min(0.0);
    // se(a) / a = sqrt((N sum x^2 / (sum x)^2 - 1) / (N - 1)): the sample
    // variance over N, relative to the mean, in logs so that an a below
    // f64's range keeps it.
    let rel_se = match ln_a.is_finite() && draws > 1 {
        true => (((ln_sum_sq + n.ln() - 2.0 * ln_sum).exp() - 1.0).max(0.0) / (n - 1.0)).sqrt(),
        false => 0.0,
    };
    let ln_upper = (p.ln() + ln_a).min(0.0);
    // Each end moved by 1.96 se(a): if a lies within, so does the truth.
    let hi = (p.ln() + ln_a + (Z95 * rel_se).ln_1p()).min(0.0).exp();
    let lo = match Z95 * rel_se < 1.0 {
        true => ln_sf_independent(ln_a + (-Z95 * rel_se).ln_1p(), partitions).exp(),
        false => 0.0,
    };
    Bracket {
        ln_upper,
        ln_lower: ln_sf_independent(ln_a, partitions),
        se: ((p.ln() + ln_a).exp() * rel_se).min(1.0),
        ci95: [lo, hi],
    }
}

#[cfg(test)]
mod tests;
