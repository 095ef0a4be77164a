//! The whole table of reels, not one hot key: how many reels the monitor
//! raises, what sharding adds in items and reads, and whether the store's
//! partitions hold when every shard key of every reel is hashed onto them.
//!
//! Popularity is Zipf (rank i gets R i^-s / H(n, s), H the generalized
//! harmonic number, from [`crate::model::zipf`]) or a list of per-reel
//! rates. Nothing is materialised per reel for Zipf: counts and sums over
//! rank ranges are closed forms (Euler–Maclaurin for H), so 100,000,000
//! reels cost what 1,000,000 do.
//!
//! Partition model (see docs/fleet.md): each shard key hashes to a uniformly
//! random partition. The few big keys (pinned reels, raised reels, the top
//! ranks) are placed explicitly; the millions of tiny tail keys add to each
//! partition a load that is, by the central limit theorem, close to
//! Normal(tail / P, sum r^2 (1/P)(1 - 1/P)) (multinomial placement). Given
//! a placement, likes arrive as Poisson, so partition p takes
//! Poisson(lambda_p) writes a second. The hottest partition's load is
//! averaged over seeded placements (`fleet/placement.rs`; the partitions no
//! explicit key lands on in aggregate, `fleet/tail_only.rs`). The chance
//! that some partition goes over the cap is bracketed between the union
//! bound over partitions and a bound below by negative association, both
//! from one partition's chance, exact over the biggest run's keys on it
//! and averaged over draws of the rest (`fleet/over_cap.rs`).

mod background;
mod bound;
mod over_cap;
mod placement;
mod policies;
mod search;
mod tail_only;

use serde::Serialize;

use crate::model::read_cost::ReadPlan;
use crate::model::sizing::shards_for;

pub use background::{Background, PopularityLaw};
pub use over_cap::OverCapKind;
pub use placement::{PartitionLoad, PlacementWork};
pub use policies::{Policy, PolicyCost};
pub use search::SearchResult;

/// A reel pinned at a given rate on top of the background.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct PinnedReel {
    /// The reel's name.
    pub name: String,
    /// Likes/s at the peak.
    pub rate: f64,
    /// Shard keys it needs at least when raised (None: ceil(rate / safe));
    /// it gets the larger of this and the target.
    pub shards: Option<u64>,
}

/// Where `fleet` answers another question than `size` on the same
/// scenario, with both figures: its pinned reels are sized under Poisson
/// arrivals (every fleet figure is), and its views are per like over the
/// whole fleet, not the one post's `views`.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct BesideSize {
    /// Each auto-sized pinned reel: its name, its keys here (Poisson) and
    /// what `size` answers under the scenario's own traffic law (fixed),
    /// where the two differ.
    pub reels: Vec<BesideSizeReel>,
    /// The scenario's `views` (views/s of the one post), which `size`
    /// reads; `fleet` reads `views_per_like` over every like instead.
    pub size_views: Option<f64>,
}

/// One pinned reel sized by `fleet` and by `size`.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct BesideSizeReel {
    /// The reel's name.
    pub name: String,
    /// Shard keys `fleet` gives it (under Poisson arrivals).
    pub fleet_shards: u64,
    /// Shard keys `size` gives it (under the scenario's fixed traffic).
    pub size_shards: u64,
}

/// Everything `fleet` needs, validated.
#[derive(Debug, Clone)]
pub struct FleetPlan {
    /// The ranked background reels.
    pub background: Background,
    /// Named reels on top of the background.
    pub pinned: Vec<PinnedReel>,
    /// Views of a reel's count per like it gets.
    pub views_per_like: f64,
    /// The monitor raises a reel whose rate is at least this (likes/s).
    pub threshold: f64,
    /// Shards a raised reel gets.
    pub target_shards: u64,
    /// Store partitions the shard keys hash onto.
    pub partitions: u64,
    /// Writes/s one partition accepts.
    pub cap: f64,
    /// Safe writes/s per shard key: sizes pinned reels without `shards`.
    pub safe: f64,
    /// Reads: views per reel are set per reel; servers and cache from here.
    pub reads: ReadPlan,
    /// Seconds the risk covers (the peak hour by default).
    pub seconds: u64,
    /// Accepted P(some partition over the cap during `seconds`).
    pub risk: f64,
    /// Placements for the report's partition load.
    pub trials: u64,
    /// Most target shards the search tries.
    pub max_shards: u64,
    /// Seed of every placement.
    pub seed: u64,
}

