//! The truncated Poisson distributions Levin's representation conditions
//! on: `X ~ Poisson(lambda)` kept to a box `lo <= X <= hi`, on its
//! significant support.

/// Pmf terms below this (relative to the mode) cannot move `P(W = L)`.
const PMF_FLOOR: f64 = 1e-30;

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
    let mode = (lambda.floor() as u64).clamp(lo, hi);
    // Walk down and up from the mode by the pmf ratio k / lambda.
    let mut down = Vec::new();
    let (mut t, mut k) = (1.0_f64, mode);
    while k > lo {
        t *= k as f64 / lambda;
        if t < PMF_FLOOR {
            break;
        }
        down.push(t);
        k -= 1;
    }
    let first = mode - down.len() as u64;
    down.reverse();
    let mut w = down;
    w.push(1.0);
    let (mut t, mut k) = (1.0_f64, mode);
    while k < hi {
        t *= lambda / (k + 1) as f64;
        if t < PMF_FLOOR {
            break;
        }
        w.push(t);
        k += 1;
    }
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
