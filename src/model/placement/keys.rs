//! Where a set of shard keys lands in a Redis Cluster (slots and nodes),
//! what a read of the total costs, and what `--check` fails on.

use std::collections::BTreeMap;

use serde::Serialize;

use super::cluster::Cluster;
use super::findings::{ClusterRead, PlacementWarning};
use super::slots::{hash_tag, key_slot};
use super::template::ShardTemplate;
use crate::error::{ParamError, ParamResult, Problem};

/// Where one key lands.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct KeyPlacement {
    /// Position in the list (the shard number for a template).
    pub shard: u64,
    /// The key as text; bytes that are not UTF-8 show as U+FFFD.
    pub key: String,
    /// Its Redis Cluster hash slot.
    pub slot: u16,
    /// The master serving the slot; `null` when no node count was given.
    pub node: Option<u32>,
    /// The hash tag Redis hashed instead of the whole key, if any.
    pub hash_tag: Option<String>,
    /// The key exactly as given, for output that prints raw bytes.
    #[serde(skip)]
    pub key_bytes: Vec<u8>,
}

/// Where a set of shard keys lands in a Redis Cluster, and what it costs.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct KeysReport {
    /// The template, when the keys came from one.
    pub template: Option<String>,
    /// Every key and where it lands, in the order given.
    pub keys: Vec<KeyPlacement>,
    /// Shard keys placed (S).
    pub shards: u64,
    /// Masters in the cluster; `null` when not given.
    pub nodes: Option<u32>,
    /// Different slots the keys land in.
    pub distinct_slots: u64,
    /// Different masters they land on; `null` when no node count was given.
    pub distinct_nodes: Option<u64>,
    /// Shards that share their slot with at least one other shard.
    pub shards_sharing_a_slot: u64,
    /// The slot holding the most shard keys (the lowest one on a tie).
    pub busiest_slot: u16,
    /// Shard keys in that slot.
    pub busiest_slot_shards: u64,
    /// That slot's share of the writes: (shards in it) / S.
    pub busiest_slot_share: f64,
    /// The master holding the most shard keys (the lowest one on a tie);
    /// `null` when no node count was given.
    pub busiest_node: Option<u32>,
    /// Shard keys on that master.
    pub busiest_node_shards: Option<u64>,
    /// Busiest node's share of the writes: (shards on it) / S.
    pub busiest_node_share: Option<f64>,
    /// The most a node should carry: ceil(S / N) / S.
    pub fair_node_share: Option<f64>,
    /// Commands per read of the total: one per distinct slot (MGET works
    /// only within a slot; across slots it fails with CROSSSLOT).
    pub read_commands: u64,
    /// Pipelines per read: the commands grouped per node, sent in parallel.
    pub read_pipelines: Option<u64>,
    /// How a read of the total is served.
    pub read: ClusterRead,
    /// A template that avoids a shared slot, when the given one shares.
    pub suggested_template: Option<String>,
    /// What `--check` fails on: shared slots, a node over its share.
    pub warnings: Vec<PlacementWarning>,
}

impl KeysReport {
    /// Expand `template` for shards `0..shards` and place the keys.
    pub fn from_template(
        template: &ShardTemplate,
        shards: u64,
        nodes: Option<u32>,
    ) -> ParamResult<Self> {
        let shards = super::listing_bounds(template, shards, 1)?;
        let keys: Vec<Vec<u8>> = template
            .keys(shards)
            .into_iter()
            .map(String::into_bytes)
            .collect();
        let mut report = Self::build(&keys, nodes, Some(template))?;
        report.template = Some(template.template().to_string());
        Ok(report)
    }

    /// Place keys given as bytes (one shard each), e.g. read from stdin.
    pub fn from_keys(keys: &[Vec<u8>], nodes: Option<u32>) -> ParamResult<Self> {
        if keys.is_empty() {
            return Err(ParamError::new("stdin", Problem::NoKeys));
        }
        Self::build(keys, nodes, None)
    }

