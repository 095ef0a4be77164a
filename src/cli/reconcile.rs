//! The flags of `reconcile`: the day's likes and the faults of the write
//! path, the job's reels, rows and scan rate, and the plan it corrects.

use clap::Args;

use super::defs::{AppliedShare, Reels, RetryArg, Shards};
use super::groups::{OutputArgs, ScenarioArgs, SizingArgs};
use crate::model::defaults as d;

/// How far the count drifts and what the job that closes it costs
/// (`shardplan reconcile`).
#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "Reconciliation")]
pub struct ReconcileArgs {
    #[command(flatten)]
    pub reels: Reels,
    #[arg(value_parser = crate::cli::parse::number, long, value_name = "ROWS", allow_negative_numbers = true,
        help = format!("Like rows the job counts per reel (default {})", crate::output::fmt::num(d::DEFAULT_LIKES_PER_REEL)))]
    pub likes_per_reel: Option<f64>,
    #[arg(value_parser = crate::cli::parse::number, long, value_name = "SHARE", allow_negative_numbers = true,
        help = format!("Share of increments whose reply is lost, F, in [0, 1] (default {})",
            d::DEFAULT_TIMEOUT_RATE))]
    pub timeout_share: Option<f64>,
    #[command(flatten)]
    pub applied_share: AppliedShare,
    #[command(flatten)]
    pub retry: RetryArg,
    #[arg(value_parser = crate::cli::parse::number, long, value_name = "SHARE", allow_negative_numbers = true,
        help = format!("Share of increments refused after the like row was saved, G: never \
            counted, the retry finding the row (default {})", d::DEFAULT_INCREMENT_FAIL_SHARE))]
    pub increment_fail_share: Option<f64>,
    #[arg(value_parser = crate::cli::parse::number, long, value_name = "ROWS_PER_S", allow_negative_numbers = true,
        help = format!("Rows a second the job counts (default {})", crate::output::fmt::num(d::DEFAULT_SCAN_ROWS_PER_SECOND)))]
    pub scan_rate: Option<f64>,
    #[arg(long, value_name = "DURATION", allow_negative_numbers = true, value_parser = crate::model::duration::parse_seconds,
        help = format!("Time between runs: seconds or 90s, 10m, 4h (default {})",
            super::defs::typed(d::DEFAULT_RECONCILE_EVERY_SECONDS)))]
    pub every: Option<f64>,
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    #[command(flatten)]
    pub sizing: SizingArgs,
    #[command(flatten)]
    pub shards: Shards,
    #[command(flatten)]
    pub prices: super::PriceArgs,
    #[command(flatten)]
    pub out: OutputArgs,
}
