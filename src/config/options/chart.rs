//! `chart`'s plan: the one SVG file, and what the chart of each kind draws
//! (the flat simulation the busiest-shard histogram samples, the shard
//! counts the risk chart sweeps, the time line), every flag with no effect
//! on the kind chosen refused first.

use super::Resolved;
use crate::cli::{ChartArgs, ChartKind};
use crate::config::plan::{Plan, PlanFlags};
use crate::config::simulation::FlatSimulation;
use crate::config::{lists, refuse, Kind, Resolver, Run, Sourced};
use crate::error::{InputError, InputResult};
use crate::model::cost::Estimate;
use crate::model::law::TrafficModel;
use crate::model::timeline::TimelinePlan;
use crate::output::sink::Destination;
use crate::output::terminal::Style;
use crate::views::charts::shard_counts_around;

/// `shardplan chart`, resolved.
pub struct ChartOptions {
    /// What the chart of the kind asked for draws.
    pub chart: ChartPlan,
    /// `-o FILE.svg` (or standard output), opened.
    pub file: Destination,
    /// The inputs, frozen.
    pub resolved: Resolved,
    /// `--explain`: the inputs table on stderr (an SVG has no place for it).
    pub explain: bool,
    /// How that table is drawn on stderr.
    pub stderr: Style,
    /// `--check`: exit 1 when the judged count does not hold the plan.
    pub check: bool,
}

/// What each `--kind` draws.
pub enum ChartPlan {
    /// The busiest shard's writes per second over a flat simulation.
    Busiest(Box<FlatSimulation>),
    /// The exact over-cap risk by shard count.
    Risk(Box<RiskChart>),
    /// Rate, shards and rejected writes over a time line.
    Timeline(Box<TimelinePlan>),
}

/// The risk chart: the plan's sweep around the decision, and the count its
/// footer judges.
pub struct RiskChart {
    /// The plan and its recommendation (the accepted risk, the recommended
    /// count and the shared partitions' curve).
    pub plan: Plan,
    /// The shard counts drawn (`--shard-range`, else around the decision).
    pub sweep: RiskSweep,
    /// The count the footer's verdict judges: `--shards`, else the
    /// recommendation.
    pub judged: u64,
}

/// The shard counts a risk chart sweeps, each exactly, at one rate over
/// the hot spell (`chart --kind risk`, and `report`'s risk table and chart).
pub struct RiskSweep {
    /// The rate every count is judged at, writes/s.
    pub rate: f64,
    /// The likes/s behind it.
    pub like_rate: f64,
    /// The shard counts.
    pub counts: Vec<u64>,
    /// The hot spell, seconds.
    pub seconds: f64,
    /// The traffic law.
    pub traffic: TrafficModel,
    /// What the exact sweep will cost (within the one-day limit).
    pub cost: Estimate,
}

impl ChartOptions {
    pub fn new(args: ChartArgs, run: &Run) -> InputResult<Self> {
        let output = svg_output(&args)?;
        refuse_other_kinds(&args)?;
        let (r, chart) = match args.kind {
            ChartKind::Busiest => busiest(&args, run)?,
            ChartKind::Risk => risk(&args, run)?,
            ChartKind::Timeline => timeline(&args, run)?,
        };
        let file = Destination::create(&run.claims, "--output", &output)?;
        Ok(ChartOptions {
            chart,
            file,
            resolved: r.finish(),
            explain: args.explain.explain,
            stderr: Style::plain(run.color),
            check: args.check.check,
        })
    }
}

/// The one SVG file: `-o FILE.svg`, or `-o -` for standard output.
fn svg_output(args: &ChartArgs) -> InputResult<std::path::PathBuf> {
    let output = args.output.one()?.cloned().ok_or_else(|| {
        InputError::new(
            "--output",
            "chart writes one SVG file: give -o FILE.svg, or -o - for standard output",
        )
    })?;
    let svg_file = output.extension().and_then(|e| e.to_str()) == Some("svg");
    if !svg_file && !crate::output::sink::is_stdout(&output) {
        return Err(InputError::new(
            "--output",
            format!(
                "charts are SVG; give a file ending in .svg, or - for standard output (got {})",
                output.display()
            ),
        ));
    }
    Ok(output)
}

/// Flags that only another kind of chart draws.
fn refuse_other_kinds(args: &ChartArgs) -> InputResult<()> {
    if args.kind != ChartKind::Risk {
        refuse(
            args.shard_range.is_some(),
            "--shard-range",
            "on this chart: it applies to --kind risk only",
        )?;
    }
    if args.kind == ChartKind::Timeline {
        // The time line starts from the rule of thumb, not the recommendation.
        let why = "on --kind timeline: it draws the time line, not the recommendation";
        refuse(args.duration.duration.is_some(), "--duration", why)?;
        let p = &args.plan;
        refuse(p.risk.risk.is_some(), "--risk", why)?;
        refuse(p.partitions.partitions.is_some(), "--partitions", why)?;
        refuse(p.template.template.is_some(), "--template", why)?;
        refuse(p.nodes.nodes.is_some(), "--nodes", why)?;
        refuse(p.node_cap.is_some(), "--node-cap", why)?;
        refuse(p.picker.picker.is_some(), "--picker", why)?;
        refuse(
            args.check.check,
            "--check",
            "on --kind timeline: the time line judges its rejected writes (shardplan simulate \
             --check)",
        )?;
    }
    Ok(())
}

