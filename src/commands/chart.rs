//! `shardplan chart`: one SVG chart to a file, for users who assemble their
//! own design doc. It draws the plans `simulate` and `sweep` resolve
//! (`ChartOptions`) with the builders `report` uses.

use crate::config::options::{ChartOptions, ChartPlan, Resolved, RiskChart, RiskSweep};
use crate::config::plan::Plan;
use crate::config::simulation::FlatSimulation;
use crate::model::defaults::MAX_TIMELINE_POINTS;
use crate::model::timeline::{self, TimelinePlan};
use crate::model::verdict::Verdict;
use crate::views::charts::{busiest_svg, risk_svg, timeline_svg, Downsampler};
use crate::views::risk::SweepRow;

pub fn run(o: ChartOptions) -> anyhow::Result<()> {
    let r = &o.resolved;
    let (svg, verdict) = match &o.chart {
        ChartPlan::Busiest(sim) => busiest(sim, r)?,
        ChartPlan::Risk(chart) => risk(chart, r)?,
        ChartPlan::Timeline(plan) => (timeline(plan, &r.scenario)?, None),
    };
    super::print_notices(&r.inputs);
    if o.explain {
        super::explain_on_stderr(&r.inputs, o.stderr)?;
    }
    o.file.finish(svg.as_bytes())?;
    match verdict {
        Some(v) => super::check(o.check, v.holds, &crate::views::verdict::line(&v)),
        None => Ok(()),
    }
}

/// The busiest shard's writes per second over the simulated seconds, with
/// the simulated count's verdict as its footer.
fn busiest(sim: &FlatSimulation, r: &Resolved) -> anyhow::Result<(String, Option<Verdict>)> {
    let tally = super::simulate::execute(&sim.plan, false, None)?;
    let v =
        super::simulate::verdict(&sim.recommended, &sim.plan, &tally).map_err(|e| r.blame(e))?;
    let safe = sim.sizing.plan.safe_per_shard();
    let svg = busiest_svg(&sim.plan, safe, &tally, Some(&v))?.1;
    Ok((svg, Some(v)))
}

/// The exact over-cap risk of each shard count, the accepted risk and the
/// shared partitions' curve beside it, and the plan's verdict on the judged
/// count as its footer.
fn risk(c: &RiskChart, r: &Resolved) -> anyhow::Result<(String, Option<Verdict>)> {
    let plan = &c.plan;
    let rows = sweep(&c.sweep, plan, r, false)?;
    let v = super::plan_verdict(plan, c.judged).map_err(|e| r.blame(e))?;
    let svg = risk_svg(
        &rows,
        plan.recommendation.risk,
        Some(plan.recommendation.shards),
        Some(&v),
    )?
    .1;
    Ok((svg, Some(v)))
}

/// The exact risk of each shard count a risk chart sweeps (said first when
/// it takes over a minute, a bar of rows past 3 s, as `sweep`'s, unless
/// `quiet`); `report`'s risk table is these rows.
pub fn sweep(
    s: &RiskSweep,
    plan: &Plan,
    r: &Resolved,
    quiet: bool,
) -> anyhow::Result<Vec<SweepRow>> {
    super::announce(s.cost, quiet);
    let bar = crate::output::progress::bar(
        s.counts.len() as u64,
        "rows",
        !quiet && s.cost.seconds > 3.0,
    );
    let rows = super::risk::sweep_rows(
        plan,
        (s.like_rate, s.rate),
        &s.counts,
        (s.seconds, s.traffic),
        &|| bar.inc(1),
    );
    bar.finish_and_clear();
    Ok(rows.map_err(|e| r.blame(e))?)
}

/// Rate, shards and rejected writes over the time line, thinned to the
/// points a chart can show.
fn timeline(plan: &TimelinePlan, scenario: &str) -> anyhow::Result<String> {
    let mut points = Downsampler::new(plan.seconds, MAX_TIMELINE_POINTS);
    timeline::run_with_rows(plan, |row| {
        points.push(row);
        Ok::<(), std::convert::Infallible>(())
    })?;
    Ok(timeline_svg(scenario, &points.finish())?.1)
}
