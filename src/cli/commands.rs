//! Each subcommand's flags.

use std::path::PathBuf;

use clap::Args;

use super::defs::{
    Check, Duration, Explain, LongRun, MeasureFile, Output, PickerArg, Quiet, Rate, RetryArg, Seed,
    SettingsTtl, Shards, Template, Trials,
};
use super::groups::{
    ObservedArgs, OutputArgs, PlanArgs, ReadArgs, RiskSpan, ScenarioArgs, SimInputs, SizingArgs,
    TimelineArgs,
};
use super::parse::whole_number;
use super::values::{choice, DESIGNS, FAULTS, FOLDS, ORDERS, READS, STEP_ORDERS, SYNC_COMMITS};
use crate::model::defaults;
use crate::model::timeline::resize::{FoldMode, ReadMode, ResizeOrder, StepOrder};

#[derive(Debug, Clone, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum, ignore_case = true)]
    pub shell: clap_complete::Shell,
}

#[derive(Debug, Clone, Args)]
pub struct SchemaArgs {
    /// The command whose `--format json` document to describe.
    #[arg(value_name = "COMMAND", value_enum, ignore_case = true)]
    pub command: JsonCommand,
}

/// The commands that print a `--format json` document, in the order
/// `--help` lists them (`chart` and `report` write files instead).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum JsonCommand {
    Size,
    Simulate,
    Risk,
    Sweep,
    Scenarios,
    Resize,
    Keys,
    Partitions,
    Stores,
    Fleet,
    Measure,
    Compare,
    Reconcile,
}

impl JsonCommand {
    /// The command's name, as clap spells it.
    pub fn name(self) -> String {
        use clap::ValueEnum;
        self.to_possible_value()
            .expect("every command has a name")
            .get_name()
            .to_string()
    }
}

#[derive(Debug, Clone, Args)]
pub struct ManArgs {
    /// The command whose page to print (default: shardplan's own page).
    #[arg(value_name = "COMMAND", conflicts_with = "output", add = clap_complete::engine::ArgValueCandidates::new(super::complete::command_candidates))]
    pub command: Option<String>,
    // -o DIR: write every page (shardplan.1 and shardplan-COMMAND.1) to
    // this folder (created if missing) instead of printing one.
    #[command(flatten)]
    pub output: Output,
}

#[derive(Debug, Clone, Args)]
pub struct RiskArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    #[command(flatten)]
    pub rate: Rate,
    #[command(flatten)]
    pub shards: Shards,
    #[command(flatten)]
    pub servers: super::defs::Servers,
    #[command(flatten)]
    pub span: RiskSpan,
    #[command(flatten)]
    pub plan: PlanArgs,
    #[command(flatten)]
    pub check: Check,
    #[command(flatten)]
    pub sizing: SizingArgs,
    #[command(flatten)]
    pub observed: ObservedArgs,
    #[command(flatten)]
    pub out: OutputArgs,
}

#[derive(Debug, Clone, Args)]
pub struct SweepArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    #[command(flatten)]
    pub shards: Shards,
    #[command(flatten)]
    pub rate: Rate,
    #[command(flatten)]
    pub span: RiskSpan,
    #[command(flatten)]
    pub plan: PlanArgs,
    #[command(flatten)]
    pub check: Check,
    #[command(flatten)]
    pub sizing: SizingArgs,
    #[command(flatten)]
    pub observed: ObservedArgs,
    #[command(flatten)]
    pub reads: ReadArgs,
    #[command(flatten)]
    pub out: OutputArgs,
}

#[derive(Debug, Clone, Args)]
pub struct SizeArgs {
    // The deployed count and the gate on it sit under "Scenario", as
    // `--shards` does in every command (after the prices they would take
    // the "Costs" heading).
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    #[command(flatten)]
    pub shards: Shards,
    #[command(flatten)]
    pub check: Check,
    #[command(flatten)]
    pub sizing: SizingArgs,
    #[command(flatten)]
    pub observed: ObservedArgs,
    #[command(flatten)]
    pub plan: PlanArgs,
    #[command(flatten)]
    pub span: RiskSpan,
    #[command(flatten)]
    pub reads: ReadArgs,
    #[command(flatten)]
    pub prices: super::PriceArgs,
    /// What moves the count: the recommendation with each input that can move it
    /// (peak, cap, headroom or safe rate, risk, hot spell, partitions, servers, unlike
    /// share, dispersion) moved down and up by PERCENT (default 25%), the rest as planned.
    #[arg(long, value_name = "PERCENT", num_args = 0..=1, default_missing_value = "25%",
        value_parser = crate::cli::parse::percent, allow_negative_numbers = true,
        help_heading = "Sizing")]
    pub sensitivity: Option<f64>,
    #[command(flatten)]
    pub out: OutputArgs,
}

