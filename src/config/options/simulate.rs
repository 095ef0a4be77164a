//! `simulate`'s plan: a flat run or a time line, the plan it is judged
//! against, and the per-second file.

use super::{Output, Resolved};
use crate::cli::SimulateArgs;
use crate::config::plan::{Plan, PlanFlags};
use crate::config::simulation::FlatSimulation;
use crate::config::{Kind, Resolver, Run, Sourced};
use crate::error::{InputError, InputResult};
use crate::model::timeline::TimelinePlan;
use crate::output::sink::{is_stdout, Destination};

/// What `simulate` runs.
pub enum SimulateMode {
    /// A flat load: the run and the plan its count is judged against.
    Flat(Box<FlatSimulation>),
    /// A time line, and the recommendation for the curve's peak (its risk,
    /// partitions and nodes as `size` takes them).
    Timeline {
        /// The time line.
        plan: Box<TimelinePlan>,
        /// The plan at the curve's peak.
        planned: Box<Plan>,
    },
}

/// `shardplan simulate`, resolved.
pub struct SimulateOptions {
    /// What runs.
    pub mode: SimulateMode,
    /// `--per-second FILE`, opened.
    pub per_second: Option<Destination>,
    /// The inputs, frozen.
    pub resolved: Resolved,
    /// Where the result goes.
    pub output: Output,
}

impl SimulateOptions {
    pub fn new(args: SimulateArgs, run: &Run) -> InputResult<Self> {
        let mut r = Resolver::for_load(run, &args.sim.scenario, "simulate")?;
        let mode = match r.scenario.describes(Kind::TimeLine) || args.timeline.any() {
            true => timeline(&mut r, &args)?,
            false => {
                r.observe(&args.observed, Some(&args.sim.sizing))?;
                SimulateMode::Flat(Box::new(r.flat_simulation(
                    &args.sim,
                    args.per_second.is_some(),
                    Some(&args.plan),
                    args.duration.seconds(),
                )?))
            }
        };
        // Over an hour on the run's workers, only with --long-run.
        let cost = match &mode {
            SimulateMode::Flat(sim) => sim.plan.cost(args.per_second.is_some()),
            SimulateMode::Timeline { plan, .. } => plan.cost(),
        };
        cost.on_workers()
            .within_short_run("seconds", args.long_run.long_run)
            .map_err(|e| r.blame(e))?;
        let output = Output::new(run, &args.out, args.check.check)?;
        let per_second = per_second_file(&args, run)?;
        Ok(SimulateOptions {
            mode,
            per_second,
            resolved: r.finish(),
            output,
        })
    }
}

/// A time line (`--replay` reads its curve from the trace; other observed
/// traffic is refused on a time line) and the plan at its peak.
fn timeline(r: &mut Resolver, args: &SimulateArgs) -> InputResult<SimulateMode> {
    if args.timeline.replay {
        r.keep_trace = true;
        r.observe(&args.observed, Some(&args.sim.sizing))?;
    } else {
        crate::config::observed::refuse_on_timeline(&args.observed)?;
    }
    let picker = Sourced::flag("--picker", args.plan.picker.picker)
        .or(r.field("picker", &r.scenario.scenario.picker));
    if let Some(p) = picker.filter(|p| !p.value.splits_like_random()) {
        return Err(p.error(
            "is simulated on a flat load; a time line draws each key's likes at random \
             (accepted there: random, user-hash)",
        ));
    }
    let plan = r.timeline(&args.sim, &args.timeline)?;
    let flags = PlanFlags::new(&args.plan, &args.duration, &args.sim.traffic);
    let planned = r.plan(&args.sim.sizing, &args.sim.reads, flags)?;
    Ok(SimulateMode::Timeline {
        plan: Box::new(plan),
        planned: Box::new(planned),
    })
}

/// `--per-second FILE`, opened beside its target; refused when it names an
/// `--output` file too.
fn per_second_file(args: &SimulateArgs, run: &Run) -> InputResult<Option<Destination>> {
    let Some(p) = &args.per_second else {
        return Ok(None);
    };
    // `--per-second -` streams the rows to standard output, which must then
    // not carry the results too.
    if is_stdout(p)
        && (args.out.output.output.is_empty()
            || args.out.output.output.iter().any(|o| is_stdout(o)))
    {
        return Err(InputError::new(
            "--per-second",
            "- is standard output, which already carries the results; give them a file with -o FILE, \
             or the rows a file name",
        ));
    }
    // An --output naming the same file is refused by the output policy
    // (output::policy), however it is spelled.
    Ok(Some(Destination::create(&run.claims, "--per-second", p)?))
}
