//! `shardplan measure`: a bounded load on a real Redis.

use serde_json::Value;

use crate::cli::MeasureArgs;
use crate::measure::{self, MeasureConfig, MeasureReport};
use crate::output::{fmt, row, OutputSet, Report, Section};

struct MeasureView(MeasureReport);

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
        let lat = |l: &measure::Latency| {
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
                            Some(ms) => format!("{ms:.3} ms median ({})", r.read.mget_keys),
                            None => format!("not possible ({})", r.read.mget_keys),
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
            out.push(Section::Note(
                "WARNING: the shard values do not sum to the INCRs sent.".into(),
            ));
        }
        out
    }
}

pub fn run(args: MeasureArgs) -> anyhow::Result<()> {
    let mut config = MeasureConfig::new(
        &args.redis,
        args.cluster,
        args.shards,
        args.clients,
        measure::parse_duration("--duration", &args.duration)?,
        args.max_ops,
        args.pipeline,
        &args.template,
    )?;
    config.keep = args.keep;
    config.overwrite = args.overwrite;
    config.validate()?;
    let out = OutputSet::prepare(args.out.format, &args.out.output)?;
    let report = measure::run(&config)?;
    out.emit(&MeasureView(report))
}
