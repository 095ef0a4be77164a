//! Risk figures built on the busiest shard's distribution: the chance of
//! going over the cap in a second and during a run, the busiest shard over
//! a run, a sweep over shard counts, and the fewest shards for a risk.

use rayon::prelude::*;

use super::busiest::BusiestShard;
use super::point::Point;
use super::row::{ln_p_any_over, validate_seconds, Risk, RowFigures};
use crate::error::{ParamError, ParamResult};
use crate::model::law::{Split, TrafficModel};
use crate::model::validate;

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
