//! `simulate` along a time line (a rate curve, burst capacity, the hot-key
//! monitor) and `shardplan resize`.

use crate::config::options::{Output, Resolved};
use crate::config::plan::Plan;
use crate::error::InputError;
use crate::model::timeline::grid::grid_around;
use crate::model::timeline::resize::ResizePlan;
use crate::model::timeline::TimelinePlan;
use crate::model::timeline::{self, TimelineRow};
use crate::output::sink::Destination;
use crate::views::resize::ResizeView;
use crate::views::timeline::TimelineView;

/// `simulate` in time-line mode: the time line, and the plan at its peak
/// (the recommendation beside it).
pub fn run_simulate(
    (plan, planned): (&TimelinePlan, &Plan),
    mut per_second: Option<Destination>,
    r: &Resolved,
    output: Output,
) -> anyhow::Result<()> {
    let recommendation = (planned.recommendation.clone(), planned.sizing.peak.peak);
    // Progress past a few seconds of work; the estimate past a minute.
    let cost = plan.cost();
    super::announce(cost, output.quiet);
    let bar = crate::output::progress::bar(
        plan.seconds,
        "simulated seconds",
        !output.quiet && cost.seconds > 1.0,
    );
    let report = match per_second.as_mut() {
        Some(file) => {
            let mut w = csv::Writer::from_writer(file);
            let cannot = |e: &dyn std::fmt::Display| {
                InputError::new("--per-second", format!("cannot write the rows: {e}"))
            };
            let report = timeline::run_with_rows(plan, |row: &TimelineRow| {
                bar.inc(1);
                w.serialize(row)
            })
            .map_err(|e| cannot(&e))?;
            w.flush().map_err(|e| cannot(&e))?;
            report
        }
        None => {
            let Ok(report) = timeline::run_with_rows(plan, |_| {
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
        scenario: r.scenario.clone(),
        report,
        // The grid's runs go to rayon: --threads sets how many at once.
        grid: grid_around(plan).map_err(|e| r.blame(e))?,
        recommendation: Some(recommendation),
    };
    let line = view.headline().unwrap_or_default();
    // A time line's shard count moves; the chance is for the count it starts on.
    let view = crate::views::unlikes::WithUnlikes {
        report: &view,
        unlikes: super::unlikes_block((&r.inputs, r.unlikes), planned, plan.start_shards)?,
    };
    super::emit(output.set, &view, &r.inputs, output.explain)?;
    super::check(output.check, holds, &line)
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
