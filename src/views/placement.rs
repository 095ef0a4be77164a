//! Where shard keys land: Redis Cluster slots and nodes, sorted-store key
//! order, partitions of a hashed store, and the store presets.

use serde_json::Value;

use crate::model::partitions::PartitionReport;
use crate::model::placement::{KeysReport, SortedReport};
use crate::model::store::StorePreset;
use crate::output::{fmt, row, Report, Section};

/// Keys in a Redis Cluster: slot and node per key.
/// `keys` for Redis Cluster.
pub struct KeysView(pub KeysReport);

impl Report for KeysView {
    fn rows(&self) -> Vec<Value> {
        // CSV/TSV: one line per key.
        self.0
            .keys
            .iter()
            .map(|k| {
                let mut v = serde_json::json!({"key": k.key, "slot": k.slot});
                if let Some(n) = k.node {
                    v["node"] = n.into();
                }
                v
            })
            .collect()
    }

    fn json(&self) -> Value {
        row(&self.0)
    }

    fn tsv(&self) -> Option<Vec<u8>> {
        // `key<TAB>slot[<TAB>node]` per line, the key's bytes exactly as given.
        let mut out = Vec::new();
        for k in &self.0.keys {
            out.extend_from_slice(&k.key_bytes);
            out.extend_from_slice(format!("\t{}", k.slot).as_bytes());
            if let Some(n) = k.node {
                out.extend_from_slice(format!("\t{n}").as_bytes());
            }
            out.push(b'\n');
        }
        Some(out)
    }

    fn sections(&self) -> Vec<Section> {
        let r = &self.0;
        let mut header = vec!["shard".to_string(), "key".into(), "slot".into()];
        if r.nodes.is_some() {
            header.push("node".into());
        }
        let keys = Section::Grid {
            title: "Shard keys in Redis Cluster".into(),
            header,
            rows: r
                .keys
                .iter()
                .map(|k| {
                    let mut row = vec![k.shard.to_string(), k.key.clone(), k.slot.to_string()];
                    if let Some(n) = k.node {
                        row.push(n.to_string());
                    }
                    row
                })
                .collect(),
        };
        let mut summary = vec![
            ("shard keys", r.shards.to_string()),
            ("distinct slots", r.distinct_slots.to_string()),
            (
                "busiest slot",
                format!(
                    "{} with {} shards ({} of the writes)",
                    r.busiest_slot,
                    r.busiest_slot_shards,
                    fmt::percent(r.busiest_slot_share)
                ),
            ),
        ];
        if let (Some(n), Some(d), Some(node), Some(count), Some(share), Some(fair)) = (
            r.nodes,
            r.distinct_nodes,
            r.busiest_node,
            r.busiest_node_shards,
            r.busiest_node_share,
            r.fair_node_share,
        ) {
            summary.push(("nodes reached", format!("{d} of {n}")));
            summary.push((
                "busiest node",
                format!(
                    "node {node}: {count} shards, {} of the writes (an even split is {})",
                    fmt::percent(share),
                    fmt::percent(fair)
                ),
            ));
        }
        summary.push(("read", r.read_note.clone()));
        let mut out = vec![keys, Section::pairs("Placement", summary)];
        for w in &r.warnings {
            out.push(Section::Note(format!("WARNING: {w}")));
        }
        out
    }
}

/// Keys in a sorted store: contiguous or spread.
pub struct SortedView(pub SortedReport);

impl Report for SortedView {
    fn rows(&self) -> Vec<Value> {
        self.0.keys.iter().map(row).collect()
    }

    fn json(&self) -> Value {
        row(&self.0)
    }

    fn sections(&self) -> Vec<Section> {
        let r = &self.0;
        let mut out = vec![
            Section::Grid {
                title: "Shard keys in a sorted store".into(),
                header: vec!["shard".into(), "key".into(), "shard-first key".into()],
                rows: r
                    .keys
                    .iter()
                    .map(|k| {
                        vec![
                            k.shard.to_string(),
                            k.key.clone(),
                            k.shard_first_key.clone(),
                        ]
                    })
                    .collect(),
            },
            Section::pairs(
                "Key order",
                vec![
                    ("contiguous (likely one tablet)", r.contiguous.to_string()),
                    ("shared prefix", format!("{:?}", r.shared_prefix)),
                    ("shard-first template", r.shard_first_template.clone()),
                ],
            ),
        ];
        out.push(Section::Note(r.note.clone()));
        out
    }
}