    fn build(
        keys: &[Vec<u8>],
        nodes: Option<u32>,
        template: Option<&ShardTemplate>,
    ) -> ParamResult<Self> {
        let cluster = nodes.map(Cluster::new).transpose()?;
        let s = keys.len() as u64;
        let placed = place(keys, cluster.as_ref());

        let mut per_slot: BTreeMap<u16, u64> = BTreeMap::new();
        let mut per_node: BTreeMap<u32, u64> = BTreeMap::new();
        for p in &placed {
            *per_slot.entry(p.slot).or_default() += 1;
            if let Some(n) = p.node {
                *per_node.entry(n).or_default() += 1;
            }
        }
        let distinct_slots = per_slot.len() as u64;
        let shards_sharing_a_slot: u64 = per_slot.values().filter(|&&c| c > 1).sum();
        // Ties go to the lowest slot / node, so output is stable.
        let (busiest_slot, busiest_slot_shards) = max_entry(&per_slot);
        let busiest_node = cluster.as_ref().map(|_| max_entry(&per_node));
        let fair_node_share = nodes.map(|n| s.div_ceil(u64::from(n)) as f64 / s as f64);
        let distinct_nodes = cluster.as_ref().map(|_| per_node.len() as u64);

        let read = cluster_read(s, distinct_slots, busiest_slot as u16, distinct_nodes);

        let mut report = KeysReport {
            template: None,
            keys: placed,
            shards: s,
            nodes,
            distinct_slots,
            distinct_nodes,
            shards_sharing_a_slot,
            busiest_slot: busiest_slot as u16,
            busiest_slot_shards,
            busiest_slot_share: busiest_slot_shards as f64 / s as f64,
            busiest_node: busiest_node.map(|(n, _)| n as u32),
            busiest_node_shards: busiest_node.map(|(_, c)| c),
            busiest_node_share: busiest_node.map(|(_, c)| c as f64 / s as f64),
            fair_node_share,
            read_commands: distinct_slots,
            read_pipelines: distinct_nodes,
            read,
            suggested_template: None,
            warnings: Vec::new(),
        };
        if shards_sharing_a_slot > 0 {
            report.suggested_template = template.and_then(suggest_fix);
        }
        report.warnings = report.find_warnings();
        Ok(report)
    }

    /// Why this scheme fails `--check`: two shards in one slot, or a node
    /// carrying more than ceil(S / N) / S of the writes. Empty means pass.
    /// The same list as [`KeysReport::warnings`].
    pub fn check_failures(&self) -> Vec<PlacementWarning> {
        self.warnings.clone()
    }

    fn find_warnings(&self) -> Vec<PlacementWarning> {
        let mut out = Vec::new();
        if self.shards_sharing_a_slot > 0 {
            out.push(PlacementWarning::SharedSlot {
                shards: self.shards_sharing_a_slot,
                of: self.shards,
                slot: self.busiest_slot,
                slot_shards: self.busiest_slot_shards,
                share: self.busiest_slot_share,
                by_hash_tag: self.keys.iter().any(|k| k.hash_tag.is_some()),
            });
        }
        if let (Some(nodes), Some(node), Some(shards), Some(share), Some(fair_share)) = (
            self.nodes,
            self.busiest_node,
            self.busiest_node_shards,
            self.busiest_node_share,
            self.fair_node_share,
        ) {
            let fair_shards = self.shards.div_ceil(u64::from(nodes));
            if shards > fair_shards {
                out.push(PlacementWarning::NodeOverShare {
                    node,
                    nodes,
                    shards,
                    of: self.shards,
                    share,
                    fair_shards,
                    fair_share,
                });
            }
        }
        out
    }
}

/// Where each of `keys` lands: its slot, and its node in `cluster`.
fn place(keys: &[Vec<u8>], cluster: Option<&Cluster>) -> Vec<KeyPlacement> {
    keys.iter()
        .enumerate()
        .map(|(i, k)| {
            let slot = key_slot(k);
            KeyPlacement {
                shard: i as u64,
                key: String::from_utf8_lossy(k).into_owned(),
                slot,
                node: cluster.map(|c| c.node_of_slot(slot)),
                hash_tag: hash_tag(k).map(|t| String::from_utf8_lossy(t).into_owned()),
                key_bytes: k.clone(),
            }
        })
        .collect()
}

/// How a read of the total of `s` keys in `distinct_slots` slots (the
/// busiest `busiest_slot`) on `distinct_nodes` nodes is served.
fn cluster_read(
    s: u64,
    distinct_slots: u64,
    busiest_slot: u16,
    distinct_nodes: Option<u64>,
) -> ClusterRead {
    if distinct_slots == 1 && s > 1 {
        ClusterRead::OneSlot {
            keys: s,
            slot: busiest_slot,
        }
    } else if distinct_slots == s {
        ClusterRead::GetPerKey {
            gets: s,
            pipelines: distinct_nodes,
        }
    } else {
        ClusterRead::MgetPerSlot {
            mgets: distinct_slots,
            pipelines: distinct_nodes,
        }
    }
}

fn max_entry<K: Copy + Into<u64>>(m: &BTreeMap<K, u64>) -> (u64, u64) {
    let mut best = (0u64, 0u64);
    for (&k, &c) in m {
        if c > best.1 {
            best = (k.into(), c);
        }
    }
    best
}