#[derive(Debug, Clone, Args)]
pub struct SimulateArgs {
    #[command(flatten)]
    pub sim: SimInputs,
    #[command(flatten)]
    pub observed: ObservedArgs,
    #[command(flatten)]
    pub plan: PlanArgs,
    #[command(flatten)]
    pub duration: Duration,
    #[command(flatten)]
    pub check: Check,
    #[command(flatten)]
    pub timeline: TimelineArgs,
    /// Stream one CSV row per simulated second to FILE.
    #[arg(long, value_name = "FILE")]
    pub per_second: Option<PathBuf>,
    #[command(flatten)]
    pub long_run: LongRun,
    #[command(flatten)]
    pub out: OutputArgs,
}

/// The charts `shardplan chart` draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ChartKind {
    /// Histogram of the per-second busiest shard, cap and safe rate marked.
    Busiest,
    /// Exact over-cap risk against shard count (log scale), per second and over --duration.
    Risk,
    /// Rate, shard count and rejected writes over time (a time-line scenario or flags).
    Timeline,
}

#[derive(Debug, Clone, Args)]
pub struct ChartArgs {
    #[command(flatten)]
    pub check: Check,
    /// Which chart.
    #[arg(long, value_enum, default_value = "busiest", ignore_case = true)]
    pub kind: ChartKind,
    #[command(flatten)]
    pub output: Output,
    /// --kind risk: shard counts, a range 10..40 or a list 10,20,30
    /// (default: half to twice the sized count).
    #[arg(long, value_name = "RANGE")]
    pub shard_range: Option<String>,
    #[command(flatten)]
    pub duration: Duration,
    #[command(flatten)]
    pub sim: SimInputs,
    #[command(flatten)]
    pub timeline: TimelineArgs,
    #[command(flatten)]
    pub observed: ObservedArgs,
    #[command(flatten)]
    pub plan: PlanArgs,
    #[command(flatten)]
    pub explain: Explain,
}

/// `report` takes every input `size` and `simulate` take (flags over the
/// scenario over store presets over defaults, as everywhere).
#[derive(Debug, Clone, Args)]
pub struct ReportArgs {
    #[command(flatten)]
    pub check: Check,
    #[command(flatten)]
    pub sim: SimInputs,
    #[command(flatten)]
    pub observed: ObservedArgs,
    #[command(flatten)]
    pub plan: PlanArgs,
    #[command(flatten)]
    pub duration: Duration,
    #[command(flatten)]
    pub timeline: TimelineArgs,
    #[command(flatten)]
    pub prices: super::PriceArgs,
    #[command(flatten)]
    pub measure: MeasureFile,
    /// A reconciliation for the design doc: the JSON `shardplan reconcile` (the model)
    /// or `shardplan measure --reconcile` (a run) wrote; repeat for both.
    #[arg(long, value_name = "FILE", help_heading = "Output")]
    pub reconcile_from: Vec<PathBuf>,
    #[command(flatten)]
    pub output: Output,
    #[command(flatten)]
    pub long_run: LongRun,
    #[command(flatten)]
    pub quiet: Quiet,
    #[command(flatten)]
    pub explain: Explain,
}

#[derive(Debug, Clone, Args)]
pub struct ResizeArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    /// Shards before.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number)]
    pub from: Option<u64>,
    /// Shards after (more than --from: a grow; fewer: a shrink).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number)]
    pub to: Option<u64>,
    /// Grow: which setting is raised first.
    #[arg(long, value_parser = choice(ORDERS), ignore_case = true)]
    pub order: Option<ResizeOrder>,
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number,
        help = format!("Grow: likes on the counter before the grow (default {})", defaults::DEFAULT_LIKES_BEFORE))]
    pub likes_before: Option<u64>,
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number,
        help = format!("Grow: likes arriving during the grow (default {})", crate::output::fmt::count(defaults::DEFAULT_LIKES_AFTER)))]
    pub likes_after: Option<u64>,
    #[command(flatten)]
    pub settings_ttl: SettingsTtl,
    /// Shrink: fold each old shard as two separate writes or one transaction.
    #[arg(long, value_parser = choice(FOLDS), ignore_case = true)]
    pub fold: Option<FoldMode>,
    /// Shrink: how readers read the shards.
    #[arg(long, value_parser = choice(READS), ignore_case = true)]
    pub read: Option<ReadMode>,
    /// Shrink, separate writes: which of the two writes goes first.
    #[arg(long, value_parser = choice(STEP_ORDERS), ignore_case = true)]
    pub step_order: Option<StepOrder>,
    #[command(flatten)]
    pub seed: Seed,
    #[command(flatten)]
    pub out: OutputArgs,
}

