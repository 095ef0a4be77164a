//! Flag groups several commands share: the scenario, the sizing inputs, the
//! read path, the output, the hot spell, a simulation and a time line.
//! Each flag's doc line is its `--help` text and its default.

use std::path::PathBuf;

use clap::Args;

use super::defs::{
    Cache, Cap, Duration, Explain, Monitor, Nodes, Output, Partitions, PickerArg, Quiet, Rate,
    Risk, Seconds, Seed, SettingsTtl, Shards, StoreArg, Template, Threads, Traffic, Wide,
};
use super::parse::{whole_number, whole_seconds};
use super::values::{choice, BURST_STARTS, SAMPLERS};
use crate::model::defaults as d;
use crate::model::simulation::SamplerKind;
use crate::model::timeline::bucket::BurstStart;
use crate::output::Format;

/// Which scenario supplies the defaults.
#[derive(Debug, Clone, Default, Args)]
#[command(next_help_heading = "Scenario")]
pub struct ScenarioArgs {
    /// A bundled scenario name (see `shardplan scenarios`), a path to a TOML
    /// file, or - to read the TOML from standard input.
    #[arg(long, value_name = "NAME|FILE", add = clap_complete::engine::ArgValueCompleter::new(super::complete::scenario_candidates))]
    pub scenario: Option<String>,
}

/// The inputs of the rule-of-thumb sizing.
#[derive(Debug, Clone, Default, Args)]
#[command(next_help_heading = "Sizing and store")]
pub struct SizingArgs {
    /// Planned peak likes/s on the hot counter.
    #[arg(value_parser = crate::cli::parse::number,
        long,
        value_name = "LIKES_PER_S",
        allow_negative_numbers = true,
        conflicts_with_all = ["observed", "growth"]
    )]
    pub peak: Option<f64>,
    /// The highest rate seen so far, likes/s (peak = observed x growth).
    #[arg(value_parser = crate::cli::parse::number, long, value_name = "LIKES_PER_S", allow_negative_numbers = true)]
    pub observed: Option<f64>,
    #[arg(value_parser = crate::cli::parse::number, long, value_name = "FACTOR", allow_negative_numbers = true,
        help = format!("Planning factor over the observed rate (default {})", d::DEFAULT_GROWTH))]
    pub growth: Option<f64>,
    #[command(flatten)]
    pub cap: Cap,
    /// Safe writes/s to plan per key, at most the cap.
    #[arg(value_parser = crate::cli::parse::number,
        long,
        value_name = "WRITES_PER_S",
        allow_negative_numbers = true,
        conflicts_with = "headroom"
    )]
    pub safe: Option<f64>,
    #[arg(value_parser = crate::cli::parse::number, long, value_name = "SHARE", allow_negative_numbers = true,
        help = format!("Share of the cap kept free, in [0, 1): safe = cap x (1 - headroom) (default {})",
            d::DEFAULT_HEADROOM))]
    pub headroom: Option<f64>,
    #[command(flatten)]
    pub store: StoreArg,
    /// Take the cap from the JSON `shardplan measure` wrote (its single-key INCR rate).
    #[arg(long, value_name = "FILE", conflicts_with = "cap")]
    pub cap_from_measure: Option<PathBuf>,
    /// Like row and shard increment commit in one transaction: each write costs the
    /// store's transactional units (2 on DynamoDB), so a key takes cap / cost likes/s.
    #[arg(long)]
    pub transactional: bool,
    /// Unlikes per like, 0 to 1: each is a decrement, a write that counts against the
    /// cap, so writes = likes x (1 + SHARE); the picker routes it as any write (random:
    /// a random shard; round-robin: the server's cursor; two-choice: the less written of
    /// two; sticky: the server's shard; user-hash: the shard of the like it undoes). A
    /// --traffic-from trace is taken as write units, unlikes included.
    #[arg(value_parser = crate::cli::parse::number, long, value_name = "SHARE", allow_negative_numbers = true)]
    pub unlike_share: Option<f64>,
    #[arg(long, value_name = "DURATION", allow_negative_numbers = true, value_parser = crate::model::duration::parse_seconds,
        help = format!("With --unlike-share: the quiet stretch, from empty shards (a new reel, shards a \
            grow just added), after which the chance of a shard below zero is given (default {})",
            super::defs::typed(d::DEFAULT_COOL_DOWN_SECONDS)))]
    pub cool_down: Option<f64>,
    #[arg(value_parser = crate::cli::parse::number, long, value_name = "LIKES_PER_S", allow_negative_numbers = true,
        help = format!("With --unlike-share: likes/s during the cool-down (default {})", d::DEFAULT_COOL_DOWN_RATE))]
    pub cool_down_rate: Option<f64>,
}

/// Observed traffic to plan from (`--traffic-from`).
#[derive(Debug, Clone, Default, Args)]
#[command(next_help_heading = "Observed traffic")]
pub struct ObservedArgs {
    /// Plan from observed likes: CSV time,count, CloudWatch get-metric-data JSON or a
    /// Prometheus query_range response (- for standard input); repeat for several CSV files
    /// or CloudWatch pages. Its busiest second (or period) is the observed rate, and
    /// per-second data fits the traffic law.
    #[arg(long, value_name = "FILE")]
    pub traffic_from: Vec<PathBuf>,
    /// CloudWatch: the Id of the result to read, when the output holds several.
    #[arg(long, value_name = "ID")]
    pub metric_id: Option<String>,
}

