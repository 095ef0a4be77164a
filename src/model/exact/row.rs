//! One risk row: its figures (`Risk`, what `risk`, `sweep` and `size
//! --risk` print), what it is built from (`RowFigures`, from a table in
//! `risk.rs` or without one in `gamma_row.rs`), and the run's any-second
//! chance.

use serde::Serialize;

use super::point::Point;
use super::special::ln_1m_exp;
use crate::error::{ParamError, ParamResult, Problem};
use crate::model::law::TrafficModel;

/// `ln(1 - (1 - p)^T)` from `ln p`: the chance that at least one of
/// `seconds` independent seconds goes over, finite however small `p` is.
pub fn ln_p_any_over(ln_p: f64, seconds: f64) -> f64 {
    if ln_p == f64::NEG_INFINITY {
        return ln_p;
    }
    if ln_p + seconds.ln() < -40.0 {
        // T p < 4e-18: 1 - (1-p)^T = T p (1 - (T-1) p / 2 + ...) to double
        // precision.
        return seconds.ln() + ln_p;
    }
    ln_1m_exp(seconds * ln_1m_exp(ln_p))
}

/// One row of risk figures: what `risk`, `sweep` and `size --risk` print.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Risk {
    /// Likes per second.
    pub rate: f64,
    /// Shards the likes spread over.
    pub shards: u64,
    /// Writes per second one shard may take.
    pub cap: f64,
    /// Length of the run the "any second" figures cover.
    pub seconds: f64,
    /// How the likes in a second are counted.
    pub traffic: TrafficModel,
    /// P(the busiest shard goes over the cap in one second).
    pub p_over_cap_per_second: f64,
    /// Its natural log: finite even where the probability underflows f64.
    pub ln_p_over_cap_per_second: f64,
    /// P(at least one second over the cap during the run).
    pub p_any_over_cap: f64,
    /// Its natural log: finite even where the probability underflows f64.
    pub ln_p_any_over_cap: f64,
    /// True when a probability above is positive but below f64's range
    /// (printed as 0): read the `ln_` field.
    pub underflow: bool,
    /// Mean writes on the busiest shard in one second.
    pub busiest_mean_per_second: f64,
    /// 99.9% quantile of the busiest shard in one second.
    pub busiest_p999_per_second: u64,
    /// The busiest shard over the whole run: median and 1% / 99% quantiles.
    pub busiest_over_run_median: u64,
    /// The busiest shard over the whole run: 1% quantile.
    pub busiest_over_run_q01: u64,
    /// The busiest shard over the whole run: 99% quantile.
    pub busiest_over_run_q99: u64,
    /// Bound on the relative error of `p_over_cap_per_second` (and of
    /// `p_any_over_cap` when that is small): the figures come from the exact
    /// distribution, this is only floating-point and Bonferroni-bracket error.
    pub p_over_cap_rel_error: f64,
    /// `p_over_cap_rel_error <= 1e-9`: the probabilities are good to all the
    /// digits anyone prints. Every other figure is exact regardless.
    pub exact: bool,
}

impl Risk {
    /// The row from its figures (`cap` and `seconds` checked).
    pub(super) fn from_figures(point: Point, cap: f64, seconds: f64, f: RowFigures) -> Risk {
        let ln_any = ln_p_any_over(f.ln_p, seconds);
        let (p, p_any) = (f.ln_p.exp(), ln_any.exp());
        let underflow = (p == 0.0 && f.ln_p.is_finite()) || (p_any == 0.0 && ln_any.is_finite());
        Risk {
            rate: point.rate,
            shards: point.shards,
            cap,
            seconds,
            traffic: point.model,
            p_over_cap_per_second: p,
            ln_p_over_cap_per_second: f.ln_p,
            p_any_over_cap: p_any,
            ln_p_any_over_cap: ln_any,
            underflow,
            busiest_mean_per_second: f.mean,
            busiest_p999_per_second: f.p999,
            busiest_over_run_median: f.run[0],
            busiest_over_run_q01: f.run[1],
            busiest_over_run_q99: f.run[2],
            p_over_cap_rel_error: f.rel_error,
            exact: f.rel_error <= 1e-9,
        }
    }
}

#[cfg(test)]
impl Risk {
    /// The row's whole-number quantiles: the second's 99.9% and the run's
    /// median, 1% and 99% (what two ways of building a row must agree on).
    pub(super) fn quantiles(&self) -> [u64; 4] {
        [
            self.busiest_p999_per_second,
            self.busiest_over_run_median,
            self.busiest_over_run_q01,
            self.busiest_over_run_q99,
        ]
    }
}

/// What a [`Risk`] row is made of, from a table or without one.
pub(super) struct RowFigures {
    /// `ln P(max > cap)` in one second, and its relative error bound.
    pub(super) ln_p: f64,
    pub(super) rel_error: f64,
    /// The mean busiest shard in one second.
    pub(super) mean: f64,
    /// Its 99.9% quantile.
    pub(super) p999: u64,
    /// The run's peak: median, 1% and 99% quantiles.
    pub(super) run: [u64; 3],
}

/// A hot spell of at least one second (`duration_seconds`).
pub fn validate_seconds(seconds: f64) -> ParamResult<f64> {
    if !seconds.is_finite() || seconds < 1.0 {
        return Err(ParamError::new(
            "duration_seconds",
            Problem::BelowOneSecond(seconds),
        ));
    }
    Ok(seconds)
}