/// `partitions`.
pub struct PartitionsView(pub PartitionReport);

impl Report for PartitionsView {
    fn rows(&self) -> Vec<Value> {
        let mut v = row(&self.0);
        if let Value::Object(m) = &mut v {
            // Notes are prose for people; keep CSV one flat row.
            m.remove("notes");
        }
        vec![v]
    }

    fn json(&self) -> Value {
        row(&self.0)
    }

    fn sections(&self) -> Vec<Section> {
        let r = &self.0;
        let method = match r.method {
            crate::model::partitions::Method::Exact => "exact".to_string(),
            crate::model::partitions::Method::MonteCarlo => format!(
                "Monte Carlo, {} placements, seed {}",
                r.trials.unwrap_or(0),
                r.seed.unwrap_or(0)
            ),
        };
        let mut rows = vec![
            (
                "shards / partitions",
                format!("{} / {}", r.shards, r.partitions),
            ),
            (
                "P(two or more shards share a partition)",
                fmt::prob(r.p_shared_partition),
            ),
            (
                "expected partitions holding 2+ shards",
                format!("{:.3}", r.expected_shared_partitions),
            ),
            (
                "expected partitions holding any",
                format!("{:.3}", r.expected_occupied_partitions),
            ),
            (
                "busiest partition, mean shards",
                format!(
                    "{:.3} ({} of the writes; {method})",
                    r.busiest_partition_mean_shards,
                    fmt::percent(r.busiest_partition_mean_share)
                ),
            ),
        ];
        if let (Some(rate), Some(cap), Some(p)) = (r.rate, r.cap, r.p_partition_over_cap_per_second)
        {
            rows.push((
                "load",
                format!(
                    "{} likes/s, cap {} writes/s per partition",
                    fmt::num(rate),
                    fmt::num(cap)
                ),
            ));
            if let Some(m) = r.busiest_partition_mean_rate {
                rows.push(("busiest partition, mean writes/s", fmt::num(m)));
            }
            let ci = r
                .p_partition_over_cap_ci95
                .map(|c| format!(" (95% CI {} to {})", fmt::prob(c[0]), fmt::prob(c[1])))
                .unwrap_or_default();
            rows.push((
                "P(some partition over the cap in a second)",
                format!("{}{ci}", fmt::prob(p)),
            ));
        }
        let mut out = vec![Section::pairs("Shards on hashed partitions", rows)];
        out.extend(r.notes.iter().map(|n| Section::Note(n.clone())));
        out
    }
}

/// `stores`.
pub struct StoresView(pub Vec<StorePreset>);

impl Report for StoresView {
    fn rows(&self) -> Vec<Value> {
        self.0.iter().map(row).collect()
    }

    fn json(&self) -> Value {
        Value::Array(self.rows())
    }

    fn sections(&self) -> Vec<Section> {
        let opt = |v: Option<f64>| v.map(fmt::num).unwrap_or_else(|| "-".into());
        let mut out = vec![Section::Grid {
            title: "Store presets (--store NAME; any figure can be overridden by its flag)".into(),
            header: [
                "store",
                "writes/s per key",
                "reads/s per key",
                "burst s",
                "batch read",
                "txn write cost",
            ]
            .map(String::from)
            .to_vec(),
            rows: self
                .0
                .iter()
                .map(|p| {
                    vec![
                        p.store.name().to_string(),
                        fmt::num(p.write_cap_per_key),
                        opt(p.read_cap_per_key),
                        fmt::num(p.burst_seconds),
                        p.batch_read_items
                            .map(|b| b.to_string())
                            .unwrap_or_else(|| "-".into()),
                        fmt::num(p.transactional_write_cost),
                    ]
                })
                .collect(),
        }];
        for p in &self.0 {
            out.push(Section::Note(format!("{}: {}", p.store.name(), p.source)));
        }
        out
    }
}