/// How the count is read.
#[derive(Debug, Clone, Default, Args)]
#[command(next_help_heading = "Reads")]
pub struct ReadArgs {
    #[arg(value_parser = crate::cli::parse::number, long, value_name = "PER_S", allow_negative_numbers = true,
        help = format!("Views of the count per second (default {})", crate::output::fmt::num(d::DEFAULT_VIEWS)))]
    pub views: Option<f64>,
    #[command(flatten)]
    pub cache: Cache,
    #[arg(long, value_name = "ITEMS", allow_negative_numbers = true, value_parser = whole_number,
        help = format!("Items one batch read fetches (default {}, DynamoDB BatchGetItem)", d::DEFAULT_BATCH))]
    pub batch_size: Option<u64>,
    #[arg(value_parser = crate::cli::parse::number, long, value_name = "READS_PER_S", allow_negative_numbers = true,
        help = format!("The store's read cap per key, reads/s (default: the store preset's, else {})",
            crate::output::fmt::num(d::DEFAULT_READ_CAP)))]
    pub read_cap: Option<f64>,
}

/// Where and how results are written.
#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "Output")]
pub struct OutputArgs {
    /// Output format (default: table on stdout; for --output, the file's extension).
    #[arg(long, value_enum, ignore_case = true)]
    pub format: Option<Format>,
    #[command(flatten)]
    pub output: Output,
    #[command(flatten)]
    pub quiet: Quiet,
    #[command(flatten)]
    pub explain: Explain,
    #[command(flatten)]
    pub wide: Wide,
}

/// How long the hot spell lasts and how its likes arrive (exact math).
#[derive(Debug, Clone, Default, Args)]
#[command(next_help_heading = "Hot spell")]
pub struct RiskSpan {
    #[command(flatten)]
    pub duration: Duration,
    #[command(flatten)]
    pub traffic: Traffic,
}

/// What the recommendation weighs beyond the sizing: an accepted risk over
/// a hot spell and the partitions of a hashed store.
#[derive(Debug, Clone, Default, Args)]
#[command(next_help_heading = "Risk, partitions and nodes")]
pub struct PlanArgs {
    #[command(flatten)]
    pub risk: Risk,
    #[command(flatten)]
    pub partitions: Partitions,
    #[command(flatten)]
    pub template: Template,
    #[command(flatten)]
    pub nodes: Nodes,
    #[command(flatten)]
    pub picker: PickerArg,
    /// Redis Cluster: writes/s one master accepts (default: the per-key cap).
    #[arg(value_parser = crate::cli::parse::number, long, value_name = "WRITES_PER_S", allow_negative_numbers = true)]
    pub node_cap: Option<f64>,
}

/// What to simulate (shared by `simulate`, `chart` and `report`).
#[derive(Debug, Clone, Default, Args)]
#[command(next_help_heading = "Load")]
pub struct SimInputs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    #[command(flatten)]
    pub rate: Rate,
    #[command(flatten)]
    pub shards: Shards,
    #[command(flatten)]
    pub seconds: Seconds,
    #[command(flatten)]
    pub traffic: Traffic,
    #[command(flatten)]
    pub seed: Seed,
    #[command(flatten)]
    pub threads: Threads,
    /// How seconds are drawn: auto (exact table when cheap, multinomial with --per-second),
    /// multinomial (every shard's count, each second) or exact-table (default auto).
    #[arg(long, value_parser = choice(SAMPLERS), ignore_case = true)]
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
#[command(next_help_heading = "Time line")]
pub struct TimelineArgs {
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true, value_parser = whole_number,
        help = format!("Seconds of unused capacity each shard key keeps as burst (DynamoDB: {}; 0 = none)",
            d::DEFAULT_BURST_SECONDS))]
    pub burst_seconds: Option<u64>,
    /// Whether the burst bucket starts full or empty.
    #[arg(long, value_parser = choice(BURST_STARTS), ignore_case = true)]
    pub burst_start: Option<BurstStart>,
    /// Run the hot-key monitor (default settings unless the scenario or flags below say otherwise).
    #[arg(long)]
    pub monitor: bool,
    #[command(flatten)]
    pub monitor_at: Monitor,
    #[arg(long, value_name = "DURATION", allow_negative_numbers = true, value_parser = whole_seconds,
        help = format!("Monitor: the window the rate is measured over, e.g. 60s or 2m (default {})",
            super::defs::typed(d::DEFAULT_WINDOW_SECONDS as f64)))]
    pub window: Option<u64>,
    #[command(flatten)]
    pub settings_ttl: SettingsTtl,
    /// Replay --traffic-from's trace as the time line: each observed second's count (coarser data: each period's rate).
    #[arg(long)]
    pub replay: bool,
}

impl TimelineArgs {
    pub fn any(&self) -> bool {
        self.burst_seconds.is_some()
            || self.burst_start.is_some()
            || self.monitor
            || self.monitor_at.threshold.is_some()
            || self.window.is_some()
            || self.settings_ttl.settings_ttl.is_some()
            || self.monitor_at.target_shards.is_some()
            || self.replay
    }
}
