//! Flag groups several commands share: the scenario, the sizing inputs, the
//! read path, the output, the hot spell, a simulation and a time line.
//! Each flag's doc line is its `--help` text and its default.

use std::path::PathBuf;

use clap::Args;

use super::parse::{whole_number, whole_seconds, whole_seconds_or_zero};
use super::values::{choice, BURST_STARTS, SAMPLERS, STORES, TRAFFIC};
use crate::model::simulation::SamplerKind;
use crate::model::store::Store;
use crate::model::timeline::bucket::BurstStart;
use crate::model::traffic::TrafficKind;
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
    /// Planning factor over the observed rate (default 1.5).
    #[arg(value_parser = crate::cli::parse::number, long, value_name = "FACTOR", allow_negative_numbers = true)]
    pub growth: Option<f64>,
    /// The store's write cap per key (partition), writes/s (default 1000).
    #[arg(value_parser = crate::cli::parse::number, long, value_name = "WRITES_PER_S", allow_negative_numbers = true)]
    pub cap: Option<f64>,
    /// Safe writes/s to plan per key, at most the cap.
    #[arg(value_parser = crate::cli::parse::number,
        long,
        value_name = "WRITES_PER_S",
        allow_negative_numbers = true,
        conflicts_with = "headroom"
    )]
    pub safe: Option<f64>,
    /// Share of the cap kept free, in [0, 1): safe = cap x (1 - headroom) (default 0.3).
    #[arg(value_parser = crate::cli::parse::number, long, value_name = "SHARE", allow_negative_numbers = true)]
    pub headroom: Option<f64>,
    /// A store preset: sets the cap, read cap, burst and batch size (flags still override).
    #[arg(long, value_parser = choice(STORES), ignore_case = true)]
    pub store: Option<Store>,
    /// Take the cap from the JSON `shardplan measure` wrote (its single-key INCR rate).
    #[arg(long, value_name = "FILE", conflicts_with = "cap")]
    pub cap_from_measure: Option<PathBuf>,
    /// Like row and shard increment commit in one transaction: each write costs the
    /// store's transactional units (2 on DynamoDB), so a key takes cap / cost likes/s.
    #[arg(long)]
    pub transactional: bool,
    /// Unlikes per like, 0 to 1: each is a decrement on a random shard, a write that
    /// counts against the cap, so writes = likes x (1 + SHARE). A --traffic-from trace
    /// is taken as write units, unlikes included.
    #[arg(value_parser = crate::cli::parse::number, long, value_name = "SHARE", allow_negative_numbers = true)]
    pub unlike_share: Option<f64>,
    /// With --unlike-share: the quiet stretch, from empty shards (a new reel, shards a
    /// grow just added), after which the chance of a shard below zero is given (default 1h).
    #[arg(long, value_name = "DURATION", allow_negative_numbers = true, value_parser = crate::model::duration::parse_seconds)]
    pub cool_down: Option<f64>,
    /// With --unlike-share: likes/s during the cool-down (default 1).
    #[arg(value_parser = crate::cli::parse::number, long, value_name = "LIKES_PER_S", allow_negative_numbers = true)]
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
    /// Views of the count per second (default 50000).
    #[arg(value_parser = crate::cli::parse::number, long, value_name = "PER_S", allow_negative_numbers = true)]
    pub views: Option<f64>,
    /// Likes servers, each caching the sum (default 40).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number)]
    pub servers: Option<u64>,
    /// Seconds each server caches the sum; 0 = no cache (default 2).
    #[arg(value_parser = crate::cli::parse::number, long, value_name = "SECONDS", allow_negative_numbers = true)]
    pub cache_seconds: Option<f64>,
    /// Items one batch read fetches (default 100, DynamoDB BatchGetItem).
    #[arg(long, value_name = "ITEMS", allow_negative_numbers = true, value_parser = whole_number)]
    pub batch_size: Option<u64>,
    /// The store's read cap per key, reads/s (default 3000).
    #[arg(value_parser = crate::cli::parse::number, long, value_name = "READS_PER_S", allow_negative_numbers = true)]
    pub read_cap: Option<f64>,
}