/// What `shardplan fleet` prints.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct FleetReport {
    /// All reels: background + pinned.
    pub reels: u64,
    /// Background reels.
    pub background_reels: u64,
    /// Pinned reels.
    pub pinned_reels: u64,
    /// Each pinned reel: name, rate and the shard keys it gets when raised
    /// (its own count, or the recommendation for it alone).
    pub pinned: Vec<PinnedReel>,
    /// zipf or rates.
    pub popularity: PopularityLaw,
    /// The Zipf exponent (None for per-reel rates).
    pub zipf_exponent: Option<f64>,
    /// Background likes/s at the peak hour.
    pub background_rate: f64,
    /// Background + pinned likes/s.
    pub total_rate: f64,
    /// Views of a reel's count per like.
    pub views_per_like: f64,
    /// views_per_like x total_rate, views/s.
    pub views_per_second: f64,
    /// The monitor's threshold, likes/s.
    pub threshold: f64,
    /// Shards a raised reel gets.
    pub target_shards: u64,
    /// Reels at or above the threshold at the peak (background + pinned).
    pub hot_reels: u64,
    /// Background reels at or above the threshold.
    pub hot_background_reels: u64,
    /// The hottest reel's likes/s, pinned ones included.
    pub hottest_reel_rate: f64,
    /// The hottest background reel's likes/s.
    pub hottest_background_rate: f64,
    /// Items and reads of the three policies.
    pub policies: Vec<PolicyCost>,
    /// The partitions at the plan's threshold and target.
    pub partition_load: PartitionLoad,
    /// The smallest plan within the risk.
    pub search: SearchResult,
}

impl FleetPlan {
    /// Shard keys of a pinned reel when raised with target `shards`.
    pub fn pinned_shards(&self, reel: &PinnedReel, shards: u64) -> u64 {
        shards.max(
            reel.shards
                .unwrap_or_else(|| shards_for(reel.rate, self.safe)),
        )
    }

    fn all_reels(&self) -> u64 {
        self.background.reels + self.pinned.len() as u64
    }

    fn total_rate(&self) -> f64 {
        self.background.total_rate + self.pinned.iter().map(|r| r.rate).sum::<f64>()
    }

    /// Reels at or above `threshold`, background and pinned.
    pub fn hot_reels(&self, threshold: f64) -> u64 {
        self.background.count_at_least(threshold)
            + self.pinned.iter().filter(|r| r.rate >= threshold).count() as u64
    }

    /// The whole report.
    pub fn evaluate(&self) -> FleetReport {
        let bg = &self.background;
        let hottest_bg = bg.rate(1);
        FleetReport {
            reels: self.all_reels(),
            background_reels: bg.reels,
            pinned_reels: self.pinned.len() as u64,
            pinned: self.pinned.clone(),
            popularity: bg.law(),
            zipf_exponent: bg.zipf_exponent(),
            background_rate: bg.total_rate,
            total_rate: self.total_rate(),
            views_per_like: self.views_per_like,
            views_per_second: self.views_per_like * self.total_rate(),
            threshold: self.threshold,
            target_shards: self.target_shards,
            hot_reels: self.hot_reels(self.threshold),
            hot_background_reels: bg.count_at_least(self.threshold),
            hottest_reel_rate: self
                .pinned
                .iter()
                .map(|r| r.rate)
                .fold(hottest_bg, f64::max),
            hottest_background_rate: hottest_bg,
            policies: self.policies(),
            partition_load: self.partition_load(self.threshold, self.target_shards, self.trials),
            search: self.search(),
        }
    }
}

#[cfg(test)]
mod tests;
