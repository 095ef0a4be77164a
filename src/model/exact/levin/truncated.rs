//! The truncated Poisson distributions Levin's representation conditions
//! on: `X ~ Poisson(lambda)` kept to a box `lo <= X <= hi`, on its
//! significant support.

/// Pmf terms below this (relative to the mode) cannot move `P(W = L)`:
/// they start about 9.6 standard deviations out and fall geometrically,
/// so the mass left out on a side is under `1e-20 (sigma / 9.6)` times
/// the mode's `1 / (2.5 sigma)`, about 4e-23. Each `phi_j` moves by at
/// most that, and the grid sum `1 + 2 sum_j Re psi_j^S` (at least 1) by
/// under `2 J S 1e-22`: 1e-15 of it up to ~50,000 shards, 1e-12 at 5e7.
/// (1e-30 kept 23 standard deviations of terms, this 19.)
const PMF_FLOOR: f64 = 1e-20;

/// A truncated Poisson(lambda) on `0..=c`, kept on its significant support
/// `first..first + w.len()`, normalised to sum 1.
pub(in crate::model::exact) struct Truncated {
    /// The smallest value kept.
    pub(in crate::model::exact) first: u64,
    /// The probabilities of `first`, `first + 1`, ...
    pub(in crate::model::exact) w: Vec<f64>,
    /// Its mean.
    pub(in crate::model::exact) mean: f64,
    /// Its variance.
    pub(in crate::model::exact) var: f64,
}

/// A Poisson(lambda) conditioned on `X <= c` (the busiest shard's box).
pub(super) fn truncated(lambda: f64, c: u64) -> Truncated {
    truncated_between(lambda, 0, Some(c))
}

/// A Poisson(lambda) conditioned on `lo <= X <= hi` (no upper end for
/// `None`), kept on its significant support and normalised to sum 1.
pub(in crate::model::exact) fn truncated_between(
    lambda: f64,
    lo: u64,
    hi: Option<u64>,
) -> Truncated {
    let hi = hi.unwrap_or(u64::MAX);
    let mode = mode_in(lambda, lo, hi);
    let mut w: Vec<f64> = terms_down(lambda, mode, lo).collect();
    let first = mode - w.len() as u64;
    w.reverse();
    w.push(1.0);
    w.extend(terms_up(lambda, mode, hi));
    let z: f64 = w.iter().sum();
    let mut mean = 0.0;
    for (i, x) in w.iter_mut().enumerate() {
        *x /= z;
        mean += *x * (first + i as u64) as f64;
    }
    let var = w
        .iter()
        .enumerate()
        .map(|(i, x)| x * ((first + i as u64) as f64 - mean).powi(2))
        .sum::<f64>();
    Truncated {
        first,
        w,
        mean,
        var,
    }
}

/// The mean and variance of a Poisson(lambda) conditioned on `X <= c`, on
/// the terms [`truncated`] keeps, without storing them: what the tilt's
/// search reads at each trial mean (the pmf itself is built once, at the
/// mean it settles on).
pub(super) fn truncated_moments(lambda: f64, c: u64) -> (f64, f64) {
    let mode = mode_in(lambda, 0, c);
    // Sums of t, t d and t d^2 with d = k - mode, t relative to the mode.
    let (mut z, mut s1, mut s2) = (1.0, 0.0, 0.0);
    let down = terms_down(lambda, mode, 0)
        .zip(1..)
        .map(|(t, d)| (t, -(d as f64)));
    let up = terms_up(lambda, mode, c)
        .zip(1..)
        .map(|(t, d)| (t, d as f64));
    for (t, d) in down.chain(up) {
        z += t;
        s1 += t * d;
        s2 += t * d * d;
    }
    let off = s1 / z;
    (mode as f64 + off, (s2 / z - off * off).max(0.0))
}

/// The pmf's mode within `lo..=hi`.
fn mode_in(lambda: f64, lo: u64, hi: u64) -> u64 {
    (lambda.floor() as u64).clamp(lo, hi)
}

/// `P(X = k) / P(X = mode)` for `k = mode - 1, mode - 2, ...` down to `lo`,
/// by the ratio `k / lambda`, while at least `PMF_FLOOR`.
fn terms_down(lambda: f64, mode: u64, lo: u64) -> impl Iterator<Item = f64> {
    let (mut t, mut k) = (1.0_f64, mode);
    std::iter::from_fn(move || {
        if k <= lo {
            return None;
        }
        t *= k as f64 / lambda;
        k -= 1;
        (t >= PMF_FLOOR).then_some(t)
    })
}

/// `P(X = k) / P(X = mode)` for `k = mode + 1, mode + 2, ...` up to `hi`,
/// by the ratio `lambda / k`, while at least `PMF_FLOOR`.
fn terms_up(lambda: f64, mode: u64, hi: u64) -> impl Iterator<Item = f64> {
    let (mut t, mut k) = (1.0_f64, mode);
    std::iter::from_fn(move || {
        if k >= hi {
            return None;
        }
        t *= lambda / (k + 1) as f64;
        k += 1;
        (t >= PMF_FLOOR).then_some(t)
    })
}
