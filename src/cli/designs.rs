//! The flags of `fleet` (the whole table of reels) and `compare` (the
//! counter designs side by side).

use std::path::PathBuf;

use clap::Args;

use super::groups::{OutputArgs, ReadArgs, ScenarioArgs, SizingArgs};
use super::parse::{whole_number, whole_seconds};
use super::values::{choice, TRAFFIC};
use crate::model::traffic::TrafficKind;

/// The whole table of reels (`shardplan fleet`).
#[derive(Debug, Clone, Args)]
pub struct FleetArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    /// Background reels (default 1,000,000; at most 100,000,000).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number)]
    pub reels: Option<u64>,
    /// Likes a day over all background reels (default 100,000,000).
    #[arg(value_parser = crate::cli::parse::number, long, value_name = "LIKES", allow_negative_numbers = true)]
    pub likes_per_day: Option<f64>,
    /// Peak-hour rate over the day's mean rate (default 2).
    #[arg(value_parser = crate::cli::parse::number, long, value_name = "FACTOR", allow_negative_numbers = true)]
    pub peak_factor: Option<f64>,
    /// Zipf exponent s: rank i gets i^-s / H(n, s) of the likes (default 1).
    #[arg(value_parser = crate::cli::parse::number,
        long,
        value_name = "S",
        allow_negative_numbers = true,
        conflicts_with = "rates_csv"
    )]
    pub zipf: Option<f64>,
    /// Per-reel peak rates instead of Zipf: a CSV with a reel_id,rate header
    /// (- reads standard input).
    #[arg(long, value_name = "FILE")]
    pub rates_csv: Option<PathBuf>,
    /// A reel pinned on top of the background: NAME=RATE or NAME=RATE:SHARDS (repeatable).
    #[arg(long, value_name = "NAME=RATE[:SHARDS]")]
    pub hot_reel: Vec<String>,
    /// Views of a reel's count per like it gets (default 10).
    #[arg(value_parser = crate::cli::parse::number, long, value_name = "N", allow_negative_numbers = true)]
    pub views_per_like: Option<f64>,
    /// Monitor: likes/s at which a reel is raised (default 300).
    #[arg(value_parser = crate::cli::parse::number, long, value_name = "LIKES_PER_S", allow_negative_numbers = true)]
    pub threshold: Option<f64>,
    /// Monitor: shards a raised reel gets (default 20).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number)]
    pub target_shards: Option<u64>,
    /// Partitions the store hashes shard keys onto (default 1000).
    #[arg(long, value_name = "P", allow_negative_numbers = true, value_parser = whole_number)]
    pub partitions: Option<u64>,
    /// Writes/s one partition accepts (default 1000).
    #[arg(value_parser = crate::cli::parse::number, long, value_name = "WRITES_PER_S", allow_negative_numbers = true)]
    pub cap: Option<f64>,
    /// Likes servers, each caching each reel's sum (default 40).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number)]
    pub servers: Option<u64>,
    /// Seconds each server caches a sum; 0 = no cache (default 2).
    #[arg(value_parser = crate::cli::parse::number, long, value_name = "SECONDS", allow_negative_numbers = true)]
    pub cache_seconds: Option<f64>,
    /// How long the peak lasts, e.g. 1h (default 4h): the risk covers every second of it.
    #[arg(long, value_name = "DURATION", allow_negative_numbers = true, value_parser = whole_seconds)]
    pub duration: Option<u64>,
    /// Accepted P(some partition over the cap during --duration) (default 0.01).
    #[arg(value_parser = crate::cli::parse::number, long, value_name = "P", allow_negative_numbers = true)]
    pub risk: Option<f64>,
    /// Largest shard count the search tries (default 4096).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number)]
    pub max_shards: Option<u64>,
    /// Placements sampled for the partition load (default 400).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number)]
    pub trials: Option<u64>,
    /// Seed of the placements: the same seed gives the same output for any --threads.
    #[arg(long, allow_negative_numbers = true, value_parser = whole_number)]
    pub seed: Option<u64>,
    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number)]
    pub threads: Option<u64>,
    #[command(flatten)]
    pub prices: super::PriceArgs,
    /// Bytes billed per counter item, for --storage-price (default 150: about 50 bytes of
    /// key and number, plus DynamoDB's 100 bytes of per-item storage overhead).
    #[arg(value_parser = crate::cli::parse::number, long, value_name = "BYTES", allow_negative_numbers = true)]
    pub item_bytes: Option<f64>,
    #[command(flatten)]
    pub out: OutputArgs,
}

#[derive(Debug, Clone, Args)]
pub struct CompareArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    /// Likes/s to compare at (default: the planned peak).
    #[arg(value_parser = crate::cli::parse::number, long, value_name = "LIKES_PER_S", allow_negative_numbers = true)]
    pub rate: Option<f64>,
    /// Shards of the sharded design (default: what `size` gives; with
    /// --transactional, the fewest that absorb the conflicts' retries).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number)]
    pub shards: Option<u64>,
    /// The run the "any second over the cap" chance covers, e.g. 4h (default 4h).
    #[arg(long, value_name = "DURATION", allow_negative_numbers = true, value_parser = whole_seconds)]
    pub duration: Option<u64>,
    /// Likes per second: exactly the rate, Poisson with that mean, or gamma-poisson (burstier).
    #[arg(long, value_parser = choice(TRAFFIC), ignore_case = true)]
    pub traffic: Option<TrafficKind>,
    /// Gamma-poisson traffic's shape K: variance rate + rate^2 / K (smaller is burstier).
    #[arg(long, value_name = "K", allow_negative_numbers = true, value_parser = crate::cli::parse::number)]
    pub dispersion: Option<f64>,
    /// Buffered designs: each server writes its tally every this many seconds (default 1).
    #[arg(value_parser = crate::cli::parse::number, long, value_name = "SECONDS", allow_negative_numbers = true)]
    pub flush_seconds: Option<f64>,
    /// Log design: the consumer writes totals every this many seconds (default 5).
    #[arg(value_parser = crate::cli::parse::number, long, value_name = "SECONDS", allow_negative_numbers = true)]
    pub log_commit_seconds: Option<f64>,
    /// With --transactional: how long a transaction holds its shard, ms (default 10).
    #[arg(value_parser = crate::cli::parse::number, long, value_name = "MS", allow_negative_numbers = true)]
    pub txn_ms: Option<f64>,
    /// Share of increments that time out (default 0.001).
    #[arg(value_parser = crate::cli::parse::number, long, value_name = "SHARE", allow_negative_numbers = true)]
    pub timeout_rate: Option<f64>,
    /// Share of timed-out increments that had in fact been applied (default 0.5).
    #[arg(value_parser = crate::cli::parse::number, long, value_name = "SHARE", allow_negative_numbers = true)]
    pub applied_share: Option<f64>,
    /// Retries after a timeout: 0 = never, k = up to k more attempts (default 2).
    #[arg(long, value_name = "K", allow_negative_numbers = true, value_parser = whole_number)]
    pub retries: Option<u64>,
    #[command(flatten)]
    pub sizing: SizingArgs,
    #[command(flatten)]
    pub reads: ReadArgs,
    #[command(flatten)]
    pub prices: super::PriceArgs,
    /// Every column in the table and Markdown (the default fits 80 columns;
    /// CSV, TSV and JSON carry every column always).
    #[arg(long, help_heading = "Output")]
    pub wide: bool,
    #[command(flatten)]
    pub out: OutputArgs,
}
