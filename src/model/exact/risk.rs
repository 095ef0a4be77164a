//! Risk figures built on the busiest shard's distribution: the chance of
//! going over the cap in a second and during a run, the busiest shard over
//! a run, a sweep over shard counts, and the fewest shards for a risk.

use rayon::prelude::*;
use serde::Serialize;

use super::busiest::BusiestShard;
use super::point::Point;
use super::special::ln_1m_exp;
use crate::error::{ParamError, ParamResult, Problem};
use crate::model::law::{Split, TrafficModel};
use crate::model::validate;

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
    /// Builds the distribution and the row. Errors name `--rate`,
    /// `--shards`, `--cap` and `--duration`. Gamma-poisson traffic's row
    /// needs no table (`gamma_row.rs`: five figures, a few integrals each).
    pub fn compute(
        rate: f64,
        shards: u64,
        cap: f64,
        seconds: f64,
        model: TrafficModel,
    ) -> ParamResult<Risk> {
        let point = Point::new(rate, shards, model)?;
        if matches!(model.split(point.rate), Split::GammaRate { .. }) {
            return Ok(super::gamma_row::risk(point, cap, seconds, None)?.0);
        }
        let busiest = BusiestShard::new(rate, shards, model)?;
        Risk::from_busiest(&busiest, cap, seconds)
    }

    /// The row for an already built distribution (a sweep reuses nothing
    /// across shard counts, but `risk` with several caps can).
    pub fn from_busiest(busiest: &BusiestShard, cap: f64, seconds: f64) -> ParamResult<Risk> {
        let cap = validate::non_negative("cap", cap)?;
        let seconds = validate_seconds(seconds)?;
        // The busiest count is whole: over a cap of 1000.5 means over 1000.
        let c = cap.floor().min(u64::MAX as f64) as u64;
        let ln_p = busiest.ln_sf(c);
        let (_, rel_error) = busiest.point().ln_sf_with_error(c);
        let figures = RowFigures {
            ln_p,
            rel_error,
            mean: busiest.mean(),
            p999: busiest.quantile(0.999),
            run: [0.5, 0.01, 0.99].map(|q| busiest.run_quantile(seconds, q)),
        };
        Ok(Risk::from_figures(busiest.point(), cap, seconds, figures))
    }

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

/// The chance of going over the cap, alone: what `compare` needs, from the
/// one point `c = cap` (no table; where the cap is below what the busiest
/// shard must hold, P = 1 at once).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OverCap {
    /// P(the busiest shard goes over the cap in one second).
    pub p_per_second: f64,
    /// Its natural log.
    pub ln_p_per_second: f64,
    /// P(at least one second over the cap during the run).
    pub p_any: f64,
    /// Its natural log.
    pub ln_p_any: f64,
    /// Bound on the relative error of `p_per_second`.
    pub rel_error: f64,
}

impl OverCap {
    /// The same figures as [`Risk::compute`]'s, checked the same way.
    pub fn compute(
        rate: f64,
        shards: u64,
        cap: f64,
        seconds: f64,
        model: TrafficModel,
    ) -> ParamResult<OverCap> {
        let point = Point::new(rate, shards, model)?;
        let cap = validate::non_negative("cap", cap)?;
        let seconds = validate_seconds(seconds)?;
        let c = cap.floor().min(u64::MAX as f64) as u64;
        let (ln_p, rel_error) = point.ln_sf_with_error(c);
        let ln_any = ln_p_any_over(ln_p, seconds);
        Ok(OverCap {
            p_per_second: ln_p.exp(),
            ln_p_per_second: ln_p,
            p_any: ln_any.exp(),
            ln_p_any: ln_any,
            rel_error,
        })
    }
}

pub(super) fn validate_seconds(seconds: f64) -> ParamResult<f64> {
    if !seconds.is_finite() || seconds < 1.0 {
        return Err(ParamError::new(
            "duration_seconds",
            Problem::BelowOneSecond(seconds),
        ));
    }
    Ok(seconds)
}

/// One [`Risk`] row per shard count, in the order given (for `sweep`).
/// Rows are independent, so they are computed on rayon; `done` is called
/// once per finished row (for a progress bar). Each row is built for a
/// sweep of many: fixed traffic's from [`BusiestShard::for_row`]'s table,
/// gamma-poisson traffic's without a table (`gamma_row.rs`); the figures
/// agree with [`Risk::compute`]'s to the exact engine's error.
pub fn sweep(
    rate: f64,
    shard_counts: &[u64],
    cap: f64,
    seconds: f64,
    model: TrafficModel,
    done: &(dyn Fn() + Sync),
) -> ParamResult<Vec<Risk>> {
    if matches!(model.split(rate), Split::GammaRate { .. }) {
        return super::gamma_row::sweep(rate, shard_counts, (cap, seconds), model, done);
    }
    shard_counts
        .par_iter()
        .map(|&shards| {
            let risk = BusiestShard::for_row(rate, shards, model)
                .and_then(|busiest| Risk::from_busiest(&busiest, cap, seconds));
            done();
            risk
        })
        .collect()
}

/// `ln P(any second over the cap during the run)` for `shards` shards:
/// needs only the one point `c = cap`, not the whole table.
pub fn ln_p_any_over_cap(
    rate: f64,
    shards: u64,
    cap: f64,
    seconds: f64,
    model: TrafficModel,
) -> ParamResult<f64> {
    Ok(OverCap::compute(rate, shards, cap, seconds, model)?.ln_p_any)
}

/// The fewest shards (at most `max_shards`) for which
/// `P(any second over the cap during the run) <= risk`. The risk falls as
/// shards are added, so an exponential then binary search finds the edge.
pub fn shards_for_risk(
    rate: f64,
    cap: f64,
    seconds: f64,
    risk: f64,
    model: TrafficModel,
    max_shards: u64,
) -> ParamResult<u64> {
    let ln_any = |s| ln_p_any_over_cap(rate, s, cap, seconds, model);
    fewest_meeting((rate, cap, seconds), risk, max_shards, ln_any)
}

/// The fewest shards (at most `max_shards`) whose `ln_any(shards)`, the
/// log of P(any second over the cap during the run), is within `risk`
/// (which falls as shards are added); the error names `risk` where no count
/// does. The one search behind every per-key sizing, whatever the picker.
pub fn fewest_meeting(
    (rate, cap, seconds): (f64, f64, f64),
    risk: f64,
    max_shards: u64,
    ln_any: impl Fn(u64) -> ParamResult<f64>,
) -> ParamResult<u64> {
    let risk = validate::probability_open("risk", risk)?;
    let max_shards = validate::count("max_shards", max_shards, crate::model::defaults::MAX_SHARDS)?;
    let ln_risk = risk.ln();
    let found = crate::model::search::fewest_shards(max_shards, |s| {
        Ok::<_, ParamError>(ln_any(s)? <= ln_risk)
    })?;
    found.ok_or_else(|| {
        let unmet = super::ExactProblem::RiskUnmet {
            max_shards,
            rate,
            cap,
            seconds,
            risk,
        };
        ParamError::new("risk", unmet.into())
    })
}