/// Where and how results are written.
#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "Output")]
pub struct OutputArgs {
    /// Output format (default: table on stdout; for --output, the file's extension).
    #[arg(long, value_enum, ignore_case = true)]
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
#[derive(Debug, Clone, Default, Args)]
#[command(next_help_heading = "Hot spell")]
pub struct RiskSpan {
    /// How long the reel stays this hot: seconds or 90s, 10m, 4h (default 4h).
    #[arg(long, value_name = "DURATION", allow_negative_numbers = true, value_parser = crate::model::duration::parse_seconds)]
    pub duration: Option<f64>,
    /// Likes per second: exactly the rate, Poisson with that mean, gamma-poisson (burstier), or empirical (the per-second --traffic-from trace's seconds) (default fixed).
    #[arg(long, value_parser = choice(TRAFFIC), ignore_case = true)]
    pub traffic: Option<TrafficKind>,
    /// Gamma-poisson traffic's shape K: variance rate + rate^2 / K (smaller is burstier).
    #[arg(long, value_name = "K", allow_negative_numbers = true, value_parser = crate::cli::parse::number)]
    pub dispersion: Option<f64>,
}

/// What the recommendation weighs beyond the sizing: an accepted risk over
/// a hot spell and the partitions of a hashed store.
#[derive(Debug, Clone, Default, Args)]
#[command(next_help_heading = "Risk, partitions and nodes")]
pub struct PlanArgs {
    /// Size by risk: the fewest shards whose chance of any second over the cap
    /// during --duration is at most this (e.g. 0.01).
    #[arg(value_parser = crate::cli::parse::number, long, value_name = "PROBABILITY", allow_negative_numbers = true)]
    pub risk: Option<f64>,
    /// Partitions of a hashed store the shard keys land on: shards sharing one add
    /// up against its cap (risk: --risk, else 1%).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number)]
    pub partitions: Option<u64>,
    /// Redis Cluster (--store redis-cluster): the shard key template, e.g. 'reel:8841:likes:<shard>'.
    #[arg(long, value_name = "TEMPLATE")]
    pub template: Option<String>,
    /// Redis Cluster: masters the 16,384 slots are split over.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number)]
    pub nodes: Option<u64>,
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
    /// Likes/s to simulate (default: the planned peak).
    #[arg(value_parser = crate::cli::parse::number, long, value_name = "LIKES_PER_S", allow_negative_numbers = true)]
    pub rate: Option<f64>,
    /// Shard count (default: what `size` gives).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number)]
    pub shards: Option<u64>,
    /// Simulated seconds: 2000, or with units 33m, 4h, 1h30m (default 2000).
    #[arg(long, value_name = "DURATION", allow_negative_numbers = true, value_parser = whole_seconds)]
    pub seconds: Option<u64>,
    /// Likes per second: exactly the rate, Poisson with that mean, gamma-poisson (burstier), or empirical (the per-second --traffic-from trace's seconds).
    #[arg(long, value_parser = choice(TRAFFIC), ignore_case = true)]
    pub traffic: Option<TrafficKind>,
    /// Gamma-poisson traffic's shape K: variance rate + rate^2 / K (smaller is burstier).
    #[arg(long, value_name = "K", allow_negative_numbers = true, value_parser = crate::cli::parse::number)]
    pub dispersion: Option<f64>,
    /// Master seed: the same seed gives the same output for any --threads.
    #[arg(long, allow_negative_numbers = true, value_parser = whole_number)]
    pub seed: Option<u64>,
    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number)]
    pub threads: Option<u64>,
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
    /// Seconds of unused capacity each shard key keeps as burst (DynamoDB: 300; 0 = none).
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true, value_parser = whole_number)]
    pub burst_seconds: Option<u64>,
    /// Whether the burst bucket starts full or empty.
    #[arg(long, value_parser = choice(BURST_STARTS), ignore_case = true)]
    pub burst_start: Option<BurstStart>,
    /// Run the hot-key monitor (default settings unless the scenario or flags below say otherwise).
    #[arg(long)]
    pub monitor: bool,
    /// Monitor: likes/s (mean over the window) that raise the reel (default 300).
    #[arg(value_parser = crate::cli::parse::number, long, value_name = "LIKES_PER_S", allow_negative_numbers = true)]
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
    /// Replay --traffic-from's trace as the time line: each observed second's count (coarser data: each period's rate).
    #[arg(long)]
    pub replay: bool,
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
            || self.replay
    }
}
