//! Empirical traffic's exact figures: the mixture over the observed
//! counts of the fixed-count law.
//!
//! A planned second is one observed second drawn uniformly, so with `w_n`
//! the fraction of seconds that had `n` likes,
//!
//! `P(max <= c) = sum_n w_n P(max <= c | n)` and
//! `P(max > c) = sum_n w_n P(max > c | n)`,
//!
//! each conditional law being fixed traffic's (`busiest`, `point`). Both
//! sums are of positive terms, taken in logs (shifted by the largest term,
//! compensated), so neither cancels: the tail is summed as a tail, never
//! as `1 -` the CDF, and keeps its digits far below 1e-300. A count that
//! cannot go over `c` (`n <= c`) adds exactly 0 to the tail and its whole
//! weight to the CDF; one that must (`n > S c`) the reverse. Equal counts
//! were grouped when the law was built, so each distinct count costs one
//! fixed-count table (or point), in parallel over the counts; the results
//! are combined in the law's order, so they do not depend on the threads.

use rayon::prelude::*;

use super::busiest::BusiestShard;
use super::point::Point;
use super::special::neumaier;
use crate::error::ParamResult;
use crate::model::law::empirical::{ln_sum, EmpiricalLaw};
use crate::model::law::TrafficModel;

/// Rounding of a compensated sum of positive terms taken from their logs,
/// relative (a few ulps of the `exp` and the final `ln`).
const MIX_ROUNDING: f64 = 1e-15;

/// A term below this fraction of a row's sum (over all terms skipped
/// together) cannot change it in double precision.
const NEGLIGIBLE: f64 = 1e-17;

impl Point {
    /// The fixed-count point of one observed count `n >= 1`.
    fn component(&self, n: u64) -> Point {
        Point {
            rate: n as f64,
            shards: self.shards,
            model: TrafficModel::Fixed,
        }
    }

    /// `ln P(max > c)` and its relative error: the counts above `c` only.
    /// A weighted sum of positive terms has at most the largest relative
    /// error of its terms, plus its own rounding.
    pub(super) fn mix_ln_sf(&self, law: &EmpiricalLaw, c: u64) -> (f64, f64) {
        let from = law.counts().partition_point(|&n| n <= c);
        let parts: Vec<(f64, f64)> = law.counts()[from..]
            .par_iter()
            .zip(law.weights()[from..].par_iter())
            .map(|(&n, &w)| {
                let (ln_p, err) = self.component(n).ln_sf_with_error(c);
                (w.ln() + ln_p, err)
            })
            .collect();
        let terms: Vec<f64> = parts.iter().map(|p| p.0).collect();
        let err = parts.iter().map(|p| p.1).fold(0.0, f64::max);
        (ln_sum(&terms).min(0.0), err + MIX_ROUNDING)
    }

    /// `ln P(max <= c)`: the counts at most `c` whole, those that can fit
    /// under `c` (`n <= S c`) by their fixed law, the rest not at all.
    pub(super) fn mix_ln_cdf(&self, law: &EmpiricalLaw, c: u64) -> f64 {
        let under = law.counts().partition_point(|&n| n <= c);
        let fits = law
            .counts()
            .partition_point(|&n| n <= self.shards.saturating_mul(c));
        let mut terms: Vec<f64> = law.counts()[under..fits]
            .par_iter()
            .zip(law.weights()[under..fits].par_iter())
            .map(|(&n, &w)| w.ln() + self.component(n).ln_cdf(c))
            .collect();
        if under > 0 {
            let whole = law.weights()[..under]
                .iter()
                .fold((0.0, 0.0), |acc, &w| neumaier(acc, w));
            terms.push((whole.0 + whole.1).ln());
        }
        ln_sum(&terms).min(0.0)
    }
}

/// One row of the mixture's table.
struct Row {
    ln_cdf: f64,
    ln_sf: f64,
    /// Absolute error of `P(max <= c)` (0 to rounding on most rows).
    cdf_error: f64,
}

