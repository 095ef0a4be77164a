//! `shardplan report`: a Markdown design doc (report.md) and the SVG charts
//! it links to, written to one folder. It runs the plans `size`, `sweep`
//! and `simulate` resolve (`ReportOptions`) and assembles their views.

use crate::config::options::{ReportFolder, ReportOptions, SimulationPlan};
use crate::config::simulation::FlatSimulation;
use crate::model::defaults::{DEFAULT_RISK, MAX_TIMELINE_POINTS};
use crate::model::timeline::grid::grid_around;
use crate::model::timeline::TimelinePlan;
use crate::views::charts::{self, Downsampler};
use crate::views::report::{
    html, render, title_text, Heading, ReportDoc, Simulation, BUSIEST_SVG, REPORT_FILE, RISK_SVG,
    TIMELINE_SVG,
};
use crate::views::risk::SweepRow;
use crate::views::simulate::SimulateReport;
use crate::views::size::SizeRow;
use crate::views::timeline::TimelineView;

pub fn run(o: ReportOptions) -> anyhow::Result<()> {
    let r = &o.resolved;
    super::print_notices(&r.inputs);
    let rec = &o.plan.recommendation;
    let size = SizeRow::new(
        &r.scenario,
        &o.plan.sizing.peak,
        &o.plan.sizing.plan,
        rec.clone(),
        None,
    )
    .priced(&o.prices, o.plan.sizing.writes_per_like());
    let (sweep, risk_chart) = risk_by_shard_count(&o)?;
    let simulation = match &o.simulation {
        SimulationPlan::Flat(sim) => flat_run(&o, sim)?,
        SimulationPlan::Timeline(plan) => time_line(&o, plan)?,
    };
    // The pickers' runs share the report's seed (`--seed`).
    let seed = match &o.simulation {
        SimulationPlan::Flat(sim) => sim.plan.seed,
        SimulationPlan::Timeline(plan) => plan.seed,
    };
    let pickers = picker_rows(&o, rec.shards, seed)?;
    let doc = ReportDoc {
        heading: heading(&o),
        pickers: (pickers, seed),
        inputs: &r.inputs,
        size,
        observed: r
            .observed
            .as_deref()
            .map(crate::views::observed::ObservedTraffic::new),
        unlikes: super::unlikes_block((&r.inputs, r.unlikes), &o.plan, rec.shards)?,
        version: env!("CARGO_PKG_VERSION"),
        command: o.command,
        sweep,
        risk_title: risk_chart.0,
        simulation,
        placement: o.placement,
        measurement: o.measurement,
        reconciliations: o.reconciliations,
    };
    let verdict = doc.verdict();
    let sim_svg = match &doc.simulation {
        Simulation::Flat { chart, .. } | Simulation::Timeline { chart, .. } => &chart.1,
    };
    let dir = o.folder.dir.clone();
    let md = render(&doc)?;
    let sim_file = match &doc.simulation {
        Simulation::Flat { .. } => BUSIEST_SVG,
        Simulation::Timeline { .. } => TIMELINE_SVG,
    };
    let html = html::page(
        &md,
        &title_text(&doc),
        &[(RISK_SVG, &risk_chart.1), (sim_file, sim_svg)],
    );
    write(o.folder, [&md, &html], &risk_chart.1, sim_svg)?;
    if o.explain {
        super::explain_on_stderr(&r.inputs, o.stderr)?;
    }
    if !o.quiet {
        eprintln!(
            "wrote {}, {} and its charts to {}",
            REPORT_FILE,
            html::HTML_FILE,
            dir.display()
        );
    }
    let line = crate::views::verdict::line(&verdict);
    super::check(o.check, verdict.holds, &line)
}

/// What titles the report: the scenario, the flags set over it, and the
/// plan's resolved figures.
fn heading(o: &ReportOptions) -> Heading {
    let sizing = &o.plan.sizing;
    let peak = &sizing.peak;
    Heading {
        scenario: o.scenario.name.clone(),
        description: o.scenario.scenario.description.clone(),
        flags: o.flags_over_scenario.clone(),
        likes: peak.likes,
        growth: peak.observed.zip(peak.growth),
        cap: sizing.plan.cap,
        safe: sizing.plan.safe,
        traffic: o.sweep.traffic,
        writers: o.plan.inputs.writers,
    }
}

