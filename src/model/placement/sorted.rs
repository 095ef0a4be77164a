//! Shard keys in a sorted (Bigtable-like) store: keys that share a prefix
//! sort next to each other, likely in one tablet.

use std::collections::BTreeSet;

use serde::Serialize;

use super::findings::PlacementWarning;
use super::template::{ShardTemplate, SHARD_PLACEHOLDER};
use crate::error::ParamResult;

/// One shard key in a sorted store, with its shard-first form.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct SortedKey {
    /// The shard number.
    pub shard: u64,
    /// Its key from the template.
    pub key: String,
    /// Its key in the shard-first form.
    pub shard_first_key: String,
}

/// Whether shard keys sit together in a sorted store's key order.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct SortedReport {
    /// The template checked.
    pub template: String,
    /// Shards expanded (numbers `0..S`).
    pub shards: u64,
    /// Every shard's key, as the template gives it and shard first.
    pub keys: Vec<SortedKey>,
    /// The fixed bytes every shard key starts with (before the shard number).
    pub shared_prefix: String,
    /// True when that prefix is non-empty: every key between the first and
    /// the last shard key starts with it, so no other counter's key sorts
    /// between them and the shards likely share one tablet.
    pub contiguous: bool,
    /// The shard-first template, which spreads the keys.
    pub shard_first_template: String,
    /// Its zero-padding width: at least the digits of S - 1.
    pub shard_first_pad: usize,
    /// Distinct first bytes among the shard-first keys: keys that start
    /// differently spread through the key range.
    pub shard_first_distinct_first_bytes: u64,
    /// Does byte order of the shard-first keys match shard order?
    pub shard_first_in_order: bool,
}

impl SortedReport {
    /// Expand `template` for shards `0..shards` and check their key order.
    /// Errors name the parameters `shards`.
    pub fn from_template(template: &ShardTemplate, shards: u64) -> ParamResult<Self> {
        let shards = super::listing_bounds(template, shards, 2)?;
        let t = template.template();
        let prefix = &t[..t.find(SHARD_PLACEHOLDER).unwrap_or(0)];
        let first = template.shard_first(shards);
        let keys: Vec<SortedKey> = (0..shards)
            .map(|s| SortedKey {
                shard: s,
                key: template.key(s),
                shard_first_key: first.key(s),
            })
            .collect();
        let first_bytes: BTreeSet<u8> = keys
            .iter()
            .filter_map(|k| k.shard_first_key.as_bytes().first().copied())
            .collect();
        let in_order = keys
            .windows(2)
            .all(|w| w[0].shard_first_key.as_bytes() < w[1].shard_first_key.as_bytes());
        let contiguous = !prefix.is_empty();
        Ok(SortedReport {
            template: t.to_string(),
            shards,
            keys,
            shared_prefix: prefix.to_string(),
            contiguous,
            shard_first_template: first.template().to_string(),
            shard_first_pad: first.pad(),
            shard_first_distinct_first_bytes: first_bytes.len() as u64,
            shard_first_in_order: in_order,
        })
    }

    /// `--check` for sorted stores: shard keys sharing a prefix fail with
    /// [`PlacementWarning::ContiguousKeys`]. Empty means pass.
    pub fn check_failures(&self) -> Vec<PlacementWarning> {
        if self.contiguous {
            vec![PlacementWarning::ContiguousKeys {
                shards: self.shards,
                prefix: self.shared_prefix.clone(),
                shard_first_template: self.shard_first_template.clone(),
            }]
        } else {
            Vec::new()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorted_store_shard_first() {
        let t = ShardTemplate::new("reel#8841#likes#<shard>", 0).unwrap();
        let r = SortedReport::from_template(&t, 20).unwrap();
        assert!(r.contiguous);
        assert_eq!(r.shared_prefix, "reel#8841#likes#");
        assert_eq!(r.shard_first_template, "<shard>#reel#8841#likes");
        assert_eq!(r.shard_first_pad, 2);
        assert_eq!(r.keys[7].shard_first_key, "07#reel#8841#likes");
        assert!(r.shard_first_in_order);
        assert_eq!(r.shard_first_distinct_first_bytes, 2);
        assert_eq!(
            r.check_failures(),
            [PlacementWarning::ContiguousKeys {
                shards: 20,
                prefix: "reel#8841#likes#".into(),
                shard_first_template: "<shard>#reel#8841#likes".into(),
            }]
        );

        let f = ShardTemplate::new("<shard>#reel#8841#likes", 2).unwrap();
        let r = SortedReport::from_template(&f, 20).unwrap();
        assert!(!r.contiguous);
        assert!(r.check_failures().is_empty());

        let colon = ShardTemplate::new("reel:<shard>:likes", 0).unwrap();
        assert_eq!(colon.shard_first(100).template(), "<shard>:reel:likes");
        assert_eq!(colon.shard_first(100).pad(), 2);
        assert_eq!(colon.shard_first(101).pad(), 3);
    }
}
