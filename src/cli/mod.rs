//! The command line: clap derive structs only. Each subcommand's raw flags
//! go to `commands::<name>::run`, which validates them into a plan.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::model::simulation::SamplerKind;
use crate::model::store::Store;
use crate::model::timeline::bucket::BurstStart;
use crate::model::timeline::resize::{FoldMode, ReadMode, ResizeOrder, StepOrder};
use crate::model::traffic::TrafficModel;
use crate::output::Format;

#[derive(Debug, Parser)]
#[command(
    name = "shardplan",
    version,
    about = "Capacity planner and load simulator for sharded counters",
    long_about = "How many shards does a hot counter need, how likely is the busiest shard to go \
                  over the store's per-key cap, and what do reads cost? Exact where the math \
                  allows, Monte Carlo (reproducible from --seed) where it does not."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// How many shards: peak / safe rate per key, rounded up, and the read cost.
    Size(SizeArgs),
    /// Monte Carlo of the busiest shard, second by second.
    Simulate(SimulateArgs),
    /// Exact over-cap risk per second and over a long run.
    Risk(RiskArgs),
    /// Exact risk over a range of shard counts (and rates): the design-doc table.
    Sweep(SweepArgs),
    /// List the bundled scenarios.
    Scenarios(ScenariosArgs),
    /// Draw one SVG chart to a file.
    Chart(ChartArgs),
    /// Write a Markdown design-doc report with SVG charts to a folder.
    Report(ReportArgs),
    /// What readers see while the shard count grows or shrinks.
    Resize(ResizeArgs),
    /// Where shard keys land: Redis Cluster slots and nodes, or sorted-store order.
    Keys(KeysArgs),
    /// Hashed store with P partitions: do shards share one?
    Partitions(PartitionsArgs),
    /// List the store presets and their sources.
    Stores(StoresArgs),
    /// The whole table: hot reels, items and reads per policy, partition load.
    Fleet(FleetArgs),
    /// Drive a real Redis (standalone or cluster) with one key, then the shard keys.
    Measure(MeasureArgs),
    /// One row per design: single key, shards, buffers, sharded buffers, a log.
    Compare(CompareArgs),
    /// Print a shell completion script to stdout.
    Completions(CompletionsArgs),
    /// Print the man page (roff) to stdout.
    Man,
}

#[derive(Debug, Clone, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// Which scenario supplies the defaults.
#[derive(Debug, Clone, Default, Args)]
pub struct ScenarioArgs {
    /// A bundled scenario name (see `shardplan scenarios`) or a path to a TOML file.
    #[arg(long, value_name = "NAME|FILE")]
    pub scenario: Option<String>,
}

/// The inputs of the rule-of-thumb sizing.
#[derive(Debug, Clone, Default, Args)]
pub struct SizingArgs {
    /// Planned peak likes/s on the hot counter.
    #[arg(
        long,
        value_name = "LIKES_PER_S",
        allow_negative_numbers = true,
        conflicts_with_all = ["observed", "growth"]
    )]
    pub peak: Option<f64>,
    /// The highest rate seen so far, likes/s (peak = observed x growth).
    #[arg(long, value_name = "LIKES_PER_S", allow_negative_numbers = true)]
    pub observed: Option<f64>,
    /// Planning factor over the observed rate (default 1.5).
    #[arg(long, value_name = "FACTOR", allow_negative_numbers = true)]
    pub growth: Option<f64>,
    /// The store's write cap per key (partition), writes/s (default 1000).
    #[arg(long, value_name = "WRITES_PER_S", allow_negative_numbers = true)]
    pub cap: Option<f64>,
    /// Safe writes/s to plan per key, at most the cap.
    #[arg(
        long,
        value_name = "WRITES_PER_S",
        allow_negative_numbers = true,
        conflicts_with = "headroom"
    )]
    pub safe: Option<f64>,
    /// Share of the cap kept free, in [0, 1): safe = cap x (1 - headroom) (default 0.3).
    #[arg(long, value_name = "SHARE", allow_negative_numbers = true)]
    pub headroom: Option<f64>,
    /// A store preset: sets the cap, read cap, burst and batch size (flags still override).
    #[arg(long, value_enum)]
    pub store: Option<Store>,
    /// Take the cap from the JSON `shardplan measure` wrote (its single-key INCR rate).
    #[arg(long, value_name = "FILE", conflicts_with = "cap")]
    pub cap_from_measure: Option<PathBuf>,
    /// Like row and shard increment commit in one transaction: each write costs the
    /// store's transactional units (2 on DynamoDB), so a key takes cap / cost likes/s.
    #[arg(long)]
    pub transactional: bool,
}

