//! `shardplan risk` and `shardplan sweep`: exact over-cap figures.

use crate::cli::{RiskArgs, SweepArgs};
use crate::config::lists;
use crate::config::plan::PlanFlags;
use crate::config::Run;
use crate::config::{Resolver, Sourced};
use crate::model::exact::{self, Risk};
use crate::model::read_cost::ReadPlan;
use crate::model::traffic::TrafficModel;
use crate::output::OutputSet;
use crate::views::observed::{ObservedTraffic, WithObserved};
use crate::views::risk::{RiskView, SweepRow, SweepView};
use crate::views::unlikes::WithUnlikes;

pub fn run_risk(args: RiskArgs, run: &Run) -> anyhow::Result<()> {
    let mut r = Resolver::for_load(run, &args.scenario, "risk")?;
    r.observe(&args.observed, Some(&args.sizing))?;
    let flags = PlanFlags::new(&args.plan, &args.span.duration, &args.span.traffic);
    // The read path (the scenario's) feeds the verdict's read cap.
    let plan = r.plan(&args.sizing, &Default::default(), flags)?;
    let sizing = &plan.sizing;
    let seconds = r.duration(args.span.duration.seconds())?;
    let traffic = r.traffic(args.span.traffic.traffic, args.span.traffic.dispersion)?;
    let rate = r.rate(args.rate.one()?, sizing.peak.peak, traffic)?;
    let sized = Sourced::derived(
        plan.recommendation.shards,
        "the recommendation (shardplan size)",
    );
    let shards = r.shards(args.shards.one()?, sized);
    let out = OutputSet::prepare(run, args.out.format, &args.out.output.output)?;
    // Empirical traffic's cost is its law's (the distinct counts).
    let long = match traffic.empirical() {
        Some(_) => "traffic",
        None => "rate",
    };
    let cost = crate::model::cost::exact_risk(rate, shards, traffic)
        .within_limit(long)
        .map_err(|e| r.blame(e))?;
    super::announce(cost, args.out.quiet.quiet);
    let spinner = crate::output::progress::spinner(
        format!(
            "computing the exact risk (about {})",
            crate::output::fmt::rough_duration(cost.seconds)
        ),
        !args.out.quiet.quiet && cost.seconds > 3.0,
    );
    let risk =
        Risk::compute(rate, shards, sizing.plan.cap, seconds, traffic).map_err(|e| r.blame(e))?;
    spinner.finish_and_clear();
    let verdict = super::plan_verdict(&plan, shards).map_err(|e| r.blame(e))?;
    let (holds, line) = (verdict.holds, crate::views::verdict::line(&verdict));
    let view = RiskView(risk, Some(plan.recommendation));
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
        unlikes: super::unlikes_block((&r.inputs, r.unlike_plan), &sizing.peak, shards)?,
    };
    super::emit(out, &view, &r.inputs, args.out.explain.explain)?;
    super::check(args.check.check, holds, &line)
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
                verdict: None,
            }
        })
        .collect())
}

pub fn run_sweep(args: SweepArgs, run: &Run) -> anyhow::Result<()> {
    let mut r = Resolver::for_load(run, &args.scenario, "sweep")?;
    r.observe(&args.observed, Some(&args.sizing))?;
    // The plan each row is judged against, as `size` resolves it.
    let flags = PlanFlags::new(&args.plan, &args.span.duration, &args.span.traffic);
    let plan = r.plan(&args.sizing, &args.reads, flags)?;
    let (sizing, reads) = (&plan.sizing, plan.reads);
    let seconds = r.duration(args.span.duration.seconds())?;
    let traffic = r.traffic(args.span.traffic.traffic, args.span.traffic.dispersion)?;
    let shards = Sourced::flag(
        "--shards",
        args.shards.shards.as_ref().map(|s| s.text.clone()),
    )
    .unwrap_or(Sourced::default(
        crate::model::defaults::DEFAULT_SWEEP_SHARDS.to_string(),
    ));
    let counts = lists::shard_counts("--shards", &shards.value)?;
    r.inputs.record("shards", &shards);
    let rates = sweep_rates(&args, &mut r, sizing.peak.peak, traffic)?;
    let cost = rates
        .iter()
        .map(|&rate| crate::model::cost::sweep(rate, &counts, traffic))
        .fold(crate::model::cost::Estimate::new(0.0), |a, b| a.then(b));
    cost.within_limit("shards").map_err(|e| r.blame(e))?;
    let out = OutputSet::prepare(run, args.out.format, &args.out.output.output)?;
    super::announce(cost, args.out.quiet.quiet);
    let bar = crate::output::progress::bar(
        (rates.len() * counts.len()) as u64,
        "rows",
        !args.out.quiet.quiet && cost.seconds > 3.0,
    );
    let mut rows = Vec::new();
    for &rate in &rates {
        let mut at = sweep_rows(
            rate,
            &counts,
            sizing.plan.cap,
            (seconds, traffic),
            &reads,
            &|| bar.inc(1),
        )
        .map_err(|e| match e.downcast::<crate::error::ParamError>() {
            Ok(pe) => r.blame(pe).into(),
            Err(e) => e,
        })?;
        judge_rows(&plan, rate, &mut at).map_err(|e| r.blame(e))?;
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
    let most = counts.iter().copied().max().unwrap_or(1);
    let view = WithUnlikes {
        report: &view,
        unlikes: super::unlikes_block((&r.inputs, r.unlike_plan), &sizing.peak, most)?,
    };
    super::emit(out, &view, &r.inputs, args.out.explain.explain)?;
    super::check(
        args.check.check,
        line.is_none(),
        line.as_deref().unwrap_or(""),
    )
}

/// `sweep --rate`: one rate or a list (refused under empirical traffic,
/// whose rate is the trace's), else the planned peak.
fn sweep_rates(
    args: &SweepArgs,
    r: &mut Resolver,
    peak: f64,
    traffic: crate::model::traffic::TrafficModel,
) -> anyhow::Result<Vec<f64>> {
    Ok(match args.rate.rate.as_ref().map(|r| &r.text) {
        Some(_) if traffic.empirical().is_some() => {
            return Err(crate::error::InputError::new(
                "--rate",
                "has no effect with --traffic empirical: the rate is the mean of the observed \
                 seconds grown to the planned peak; drop it (or choose another --traffic)",
            )
            .into())
        }
        Some(t) => {
            let rates = lists::rates(t)?;
            r.inputs
                .record("rate", &Sourced::from_flag("--rate", rates.clone()));
            rates
        }
        None => vec![r.rate(None, peak, traffic)?],
    })
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
    for row in rows {
        // The row's own figure is the key check's when it ran at the
        // planned rate over the same spell and law.
        let known = (row.risk.rate == judged_at && row.risk.seconds == inputs.key_check.seconds)
            .then_some(row.risk.ln_p_any_over_cap);
        let e = inputs.judge(row.risk.shards, &rec, known)?;
        row.judge(e.verdict(rec.shards, judged_at));
    }
    Ok(())
}