/// A template that spreads the shards when `t`'s hash tag holds no shard
/// number: the same template with the tag's braces dropped.
fn suggest_fix(t: &ShardTemplate) -> Option<String> {
    if !t.tag_without_shard() {
        return None;
    }
    t.without_tag()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tagged_template_is_flagged_with_fix() {
        let t = ShardTemplate::new("{reel:8841}:likes:<shard>", 0).unwrap();
        let r = KeysReport::from_template(&t, 20, Some(3)).unwrap();
        assert_eq!(r.distinct_slots, 1);
        assert_eq!(r.busiest_slot, 5809);
        assert_eq!(r.distinct_nodes, Some(1));
        assert_eq!(r.busiest_node, Some(1)); // 5809 is in 5461-10922
        assert_eq!(r.busiest_node_share, Some(1.0));
        assert_eq!(r.read_commands, 1);
        assert_eq!(
            r.read,
            ClusterRead::OneSlot {
                keys: 20,
                slot: 5809
            }
        );
        assert_eq!(
            r.suggested_template.as_deref(),
            Some("reel:8841:likes:<shard>")
        );
        assert_eq!(
            r.check_failures(),
            [
                PlacementWarning::SharedSlot {
                    shards: 20,
                    of: 20,
                    slot: 5809,
                    slot_shards: 20,
                    share: 1.0,
                    by_hash_tag: true,
                },
                PlacementWarning::NodeOverShare {
                    node: 1,
                    nodes: 3,
                    shards: 20,
                    of: 20,
                    share: 1.0,
                    fair_shards: 7,
                    fair_share: 0.35,
                },
            ]
        );
        assert_eq!(r.warnings, r.check_failures());
    }

    #[test]
    fn untagged_template_spreads() {
        let t = ShardTemplate::new("reel:8841:likes:<shard>", 0).unwrap();
        let r = KeysReport::from_template(&t, 20, Some(3)).unwrap();
        assert_eq!(r.keys[3].slot, 7443);
        assert_eq!(r.keys[19].slot, 6464);
        assert_eq!(r.keys[3].node, Some(1));
        assert_eq!(r.distinct_slots, 20);
        assert_eq!(r.shards_sharing_a_slot, 0);
        assert_eq!(r.read_commands, 20);
        assert_eq!(
            r.read,
            ClusterRead::GetPerKey {
                gets: 20,
                pipelines: Some(3)
            }
        );
        assert_eq!(r.suggested_template, None);
        assert_eq!(r.fair_node_share, Some(7.0 / 20.0));
        let per_node: Vec<u64> = (0..3)
            .map(|n| r.keys.iter().filter(|k| k.node == Some(n)).count() as u64)
            .collect();
        assert_eq!(per_node.iter().sum::<u64>(), 20);
        assert_eq!(r.busiest_node_shards, per_node.iter().copied().max());
        let over = per_node.iter().any(|&c| c > 7);
        assert_eq!(r.check_failures().is_empty(), !over);
    }

    #[test]
    fn no_nodes_gives_null_nodes() {
        let r = KeysReport::from_keys(&[b"a".to_vec(), b"{a}{b}".to_vec()], None).unwrap();
        assert_eq!(r.distinct_slots, 1);
        assert_eq!(r.keys[0].node, None);
        assert_eq!(r.busiest_node_share, None);
        assert_eq!(r.check_failures().len(), 1);
        assert!(KeysReport::from_keys(&[], None).is_err());
        let json = serde_json::to_value(&r).unwrap();
        for f in [
            "keys",
            "distinct_slots",
            "distinct_nodes",
            "busiest_node_share",
        ] {
            assert!(json.get(f).is_some(), "{f}");
        }
        assert!(json["keys"][0].get("node").is_some());
        assert!(json["keys"][0].get("key_bytes").is_none());
    }

    #[test]
    fn untagged_keys_in_one_slot_blame_the_crc() {
        // Two untagged keys whose CRC16 values collide mod the slot count.
        let mut first_of_slot = std::collections::HashMap::new();
        let pair = (0u32..)
            .map(|i| format!("reel:{i}").into_bytes())
            .find_map(|k| {
                first_of_slot
                    .insert(key_slot(&k), k.clone())
                    .map(|a| [a, k])
            })
            .unwrap();
        let r = KeysReport::from_keys(&pair, None).unwrap();
        assert_eq!(r.distinct_slots, 1);
        let f = r.check_failures();
        assert_eq!(f.len(), 1);
        assert!(
            matches!(
                f[0],
                PlacementWarning::SharedSlot {
                    shards: 2,
                    of: 2,
                    by_hash_tag: false,
                    ..
                }
            ),
            "{f:?}"
        );
        // Three keys, two of them in one slot: one MGET per slot.
        let three = [pair[0].clone(), pair[1].clone(), b"other".to_vec()];
        let r = KeysReport::from_keys(&three, Some(2)).unwrap();
        assert_eq!(
            r.read,
            ClusterRead::MgetPerSlot {
                mgets: 2,
                pipelines: r.distinct_nodes
            }
        );
    }
}
