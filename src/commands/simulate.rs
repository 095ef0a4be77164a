//! `shardplan simulate`: Monte Carlo of the per-second busiest shard, flat
//! or along a time line.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::cli::SimulateArgs;
use crate::config::{Kind, Resolver};
use crate::error::InputError;
use crate::model::simulation::{self, SimPlan, SimTally};
use crate::output::sink::AtomicFile;
use crate::output::OutputSet;
use crate::views::simulate::SimulateReport;

pub fn run(args: SimulateArgs) -> anyhow::Result<()> {
    let mut r = Resolver::for_load(&args.sim.scenario, "simulate")?;
    let threads = crate::config::load::threads(args.sim.threads)?;
    if r.scenario.describes(Kind::TimeLine) || args.timeline.any() {
        return super::timeline::run_simulate(r, &args, threads);
    }
    let sim = r.flat_simulation(&args.sim, args.per_second.is_some())?;
    let out = OutputSet::prepare(args.out.format, &args.out.output)?;
    let mut per_second = super::per_second_file(&args)?;
    let tally = execute(&sim.plan, threads, args.out.quiet, per_second.as_mut())?;
    if let Some(f) = per_second {
        f.commit()?;
    }
    let report = SimulateReport::new(
        r.scenario.name.clone(),
        &sim.plan,
        &tally,
        sim.reads.cost(sim.plan.shards),
    )
    .with_recommendation(
        sim.recommended.recommendation.clone(),
        sim.recommended
            .inputs
            .evaluate(sim.plan.shards)
            .map_err(|e| r.blame(e))?,
    );
    super::emit(out, &report, &r.inputs, args.out.explain)
}

/// Runs a flat simulation on `threads` workers (0: one per core), with a
/// progress bar on a terminal unless `quiet`, streaming per-second rows to
/// `per_second` when given.
/// The progress bar of a long run of `seconds` simulated seconds, on a
/// terminal's stderr when `wanted` (hidden otherwise, and when piped).
pub fn progress_bar(seconds: u64, wanted: bool) -> ProgressBar {
    if !wanted || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::with_draw_target(Some(seconds), ProgressDrawTarget::stderr());
    pb.set_style(
        ProgressStyle::with_template(
            "{wide_bar} {human_pos}/{human_len} simulated seconds ({eta} left)",
        )
        .expect("valid template"),
    );
    pb
}

pub fn execute(
    plan: &SimPlan,
    threads: usize,
    quiet: bool,
    per_second: Option<&mut AtomicFile>,
) -> anyhow::Result<SimTally> {
    // About a second of work: ~50 ns per shard-second when every shard
    // is drawn, ~20 ns per second from the exact table.
    let work = if plan.sampler_name() == "exact-table" {
        plan.seconds / 2
    } else {
        plan.seconds.saturating_mul(plan.shards)
    };
    let bar = progress_bar(plan.seconds, !quiet && work > 20_000_000);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let tally = pool.install(|| {
        let tick = |n: u64| bar.inc(n);
        match per_second {
            // The run's only I/O is the per-second file: a failure there
            // (a full disk) is the flag's.
            Some(f) => simulation::run(plan, Some(f.writer()), &tick).map_err(|e| {
                InputError::new("--per-second", format!("cannot write the rows: {e}")).into()
            }),
            None => simulation::run(plan, None, &tick),
        }
    })?;
    bar.finish_and_clear();
    Ok(tally)
}