/// `--kind busiest`: a flat simulation, as `simulate` resolves it.
fn busiest(args: &ChartArgs, run: &Run) -> InputResult<(Resolver, ChartPlan)> {
    if args.timeline.any() {
        return Err(InputError::new(
            "--kind busiest",
            "draws a flat simulation; the time-line flags (--burst-seconds, --monitor, ...) \
             need --kind timeline",
        ));
    }
    let mut r = Resolver::for_load(run, &args.sim.scenario, "chart --kind busiest")?;
    if r.scenario.describes(Kind::TimeLine) {
        let name = &r.scenario.name;
        return Err(InputError::new(
            format!("--scenario {name}"),
            format!(
                "the busiest-shard histogram needs a flat load; {name} describes a time \
                 line: run shardplan chart --kind timeline --scenario {name}"
            ),
        ));
    }
    crate::config::reads::refuse_batch_size(&args.sim.reads, "--kind busiest")?;
    r.observe(&args.observed, Some(&args.sim.sizing))?;
    let sim = r.flat_simulation(&args.sim, false, Some(&args.plan), args.duration.seconds())?;
    // The chart draws the busiest shard and its footer the verdict: no
    // batch read is counted.
    r.inputs.forget("batch_size");
    Ok((r, ChartPlan::Busiest(Box::new(sim))))
}

/// `--kind risk`: the plan `size` resolves, and the shard counts to sweep.
fn risk(args: &ChartArgs, run: &Run) -> InputResult<(Resolver, ChartPlan)> {
    let sim = &args.sim;
    let why = "on --kind risk: the chart is exact, over --duration";
    refuse(sim.seconds.seconds.is_some(), "--seconds", why)?;
    refuse(sim.sampler.is_some(), "--sampler", why)?;
    refuse(sim.seed.seed.is_some(), "--seed", why)?;
    crate::config::reads::refuse_batch_size(&sim.reads, "--kind risk")?;
    refuse(
        args.plan
            .picker
            .picker
            .is_some_and(|p| !p.splits_like_random()),
        "--picker",
        "on --kind risk: it draws the random picker's exact curve (sweep --picker gives each \
         count's chance under a picker)",
    )?;
    refuse(
        args.timeline.any(),
        "--kind risk",
        "with time-line flags: it draws a flat load",
    )?;
    let mut r = Resolver::for_load(run, &sim.scenario, "chart --kind risk")?;
    r.observe(&args.observed, Some(&sim.sizing))?;
    let flags = PlanFlags::new(&args.plan, &args.duration, &sim.traffic);
    let plan = r.plan(&sim.sizing, &sim.reads, flags)?;
    r.inputs.forget("batch_size");
    let recommended = plan.recommendation.shards;
    let seconds = r.duration(args.duration.seconds())?;
    let traffic = r.traffic(sim.traffic.traffic, sim.traffic.dispersion)?;
    let (like_rate, rate) = r.rate_in_likes(sim.rate.one()?, &plan.sizing.peak, traffic)?;
    let counts = match &args.shard_range {
        Some(t) => {
            r.inputs.record(
                "shard_range",
                &Sourced::from_flag("--shard-range", t.clone()),
            );
            lists::shard_counts("--shard-range", t)?
        }
        // Around --shards, else the recommendation (not a time line's
        // starting count: the chart is about the decision).
        None => {
            let center = Sourced::flag("--shards", sim.shards.one()?).unwrap_or(Sourced::derived(
                recommended,
                "the recommendation (shardplan size)",
            ));
            shard_counts_around(r.inputs.take("shards", center))
        }
    };
    // The sweep is exact: at a huge rate over many counts it takes a while.
    let cost = crate::model::cost::sweep(rate, &counts, traffic)
        .within_limit("shards")
        .map_err(|e| r.blame(e))?;
    // The verdict on --shards (else the recommendation).
    let judged = sim.shards.one()?.unwrap_or(recommended);
    let sweep = RiskSweep {
        rate,
        like_rate,
        counts,
        seconds,
        traffic,
        cost,
    };
    let chart = RiskChart {
        plan,
        sweep,
        judged,
    };
    Ok((r, ChartPlan::Risk(Box::new(chart))))
}

/// `--kind timeline`: the time line `simulate` runs.
fn timeline(args: &ChartArgs, run: &Run) -> InputResult<(Resolver, ChartPlan)> {
    let mut r = Resolver::for_load(run, &args.sim.scenario, "chart --kind timeline")?;
    if args.timeline.replay {
        r.keep_trace = true;
        r.observe(&args.observed, Some(&args.sim.sizing))?;
    } else {
        crate::config::observed::refuse_on_timeline(&args.observed)?;
    }
    let plan = r.timeline(&args.sim, &args.timeline)?;
    // The app servers feed the hot-key monitor's settings refresh; without
    // a monitor the chart draws nothing of them (simulate still shows their
    // read cost).
    if plan.monitor.is_none() {
        refuse(
            args.sim.reads.cache.servers.servers.is_some(),
            "--servers",
            "on --kind timeline without a hot-key monitor: only the monitor's settings refresh \
             takes them (add --monitor, or see the read cost with shardplan simulate)",
        )?;
        r.inputs.forget("servers");
    }
    Ok((r, ChartPlan::Timeline(Box::new(plan))))
}
