//! `measure`'s view: the two write phases side by side, INCRs per node, and
//! the read path. CSV gets one flat row (the per-node list stays in JSON).

use serde_json::Value;

use crate::measure::{Latency, MeasureReport};
use crate::output::{fmt, row, Report, Section};

/// `measure`'s report as tables, Markdown, one CSV row and JSON.
pub struct MeasureView(pub MeasureReport);

impl Report for MeasureView {
    fn rows(&self) -> Vec<Value> {
        // CSV: one flat row; the per-node list stays in JSON.
        let mut v = row(&self.0);
        if let Value::Object(m) = &mut v {
            m.remove("nodes");
            // The left keys' names stay in JSON; CSV counts them.
            if let Some(Value::Array(left)) = m.get("keys_left") {
                let n = left.len();
                m.insert("keys_left".into(), n.into());
            }
            for part in ["single_latency", "sharded_latency", "read", "machine"] {
                if let Some(Value::Object(inner)) = m.remove(part) {
                    for (k, x) in inner {
                        m.insert(format!("{part}_{k}"), x);
                    }
                }
            }
        }
        vec![v]
    }

    fn json(&self) -> Value {
        row(&self.0)
    }

    fn sections(&self) -> Vec<Section> {
        let r = &self.0;
        let lat = |l: &Latency| {
            format!(
                "p50 {:.3} / p99 {:.3} / p99.9 {:.3} ms",
                l.p50_ms, l.p99_ms, l.p999_ms
            )
        };
        let mut out = vec![
            Section::pairs(
                "Measured on a real Redis",
                vec![
                    (
                        "server",
                        format!("{}{}", r.redis, if r.cluster { " (cluster)" } else { "" }),
                    ),
                    (
                        "clients / pipeline",
                        format!("{} / {}", r.clients, r.pipeline),
                    ),
                    (
                        "one key",
                        format!(
                            "{} INCR/s ({})",
                            fmt::num(r.single_ops_per_second.round()),
                            lat(&r.single_latency)
                        ),
                    ),
                    (
                        "shard keys",
                        format!(
                            "{} INCR/s over {} keys ({}), {:.2}x one key",
                            fmt::num(r.sharded_ops_per_second.round()),
                            r.shards,
                            lat(&r.sharded_latency),
                            r.speedup
                        ),
                    ),
                    (
                        "counted",
                        format!(
                            "{} INCRs sent, shards sum to {}: {}",
                            fmt::count(r.incr_sent),
                            r.shard_sum,
                            if r.counts_match {
                                "nothing lost or doubled"
                            } else {
                                "MISMATCH"
                            }
                        ),
                    ),
                    ("keys", keys(r)),
                    (
                        "nodes reached",
                        format!("{} of {} possible", r.nodes_reached, r.nodes_possible),
                    ),
                    ("clean-up", cleanup(r)),
                ],
            ),
            Section::Grid {
                title: "Per node".into(),
                header: [
                    "node",
                    "slots",
                    "shard keys",
                    "sharded INCRs",
                    "server count",
                ]
                .map(String::from)
                .to_vec(),
                rows: r
                    .nodes
                    .iter()
                    .map(|n| {
                        vec![
                            n.node.clone(),
                            n.slots.to_string(),
                            n.shard_keys.to_string(),
                            fmt::count(n.sharded_incr),
                            n.server_incr.map(fmt::count).unwrap_or_else(|| "-".into()),
                        ]
                    })
                    .collect(),
            },
            Section::pairs(
                "Read path",
                vec![
                    (
                        "S pipelined GETs",
                        format!(
                            "{:.3} ms median over {} nodes",
                            r.read.pipelined_get_p50_ms, r.read.nodes_per_read
                        ),
                    ),
                    (
                        "one MGET",
                        match r.read.mget_p50_ms {
                            Some(ms) => format!("{ms:.3} ms median ({})", r.read.mget_keys.name()),
                            None => format!("not possible ({})", r.read.mget_keys.name()),
                        },
                    ),
                    (
                        "MGET across slots",
                        r.read
                            .crossslot_error
                            .clone()
                            .unwrap_or_else(|| "no error (one slot or standalone)".into()),
                    ),
                ],
            ),
        ];
        if !r.counts_match {
            out.push(Section::Warning(
                "WARNING: the shard values do not sum to the INCRs sent.".into(),
            ));
        }
        if r.nodes_reached < r.nodes_possible {
            out.push(Section::Warning(format!(
                "WARNING: the {} shard keys reach {} of the {} nodes they could; their slots put keys together (a hash tag in --template?), so the sharded rate is not the cluster's.",
                r.shards, r.nodes_reached, r.nodes_possible
            )));
        }
        if let Some(first) = r.keys_left.first() {
            out.push(Section::Warning(format!(
                "WARNING: {} keys this run wrote held something else at the end (e.g. {first}) and were left as they are.",
                r.keys_left.len()
            )));
        }
        out
    }
}

