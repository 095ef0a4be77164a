//! A plan no shard count can hold, as data: what cannot be met, the
//! arithmetic that shows it, and the figures of the levers that would
//! work. Found by the recommendation (`recommendation/infeasible.rs`),
//! carried by it and by every verdict on the plan, worded by
//! `views::infeasible`.

use serde::Serialize;

use crate::model::picker::Picker;

/// Why no shard count holds the plan.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Infeasible {
    /// No count up to the limit keeps the per-key risk within its target.
    KeyRisk {
        /// How the app servers pick a shard.
        picker: Picker,
        /// App servers writing.
        servers: u64,
        /// The per-key risk's target, a probability 0..1.
        risk: f64,
        /// The most shards tried.
        max_shards: u64,
        /// Writes a second one shard key accepts.
        cap: f64,
        /// Sticky writers: the writes a second each server sends to its
        /// one shard (peak / servers), whatever the count.
        per_server: Option<f64>,
        /// Sticky writers: the fewest servers whose share fits under the
        /// cap, ceil(peak / cap) (needed, not always enough).
        servers_needed: Option<u64>,
        /// The shards the random picker needs for the same plan (`None`
        /// where it cannot either).
        random_shards: Option<u64>,
    },
    /// No count up to the limit keeps the shared partitions within the
    /// risk.
    Partitions {
        /// Partitions the keys hash onto.
        partitions: u64,
        /// Writes a second one partition accepts.
        cap: f64,
        /// What they carry together, partitions x cap, writes/s.
        capacity: f64,
        /// The planned peak, writes/s.
        peak: f64,
        /// The fewest partitions whose total carries the peak,
        /// ceil(peak / cap) (needed, not always enough for the risk).
        partitions_needed: u64,
        /// The risk accepted for them, a probability 0..1.
        risk: f64,
        /// The most shards tried.
        max_shards: u64,
    },
    /// No count keeps every Redis Cluster master within its cap.
    Nodes {
        /// Masters.
        nodes: u32,
        /// Writes a second one master accepts.
        node_cap: f64,
        /// What they carry together, nodes x node cap, writes/s.
        capacity: f64,
        /// The planned peak, writes/s.
        peak: f64,
        /// Every key hashes to one slot (the template's hash tag): one
        /// master takes every write.
        one_slot: bool,
        /// The fewest masters on which an even spread holds (`None` when
        /// none up to the limit does).
        nodes_needed: Option<u32>,
    },
}
