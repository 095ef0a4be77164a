//! What a placement check finds, as typed values with their figures: how a
//! read of the total is served and what `--check` fails on. The views
//! word them; no sentence is built here.

use serde::Serialize;

/// How a read of the total is served in a Redis Cluster. MGET works only
/// within a slot; across slots Redis answers CROSSSLOT.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ClusterRead {
    /// Every key (more than one) in one slot: one MGET reads them all, but
    /// every write goes to one node.
    OneSlot {
        /// Keys read.
        keys: u64,
        /// The slot they share.
        slot: u16,
    },
    /// Every key in its own slot: one GET per key.
    GetPerKey {
        /// GETs per read (S).
        gets: u64,
        /// Pipelines, one per node, sent in parallel; `null` without nodes.
        pipelines: Option<u64>,
    },
    /// Some keys share slots: one MGET per distinct slot.
    MgetPerSlot {
        /// MGETs per read (distinct slots).
        mgets: u64,
        /// Pipelines, one per node, sent in parallel; `null` without nodes.
        pipelines: Option<u64>,
    },
}

/// A placement problem found in a set of shard keys. Each variant carries
/// the figures behind it; the views turn it into a sentence.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PlacementWarning {
    /// Redis Cluster: shard keys share a hash slot, so their writes all go
    /// to one node.
    SharedSlot {
        /// Shard keys that share their slot with at least one other shard.
        shards: u64,
        /// Shard keys placed (S).
        of: u64,
        /// The slot holding the most shard keys.
        slot: u16,
        /// Shard keys in that slot.
        slot_shards: u64,
        /// That slot's share of the writes: `slot_shards / of`.
        share: f64,
        /// True when some key has a hash tag (Redis hashed the tag, not the
        /// whole key); false when whole keys' CRC16 values collide.
        by_hash_tag: bool,
    },
    /// Redis Cluster: a master holds more than ceil(S / N) shard keys.
    NodeOverShare {
        /// The busiest master.
        node: u32,
        /// Masters in the cluster (N).
        nodes: u32,
        /// Shard keys on that master.
        shards: u64,
        /// Shard keys placed (S).
        of: u64,
        /// Its share of the writes: `shards / of`.
        share: f64,
        /// The most a master should hold: ceil(S / N).
        fair_shards: u64,
        /// That as a share of the writes: ceil(S / N) / S.
        fair_share: f64,
    },
    /// Sorted store: the shard keys share a prefix, so they sort next to
    /// each other and likely sit in one tablet.
    ContiguousKeys {
        /// Shard keys expanded (S).
        shards: u64,
        /// The fixed bytes every shard key starts with.
        prefix: String,
        /// The shard-first template that spreads them.
        shard_first_template: String,
    },
}
