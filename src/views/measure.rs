//! `measure`'s view: the headline (each phase's busiest node's share of the
//! Redis CPU, with the throughput beside it), the two write phases over the
//! runs, the load on the shard keys beside the model's figure, CPU and
//! INCRs per node, each run, and the read path. CSV gets one flat row (the
//! per-node and per-run lists and the per-key totals stay in JSON).

mod words;

use serde_json::{Map, Value};

use crate::measure::MeasureReport;
use crate::model::picker::expected::ShardLoadModel;
use crate::output::{fmt, row, Report, Section};
use crate::views::shard_load;

pub use words::warning_text;
use words::{cpu, phase_line, ratio_line, runs_line};

/// `measure`'s report as tables, Markdown, one CSV row and JSON.
pub struct MeasureView(pub MeasureReport);

impl MeasureView {
    /// The model's busiest shard a second for the run's picker, shard
    /// keys and clients, at the measured rate.
    pub fn model(&self) -> ShardLoadModel {
        let r = &self.0;
        shard_load::model_of(r.picker, &r.shard_load, r.sharded_ops_per_second, r.clients)
    }

    /// The load on the shard keys, beside the model's figure.
    fn shard_load(&self) -> Section {
        let r = &self.0;
        shard_load::section(
            r.picker,
            r.clients,
            &r.shard_load,
            &self.model(),
            &shard_load::Words {
                shards: "keys",
                totals_when: "the server's counts after the last sharded phase, warm-up included",
            },
        )
    }
}

/// `v`'s nested objects as `outer_inner` columns, and each `[low, high]`
/// interval as `_low` and `_high`.
pub(super) fn flatten(prefix: &str, v: Value, out: &mut Map<String, Value>) {
    let name = |k: &str| match prefix {
        "" => k.to_string(),
        p => format!("{p}_{k}"),
    };
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                flatten(&name(&k), x, out);
            }
        }
        Value::Array(pair) if pair.len() == 2 && pair.iter().all(Value::is_number) => {
            out.insert(format!("{prefix}_low"), pair[0].clone());
            out.insert(format!("{prefix}_high"), pair[1].clone());
        }
        other => {
            out.insert(prefix.to_string(), other);
        }
    }
}

impl Report for MeasureView {
    fn rows(&self) -> Vec<Value> {
        // CSV: one flat row; the per-node and per-run lists stay in JSON.
        let Value::Object(mut m) = row(&self.0) else {
            return vec![row(&self.0)];
        };
        m.remove("nodes");
        m.remove("run_results");
        m.remove("shard_load");
        m.extend(shard_load::csv_columns(&self.0.shard_load, &self.model()));
        let warnings = self.0.warnings.len();
        m.insert("warnings".into(), warnings.into());
        // The left keys' names stay in JSON; CSV counts them.
        let left = self.0.keys_left.len();
        m.insert("keys_left".into(), left.into());
        let mut out = Map::new();
        for (k, x) in m {
            match (k.as_str(), &x) {
                ("ratio_ci95", Value::Null) => {
                    out.insert("ratio_ci95_low".into(), Value::Null);
                    out.insert("ratio_ci95_high".into(), Value::Null);
                }
                _ => flatten(&k, x, &mut out),
            }
        }
        vec![Value::Object(out)]
    }

    fn json(&self) -> Value {
        let mut v = row(&self.0);
        let words: Vec<String> = self.0.warnings.iter().map(warning_text).collect();
        v["warnings"] = words.into();
        v["shard_load_model"] = row(&self.model());
        v
    }