/// The busiest shard's table under empirical traffic: one fixed-count
/// table per distinct count, mixed row by row. The table spans the counts'
/// tables together: below the lowest start every count's `P(max <= c)` is
/// under 1e-30, above the highest end every `P(max > c)` under 1e-17.
pub(super) fn busiest(point: Point, law: &'static EmpiricalLaw) -> ParamResult<BusiestShard> {
    let shards = point.shards;
    // A count of 0 has no table: its busiest shard is 0.
    let tables: Vec<Option<BusiestShard>> = law
        .counts()
        .par_iter()
        .map(|&n| {
            (n > 0)
                .then(|| BusiestShard::new(n as f64, shards, TrafficModel::Fixed))
                .transpose()
        })
        .collect::<ParamResult<_>>()?;
    let range = |t: &Option<BusiestShard>| t.as_ref().map_or((0, 0), |t| t.table_range());
    let lo = tables.iter().map(|t| range(t).0).min().unwrap_or(0);
    let hi = tables.iter().map(|t| range(t).1).max().unwrap_or(0);
    let rows: Vec<Row> = (lo..=hi)
        .into_par_iter()
        .map(|c| row(law, shards, &tables, c))
        .collect();
    // Where a row's P(max <= c) is good only to an absolute error (the
    // bottom, where some count's own table has not started or holds
    // inclusion-exclusion's `1 - P(max > c)`), exact values are computed on
    // demand, as for a fixed table.
    let exact = |r: &Row| r.cdf_error <= MIX_ROUNDING * r.ln_cdf.exp();
    let exact_from = rows.iter().rposition(|r| !exact(r)).map_or(0, |i| i + 1);
    let bottom_error = rows[..exact_from]
        .iter()
        .map(|r| r.cdf_error)
        .fold(0.0, f64::max);
    let pairs = rows.iter().map(|r| (r.ln_cdf, r.ln_sf)).collect();
    Ok(BusiestShard::from_parts(
        point,
        lo,
        pairs,
        exact_from,
        bottom_error,
    ))
}

/// The mixture at one `c`, from the counts' tables.
fn row(law: &EmpiricalLaw, shards: u64, tables: &[Option<BusiestShard>], c: u64) -> Row {
    let (mut cdf, mut sf) = (Vec::new(), Vec::new());
    let mut cdf_error = 0.0;
    // Counts whose table ends below c: their tails, under 1e-17 each, are
    // added after the others if they could show in the sum.
    let mut above: Vec<(f64, f64, &BusiestShard)> = Vec::new();
    for ((n, w), t) in law.iter().zip(tables) {
        let ln_w = w.ln();
        let t = match t {
            Some(t) if n > c => t,
            // n <= c (a count of 0 included): never over c.
            _ => {
                cdf.push(ln_w);
                continue;
            }
        };
        let (t_lo, t_hi) = t.table_range();
        if n > shards.saturating_mul(c) {
            // Some shard must hold more than c: over c for certain.
            sf.push(ln_w);
        } else if c < t_lo {
            // P(max <= c | n) <= P(max <= t_lo | n) < 1e-30: its tail is 1
            // to double precision, its CDF a bound on the error left out.
            sf.push(ln_w);
            let (ln_cdf_lo, ..) = t.stored(t_lo).expect("the table's first row");
            cdf_error += w * (ln_cdf_lo.exp() + t.tabulated_error());
        } else if c > t_hi {
            cdf.push(ln_w);
            let (_, ln_sf_hi, _) = t.stored(t_hi).expect("the table's last row");
            above.push((ln_w + ln_sf_hi, ln_w, t));
        } else {
            let (ln_cdf, ln_sf, exact) = t.stored(c).expect("c is on the table");
            cdf.push(ln_w + ln_cdf);
            sf.push(ln_w + ln_sf);
            if !exact {
                cdf_error += w * t.tabulated_error();
            }
        }
    }
    if !above.is_empty() {
        // The tail formula is cheap there (one binomial tail a count).
        let floor = ln_sum(&sf) + (NEGLIGIBLE / above.len() as f64).ln();
        for (bound, ln_w, t) in above {
            if bound > floor {
                sf.push(ln_w + t.ln_sf(c));
            }
        }
    }
    Row {
        ln_cdf: ln_sum(&cdf).min(0.0),
        ln_sf: ln_sum(&sf).min(0.0),
        cdf_error,
    }
}