/// The plan a shard count is judged against, as `size` resolves it: the
/// scenario, the sizing and store, the hot spell and traffic, the risk,
/// partitions and Redis Cluster nodes, the read path, and `--check`.
#[derive(Debug, Clone, Default, Args)]
pub struct JudgeArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    #[command(flatten)]
    pub sizing: SizingArgs,
    #[command(flatten)]
    pub span: RiskSpan,
    #[command(flatten)]
    pub plan: PlanArgs,
    #[command(flatten)]
    pub reads: ReadArgs,
    #[command(flatten)]
    pub check: Check,
}

#[derive(Debug, Clone, Args)]
#[command(group(clap::ArgGroup::new("source").required(true).args(["file", "stdin", "template"])))]
pub struct KeysArgs {
    /// Shard keys to check, one per line (bytes as given: an empty line is
    /// the empty key, slot 0; blank lines at the end are not keys); -
    /// reads standard input.
    #[arg(value_name = "FILE")]
    pub file: Option<std::path::PathBuf>,
    /// Read keys from standard input, as `keys -` does.
    #[arg(long)]
    pub stdin: bool,
    #[command(flatten)]
    pub shards: Shards,
    #[arg(long, value_name = "WIDTH", allow_negative_numbers = true, value_parser = whole_number,
        help = format!("Zero-pad the shard number to this width (default {}: no padding)", defaults::DEFAULT_PAD))]
    pub pad: Option<u64>,
    /// The plan the keys are judged against, as `size` resolves it
    /// (`--template` and `--nodes` among them; the store defaults to
    /// redis-cluster).
    #[command(flatten)]
    pub judge: JudgeArgs,
    #[command(flatten)]
    pub out: OutputArgs,
}

#[derive(Debug, Clone, Args)]
pub struct PartitionsArgs {
    #[command(flatten)]
    pub shards: Shards,
    #[command(flatten)]
    pub rate: Rate,
    #[command(flatten)]
    pub seed: Seed,
    #[command(flatten)]
    pub trials: Trials,
    /// The plan the count is judged against, as `size` resolves it
    /// (`--partitions`, `--cap`, `--store` and `--traffic` among them).
    #[command(flatten)]
    pub judge: JudgeArgs,
    #[command(flatten)]
    pub out: OutputArgs,
}

#[derive(Debug, Clone, Args)]
pub struct StoresArgs {
    #[command(flatten)]
    pub out: OutputArgs,
}

