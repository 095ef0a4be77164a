//! Where shard keys land: Redis Cluster hash slots and nodes, shard-key
//! templates, and key order in sorted (Bigtable-like) stores.
//!
//! Sharding spreads load only if the shard keys really land in different
//! places. In Redis Cluster a key's place is its hash slot, and a hash tag
//! (`{...}`) puts every key with the same tag in one slot: exactly what shard
//! keys must avoid. In a sorted store a key's place is its position in byte
//! order, so shard keys that share a prefix sit in one tablet.

mod cluster;
mod findings;
mod keys;
mod slots;
mod sorted;
mod template;

pub use cluster::{cluster_create_ranges, Cluster, SlotRange};
pub use findings::{ClusterRead, PlacementWarning};
pub use keys::{KeyPlacement, KeysReport};
pub use slots::{crc16, hash_tag, hashed_part, key_slot, REDIS_SLOTS};
pub use sorted::{SortedKey, SortedReport};
pub use template::{digits, ShardTemplate, SHARD_PLACEHOLDER};
