//! `shardplan risk` and `shardplan sweep`: exact over-cap figures.

use crate::cli::{RiskArgs, SweepArgs};
use crate::config::lists;
use crate::config::plan::PlanFlags;
use crate::config::{Resolver, Sourced};
use crate::model::exact::{self, Risk};
use crate::model::read_cost::ReadPlan;
use crate::model::traffic::TrafficModel;
use crate::output::OutputSet;
use crate::views::observed::{ObservedTraffic, WithObserved};
use crate::views::risk::{RiskView, SweepRow, SweepView};
use crate::views::unlikes::WithUnlikes;

pub fn run_risk(args: RiskArgs) -> anyhow::Result<()> {
    let mut r = Resolver::for_load(&args.scenario, "risk")?;
    r.observe(&args.observed, Some(&args.sizing))?;
    let flags = PlanFlags {
        plan: None,
        duration: args.span.duration.seconds(),
        traffic: args.span.traffic.traffic,
        dispersion: args.span.traffic.dispersion,
    };
    let plan = r.plan(&args.sizing, &Default::default(), flags)?;
    // The read path only feeds the recommendation's warnings: not risk's inputs.
    for key in [
        "views",
        "servers",
        "cache_seconds",
        "batch_size",
        "read_cap",
    ] {
        r.inputs.forget(key);
    }
    let sizing = &plan.sizing;
    let seconds = r.duration(args.span.duration.seconds())?;
    let traffic = r.traffic(args.span.traffic.traffic, args.span.traffic.dispersion)?;
    let rate = r.rate(args.rate.one()?, sizing.peak.peak, traffic)?;
    let sized = Sourced::derived(
        plan.recommendation.shards,
        "the recommendation (shardplan size)",
    );
    let shards = r.shards(args.shards.one()?, sized);
    let out = OutputSet::prepare(args.out.format, &args.out.output.output)?;
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
        unlikes: super::unlikes_block(&r, &sizing.peak, shards)?,
    };
    super::emit(out, &view, &r.inputs, args.out.explain.explain)
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
            }
        })
        .collect())
}

pub fn run_sweep(args: SweepArgs) -> anyhow::Result<()> {
    let mut r = Resolver::for_load(&args.scenario, "sweep")?;
    r.observe(&args.observed, Some(&args.sizing))?;
    let (sizing, reads) = r.sizing_and_reads(&args.sizing, &args.reads)?;
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
    let rates = match args.rate.rate.as_ref().map(|r| &r.text) {
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
        None => vec![r.rate(None, sizing.peak.peak, traffic)?],
    };
    let cost = rates
        .iter()
        .map(|&rate| crate::model::cost::sweep(rate, &counts, traffic))
        .fold(crate::model::cost::Estimate::new(0.0), |a, b| a.then(b));
    cost.within_limit("shards").map_err(|e| r.blame(e))?;
    let out = OutputSet::prepare(args.out.format, &args.out.output.output)?;
    super::announce(cost, args.out.quiet.quiet);
    let bar = crate::output::progress::bar(
        (rates.len() * counts.len()) as u64,
        "rows",
        !args.out.quiet.quiet && cost.seconds > 3.0,
    );
    let mut rows = Vec::new();
    for &rate in &rates {
        rows.extend(
            sweep_rows(
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
            })?,
        );
    }
    bar.finish_and_clear();
    let view = WithObserved {
        report: &SweepView(rows),
        observed: r.observed.as_deref().map(ObservedTraffic::new),
    };
    // The most shards listed: the likeliest to leave one below zero.
    let most = counts.iter().copied().max().unwrap_or(1);
    let view = WithUnlikes {
        report: &view,
        unlikes: super::unlikes_block(&r, &sizing.peak, most)?,
    };
    super::emit(out, &view, &r.inputs, args.out.explain.explain)
}