/// How the count is read.
#[derive(Debug, Clone, Default, Args)]
pub struct ReadArgs {
    /// Views of the count per second (default 50000).
    #[arg(long, value_name = "PER_S", allow_negative_numbers = true)]
    pub views: Option<f64>,
    /// Likes servers, each caching the sum (default 40).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number)]
    pub servers: Option<u64>,
    /// Seconds each server caches the sum; 0 = no cache (default 2).
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    pub cache_seconds: Option<f64>,
    /// Items one batch read fetches (default 100, DynamoDB BatchGetItem).
    #[arg(long, value_name = "ITEMS", allow_negative_numbers = true, value_parser = whole_number)]
    pub batch_size: Option<u64>,
    /// The store's read cap per key, reads/s (default 3000).
    #[arg(long, value_name = "READS_PER_S", allow_negative_numbers = true)]
    pub read_cap: Option<f64>,
}

/// Where and how results are written.
#[derive(Debug, Clone, Args)]
pub struct OutputArgs {
    /// Output format (default: table on stdout; for --output, the file's extension).
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Write to FILE instead of stdout (.csv, .json, .md, .txt, .tsv); repeat for several files.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Vec<PathBuf>,
    /// No progress bar.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Print every resolved input with its value and where it came from
    /// (flag, scenario field, store preset or default) before the results.
    #[arg(long)]
    pub explain: bool,
}

/// How long the hot spell lasts and how its likes arrive (exact math).
#[derive(Debug, Clone, Args)]
pub struct RiskSpan {
    /// How long the reel stays this hot: seconds or 90s, 10m, 4h (default 4h).
    #[arg(long, value_name = "DURATION", allow_negative_numbers = true, value_parser = crate::model::duration::parse_seconds)]
    pub duration: Option<f64>,
    /// Likes per second: exactly the rate, or Poisson with that mean (default fixed).
    #[arg(long, value_enum)]
    pub traffic: Option<TrafficModel>,
}

#[derive(Debug, Clone, Args)]
pub struct RiskArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    /// Likes/s (default: the planned peak).
    #[arg(long, value_name = "LIKES_PER_S", allow_negative_numbers = true)]
    pub rate: Option<f64>,
    /// Shard count (default: what `size` gives).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number)]
    pub shards: Option<u64>,
    #[command(flatten)]
    pub span: RiskSpan,
    #[command(flatten)]
    pub sizing: SizingArgs,
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
    /// Size by risk: the fewest shards whose chance of any second over the cap
    /// during --duration is at most this (e.g. 0.01).
    #[arg(long, value_name = "PROBABILITY", allow_negative_numbers = true)]
    pub risk: Option<f64>,
    #[command(flatten)]
    pub span: RiskSpan,
    #[command(flatten)]
    pub reads: ReadArgs,
    #[command(flatten)]
    pub out: OutputArgs,
}

/// What to simulate (shared by `simulate`, `chart` and `report`).
#[derive(Debug, Clone, Default, Args)]
pub struct SimInputs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    /// Likes/s to simulate (default: the planned peak).
    #[arg(long, value_name = "LIKES_PER_S", allow_negative_numbers = true)]
    pub rate: Option<f64>,
    /// Shard count (default: what `size` gives).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number)]
    pub shards: Option<u64>,
    /// Simulated seconds (default 2000).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number)]
    pub seconds: Option<u64>,
    /// Likes per second: exactly the rate, or Poisson with that mean.
    #[arg(long, value_enum)]
    pub traffic: Option<TrafficModel>,
    /// Master seed: the same seed gives the same output for any --threads.
    #[arg(long, allow_negative_numbers = true, value_parser = whole_number)]
    pub seed: Option<u64>,
    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number)]
    pub threads: Option<u64>,
    /// How seconds are drawn: auto (exact table when cheap, multinomial with --per-second),
    /// multinomial (every shard, S - 1 binomials a second) or exact-table (default auto).
    #[arg(long, value_enum)]
    pub sampler: Option<SamplerKind>,
    #[command(flatten)]
    pub sizing: SizingArgs,
    #[command(flatten)]
    pub reads: ReadArgs,
}

