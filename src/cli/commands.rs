//! Each subcommand's flags.

use std::path::PathBuf;

use clap::Args;

use super::groups::{
    ObservedArgs, OutputArgs, PlanArgs, ReadArgs, RiskSpan, ScenarioArgs, SimInputs, SizingArgs,
    TimelineArgs,
};
use super::parse::{whole_number, whole_seconds, whole_seconds_or_zero};
use super::values::{choice, FOLDS, ORDERS, READS, STEP_ORDERS, STORES, TRAFFIC};
use crate::model::defaults;
use crate::model::store::Store;
use crate::model::timeline::resize::{FoldMode, ReadMode, ResizeOrder, StepOrder};
use crate::model::traffic::TrafficKind;

#[derive(Debug, Clone, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum, ignore_case = true)]
    pub shell: clap_complete::Shell,
}

#[derive(Debug, Clone, Args)]
pub struct SchemaArgs {
    /// The command whose `--format json` document to describe.
    #[arg(value_name = "COMMAND", ignore_case = true, value_parser = clap::builder::PossibleValuesParser::new(crate::views::schema::COMMANDS))]
    pub command: String,
}

#[derive(Debug, Clone, Args)]
pub struct ManArgs {
    /// The command whose page to print (default: shardplan's own page).
    #[arg(value_name = "COMMAND", add = clap_complete::engine::ArgValueCandidates::new(super::complete::command_candidates))]
    pub command: Option<String>,
    /// Write every page (shardplan.1 and shardplan-COMMAND.1) to this folder
    /// (created if missing) instead of printing one.
    #[arg(long, short = 'o', value_name = "DIR", conflicts_with = "command")]
    pub output: Option<PathBuf>,
}

#[derive(Debug, Clone, Args)]
pub struct RiskArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    /// Likes/s (default: the planned peak).
    #[arg(value_parser = crate::cli::parse::number, long, value_name = "LIKES_PER_S", allow_negative_numbers = true)]
    pub rate: Option<f64>,
    /// Shard count (default: what `size` gives).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number)]
    pub shards: Option<u64>,
    #[command(flatten)]
    pub span: RiskSpan,
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
    /// Shard counts: an inclusive range 10..40, a list 10,20,30, or one count (default 10..40).
    #[arg(long, value_name = "RANGE")]
    pub shards: Option<String>,
    /// Likes/s: one rate or a list 9000,14000,18000 (default: the planned peak).
    #[arg(long, value_name = "LIST")]
    pub rate: Option<String>,
    #[command(flatten)]
    pub span: RiskSpan,
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
    #[command(flatten)]
    pub scenario: ScenarioArgs,
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
    /// Evaluate a deployed shard count instead: which constraints it meets and fails.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number)]
    pub shards: Option<u64>,
    /// With --shards: exit 1 when the count fails a constraint (a gate for CI).
    #[arg(long, requires = "shards")]
    pub check: bool,
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
    pub timeline: TimelineArgs,
    /// Stream one CSV row per simulated second to FILE.
    #[arg(long, value_name = "FILE")]
    pub per_second: Option<PathBuf>,
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
    /// Which chart.
    #[arg(long, value_enum, default_value = "busiest", ignore_case = true)]
    pub kind: ChartKind,
    /// The SVG file to write.
    #[arg(long, short = 'o', value_name = "FILE.svg")]
    pub output: PathBuf,
    /// --kind risk: shard counts, a range 10..40 or a list 10,20,30
    /// (default: half to twice the sized count).
    #[arg(long, value_name = "RANGE")]
    pub shard_range: Option<String>,
    /// --kind risk: how long the hot spell lasts, e.g. 4h (default 4h).
    #[arg(long, value_name = "DURATION", allow_negative_numbers = true, value_parser = crate::model::duration::parse_seconds)]
    pub duration: Option<f64>,
    #[command(flatten)]
    pub sim: SimInputs,
    #[command(flatten)]
    pub timeline: TimelineArgs,
    /// Print every resolved input with its value and source to stderr.
    #[arg(long)]
    pub explain: bool,
}

