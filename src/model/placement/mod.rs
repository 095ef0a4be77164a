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

/// The shard count a template may be listed for: at most
/// [`MAX_KEYS`](crate::model::defaults::MAX_KEYS) keys and
/// [`MAX_KEY_TEXT_BYTES`](crate::model::defaults::MAX_KEY_TEXT_BYTES) of key
/// text, so the listing stays within the memory every command keeps to.
/// `copies`: how many forms of each key the listing shows (the sorted
/// check shows each key and its shard-first form).
fn listing_bounds(
    template: &ShardTemplate,
    shards: u64,
    copies: u64,
) -> crate::error::ParamResult<u64> {
    use crate::model::defaults::{MAX_KEYS, MAX_KEY_TEXT_BYTES};
    let shards = crate::model::validate::count("shards", shards, MAX_KEYS)?;
    // The last key is the longest: its number has the most digits.
    let longest = template.key(shards - 1).len() as u64;
    let text = longest * shards * copies;
    if text > MAX_KEY_TEXT_BYTES {
        return Err(crate::error::ParamError::new(
            "shards",
            crate::error::Problem::KeyTextTooLong {
                shards,
                longest,
                copies,
                bytes: text,
            },
        ));
    }
    Ok(shards)
}