/// Time-line options: burst capacity and the hot-key monitor. Any of them
/// (or a scenario with [curve], [store] or [monitor]) makes `simulate` follow
/// the time line second by second.
#[derive(Debug, Clone, Default, Args)]
pub struct TimelineArgs {
    /// Seconds of unused capacity each shard key keeps as burst (DynamoDB: 300; 0 = none).
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true, value_parser = whole_number)]
    pub burst_seconds: Option<u64>,
    /// Whether the burst bucket starts full or empty.
    #[arg(long, value_enum)]
    pub burst_start: Option<BurstStart>,
    /// Run the hot-key monitor (default settings unless the scenario or flags below say otherwise).
    #[arg(long)]
    pub monitor: bool,
    /// Monitor: likes/s (mean over the window) that raise the reel (default 300).
    #[arg(long, value_name = "LIKES_PER_S", allow_negative_numbers = true)]
    pub threshold: Option<f64>,
    /// Monitor: the window the rate is measured over, e.g. 60s or 2m (default 60s).
    #[arg(long, value_name = "DURATION", allow_negative_numbers = true, value_parser = whole_seconds)]
    pub window: Option<u64>,
    /// Monitor: how long each likes server caches the shard settings (default 60s; 0 = no cache).
    #[arg(long, value_name = "DURATION", allow_negative_numbers = true, value_parser = whole_seconds_or_zero)]
    pub settings_ttl: Option<u64>,
    /// Monitor: shards after the raise (default 20).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number)]
    pub target_shards: Option<u64>,
}

impl TimelineArgs {
    pub fn any(&self) -> bool {
        self.burst_seconds.is_some()
            || self.burst_start.is_some()
            || self.monitor
            || self.threshold.is_some()
            || self.window.is_some()
            || self.settings_ttl.is_some()
            || self.target_shards.is_some()
    }
}

/// A duration in whole seconds (`90`, `90s`, `10m`, `4h`).
pub fn whole_seconds(text: &str) -> Result<u64, String> {
    let s = crate::model::duration::parse_seconds(text)?;
    if s.fract() != 0.0 {
        return Err(format!("must be a whole number of seconds (got {text:?})"));
    }
    Ok(s as u64)
}

/// Like [`whole_seconds`], but 0 is accepted (no cache).
pub fn whole_seconds_or_zero(text: &str) -> Result<u64, String> {
    if text.trim().trim_end_matches('s') == "0" {
        return Ok(0);
    }
    whole_seconds(text)
}

#[derive(Debug, Clone, Args)]
pub struct SimulateArgs {
    #[command(flatten)]
    pub sim: SimInputs,
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
    #[arg(long, value_enum, default_value = "busiest")]
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
    /// The folder to write report.md and its SVG charts to (created if missing).
    #[arg(long, value_name = "DIR", default_value = "report")]
    pub out: PathBuf,
    /// Master seed of the simulation (default: the scenario's, else 2026).
    #[arg(long, allow_negative_numbers = true, value_parser = whole_number)]
    pub seed: Option<u64>,
    /// Simulated seconds (default: the scenario's, else 2000).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number)]
    pub seconds: Option<u64>,
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
    #[arg(long, value_enum)]
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
    #[arg(long, value_enum)]
    pub fold: Option<FoldMode>,
    /// Shrink: how readers read the shards.
    #[arg(long, value_enum)]
    pub read: Option<ReadMode>,
    /// Shrink, separate writes: which of the two writes goes first.
    #[arg(long, value_enum)]
    pub step_order: Option<StepOrder>,
    /// Seed of the simulated grow.
    #[arg(long, allow_negative_numbers = true, value_parser = whole_number)]
    pub seed: Option<u64>,
    #[command(flatten)]
    pub out: OutputArgs,
}

