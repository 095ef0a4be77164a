//! `simulate` along a time line (a rate curve, burst capacity, the hot-key
//! monitor) and `shardplan resize`.

use crate::cli::SimulateArgs;
use crate::config::Resolver;
use crate::config::Run;
use crate::error::InputError;
use crate::model::timeline::grid::grid_around;
use crate::model::timeline::resize::ResizePlan;
use crate::model::timeline::{self, TimelineRow};
use crate::output::OutputSet;
use crate::views::resize::ResizeView;
use crate::views::timeline::TimelineView;

/// `simulate` in time-line mode (`r` holds the scenario already loaded).
pub fn run_simulate(mut r: Resolver, args: &SimulateArgs, run: &Run) -> anyhow::Result<()> {
    let plan = r.timeline(&args.sim, &args.timeline)?;
    // The recommendation for the curve's peak, as `size` gives it: its
    // risk, partitions and nodes as `size` takes them.
    let flags = crate::config::plan::PlanFlags::new(&args.plan, &args.duration, &args.sim.traffic);
    let planned = r.plan(&args.sim.sizing, &args.sim.reads, flags)?;
    let recommendation = (planned.recommendation, planned.sizing.peak.peak);
    let out = OutputSet::prepare(run, args.out.format, &args.out.output.output)?;
    let mut per_second = super::per_second_file(args, run)?;
    // Progress past a few seconds of work; the estimate past a minute.
    let cost = plan.cost();
    super::announce(cost, args.out.quiet.quiet);
    let bar = crate::output::progress::bar(
        plan.seconds,
        "simulated seconds",
        !args.out.quiet.quiet && cost.seconds > 1.0,
    );
    let report = match per_second.as_mut() {
        Some(file) => {
            let mut w = csv::Writer::from_writer(file);
            let cannot = |e: &dyn std::fmt::Display| {
                InputError::new("--per-second", format!("cannot write the rows: {e}"))
            };
            let report = timeline::run_with_rows(&plan, |row: &TimelineRow| {
                bar.inc(1);
                w.serialize(row)
            })
            .map_err(|e| cannot(&e))?;
            w.flush().map_err(|e| cannot(&e))?;
            report
        }
        None => {
            let Ok(report) = timeline::run_with_rows(&plan, |_| {
                bar.inc(1);
                Ok::<(), std::convert::Infallible>(())
            });
            report
        }
    };
    bar.finish_and_clear();
    if let Some(f) = per_second {
        f.commit()?;
    }
    // A time line holds when no write was rejected (burst included).
    let holds = report.rejected_writes == 0;
    let view = TimelineView {
        scenario: r.scenario.name.clone(),
        report,
        // The grid's runs go to rayon: --threads sets how many at once.
        grid: grid_around(&plan).map_err(|e| r.inputs.attach(e))?,
        recommendation: Some(recommendation),
    };
    let line = view.headline().unwrap_or_default();
    // A time line's shard count moves; the chance is for the count it starts on.
    let view = crate::views::unlikes::WithUnlikes {
        report: &view,
        unlikes: super::unlikes_block(
            (&r.inputs, r.unlike_plan),
            &planned.sizing.peak,
            plan.start_shards,
        )?,
    };
    super::emit(out, &view, &r.inputs, args.out.explain.explain)?;
    super::check(args.check.check, holds, &line)
}

/// `resize`: a grow (arithmetic and a seeded simulation) or a shrink.
pub fn run_resize(o: crate::config::options::ResizeOptions) -> anyhow::Result<()> {
    let view = match o.plan {
        ResizePlan::Grow(g) => ResizeView::Grow {
            expected: g.expected(),
            simulated: g.simulate(o.seed, |_| Ok::<(), std::convert::Infallible>(()))?,
        },
        ResizePlan::Shrink(s) => {
            let mut reads = Vec::new();
            let report = s.run(|r| {
                reads.push(*r);
                Ok::<(), std::convert::Infallible>(())
            })?;
            ResizeView::Shrink { report, reads }
        }
    };
    super::emit(o.output.set, &view, &o.resolved.inputs, o.output.explain)
}