/// The keys' template, with the run id when the run chose it.
fn keys(r: &MeasureReport) -> String {
    match &r.run_id {
        Some(id) => format!("{} (run id {id})", r.template),
        None => format!("{} (--template)", r.template),
    }
}

/// What the end of the run did to the keys.
fn cleanup(r: &MeasureReport) -> String {
    let mut text = if r.keys_kept {
        format!("keys kept (--keep), {} copies deleted", r.keys_deleted)
    } else {
        format!("{} keys deleted", fmt::count(r.keys_deleted))
    };
    if !r.keys_left.is_empty() {
        text += &format!(", {} left (changed by another client)", r.keys_left.len());
    }
    if r.keys_restored > 0 {
        text += &format!(", {} restored (--overwrite)", fmt::count(r.keys_restored));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measure::{MgetKeys, NodeOps, ReadPath};
    use crate::output::csv::CsvExporter;
    use crate::output::json::JsonExporter;
    use crate::output::table::TableExporter;
    use crate::output::Exporter;

    fn sample(counts_match: bool) -> MeasureReport {
        let latency = |p50_ms| Latency {
            p50_ms,
            p99_ms: 2.5,
            p999_ms: 4.0,
            max_ms: 9.0,
        };
        let node = |node: &str, slots, shard_keys, sharded_incr, server_incr| NodeOps {
            node: node.into(),
            slots,
            shard_keys,
            sharded_incr,
            single_incr: 0,
            server_incr,
        };
        MeasureReport {
            redis: "redis://:***@127.0.0.1:7000".into(),
            cluster: true,
            shards: 4,
            clients: 8,
            pipeline: 1,
            template: "shardplan:1a2b3c4d:<shard>".into(),
            run_id: Some("1a2b3c4d".into()),
            single_key: "shardplan:1a2b3c4d:single".into(),
            single_incr_sent: 3000,
            single_seconds: 0.5,
            single_ops_per_second: 6000.4,
            single_value: 3000,
            single_latency: latency(1.25),
            incr_sent: 3000,
            sharded_seconds: 0.25,
            sharded_ops_per_second: 12000.0,
            sharded_latency: latency(0.75),
            latency_p99_ms: 2.5,
            shard_sum: if counts_match { 3000 } else { 2999 },
            counts_match,
            speedup: 2.0,
            nodes_reached: 2,
            nodes_possible: 2,
            nodes: vec![
                node("127.0.0.1:7000", 8192, 3, 2250, Some(2250)),
                node("127.0.0.1:7001", 8192, 1, 750, None),
            ],
            read: ReadPath {
                reads: 100,
                nodes_per_read: 2,
                pipelined_get_p50_ms: 0.125,
                mget_p50_ms: Some(0.0625),
                mget_keys: MgetKeys::SameSlotCopy,
                crossslot_error: Some(
                    "CROSSSLOT Keys in request don't hash to the same slot".into(),
                ),
            },
            keys_kept: false,
            keys_deleted: 9,
            keys_left: Vec::new(),
            keys_restored: 0,
            machine: crate::measure::machine::Machine::here(None),
        }
    }

    const TABLE: &str = "\
┌──────────────────────────┬───────────────────────────────────────────────────────────────────────────────────┐
│ Measured on a real Redis ┆                                                                                   │
╞══════════════════════════╪═══════════════════════════════════════════════════════════════════════════════════╡
│ server                   ┆ redis://:***@127.0.0.1:7000 (cluster)                                             │
│ clients / pipeline       ┆ 8 / 1                                                                             │
│ one key                  ┆ 6,000 INCR/s (p50 1.250 / p99 2.500 / p99.9 4.000 ms)                             │
│ shard keys               ┆ 12,000 INCR/s over 4 keys (p50 0.750 / p99 2.500 / p99.9 4.000 ms), 2.00x one key │
│ counted                  ┆ 3,000 INCRs sent, shards sum to 3000: nothing lost or doubled                     │
│ keys                     ┆ shardplan:1a2b3c4d:<shard> (run id 1a2b3c4d)                                      │
│ nodes reached            ┆ 2 of 2 possible                                                                   │
│ clean-up                 ┆ 9 keys deleted                                                                    │
└──────────────────────────┴───────────────────────────────────────────────────────────────────────────────────┘
Per node
┌────────────────┬───────┬────────────┬───────────────┬──────────────┐
│ node           ┆ slots ┆ shard keys ┆ sharded INCRs ┆ server count │
╞════════════════╪═══════╪════════════╪═══════════════╪══════════════╡
│ 127.0.0.1:7000 ┆ 8192  ┆ 3          ┆ 2,250         ┆ 2,250        │
│ 127.0.0.1:7001 ┆ 8192  ┆ 1          ┆ 750           ┆ -            │
└────────────────┴───────┴────────────┴───────────────┴──────────────┘
┌───────────────────┬───────────────────────────────────────────────────────┐
│ Read path         ┆                                                       │
╞═══════════════════╪═══════════════════════════════════════════════════════╡
│ S pipelined GETs  ┆ 0.125 ms median over 2 nodes                          │
│ one MGET          ┆ 0.062 ms median (same_slot_copy)                      │
│ MGET across slots ┆ CROSSSLOT Keys in request don't hash to the same slot │
└───────────────────┴───────────────────────────────────────────────────────┘
";

    fn render(e: &dyn Exporter, r: MeasureReport) -> String {
        String::from_utf8(e.render(&MeasureView(r)).unwrap()).unwrap()
    }

    #[test]
    fn table_shows_both_phases_the_nodes_and_the_read_path() {
        let text = render(
            &TableExporter {
                style: crate::output::terminal::Style::plain(),
            },
            sample(true),
        );
        assert_eq!(text, TABLE, "{text}");
        let text = render(
            &TableExporter {
                style: crate::output::terminal::Style::plain(),
            },
            sample(false),
        );
        assert!(text.contains("MISMATCH"), "{text}");
        assert!(text.contains("WARNING: the shard values"), "{text}");
        // A user's template that bunches the keys, and a key another client
        // changed: both said, and CSV counts the left keys.
        let mut r = sample(false);
        r.run_id = None;
        r.template = "{likes}:<shard>".into();
        r.nodes_reached = 1;
        r.keys_deleted = 8;
        r.keys_left = vec!["{likes}:0".into()];
        let text = render(
            &TableExporter {
                style: crate::output::terminal::Style::plain(),
            },
            r.clone(),
        );
        for needle in [
            "{likes}:<shard> (--template)",
            "1 of 2 possible",
            "8 keys deleted, 1 left (changed by another client)",
            "WARNING: the 4 shard keys reach 1 of the 2 nodes they could",
            "WARNING: 1 keys this run wrote held something else at the end (e.g. {likes}:0)",
        ] {
            assert!(text.contains(needle), "{needle}: {text}");
        }
        let csv = render(&CsvExporter { delimiter: b',' }, r);
        assert!(csv.lines().next().unwrap().contains("keys_left"), "{csv}");
    }

    #[test]
    fn csv_is_one_flat_row_and_json_the_whole_report() {
        let csv = render(&CsvExporter { delimiter: b',' }, sample(true));
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 2, "{csv}");
        let header: Vec<&str> = lines[0].split(',').collect();
        let values: Vec<&str> = lines[1].splitn(header.len(), ',').collect();
        let cell = |name: &str| {
            let at = header.iter().position(|h| *h == name);
            values[at.unwrap_or_else(|| panic!("no column {name}: {csv}"))]
        };
        assert!(!header.contains(&"nodes"), "{csv}");
        assert_eq!(header.len(), 44, "{csv}");
        assert_eq!(cell("run_id"), "1a2b3c4d");
        assert_eq!(cell("keys_left"), "0");
        assert_eq!(cell("single_ops_per_second"), "6000.4");
        assert_eq!(cell("sharded_latency_p999_ms"), "4.0");
        assert_eq!(cell("read_mget_p50_ms"), "0.0625");
        assert_eq!(cell("read_mget_keys"), "same_slot_copy");
        assert_eq!(
            cell("read_crossslot_error"),
            "CROSSSLOT Keys in request don't hash to the same slot"
        );
        let json: Value = serde_json::from_str(&render(&JsonExporter, sample(true))).unwrap();
        assert_eq!(json, row(&sample(true)));
        assert_eq!(json["nodes"][1]["server_incr"], Value::Null);
        assert_eq!(json["read"]["mget_keys"], "same_slot_copy");
    }
}