    fn sections(&self) -> Vec<Section> {
        let r = &self.0;
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
                    ("runs", runs_line(r)),
                    (
                        "busiest node's CPU",
                        format!(
                            "one key {}, shard keys {} of the Redis CPU ({})",
                            cpu(r.single_max_cpu_share),
                            cpu(r.sharded_max_cpu_share),
                            match r.nodes.len() {
                                1 => "1 node".to_string(),
                                n => format!("{n} nodes"),
                            }
                        ),
                    ),
                    ("one key", phase_line(&r.single, None)),
                    ("shard keys", phase_line(&r.sharded, Some(r.shards))),
                    ("sharded / one key", ratio_line(r)),
                    (
                        "counted",
                        format!(
                            "{} INCRs sent ({} in the warm-up), shards sum to {}: {}",
                            fmt::count(r.incr_sent + r.warmup_incr_sent),
                            fmt::count(r.warmup_incr_sent),
                            r.shard_sum,
                            if r.counts_match {
                                "nothing lost or doubled"
                            } else {
                                "MISMATCH"
                            }
                        ),
                    ),
                    ("keys", words::keys(r)),
                    (
                        "nodes reached",
                        format!("{} of {} possible", r.nodes_reached, r.nodes_possible),
                    ),
                    ("clean-up", words::cleanup(r)),
                ],
            ),
            self.shard_load(),
            nodes(r),
            runs(r),
            words::read_path(r),
        ];
        out.push(Section::Note(
            "CPU: each node's used_cpu_sys + used_cpu_user over each phase, less its idle rate \
             (measured before the load) times the phase's seconds."
                .into(),
        ));
        for w in &r.warnings {
            out.push(Section::Warning(format!("WARNING: {}", warning_text(w))));
        }
        if !r.counts_match {
            out.push(Section::Warning(
                "WARNING: the shard values do not sum to the INCRs sent.".into(),
            ));
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

/// CPU and INCRs per node, both phases side by side.
fn nodes(r: &MeasureReport) -> Section {
    let seconds = |s: Option<f64>, share: Option<f64>| match (s, share) {
        (Some(s), Some(share)) => format!("{s:.3} ({})", fmt::percent(share)),
        _ => "-".into(),
    };
    let served = |n: Option<u64>| n.map(fmt::count).unwrap_or_else(|| "-".into());
    Section::Grid {
        title: "Per node (all runs)".into(),
        header: [
            "node",
            "slots",
            "shard keys",
            "one-key INCRs",
            "one-key CPU s",
            "sharded INCRs",
            "sharded CPU s",
            "served (1 key / sharded)",
        ]
        .map(String::from)
        .to_vec(),
        rows: r
            .nodes
            .iter()
            .map(|n| {
                vec![
                    n.address.clone(),
                    n.slots.to_string(),
                    n.shard_keys.to_string(),
                    fmt::count(n.single_incr),
                    seconds(n.single_cpu_seconds, n.single_cpu_share),
                    fmt::count(n.sharded_incr),
                    seconds(n.sharded_cpu_seconds, n.sharded_cpu_share),
                    format!(
                        "{} / {}",
                        served(n.single_incr_served),
                        served(n.sharded_incr_served)
                    ),
                ]
            })
            .collect(),
        secondary: Vec::new(),
    }
}

/// Each run's figures.
fn runs(r: &MeasureReport) -> Section {
    Section::Grid {
        title: "Each run".into(),
        header: [
            "run",
            "one key INCR/s",
            "p99 ms",
            "busiest CPU",
            "sharded INCR/s",
            "p99 ms",
            "busiest CPU",
            "ratio",
        ]
        .map(String::from)
        .to_vec(),
        rows: r
            .run_results
            .iter()
            .map(|x| {
                vec![
                    x.run.to_string(),
                    fmt::num(x.single_ops_per_second.round()),
                    format!("{:.3}", x.single_p99_ms),
                    cpu(x.single_max_cpu_share),
                    fmt::num(x.sharded_ops_per_second.round()),
                    format!("{:.3}", x.sharded_p99_ms),
                    cpu(x.sharded_max_cpu_share),
                    format!("{:.2}x", x.ratio),
                ]
            })
            .collect(),
        secondary: Vec::new(),
    }
}

#[cfg(test)]
mod tests;