#[derive(Debug, Clone, Args)]
#[command(group(clap::ArgGroup::new("store").required(true).multiple(true).args(["redis", "postgres"])))]
pub struct MeasureArgs {
    /// The server, e.g. redis://127.0.0.1:7000 (any node of a cluster). A password
    /// is best given by REDISCLI_AUTH or --password-file, not in the URL (ps, history).
    #[arg(long, value_name = "URL")]
    pub redis: Option<String>,
    /// Measure PostgreSQL instead, e.g. postgres://app@127.0.0.1:5432/likes: a single
    /// counter row, S sharded rows and like rows (password: PGPASSWORD or the URL).
    #[arg(long, value_name = "URL", conflicts_with_all = ["cluster", "template", "pipeline",
        "password_file", "overwrite", "flush", "wait_replicas", "rebuild", "fault"])]
    pub postgres: Option<String>,
    /// With --postgres: the writers' synchronous_commit (default: the server's setting).
    #[arg(long, value_name = "SETTING", value_parser = choice(SYNC_COMMITS), requires = "postgres")]
    pub synchronous_commit: Option<crate::measure::postgres::SyncCommit>,
    /// With --postgres: the schema to create and drop (default shardplan_<run id>).
    #[arg(long, value_name = "NAME", conflicts_with = "redis")]
    pub schema: Option<String>,
    /// Read the Redis password from the first line of FILE (else REDISCLI_AUTH).
    #[arg(long, value_name = "FILE")]
    pub password_file: Option<PathBuf>,
    /// Talk Redis Cluster (route by slot, report ops per node).
    #[arg(long)]
    pub cluster: bool,
    #[command(flatten)]
    pub shards: Shards,
    /// Concurrent connections.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number, default_value_t = defaults::DEFAULT_MEASURE_CLIENTS)]
    pub clients: u64,
    #[command(flatten)]
    pub duration: Duration,
    // --picker: each client is one app server (server index = client index).
    #[command(flatten)]
    pub picker: PickerArg,
    /// How many times each phase is measured, one-key and sharded alternating, after a
    /// short warm-up (1: no interval).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number, default_value_t = defaults::DEFAULT_MEASURE_RUNS)]
    pub runs: u64,
    /// Stop each phase after this many INCRs.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number)]
    pub max_ops: Option<u64>,
    /// How long each reply (and a connect, up to 3 s) may take before the run fails, e.g. 500ms.
    #[arg(long, value_name = "DURATION", default_value = defaults::DEFAULT_MEASURE_TIMEOUT)]
    pub timeout: String,
    /// Commands per pipeline (1 = no pipelining).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number, default_value_t = defaults::DEFAULT_MEASURE_PIPELINE)]
    pub pipeline: u64,
    #[command(flatten)]
    pub template: Template,
    /// Measure what one counter design loses when something fails, instead of comparing
    /// one key with the shard keys (docs/measure.md, "Durability").
    #[arg(long, value_parser = choice(DESIGNS), ignore_case = true,
        conflicts_with_all = ["runs", "max_ops", "pipeline", "overwrite", "picker"])]
    pub design: Option<crate::measure::durability::Design>,
    #[command(flatten)]
    pub rate: Rate,
    /// With --design buffered: how often each writer sends what it holds (default 1s).
    #[arg(long, value_name = "DURATION", requires = "design")]
    pub flush: Option<String>,
    /// With --design: when the fault strikes, from the start of the writes, e.g. 2s.
    #[arg(long, value_name = "DURATION", requires = "design")]
    pub fault_at: Option<String>,
    /// The fault: a command run by sh -c at --fault-at while the writes go on, e.g.
    /// 'kill -9 12345'.
    #[arg(
        long,
        value_name = "CMD",
        requires = "fault_at",
        conflicts_with = "fault"
    )]
    pub fault_command: Option<String>,
    /// The fault: kill-writer kills one buffered writer with what it holds, at --fault-at.
    #[arg(long, value_parser = choice(FAULTS), requires = "fault_at")]
    pub fault: Option<crate::measure::durability::FaultKind>,
    /// With --design: send WAIT N after each write, so it counts once N replicas have it.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number, requires = "design")]
    pub wait_replicas: Option<u64>,
    /// With --design log: rebuild the count from the streams after the run and compare.
    #[arg(long, requires = "design")]
    pub rebuild: bool,
    /// With --redis and --postgres: like rows in PostgreSQL (the truth), the counter's
    /// shard keys in Redis, writers saving the row then INCRing a shard, with faults on
    /// purpose, and the job that closes the drift (docs/reconcile.md).
    #[arg(long, conflicts_with_all = ["design", "runs", "max_ops", "pipeline", "overwrite",
        "picker", "template", "cluster"])]
    pub reconcile: bool,
    /// With --reconcile: the share of increments whose reply the writer drops (sent on a
    /// connection it closes unread), in [0, 1] (default 0).
    #[arg(long, value_name = "SHARE", allow_negative_numbers = true,
        value_parser = crate::cli::parse::number)]
    pub lost_replies: Option<f64>,
    #[command(flatten)]
    pub retry: RetryArg,
    /// With --reconcile: the share of increments skipped after the like row was saved,
    /// in [0, 1] (default 0).
    #[arg(long, value_name = "SHARE", allow_negative_numbers = true,
        value_parser = crate::cli::parse::number)]
    pub failed_increments: Option<f64>,
    /// With --reconcile: run the job this often during the writes, e.g. 500ms (default:
    /// only once, after them).
    #[arg(long, value_name = "DURATION")]
    pub reconcile_every: Option<String>,
    /// Leave the keys in place afterwards (with --reconcile: the like table too).
    #[arg(long)]
    pub keep: bool,
    /// When keys this run writes already exist as strings, set them aside for the
    /// run and restore them after it (other types refuse the run).
    #[arg(long, conflicts_with = "keep")]
    pub overwrite: bool,
    #[command(flatten)]
    pub out: OutputArgs,
}

#[derive(Debug, Clone, Args)]
pub struct ScenariosArgs {
    #[command(flatten)]
    pub out: OutputArgs,
}
