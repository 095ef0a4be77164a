//! The flags of `fleet` (the whole table of reels) and `compare` (the
//! counter designs side by side).

use std::path::PathBuf;

use clap::Args;

use super::defs::{
    Cache, Cap, Duration, Monitor, Partitions, Rate, Risk, Seed, Shards, Threads, Traffic, Trials,
};
use super::groups::{OutputArgs, ReadArgs, ScenarioArgs, SizingArgs};
use super::parse::whole_number;
use crate::model::defaults as d;
use crate::output::fmt;

/// The whole table of reels (`shardplan fleet`).
#[derive(Debug, Clone, Args)]
pub struct FleetArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    #[command(flatten)]
    pub reels: super::defs::Reels,
    #[arg(value_parser = crate::cli::parse::number, long, value_name = "LIKES", allow_negative_numbers = true,
        help = format!("Likes a day over all background reels (default {})", fmt::num(d::DEFAULT_LIKES_PER_DAY)))]
    pub likes_per_day: Option<f64>,
    #[arg(value_parser = crate::cli::parse::number, long, value_name = "FACTOR", allow_negative_numbers = true,
        help = format!("Peak-hour rate over the day's mean rate (default {})", d::DEFAULT_PEAK_FACTOR))]
    pub peak_factor: Option<f64>,
    #[arg(value_parser = crate::cli::parse::number,
        long,
        value_name = "S",
        allow_negative_numbers = true,
        conflicts_with = "rates_csv",
        help = format!("Zipf exponent s: rank i gets i^-s / H(n, s) of the likes (default {})", d::DEFAULT_ZIPF_EXPONENT)
    )]
    pub zipf: Option<f64>,
    /// Per-reel peak rates instead of Zipf: a CSV with a reel_id,rate header
    /// (- reads standard input).
    #[arg(long, value_name = "FILE")]
    pub rates_csv: Option<PathBuf>,
    /// A reel pinned on top of the background: NAME=RATE or NAME=RATE:SHARDS (repeatable).
    #[arg(long, value_name = "NAME=RATE[:SHARDS]")]
    pub hot_reel: Vec<String>,
    #[arg(value_parser = crate::cli::parse::number, long, value_name = "N", allow_negative_numbers = true,
        help = format!("Views of a reel's count per like it gets (default {})", d::DEFAULT_VIEWS_PER_LIKE))]
    pub views_per_like: Option<f64>,
    #[command(flatten)]
    pub monitor: Monitor,
    #[command(flatten)]
    pub partitions: Partitions,
    #[command(flatten)]
    pub cap: Cap,
    #[command(flatten)]
    pub cache: Cache,
    #[command(flatten)]
    pub duration: Duration,
    #[command(flatten)]
    pub risk: Risk,
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number,
        help = format!("Largest shard count the search tries (default {})", fmt::count(d::DEFAULT_FLEET_MAX_SHARDS)))]
    pub max_shards: Option<u64>,
    #[command(flatten)]
    pub trials: Trials,
    #[command(flatten)]
    pub seed: Seed,
    #[command(flatten)]
    pub threads: Threads,
    #[command(flatten)]
    pub prices: super::PriceArgs,
    #[arg(value_parser = crate::cli::parse::number, long, value_name = "BYTES", allow_negative_numbers = true,
        help = format!("Bytes billed per counter item, for --storage-price (default {}: about 50 bytes \
            of key and number, plus DynamoDB's 100 bytes of per-item storage overhead)", d::DEFAULT_ITEM_BYTES))]
    pub item_bytes: Option<f64>,
    #[command(flatten)]
    pub long_run: super::defs::LongRun,
    #[command(flatten)]
    pub out: OutputArgs,
}

#[derive(Debug, Clone, Args)]
pub struct CompareArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    #[command(flatten)]
    pub rate: Rate,
    // The sharded design's shards (default: what `size` gives; with
    // --transactional, the fewest that absorb the conflicts' retries).
    #[command(flatten)]
    pub shards: Shards,
    #[command(flatten)]
    pub duration: Duration,
    #[command(flatten)]
    pub traffic: Traffic,
    #[arg(value_parser = crate::cli::parse::number, long, value_name = "SECONDS", allow_negative_numbers = true,
        help = format!("Buffered designs: each server writes its tally every this many seconds (default {})",
            d::DEFAULT_FLUSH_SECONDS))]
    pub flush_seconds: Option<f64>,
    #[arg(value_parser = crate::cli::parse::number, long, value_name = "SECONDS", allow_negative_numbers = true,
        help = format!("Log design: the consumer writes totals every this many seconds (default {})",
            d::DEFAULT_LOG_COMMIT_SECONDS))]
    pub log_commit_seconds: Option<f64>,
    #[arg(value_parser = crate::cli::parse::number, long, value_name = "MS", allow_negative_numbers = true,
        help = format!("With --transactional: how long a transaction holds its shard, ms (default {})", d::DEFAULT_TXN_MS))]
    pub txn_ms: Option<f64>,
    #[arg(value_parser = crate::cli::parse::number, long, value_name = "SHARE", allow_negative_numbers = true,
        help = format!("Share of increments that time out (default {})", d::DEFAULT_TIMEOUT_RATE))]
    pub timeout_rate: Option<f64>,
    #[command(flatten)]
    pub applied_share: super::defs::AppliedShare,
    #[arg(long, value_name = "K", allow_negative_numbers = true, value_parser = whole_number,
        help = format!("Retries after a timeout: 0 = never, k = up to k more attempts (default {})", d::DEFAULT_RETRIES))]
    pub retries: Option<u64>,
    #[command(flatten)]
    pub sizing: SizingArgs,
    #[command(flatten)]
    pub plan: super::groups::PlanArgs,
    #[command(flatten)]
    pub reads: ReadArgs,
    #[command(flatten)]
    pub prices: super::PriceArgs,
    #[command(flatten)]
    pub measure: super::defs::MeasureFile,
    #[command(flatten)]
    pub out: OutputArgs,
}
