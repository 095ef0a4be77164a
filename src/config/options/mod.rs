//! One plan a command (ripgrep's `HiArgs`, hyperfine's `Options`):
//! [`Options::resolve`] turns the parsed flags, the scenario, the store
//! presets and the defaults into one immutable, validated value for the
//! command. Every refusal of a flag, every resolution and every output file
//! opened happens here; a command handler (`src/commands/`) takes the value,
//! runs the model and renders the view, and checks no flag.
//!
//! The [`Resolver`] is the step that builds these: it is changed as inputs
//! are resolved, and ends in [`Resolver::finish`], after which nothing about
//! the inputs changes.

mod chart;
mod compare;
mod docs;
mod fleet;
mod measure;
mod placement;
mod reconcile;
mod report;
mod resize;
mod risk;
mod scenarios;
mod simulate;
mod size;

pub use chart::{ChartOptions, ChartPlan, RiskChart, RiskSweep};
pub use compare::CompareOptions;
pub use docs::{CompletionsOptions, ManOptions, SchemaOptions};
pub use fleet::FleetOptions;
pub use measure::{
    DurabilityOptions, MeasureOptions, MeasureReconcileOptions, PgDurabilityOptions,
    PostgresOptions, RedisOptions,
};
pub use placement::{KeysCheck, KeysOptions, PartitionsOptions, StoresOptions};
pub use reconcile::ReconcileOptions;
pub use report::{ReportFolder, ReportOptions, SimulationPlan};
pub use resize::ResizeOptions;
pub use risk::{RiskOptions, SweepOptions};
pub use scenarios::ScenariosOptions;
pub use simulate::{SimulateMode, SimulateOptions};
pub use size::SizeOptions;

use super::observed::Observed;
use super::unlikes::UnlikePlan;
use super::{Inputs, Resolver, Run};
use crate::cli::{Command, OutputArgs};
use crate::error::{InputError, InputResult, ParamError};
use crate::output::OutputSet;

/// A command's validated plan.
// One value a run, made once and moved once into its handler: the size of
// the largest plan costs nothing, and boxing would only add a pointer hop.
#[allow(clippy::large_enum_variant)]
pub enum Options {
    /// `shardplan size`.
    Size(SizeOptions),
    /// `shardplan simulate`.
    Simulate(SimulateOptions),
    /// `shardplan risk`.
    Risk(RiskOptions),
    /// `shardplan sweep`.
    Sweep(SweepOptions),
    /// `shardplan chart`.
    Chart(ChartOptions),
    /// `shardplan report`.
    Report(ReportOptions),
    /// `shardplan keys`.
    Keys(KeysOptions),
    /// `shardplan partitions`.
    Partitions(PartitionsOptions),
    /// `shardplan stores`.
    Stores(StoresOptions),
    /// `shardplan fleet`.
    Fleet(FleetOptions),
    /// `shardplan compare`.
    Compare(Box<CompareOptions>),
    /// `shardplan reconcile`.
    Reconcile(Box<ReconcileOptions>),
    /// `shardplan resize`.
    Resize(ResizeOptions),
    /// `shardplan measure`.
    Measure(MeasureOptions),
    /// `shardplan scenarios`.
    Scenarios(ScenariosOptions),
    /// `shardplan man`.
    Man(ManOptions),
    /// `shardplan completions`.
    Completions(CompletionsOptions),
    /// `shardplan schema`.
    Schema(SchemaOptions),
}

impl Options {
    /// The one step from the command line to a command's plan.
    pub fn resolve(command: Command, run: &Run) -> InputResult<Options> {
        Ok(match command {
            Command::Size(a) => Options::Size(SizeOptions::new(a, run)?),
            Command::Simulate(a) => Options::Simulate(SimulateOptions::new(a, run)?),
            Command::Risk(a) => Options::Risk(RiskOptions::new(a, run)?),
            Command::Sweep(a) => Options::Sweep(SweepOptions::new(a, run)?),
            Command::Chart(a) => Options::Chart(ChartOptions::new(a, run)?),
            Command::Report(a) => Options::Report(ReportOptions::new(a, run)?),
            Command::Keys(a) => Options::Keys(KeysOptions::new(a, run)?),
            Command::Partitions(a) => Options::Partitions(PartitionsOptions::new(a, run)?),
            Command::Stores(a) => Options::Stores(StoresOptions::new(a, run)?),
            Command::Fleet(a) => Options::Fleet(FleetOptions::new(a, run)?),
            Command::Compare(a) => Options::Compare(Box::new(CompareOptions::new(a, run)?)),
            Command::Reconcile(a) => Options::Reconcile(Box::new(ReconcileOptions::new(a, run)?)),
            Command::Resize(a) => Options::Resize(ResizeOptions::new(a, run)?),
            Command::Measure(a) => Options::Measure(MeasureOptions::new(a, run)?),
            Command::Scenarios(a) => Options::Scenarios(ScenariosOptions::new(a, run)?),
            Command::Man(a) => Options::Man(ManOptions::new(a, run)?),
            Command::Completions(a) => Options::Completions(CompletionsOptions::new(a)),
            Command::Schema(a) => Options::Schema(SchemaOptions::new(a)),
        })
    }
}

/// What every resolution leaves behind, frozen: the scenario's shown name,
/// every input with its source, observed traffic and unlikes.
#[derive(Debug)]
pub struct Resolved {
    /// The scenario's shown name.
    pub scenario: String,
    /// Every input resolved, with its source.
    pub inputs: Inputs,
    /// Observed traffic (`--traffic-from`), when read.
    pub observed: Option<Box<Observed>>,
    /// Unlikes, when planned.
    pub unlikes: Option<UnlikePlan>,
}

impl Resolved {
    /// A model error naming its parameter, attributed to the parameter's
    /// source.
    pub fn blame(&self, e: ParamError) -> InputError {
        self.inputs.attach(e)
    }

    /// The inputs the user did not give.
    pub fn assumed(&self) -> crate::views::inputs::Assumed {
        crate::views::inputs::Assumed::new(&self.inputs)
    }
}

impl Resolver {
    /// The end of resolution: what the command keeps.
    pub fn finish(self) -> Resolved {
        Resolved {
            scenario: self.scenario.name,
            inputs: self.inputs,
            observed: self.observed,
            unlikes: self.unlike_plan,
        }
    }
}

/// Where a command's result goes and how it is run: the outputs opened
/// (checked before any work), `--explain`, `--quiet`, `--check`.
#[derive(Debug)]
pub struct Output {
    /// Every destination, opened.
    pub set: OutputSet,
    /// `--explain`.
    pub explain: bool,
    /// `--quiet`.
    pub quiet: bool,
    /// `--check`.
    pub check: bool,
}

impl Output {
    /// Opens the outputs of `args` for `run`.
    pub fn new(run: &Run, args: &OutputArgs, check: bool) -> InputResult<Self> {
        let set = OutputSet::prepare(run, args.format, &args.output.output)?;
        if args.wide.wide && !set.has_human() {
            return Err(InputError::new(
                "--wide",
                "widens tables and Markdown only; CSV, TSV and JSON carry every column already",
            ));
        }
        Ok(Output {
            set: set.widened(args.wide.wide),
            explain: args.explain.explain,
            quiet: args.quiet.quiet,
            check,
        })
    }
}