/// The pickers' seeded runs at the recommended count (progress past a
/// second of them).
fn picker_rows(
    o: &ReportOptions,
    shards: u64,
    seed: u64,
) -> anyhow::Result<Vec<crate::model::picker::table::PickerRow>> {
    use crate::model::picker::table;
    let inputs = &o.plan.inputs;
    let work = table::picker_rows_work(inputs, shards).map_err(|e| o.resolved.blame(e))?;
    let bar = super::simulated_seconds_bar(work, o.quiet);
    let rows = table::picker_rows(inputs, shards, seed, &|n| bar.inc(n));
    bar.finish_and_clear();
    Ok(rows.map_err(|e| o.resolved.blame(e))?)
}

/// The risk table's rows, around the recommendation, and their chart: the
/// accepted risk (or 1% as a reference line when the plan has none), the
/// shared partitions' curve, and the plan's verdict on the judged count as
/// its footer.
fn risk_by_shard_count(o: &ReportOptions) -> anyhow::Result<(Vec<SweepRow>, (String, String))> {
    let (plan, r) = (&o.plan, &o.resolved);
    let rec = &plan.recommendation;
    let sweep = super::chart::sweep(&o.sweep, plan, r, o.quiet)?;
    let accepted = rec.risk.unwrap_or(DEFAULT_RISK);
    let judged = o.simulation.judged(plan);
    let plan_verdict = super::plan_verdict(plan, judged).map_err(|e| r.blame(e))?;
    let chart = charts::risk_svg(
        &sweep,
        Some(accepted),
        Some(rec.shards),
        Some(&plan_verdict),
    )?;
    Ok((sweep, chart))
}

/// The flat Monte Carlo run at the judged count, its verdict beside the
/// recommendation, and the busiest-shard histogram.
fn flat_run(o: &ReportOptions, sim: &FlatSimulation) -> anyhow::Result<Simulation> {
    let r = &o.resolved;
    let tally = super::simulate::execute(&sim.plan, o.quiet, None)?;
    let verdict = super::simulate::verdict(&o.plan, &sim.plan, &tally).map_err(|e| r.blame(e))?;
    let report = SimulateReport::new(
        r.scenario.clone(),
        &sim.plan,
        &tally,
        sim.reads.cost(sim.plan.shards),
    )
    .in_likes(sim.like_rate)
    .with_verdict(o.plan.recommendation.clone(), verdict);
    let safe = sim.sizing.plan.safe_per_shard();
    Ok(Simulation::Flat {
        chart: charts::busiest_svg(&sim.plan, safe, &tally, report.verdict.as_ref())?,
        report: Box::new(report),
    })
}

/// The time line, its monitor grid, and its chart thinned to the points a
/// chart can show; it opens with the recommendation for the planned peak.
fn time_line(o: &ReportOptions, plan: &TimelinePlan) -> anyhow::Result<Simulation> {
    let r = &o.resolved;
    let mut points = Downsampler::new(plan.seconds, MAX_TIMELINE_POINTS);
    let report = crate::model::timeline::run_with_rows(plan, |row| {
        points.push(row);
        Ok::<(), std::convert::Infallible>(())
    })?;
    let sized_for = o.plan.sizing.peak.peak;
    Ok(Simulation::Timeline {
        chart: charts::timeline_svg(&r.scenario, &points.finish())?,
        view: Box::new(TimelineView {
            scenario: r.scenario.clone(),
            report,
            grid: grid_around(plan).map_err(|e| r.blame(e))?,
            recommendation: Some((o.plan.recommendation.clone(), sized_for)),
        }),
    })
}

/// Every file written, charts first, the HTML page and the Markdown report
/// last: a report never links to a missing chart.
fn write(
    folder: ReportFolder,
    [md, page]: [&str; 2],
    risk_svg: &str,
    sim_svg: &str,
) -> anyhow::Result<()> {
    folder.folder.commit(&[
        (RISK_SVG, risk_svg.as_bytes()),
        (folder.simulation, sim_svg.as_bytes()),
        (html::HTML_FILE, page.as_bytes()),
        (REPORT_FILE, md.as_bytes()),
    ])
}
