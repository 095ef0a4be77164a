//! A quick screen for a sizing search's scan (issue 37): the union bound
//! `U = P E[g(K)]` bracketed with a partition's chance read off a grid of
//! shares instead of a tail a term. A search for the fewest keys that meet
//! a risk asks at every count from the floor up (and on to twice the
//! answer, looking for counts that fail again), 32,000 counts for 16,036
//! keys over 100 partitions, each count's union bound a sum of dozens of
//! Poisson tails.
//!
//! `g` grows with the partition's share of the likes, `k / S`, whatever
//! the traffic law (a count's tail grows with its mean or its chance). So
//! with shares on the grid `j / GRID` (`GRID = 2^20`), `g(j_lo / GRID) <=
//! g(k / S) <= g(j_hi / GRID)` for the grid points around `k / S`, and the
//! sums with those bracket `U` (the terms left out, the binomial's far
//! tails past [`split_terms`]' cut, are added to the top as if `g` were 1
//! there). Where the top is
//! within the risk the count meets; where the bottom is past where the
//! count fails ([`PartitionRisk::meets`]' stop), it fails; else `meets`
//! decides as before. So the screen changes no answer; the grid's values
//! are computed once each, and neighbouring counts share them. Used under
//! Poisson traffic, whose tails are cheap (see `meets_screened`).

use std::cell::RefCell;

use super::super::busiest::{split_terms, PMF_CUT};
use super::PartitionRisk;
use crate::model::exact::special::ln_dbinom;
use crate::model::law::Share;

/// Shares on the grid are multiples of `1 / GRID`.
const GRID: u64 = 1 << 20;
/// Rounding in the sums (recurrences over at most a few thousand terms):
/// the bracket is widened by this, relative.
const SLACK: f64 = 1e-9;

/// `g` at the grid's shares, computed once each (NaN until then).
pub(super) struct ShareGrid<'a> {
    risk: &'a PartitionRisk,
    g: RefCell<Vec<f64>>,
}

impl<'a> ShareGrid<'a> {
    pub(super) fn new(risk: &'a PartitionRisk) -> Self {
        ShareGrid {
            risk,
            g: RefCell::new(Vec::new()),
        }
    }

    /// `g(j / GRID)`, 0 at `j = 0`.
    fn g(&self, j: u64) -> f64 {
        if j == 0 {
            return 0.0;
        }
        let mut g = self.g.borrow_mut();
        if g.is_empty() {
            // 8 MiB, once a search.
            g.resize(GRID as usize + 1, f64::NAN);
        }
        let slot = &mut g[j as usize];
        if slot.is_nan() {
            let r = self.risk;
            let ln_q = r
                .traffic
                .law()
                .ln_share_sf(r.rate, Share::of(j, GRID), r.cap);
            *slot = crate::model::exact::ln_p_any_over(ln_q.min(0.0), r.seconds).exp();
        }
        *slot
    }

    /// `(lower, upper)` bounds on the union bound `U` at `shards` keys
    /// (more than one partition).
    pub(super) fn bracket(&self, shards: u64) -> (f64, f64) {
        let p = self.risk.partitions as f64;
        let (w, v) = (1.0 / p, 1.0 - 1.0 / p);
        let n = shards;
        let mode = (((n + 1) as f64 * w).floor() as u64).min(n);
        let top = ln_dbinom(mode, n, w, v).exp();
        // The grid points around k / S (integer arithmetic, exact).
        let around = |k: u64| {
            let scaled = k as u128 * GRID as u128;
            let lo = (scaled / n as u128) as u64;
            let hi = scaled.div_ceil(n as u128) as u64;
            (self.g(lo), self.g(hi))
        };
        let (mut lower, mut upper) = (0.0, 0.0);
        // The binomial's terms out from its mode, as the exact sums take
        // them, to where they fall below `PMF_CUT`.
        split_terms(
            n as usize,
            (mode as usize, top, w / v),
            (n as usize, n as usize),
            |k, pmf| {
                let (a, b) = around(k as u64);
                lower += pmf * a;
                upper += pmf * b;
            },
        );
        // Each term left out is below the cut (the pmf falls away from its
        // mode), and g <= 1: at most n + 1 of them.
        let rest = (n + 1) as f64 * PMF_CUT;
        (
            p * lower * (1.0 - SLACK),
            p * (upper + rest) * (1.0 + SLACK),
        )
    }
}