#[derive(Debug, Clone, Args)]
#[command(group(clap::ArgGroup::new("source").required(true).args(["stdin", "template"])))]
pub struct KeysArgs {
    /// Read keys from stdin, one per line (bytes as given).
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
    #[arg(long, value_enum)]
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
    #[arg(long, value_name = "LIKES_PER_S", allow_negative_numbers = true)]
    pub rate: Option<f64>,
    /// Writes/s one partition accepts (default: the --store preset's, else 1000).
    #[arg(long, value_name = "WRITES_PER_S", allow_negative_numbers = true)]
    pub cap: Option<f64>,
    /// A store preset for the partition cap (see `shardplan stores`).
    #[arg(long, value_enum)]
    pub store: Option<Store>,
    /// Likes per second: exactly the rate, or Poisson with that mean (default fixed; needs --rate).
    #[arg(long, value_enum)]
    pub traffic: Option<TrafficModel>,
    /// Seed for the Monte Carlo parts (default 2026).
    #[arg(long, allow_negative_numbers = true, value_parser = whole_number)]
    pub seed: Option<u64>,
    /// Placements sampled when Monte Carlo is used.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number)]
    pub trials: Option<u64>,
    #[command(flatten)]
    pub out: OutputArgs,
}

/// The whole table of reels (`shardplan fleet`).
#[derive(Debug, Clone, Args)]
pub struct FleetArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    /// Background reels (default 1,000,000; at most 100,000,000).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number)]
    pub reels: Option<u64>,
    /// Likes a day over all background reels (default 100,000,000).
    #[arg(long, value_name = "LIKES", allow_negative_numbers = true)]
    pub likes_per_day: Option<f64>,
    /// Peak-hour rate over the day's mean rate (default 2).
    #[arg(long, value_name = "FACTOR", allow_negative_numbers = true)]
    pub peak_factor: Option<f64>,
    /// Zipf exponent s: rank i gets i^-s / H(n, s) of the likes (default 1).
    #[arg(
        long,
        value_name = "S",
        allow_negative_numbers = true,
        conflicts_with = "rates_csv"
    )]
    pub zipf: Option<f64>,
    /// Per-reel peak rates instead of Zipf: a CSV with a reel_id,rate header.
    #[arg(long, value_name = "FILE")]
    pub rates_csv: Option<PathBuf>,
    /// A reel pinned on top of the background: NAME=RATE or NAME=RATE:SHARDS (repeatable).
    #[arg(long, value_name = "NAME=RATE[:SHARDS]")]
    pub hot_reel: Vec<String>,
    /// Views of a reel's count per like it gets (default 10).
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub views_per_like: Option<f64>,
    /// Monitor: likes/s at which a reel is raised (default 300).
    #[arg(long, value_name = "LIKES_PER_S", allow_negative_numbers = true)]
    pub threshold: Option<f64>,
    /// Monitor: shards a raised reel gets (default 20).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number)]
    pub target_shards: Option<u64>,
    /// Partitions the store hashes shard keys onto (default 1000).
    #[arg(long, value_name = "P", allow_negative_numbers = true, value_parser = whole_number)]
    pub partitions: Option<u64>,
    /// Writes/s one partition accepts (default 1000).
    #[arg(long, value_name = "WRITES_PER_S", allow_negative_numbers = true)]
    pub cap: Option<f64>,
    /// Likes servers, each caching each reel's sum (default 40).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number)]
    pub servers: Option<u64>,
    /// Seconds each server caches a sum; 0 = no cache (default 2).
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    pub cache_seconds: Option<f64>,
    /// How long the peak lasts, e.g. 1h (default 1h): the risk covers every second of it.
    #[arg(long, value_name = "DURATION", allow_negative_numbers = true, value_parser = whole_seconds)]
    pub duration: Option<u64>,
    /// Accepted P(some partition over the cap during --duration) (default 0.01).
    #[arg(long, value_name = "P", allow_negative_numbers = true)]
    pub risk: Option<f64>,
    /// Largest shard count the search tries (default 4096).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number)]
    pub max_shards: Option<u64>,
    /// Placements sampled for the partition load (default 400).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number)]
    pub trials: Option<u64>,
    /// Placements sampled per search step (default 100).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number)]
    pub search_trials: Option<u64>,
    /// Seed of the placements: the same seed gives the same output for any --threads.
    #[arg(long, allow_negative_numbers = true, value_parser = whole_number)]
    pub seed: Option<u64>,
    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number)]
    pub threads: Option<u64>,
    #[command(flatten)]
    pub out: OutputArgs,
}

