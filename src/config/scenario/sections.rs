//! The scenario's sections: `[curve]`, `[store]`, `[monitor]`, `[resize]`,
//! `[fleet]`, `[prices]` and `[reconcile]`. Every field is optional, so the resolver can tell what the
//! file sets from what it leaves to the default.

use serde::Deserialize;

use crate::model::timeline::bucket::BurstStart;
use crate::model::timeline::resize::{FoldMode, ReadMode, ResizeOrder, StepOrder};

/// `[curve]`: `points = [[0, 50], [600, 9000], ...]`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CurveSection {
    /// `(t_seconds, likes_per_second)` pairs, times strictly increasing.
    pub points: Vec<[f64; 2]>,
}

/// `[store]`: burst capacity per shard key.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StoreSection {
    /// Seconds of unused capacity a key keeps (0 = no burst).
    pub burst_seconds: Option<u64>,
    /// Whether the bucket starts full or empty.
    pub burst_start: Option<BurstStart>,
}

/// `[monitor]`: the hot-key monitor.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MonitorSection {
    /// Likes/s (mean over the window) that trigger the raise.
    pub threshold: Option<f64>,
    /// The window the rate is measured over.
    pub window_seconds: Option<u64>,
    /// Shards after the raise.
    pub target_shards: Option<u64>,
    /// How long each likes server caches the shard settings.
    pub settings_ttl_seconds: Option<u64>,
    /// Likes servers (default: the scenario's top-level `servers`).
    pub servers: Option<u64>,
    /// Seconds between the monitor's decision and the settings write.
    pub delay_seconds: Option<u64>,
    /// Which setting is raised first.
    pub order: Option<ResizeOrder>,
}

/// `[resize]`: a grow or a shrink.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResizeSection {
    /// Shards before.
    pub from: Option<u64>,
    /// Shards after.
    pub to: Option<u64>,
    /// Grow: which setting is raised first.
    pub order: Option<ResizeOrder>,
    /// Grow: likes before the grow.
    pub likes_before: Option<u64>,
    /// Grow: likes during the grow.
    pub likes_after: Option<u64>,
    /// Grow: how long servers cache the shard settings.
    pub settings_ttl_seconds: Option<u64>,
    /// Shrink: two separate writes or one transaction per folded shard.
    pub fold: Option<FoldMode>,
    /// Shrink: how readers read the shards.
    pub read: Option<ReadMode>,
    /// Shrink, separate writes: which write goes first.
    pub step_order: Option<StepOrder>,
    /// Shrink: likes on each old shard.
    pub shard_likes: Option<Vec<u64>>,
}

/// `[fleet]`: the whole table of reels.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FleetSection {
    /// Background reels (Zipf ranks).
    pub reels: Option<u64>,
    /// Background likes a day over all reels.
    pub likes_per_day: Option<f64>,
    /// Peak-hour rate / the day's mean rate.
    pub peak_factor: Option<f64>,
    /// Zipf exponent s.
    pub zipf_exponent: Option<f64>,
    /// A CSV of per-reel peak rates (reel_id,rate) instead of Zipf.
    pub rates_csv: Option<String>,
    /// Views of a reel's count per like.
    pub views_per_like: Option<f64>,
    /// The monitor raises a reel at this many likes/s.
    pub threshold: Option<f64>,
    /// Shards a raised reel gets.
    pub target_shards: Option<u64>,
    /// Partitions the store hashes shard keys onto.
    pub partitions: Option<u64>,
    /// Writes/s one partition accepts.
    pub cap: Option<f64>,
    /// Likes servers.
    pub servers: Option<u64>,
    /// Seconds each server caches a sum.
    pub cache_seconds: Option<f64>,
    /// Seconds the risk covers.
    pub duration: Option<u64>,
    /// Accepted P(some partition over the cap during the duration).
    pub risk: Option<f64>,
    /// Largest shard count the search tries.
    pub max_shards: Option<u64>,
    /// Placements sampled for the partition load.
    pub trials: Option<u64>,
    /// Seed of the placements.
    pub seed: Option<u64>,
    /// Named reels at a given rate on top of the background.
    #[serde(default)]
    pub hot_reels: Vec<PinnedSection>,
}

/// One `[[fleet.hot_reels]]` entry.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PinnedSection {
    /// The reel's name.
    pub name: String,
    /// Likes/s at its peak.
    pub rate: f64,
    /// Shard keys it needs at least when raised.
    pub shards: Option<u64>,
}

/// `[prices]`: what the store charges, in the user's currency (no price is
/// built in), and the daily volumes of a monthly total.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PricesSection {
    /// Per million write request units.
    pub write_per_million: Option<f64>,
    /// Per million read request units.
    pub read_per_million: Option<f64>,
    /// Per GB-month of storage (`fleet`).
    pub storage_per_gb_month: Option<f64>,
    /// Bytes billed per counter item (`fleet`, with a storage price).
    pub item_bytes: Option<f64>,
    /// Likes a day.
    pub daily_likes: Option<f64>,
    /// Views a day.
    pub daily_views: Option<f64>,
}

/// `[reconcile]`: the drift of the live count and the job that closes it
/// (`reconcile`; each field as its flag).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReconcileSection {
    /// Likes a day over all reels.
    pub daily_likes: Option<f64>,
    /// Reels the job counts a run.
    pub reels: Option<u64>,
    /// Like rows the job counts per reel.
    pub likes_per_reel: Option<f64>,
    /// Share of increments whose reply is lost.
    pub timeout_share: Option<f64>,
    /// Of those, the share the store had applied.
    pub applied_share: Option<f64>,
    /// `none` or `once`.
    pub retry: Option<crate::model::reconcile::Retry>,
    /// Share of increments refused after the like row was saved.
    pub increment_fail_share: Option<f64>,
    /// Rows a second the job counts.
    pub scan_rate: Option<f64>,
    /// Seconds between runs.
    pub every_seconds: Option<f64>,
}
