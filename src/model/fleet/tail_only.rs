//! The partitions that no explicitly placed key lands on, in aggregate.
//!
//! Such a partition carries only the tail: its load is max(0, mu + sd Z),
//! Z standard Normal, independently of the other partitions and of where
//! the explicit keys went (the tail loads are drawn apart from the
//! placement). Given which partitions the explicit keys touched, the m
//! others are therefore m i.i.d. draws of that law, and the placement needs
//! only two figures from them: their busiest load, and the sum over them
//! of ln(1 - P(Poisson(load) > cap)).
//!
//! Both come from the loads in descending order, drawn as order statistics
//! by inversion: the largest of m has CDF F^m, so F(max) = V^(1/m) with V
//! uniform; given the j largest, the next is the largest of m - j draws
//! below the last, F(next) = F(last) V^(1/(m - j)) (in logs, a sum). The
//! walk stops at the first load that [`negligible`] skips: every load after
//! it is smaller, so its Chernoff bound is smaller too and the old
//! per-partition sum skipped it as well. With the quiet tails of big
//! fleets (1e8 reels on 1e6 partitions: a tail of 0.001 writes/s per
//! partition against a cap of 1,000) the busiest is already negligible and
//! the whole aggregate costs one uniform and one Normal quantile; a tail
//! near the cap costs one step per partition it can push over.

use std::f64::consts::SQRT_2;

use rand::distr::Open01;
use rand::{Rng, RngExt};
use statrs::function::erf::erfc_inv;

use super::partition_tail::{negligible, p_over};

/// The law of one partition's load when only tail keys land on it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct TailOnly {
    /// Mean of the Normal before clipping at 0 (tail likes/s / P).
    pub(super) mean: f64,
    /// Its standard deviation (the multinomial's, sum r^2 (1/P)(1 - 1/P)).
    pub(super) sd: f64,
    /// The partition's cap, a whole number of writes/s.
    pub(super) cap: f64,
    /// The largest load [`negligible`] skips (to the last bits): any load
    /// at or below it is skipped without the logarithms.
    skip_below: f64,
}

/// What the tail-only partitions of one placement add to it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct TailOnlyDraw {
    /// The busiest tail-only partition's load (0 when there is none).
    pub(super) busiest: f64,
    /// sum over them of ln(1 - P(Poisson(load) > cap)).
    pub(super) ln_ok: f64,
}

impl TailOnly {
    /// The clipped Normal(mean, sd) under `cap`.
    pub(super) fn new(mean: f64, sd: f64, cap: f64) -> TailOnly {
        // By bisection on [0, cap + 1] (a load of 0 is always skipped, one
        // of cap + 1 or more never).
        let (mut lo, mut hi) = (0.0f64, cap + 1.0);
        for _ in 0..100 {
            let mid = 0.5 * (lo + hi);
            match negligible(mid, cap) {
                true => lo = mid,
                false => hi = mid,
            }
        }
        TailOnly {
            mean,
            sd,
            cap,
            skip_below: lo,
        }
    }

    /// Whether a partition at `load` is skipped ([`negligible`]). A load
    /// at or below `skip_below` has a smaller Chernoff exponent (it grows
    /// with the load), so it is skipped without computing it; the float
    /// evaluation could disagree only within rounding of the boundary,
    /// where the bound is e^-69 either way.
    pub(super) fn skips(&self, load: f64) -> bool {
        load <= self.skip_below || negligible(load, self.cap)
    }

    /// ln(1 - P(Poisson(load) > cap)): 0 for a load [`negligible`] skips.
    pub(super) fn ln_ok(&self, load: f64) -> f64 {
        match self.skips(load) {
            true => 0.0,
            false => (-p_over(load, self.cap)).ln_1p(),
        }
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

    /// The busiest load and the ln(1 - P(over)) sum of `m` tail-only
    /// partitions, drawn with `rng`: the same law as drawing each of the m
    /// loads and summing over all of them.
    pub(super) fn draw<R: Rng + ?Sized>(&self, m: u64, rng: &mut R) -> TailOnlyDraw {
        if m == 0 {
            return TailOnlyDraw {
                busiest: 0.0,
                ln_ok: 0.0,
            };
        }
        if self.sd.is_nan() || self.sd <= 0.0 {
            // Every tail-only partition carries the mean exactly.
            let load = self.mean.max(0.0);
            let ln_ok = m as f64 * self.ln_ok(load);
            return TailOnlyDraw {
                busiest: load,
                ln_ok,
            };
        }
        let mut ln_f = 0.0f64;
        let mut ln_ok = 0.0f64;
        let mut busiest = 0.0f64;
        for j in 0..m {
            let v: f64 = rng.sample(Open01);
            ln_f += v.ln() / (m - j) as f64;
            let load = self.load_at(ln_f);
            if j == 0 {
                busiest = load;
            }
            // The loads only fall from here: each later one is skipped too.
            if self.skips(load) {
                break;
            }
            ln_ok += self.ln_ok(load);
        }
        TailOnlyDraw { busiest, ln_ok }
    }

    /// P(one tail-only partition's load is not negligible): the expected
    /// share of the m partitions [`TailOnly::draw`] walks through.
    pub(super) fn share_drawn(&self) -> f64 {
        if self.sd.is_nan() || self.sd <= 0.0 {
            return (!self.skips(self.mean.max(0.0))) as u8 as f64;
        }
        // P(mean + sd Z > skip_below) = erfc(t / sqrt 2) / 2.
        let t = (self.skip_below - self.mean) / self.sd;
        0.5 * statrs::function::erf::erfc(t / SQRT_2)
    }
}

#[cfg(test)]
mod tests;
