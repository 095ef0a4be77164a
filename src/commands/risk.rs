//! `shardplan risk` and `shardplan sweep`: exact over-cap figures.

use crate::config::options::{RiskOptions, SweepOptions};
use crate::model::key_risk::KeyRisk;
use crate::model::law::TrafficModel;
use crate::model::picker::risk::{picker_risk, picker_risk_work};
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
    let writers = plan.inputs.writers;
    let risk = KeyRisk::compute((o.rate, o.shards, cap), (o.seconds, o.traffic), writers)
        .map_err(|e| r.blame(e))?;
    spinner.finish_and_clear();
    let verdict = super::plan_verdict(plan, o.shards).map_err(|e| r.blame(e))?;
    let (holds, line) = (verdict.holds, crate::views::verdict::line(&verdict));
    let simulated = match writers.picker.splits_like_random() {
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
    let view = RiskView {
        like_rate: o.like_rate,
        risk,
        recommendation: plan.recommendation.clone(),
        simulated,
    };
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

/// A sweep's rows at `rate` writes/s: each count's per-key row under the
/// plan's picker, judged by the plan at that rate (its own recommendation
/// there), with the partition and node risks and the read cost of that
/// judgement. `sweep`, the risk chart and `report`'s table are these rows.
pub fn sweep_rows(
    plan: &crate::config::plan::Plan,
    (like_rate, rate): (f64, f64),
    counts: &[u64],
    (seconds, traffic): (f64, TrafficModel),
    done: &(dyn Fn() + Sync),
) -> crate::error::ParamResult<Vec<SweepRow>> {
    let load = (rate, counts, plan.sizing.plan.cap);
    let rows = KeyRisk::sweep(load, (seconds, traffic), plan.inputs.writers, done)?;
    let (inputs, rec) = match plan.inputs.is_planned_rate(rate) {
        true => (plan.inputs.clone(), plan.recommendation.clone()),
        false => {
            let at = plan.inputs.at_peak(rate)?;
            let rec = at.recommend()?;
            (at, rec)
        }
    };
    let judged_at = inputs.planned_rate();
    rows.into_iter()
        .map(|risk| {
            // The row's figure is the key check's when it ran at the
            // planned rate over the same spell.
            let same = risk.write_rate == judged_at && risk.seconds == inputs.key_check.seconds;
            let known = same.then_some((risk.key_ln_p_any_over_cap, risk.key_method));
            let e = inputs.judge(risk.shards, &rec, known)?;
            let verdict = e.verdict(rec.shards, judged_at);
            Ok(SweepRow {
                rate: like_rate,
                partition_p_any_over_cap: e.partition_p_any_over_cap,
                partition_ln_p_any_over_cap: e.partition_ln_p_any_over_cap,
                node_p_any_over_cap: e.node_p_any_over_cap,
                node_ln_p_any_over_cap: e.node_ln_p_any_over_cap,
                reads_uncached_per_second: e.reads_uncached_per_second,
                reads_cached_per_second: e.reads_cached_per_second,
                holds: verdict.holds,
                fails: verdict.fails(),
                recommended_shards: rec.shards,
                verdict,
                risk,
            })
        })
        .collect()
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
        let at = sweep_rows(plan, rate, &o.counts, (o.seconds, o.traffic), &|| {
            bar.inc(1)
        })
        .map_err(|e| r.blame(e))?;
        rows.extend(at);
    }
    bar.finish_and_clear();
    let failing = rows.iter().map(|row| &row.verdict).find(|v| !v.holds);
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
