//! The partitions that no explicitly placed key lands on, in aggregate,
//! for the hottest partition's load.
//!
//! Such a partition carries only the tail: its load is max(0, mu + sd Z),
//! Z standard Normal, independently of the other partitions and of where
//! the explicit keys went (the tail loads are drawn apart from the
//! placement). Given which partitions the explicit keys touched, the m
//! others are therefore m i.i.d. draws of that law, and the placement needs
//! only their busiest load: the largest of m has CDF F^m, so it is drawn by
//! inversion, F(busiest) = V^(1/m) with V uniform: one uniform and one
//! Normal quantile however many partitions (1e8 reels on 1e6 partitions:
//! a million tail-only partitions a placement).

use std::f64::consts::SQRT_2;

use rand::distr::Open01;
use rand::{Rng, RngExt};
use statrs::function::erf::erfc_inv;

/// The law of one partition's load when only tail keys land on it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct TailOnly {
    /// Mean of the Normal before clipping at 0 (tail likes/s / P).
    pub(super) mean: f64,
    /// Its standard deviation (the multinomial's, sum r^2 (1/P)(1 - 1/P)).
    pub(super) sd: f64,
}

impl TailOnly {
    /// The clipped Normal(mean, sd).
    pub(super) fn new(mean: f64, sd: f64) -> TailOnly {
        TailOnly { mean, sd }
    }

    /// The load at CDF position exp(ln_f) (0 < exp(ln_f) < 1), clipped at 0.
    /// The Normal quantile is taken from whichever tail is the smaller, so
    /// neither a position near 1 (the busiest of a million) nor one near 0
    /// loses digits to 1 - F.
    fn load_at(&self, ln_f: f64) -> f64 {
        let f = ln_f.exp();
        let z = if f < 0.5 {
            -SQRT_2 * erfc_inv(2.0 * f)
        } else {
            SQRT_2 * erfc_inv(-2.0 * ln_f.exp_m1())
        };
        (self.mean + self.sd * z).max(0.0)
    }

    /// The busiest load of `m` tail-only partitions (0 when there is
    /// none), drawn with `rng`: the same law as drawing each of the m
    /// loads and taking the largest.
    pub(super) fn busiest<R: Rng + ?Sized>(&self, m: u64, rng: &mut R) -> f64 {
        if m == 0 {
            return 0.0;
        }
        if self.sd.is_nan() || self.sd <= 0.0 {
            // Every tail-only partition carries the mean exactly.
            return self.mean.max(0.0);
        }
        let v: f64 = rng.sample(Open01);
        self.load_at(v.ln() / m as f64)
    }
}

#[cfg(test)]
mod tests;
