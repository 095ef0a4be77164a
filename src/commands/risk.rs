//! `shardplan risk` and `shardplan sweep`: exact over-cap figures.

use crate::config::options::{RiskOptions, SweepOptions};
use crate::model::exact::{self, Risk};
use crate::model::law::TrafficModel;
use crate::model::picker::risk::{ln_p_any_over_cap, picker_risk, picker_risk_work, KeyMethod};
use crate::model::read_cost::ReadPlan;
use crate::views::observed::{ObservedTraffic, WithObserved};
use crate::views::risk::{RiskView, SweepRow, SweepView};
use crate::views::unlikes::WithUnlikes;

pub fn run_risk(o: RiskOptions) -> anyhow::Result<()> {
    let (plan, r) = (&o.plan, &o.resolved);
    super::announce(o.cost, o.output.quiet);
    let spinner = crate::output::progress::spinner(
        format!(
            "computing the exact risk (about {})",
            crate::output::fmt::rough_duration(o.cost.seconds)
        ),
        !o.output.quiet && o.cost.seconds > 3.0,
    );
    let cap = plan.sizing.plan.cap;
    let risk =
        Risk::compute(o.rate, o.shards, cap, o.seconds, o.traffic).map_err(|e| r.blame(e))?;
    spinner.finish_and_clear();
    let verdict = super::plan_verdict(plan, o.shards).map_err(|e| r.blame(e))?;
    let (holds, line) = (verdict.holds, crate::views::verdict::line(&verdict));
    let writers = plan.inputs.writers;
    let picker = match writers.picker.splits_like_random() {
        true => None,
        false => {
            // A seeded run of the picker: progress past a second of it.
            let load = (o.rate, o.shards, cap);
            let law = (o.traffic, writers);
            let work = picker_risk_work(load, o.seconds, law).map_err(|e| r.blame(e))?;
            let bar = super::simulated_seconds_bar(work, o.output.quiet);
            let run = picker_risk(load, o.seconds, law, o.seed, &|n| bar.inc(n));
            bar.finish_and_clear();
            Some(run.map_err(|e| r.blame(e))?)
        }
    };
    let view = RiskView(risk, Some(plan.recommendation.clone()), picker);
    let view = crate::views::verdict::WithVerdict {
        report: &view,
        verdict: Some(verdict),
        headline: true,
    };
    let view = WithObserved {
        report: &view,
        observed: r.observed.as_deref().map(ObservedTraffic::new),
    };
    let view = WithUnlikes {
        report: &view,
        unlikes: super::unlikes_block((&r.inputs, r.unlikes), plan, o.shards)?,
    };
    super::emit(o.output.set, &view, &r.inputs, o.output.explain)?;
    super::check(o.output.check, holds, &line)
}

/// The exact risk and the read cost for each shard count (`sweep`'s rows);
/// `done` is called once per finished row.
pub fn sweep_rows(
    rate: f64,
    counts: &[u64],
    cap: f64,
    (seconds, traffic): (f64, TrafficModel),
    reads: &ReadPlan,
    done: &(dyn Fn() + Sync),
) -> anyhow::Result<Vec<SweepRow>> {
    Ok(exact::sweep(rate, counts, cap, seconds, traffic, done)?
        .into_iter()
        .map(|risk| {
            let cost = reads.cost(risk.shards);
            SweepRow {
                reads_uncached_per_second: cost.reads_uncached_per_second,
                reads_cached_per_second: cost.reads_cached_per_second,
                risk,
                holds: None,
                fails: Vec::new(),
                recommended_shards: None,
                picker: None,
                picker_p_any_over_cap: None,
                picker_ln_p_any_over_cap: None,
                picker_method: None,
                verdict: None,
            }
        })
        .collect())
}

pub fn run_sweep(o: SweepOptions) -> anyhow::Result<()> {
    let (plan, r) = (&o.plan, &o.resolved);
    super::announce(o.cost, o.output.quiet);
    let bar = crate::output::progress::bar(
        (o.rates.len() * o.counts.len()) as u64,
        "rows",
        !o.output.quiet && o.cost.seconds > 3.0,
    );
    let mut rows = Vec::new();
    for &rate in &o.rates {
        let mut at = sweep_rows(
            rate,
            &o.counts,
            plan.sizing.plan.cap,
            (o.seconds, o.traffic),
            &plan.reads,
            &|| bar.inc(1),
        )
        .map_err(|e| match e.downcast::<crate::error::ParamError>() {
            Ok(pe) => r.blame(pe).into(),
            Err(e) => e,
        })?;
        judge_rows(plan, rate, &mut at).map_err(|e| r.blame(e))?;
        rows.extend(at);
    }
    bar.finish_and_clear();
    let failing = rows
        .iter()
        .find_map(|row| row.verdict.as_ref().filter(|v| !v.holds));
    let line = failing.map(crate::views::verdict::line);
    let view = WithObserved {
        report: &SweepView(rows),
        observed: r.observed.as_deref().map(ObservedTraffic::new),
    };
    // The most shards listed: the likeliest to leave one below zero.
    let most = o.counts.iter().copied().max().unwrap_or(1);
    let view = WithUnlikes {
        report: &view,
        unlikes: super::unlikes_block((&r.inputs, r.unlikes), plan, most)?,
    };
    super::emit(o.output.set, &view, &r.inputs, o.output.explain)?;
    super::check(
        o.output.check,
        line.is_none(),
        line.as_deref().unwrap_or(""),
    )
}

/// Each row's verdict: the plan at the row's rate (its own recommendation),
/// judged at the row's count, the per-key risk taken from the row itself.
fn judge_rows(
    plan: &crate::config::plan::Plan,
    rate: f64,
    rows: &mut [SweepRow],
) -> crate::error::ParamResult<()> {
    let (inputs, rec) = match plan.inputs.is_planned_rate(rate) {
        true => (plan.inputs.clone(), plan.recommendation.clone()),
        false => {
            let at = plan.inputs.at_peak(rate)?;
            let rec = at.recommend()?;
            (at, rec)
        }
    };
    let judged_at = inputs.planned_rate();
    let w = inputs.writers;
    let random = w.picker.splits_like_random();
    for row in rows {
        let r = &row.risk;
        // Another picker's own chance over the run, beside the random law's.
        let picked = match random {
            true => None,
            false => ln_p_any_over_cap(r.rate, r.shards, r.cap, r.seconds, r.traffic, w).ok(),
        };
        // The row's figure (the random law's, or the picker's) is the key
        // check's when it ran at the planned rate over the same spell.
        let same = r.rate == judged_at && r.seconds == inputs.key_check.seconds;
        let known = match random {
            true => Some((r.ln_p_any_over_cap, KeyMethod::Exact)),
            false => picked,
        };
        let e = inputs.judge(r.shards, &rec, known.filter(|_| same))?;
        row.judge(e.verdict(rec.shards, judged_at));
        if !random {
            row.picker = Some(w.picker);
            row.picker_p_any_over_cap = picked.map(|p| p.0.exp());
            row.picker_ln_p_any_over_cap = picked.map(|p| p.0);
            row.picker_method = picked.map(|p| p.1);
        }
    }
    Ok(())
}