#[derive(Debug, Clone, Args)]
pub struct StoresArgs {
    #[command(flatten)]
    pub out: OutputArgs,
}

#[derive(Debug, Clone, Args)]
pub struct MeasureArgs {
    /// The server, e.g. redis://127.0.0.1:7000 (any node of a cluster).
    #[arg(long, value_name = "URL")]
    pub redis: String,
    /// Talk Redis Cluster (route by slot, report ops per node).
    #[arg(long)]
    pub cluster: bool,
    /// Shard keys.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number, default_value = "16")]
    pub shards: u64,
    /// Concurrent connections.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number, default_value = "50")]
    pub clients: u64,
    /// How long each phase runs, e.g. 10s.
    #[arg(long, value_name = "DURATION", default_value = "10s")]
    pub duration: String,
    /// Stop each phase after this many INCRs.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number)]
    pub max_ops: Option<u64>,
    /// Commands per pipeline (1 = no pipelining).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number, default_value = "1")]
    pub pipeline: u64,
    /// Shard key template with a <shard> placeholder.
    #[arg(long, value_name = "TEMPLATE", default_value = "likes:<shard>")]
    pub template: String,
    /// Leave the keys in place afterwards.
    #[arg(long)]
    pub keep: bool,
    /// Reset keys that already exist instead of refusing to run.
    #[arg(long)]
    pub overwrite: bool,
    #[command(flatten)]
    pub out: OutputArgs,
}

/// A whole number as typed on the command line (0 passes here; each
/// command says whether it accepts 0).
pub fn whole_number(text: &str) -> Result<u64, String> {
    let t = text.trim();
    if t.starts_with('-') {
        return Err(format!("must be a whole number >= 0 (got {t})"));
    }
    t.replace('_', "")
        .parse::<u64>()
        .map_err(|e| match e.kind() {
            std::num::IntErrorKind::PosOverflow => {
                format!("{t} is too large (at most {})", u64::MAX)
            }
            _ => format!("must be a whole number (got {t:?})"),
        })
}

#[derive(Debug, Clone, Args)]
pub struct CompareArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    /// Likes/s to compare at (default: the planned peak).
    #[arg(long, value_name = "LIKES_PER_S", allow_negative_numbers = true)]
    pub rate: Option<f64>,
    /// Shards of the sharded design (default: what `size` gives; with
    /// --transactional, the fewest that absorb the conflicts' retries).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number)]
    pub shards: Option<u64>,
    /// The run the "any second over the cap" chance covers, e.g. 4h (default 4h).
    #[arg(long, value_name = "DURATION", allow_negative_numbers = true, value_parser = whole_seconds)]
    pub duration: Option<u64>,
    /// Likes per second: exactly the rate, or Poisson with that mean.
    #[arg(long, value_enum)]
    pub traffic: Option<TrafficModel>,
    /// Buffered designs: each server writes its tally every this many seconds (default 1).
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    pub flush_seconds: Option<f64>,
    /// Log design: the consumer writes totals every this many seconds (default 5).
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    pub log_commit_seconds: Option<f64>,
    /// With --transactional: how long a transaction holds its shard, ms (default 10).
    #[arg(long, value_name = "MS", allow_negative_numbers = true)]
    pub txn_ms: Option<f64>,
    /// Share of increments that time out (default 0.001).
    #[arg(long, value_name = "SHARE", allow_negative_numbers = true)]
    pub timeout_rate: Option<f64>,
    /// Share of timed-out increments that had in fact been applied (default 0.5).
    #[arg(long, value_name = "SHARE", allow_negative_numbers = true)]
    pub applied_share: Option<f64>,
    /// Retries after a timeout: 0 = never, k = up to k more attempts (default 2).
    #[arg(long, value_name = "K", allow_negative_numbers = true, value_parser = whole_number)]
    pub retries: Option<u64>,
    #[command(flatten)]
    pub sizing: SizingArgs,
    #[command(flatten)]
    pub reads: ReadArgs,
    #[command(flatten)]
    pub out: OutputArgs,
}

#[derive(Debug, Clone, Args)]
pub struct ScenariosArgs {
    #[command(flatten)]
    pub out: OutputArgs,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_is_well_formed() {
        Cli::command().debug_assert();
    }
}
