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
            for part in ["single_latency", "sharded_latency", "read"] {
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
                    ("nodes reached", r.nodes_reached.to_string()),
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
        out
    }
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
            template: "likes:<shard>".into(),
            single_key: "likes:single".into(),
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
│ nodes reached            ┆ 2                                                                                 │
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
        assert_eq!(header.len(), 34, "{csv}");
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
