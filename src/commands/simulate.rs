//! `shardplan simulate`: Monte Carlo of the per-second busiest shard, flat
//! or along a time line.

use crate::config::options::{Output, Resolved, SimulateMode, SimulateOptions};
use crate::config::simulation::FlatSimulation;
use crate::error::InputError;
use crate::model::simulation::{self, SimPlan, SimTally};
use crate::output::sink::Destination;
use crate::views::simulate::SimulateReport;

pub fn run(o: SimulateOptions) -> anyhow::Result<()> {
    match o.mode {
        SimulateMode::Flat(sim) => flat(*sim, o.per_second, &o.resolved, o.output),
        SimulateMode::Timeline { plan, planned } => {
            super::timeline::run_simulate((&plan, &planned), o.per_second, &o.resolved, o.output)
        }
    }
}

/// A flat run, judged against the plan at its count.
fn flat(
    sim: FlatSimulation,
    mut per_second: Option<Destination>,
    r: &Resolved,
    output: Output,
) -> anyhow::Result<()> {
    let tally = execute(&sim.plan, output.quiet, per_second.as_mut())?;
    if let Some(f) = per_second {
        f.commit()?;
    }
    let report = SimulateReport::new(
        r.scenario.clone(),
        &sim.plan,
        &tally,
        sim.reads.cost(sim.plan.shards),
    )
    .in_likes(sim.like_rate)
    .with_verdict(
        sim.recommended.recommendation.clone(),
        verdict(&sim.recommended, &sim.plan, &tally).map_err(|e| r.blame(e))?,
    )
    .assuming(r.assumed());
    let view = crate::views::verdict::WithVerdict {
        report: &report,
        verdict: report.verdict.clone(),
        headline: false,
    };
    let view = crate::views::observed::WithObserved {
        report: &view,
        observed: r
            .observed
            .as_deref()
            .map(crate::views::observed::ObservedTraffic::new),
    };
    let view = crate::views::unlikes::WithUnlikes {
        report: &view,
        unlikes: super::unlikes_block((&r.inputs, r.unlikes), &sim.recommended, sim.plan.shards)?,
    };
    let verdict = report.verdict.as_ref().expect("a flat run is judged");
    let line = crate::views::verdict::line(verdict);
    super::emit(output.set, &view, &r.inputs, output.explain)?;
    super::check(output.check, verdict.holds, &line)
}

/// The plan's verdict at the run's count, with the run beside it: judged
/// when it ran at the plan's own rate, reported when at a stress rate.
pub fn verdict(
    plan: &crate::config::plan::Plan,
    sim: &SimPlan,
    tally: &SimTally,
) -> crate::error::ParamResult<crate::model::verdict::Verdict> {
    let run = crate::model::verdict::SimulatedRun {
        rate: sim.rate,
        seconds: sim.seconds,
        seconds_over_cap: tally.busiest.count_above(sim.cap),
        at_plan: plan.inputs.is_planned_rate(sim.rate),
    };
    Ok(super::plan_verdict(plan, sim.shards)?.with_run(run))
}

/// Runs a flat simulation on the run's workers (`--threads`), with a
/// progress bar on a terminal unless `quiet`, streaming per-second rows to
/// `per_second` when given.
pub fn execute(
    plan: &SimPlan,
    quiet: bool,
    per_second: Option<&mut Destination>,
) -> anyhow::Result<SimTally> {
    // Progress past a second of work; the estimate past a minute.
    let cost = plan.cost(per_second.is_some());
    super::announce(cost, quiet);
    let cost = cost.on_workers();
    // The bar moves a chunk of seconds at a time: a run of one chunk whose
    // seconds are long (a picker drawing every like of 1e9 likes/s) shows
    // a spinner with its expected length instead of a bar stuck at 0.
    let one_chunk = plan.seconds <= simulation::CHUNK_SECONDS;
    let shown = !quiet && cost.seconds > 1.0;
    let bar = match one_chunk {
        true => crate::output::progress::spinner(
            format!(
                "simulating {} s (about {})",
                crate::output::fmt::count(plan.seconds),
                crate::output::fmt::rough_duration(cost.seconds)
            ),
            shown,
        ),
        false => crate::output::progress::bar(plan.seconds, "simulated seconds", shown),
    };
    let tick = |n: u64| bar.inc(n);
    let tally = match per_second {
        // The run's only I/O is the per-second file: a failure there
        // (a full disk) is the flag's.
        Some(f) => simulation::run(plan, Some(f), &tick).map_err(|e| {
            anyhow::Error::from(InputError::new(
                "--per-second",
                format!("cannot write the rows: {e}"),
            ))
        }),
        None => simulation::run(plan, None, &tick),
    }?;
    bar.finish_and_clear();
    Ok(tally)
}