#[derive(Debug, Clone, Args)]
pub struct ReportArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    #[command(flatten)]
    pub observed: ObservedArgs,
    /// The folder to write report.md and its SVG charts to (created if missing);
    /// -o/--output as for every other command.
    #[arg(
        long,
        short = 'o',
        visible_alias = "output",
        value_name = "DIR",
        default_value = "report"
    )]
    pub out: PathBuf,
    /// Master seed of the simulation (default: the scenario's, else 2026).
    #[arg(long, allow_negative_numbers = true, value_parser = whole_number)]
    pub seed: Option<u64>,
    /// Simulated seconds: 2000, or 33m, 4h, 1h30m (default: the scenario's, else 2000).
    #[arg(long, value_name = "DURATION", allow_negative_numbers = true, value_parser = whole_seconds)]
    pub seconds: Option<u64>,
    /// Add a measurement as its own section: the JSON `shardplan measure` wrote
    /// (--redis or --postgres), with the machine it ran on.
    #[arg(long, value_name = "FILE")]
    pub measure: Option<PathBuf>,
    /// No progress bar.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Add an "Explain: inputs" section listing every resolved input with
    /// its value and source.
    #[arg(long)]
    pub explain: bool,
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
    /// Grow: likes on the counter before the grow (default 500).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number)]
    pub likes_before: Option<u64>,
    /// Grow: likes arriving during the grow (default 1000).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number)]
    pub likes_after: Option<u64>,
    /// Grow: how long servers cache the shard settings, e.g. 60s (default 60s).
    #[arg(long, value_name = "DURATION", allow_negative_numbers = true, value_parser = whole_seconds_or_zero)]
    pub settings_ttl: Option<u64>,
    /// Shrink: fold each old shard as two separate writes or one transaction.
    #[arg(long, value_parser = choice(FOLDS), ignore_case = true)]
    pub fold: Option<FoldMode>,
    /// Shrink: how readers read the shards.
    #[arg(long, value_parser = choice(READS), ignore_case = true)]
    pub read: Option<ReadMode>,
    /// Shrink, separate writes: which of the two writes goes first.
    #[arg(long, value_parser = choice(STEP_ORDERS), ignore_case = true)]
    pub step_order: Option<StepOrder>,
    /// Seed of the simulated grow.
    #[arg(long, allow_negative_numbers = true, value_parser = whole_number)]
    pub seed: Option<u64>,
    #[command(flatten)]
    pub out: OutputArgs,
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
    /// A key template with a <shard> placeholder, e.g. 'reel:8841:likes:<shard>'.
    #[arg(long, value_name = "TEMPLATE")]
    pub template: Option<String>,
    /// Shards to expand the template for (0..S-1) (default 20).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number)]
    pub shards: Option<u64>,
    /// Zero-pad the shard number to this width (default 0: no padding).
    #[arg(long, value_name = "WIDTH", allow_negative_numbers = true, value_parser = whole_number)]
    pub pad: Option<u64>,
    /// Cluster masters the 16,384 slots are split over (as redis-cli --cluster create does).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number)]
    pub nodes: Option<u64>,
    /// redis-cluster (default): slots and nodes; sorted: key order and tablets.
    #[arg(long, value_parser = choice(STORES), ignore_case = true)]
    pub store: Option<Store>,
    /// Exit 1 when two shards share a slot, a node is over its share, or (sorted) the keys are contiguous.
    #[arg(long)]
    pub check: bool,
    #[command(flatten)]
    pub out: OutputArgs,
}

#[derive(Debug, Clone, Args)]
pub struct PartitionsArgs {
    /// Shard keys of the counter.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number)]
    pub shards: u64,
    /// Partitions the store hashes keys onto.
    #[arg(long, value_name = "P", allow_negative_numbers = true, value_parser = whole_number)]
    pub partitions: u64,
    /// Likes/s on the counter (adds the over-cap chance).
    #[arg(value_parser = crate::cli::parse::number, long, value_name = "LIKES_PER_S", allow_negative_numbers = true)]
    pub rate: Option<f64>,
    /// Writes/s one partition accepts (default: the --store preset's, else 1000).
    #[arg(value_parser = crate::cli::parse::number, long, value_name = "WRITES_PER_S", allow_negative_numbers = true)]
    pub cap: Option<f64>,
    /// A store preset for the partition cap (see `shardplan stores`).
    #[arg(long, value_parser = choice(STORES), ignore_case = true)]
    pub store: Option<Store>,
    /// Likes per second: exactly the rate, Poisson with that mean, or gamma-poisson (burstier) (default fixed; needs --rate).
    #[arg(long, value_parser = choice(TRAFFIC), ignore_case = true)]
    pub traffic: Option<TrafficKind>,
    /// Gamma-poisson traffic's shape K: variance rate + rate^2 / K (smaller is burstier).
    #[arg(long, value_name = "K", allow_negative_numbers = true, value_parser = crate::cli::parse::number)]
    pub dispersion: Option<f64>,
    /// Seed for the Monte Carlo parts (default 2026).
    #[arg(long, allow_negative_numbers = true, value_parser = whole_number)]
    pub seed: Option<u64>,
    /// Placements sampled when Monte Carlo is used.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number)]
    pub trials: Option<u64>,
    #[command(flatten)]
    pub out: OutputArgs,
}

#[derive(Debug, Clone, Args)]
pub struct StoresArgs {
    #[command(flatten)]
    pub out: OutputArgs,
}

#[derive(Debug, Clone, Args)]
#[command(group(clap::ArgGroup::new("store").required(true).args(["redis", "postgres"])))]
pub struct MeasureArgs {
    /// The server, e.g. redis://127.0.0.1:7000 (any node of a cluster). A password
    /// is best given by REDISCLI_AUTH or --password-file, not in the URL (ps, history).
    #[arg(long, value_name = "URL")]
    pub redis: Option<String>,
    /// Measure PostgreSQL instead, e.g. postgres://app@127.0.0.1:5432/likes: a single
    /// counter row, S sharded rows and like rows (password: PGPASSWORD or the URL).
    #[arg(long, value_name = "URL", conflicts_with_all = ["cluster", "template", "pipeline", "password_file", "overwrite", "keep"])]
    pub postgres: Option<String>,
    /// With --postgres: the schema to create and drop (default shardplan_<run id>).
    #[arg(long, value_name = "NAME", conflicts_with = "redis")]
    pub schema: Option<String>,
    /// Read the Redis password from the first line of FILE (else REDISCLI_AUTH).
    #[arg(long, value_name = "FILE")]
    pub password_file: Option<PathBuf>,
    /// Talk Redis Cluster (route by slot, report ops per node).
    #[arg(long)]
    pub cluster: bool,
    /// Shard keys.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number, default_value_t = defaults::DEFAULT_MEASURE_SHARDS)]
    pub shards: u64,
    /// Concurrent connections.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number, default_value_t = defaults::DEFAULT_MEASURE_CLIENTS)]
    pub clients: u64,
    /// How long each phase runs, e.g. 10s.
    #[arg(long, value_name = "DURATION", default_value = defaults::DEFAULT_MEASURE_DURATION)]
    pub duration: String,
    /// How many times each phase is measured, one-key and sharded alternating, after a
    /// short warm-up (1: no interval).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number, default_value_t = defaults::DEFAULT_MEASURE_RUNS)]
    pub runs: u64,
    /// Stop each phase after this many INCRs.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number)]
    pub max_ops: Option<u64>,
    /// How long each reply may take before the run fails, e.g. 500ms.
    #[arg(long, value_name = "DURATION", default_value = defaults::DEFAULT_MEASURE_TIMEOUT)]
    pub timeout: String,
    /// Commands per pipeline (1 = no pipelining).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number, default_value_t = defaults::DEFAULT_MEASURE_PIPELINE)]
    pub pipeline: u64,
    /// Shard key template with a <shard> placeholder (default: shardplan:<id>:<shard>,
    /// with a fresh random id per run, printed in the output).
    #[arg(long, value_name = "TEMPLATE")]
    pub template: Option<String>,
    /// Leave the keys in place afterwards.
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
