//! `measure --postgres`'s view: the three designs side by side with their
//! lock waits and count checks, the load on the shard rows beside the
//! model's figure, and the machine it ran on. CSV gets one row per design.

use serde_json::Value;

use crate::measure::machine::Machine;
use crate::measure::postgres::{Design, DesignResult, PgMeasureReport};
use crate::model::defaults::LOCK_SAMPLE_MAX_GAP;
use crate::model::picker::expected::ShardLoadModel;
use crate::output::{fmt, row, Report, Section};
use crate::views::shard_load;

/// `measure --postgres`'s report as tables, Markdown, CSV rows and JSON.
pub struct PgMeasureView(pub PgMeasureReport);

impl PgMeasureView {
    /// The model's busiest row a second for the run's picker, rows and
    /// clients, at the `sharded-rows` design's measured rate; `None` when
    /// that design was not measured.
    pub fn model(&self) -> Option<ShardLoadModel> {
        let r = &self.0;
        let d = r.design(Design::ShardedRows)?;
        let load = r.shard_load.as_ref()?;
        Some(shard_load::model_of(
            r.picker,
            load,
            d.ops_per_second_mean,
            r.clients,
        ))
    }
}

impl Report for PgMeasureView {
    fn rows(&self) -> Vec<Value> {
        // CSV: one row per design, with the run's fields beside it.
        let mut head = row(&self.0);
        let mut machine = Value::Null;
        if let Value::Object(m) = &mut head {
            m.remove("designs");
            machine = m.remove("machine").unwrap_or(Value::Null);
            // The run's shard load as flat columns; the per-row totals
            // stay in JSON.
            m.remove("shard_load");
            if let (Some(load), Some(model)) = (&self.0.shard_load, self.model()) {
                m.extend(shard_load::csv_columns(load, &model));
            }
        }
        self.0
            .designs
            .iter()
            .map(|d| {
                let mut v = head.clone();
                if let (Value::Object(m), Value::Object(design)) = (&mut v, row(d)) {
                    // The run's counts_match is every design's; the row's
                    // is its own.
                    m.extend(design);
                    if let Value::Object(machine) = &machine {
                        for (k, x) in machine {
                            m.insert(format!("machine_{k}"), x.clone());
                        }
                    }
                }
                v
            })
            .collect()
    }

    fn json(&self) -> Value {
        let mut v = row(&self.0);
        v["shard_load_model"] = row(&self.model());
        v
    }

    fn sections(&self) -> Vec<Section> {
        let r = &self.0;
        let mut out = vec![
            Section::pairs(
                "Measured on a real PostgreSQL",
                vec![
                    ("server", r.postgres.clone()),
                    (
                        "clients / shard rows",
                        format!("{} / {}", r.clients, r.shards),
                    ),
                    (
                        "schema",
                        format!(
                            "{} (run id {}), {}",
                            r.schema,
                            r.run_id,
                            if r.schema_dropped {
                                "dropped"
                            } else {
                                "NOT dropped"
                            }
                        ),
                    ),
                    (
                        "synchronous_commit",
                        r.synchronous_commit.clone().unwrap_or_else(|| "-".into()),
                    ),
                    ("machine", machine_line(&r.machine)),
                ],
            ),
            designs_grid(&r.designs),
        ];
        if let (Some(load), Some(model)) = (&r.shard_load, self.model()) {
            out.push(shard_load::section(
                r.picker,
                r.clients,
                load,
                &model,
                &shard_load::Words {
                    shards: "rows",
                    totals_when: "the server's counts after the sharded-rows phase",
                },
            ));
        }
        out.push(Section::Note(
            "Lock waits: samples of this run's connections in pg_stat_activity waiting on a lock \
                 (wait_event_type = Lock), summed over the samples; one hot row makes every writer \
                 wait for the one before it to commit."
                .into(),
        ));
        let promised = LOCK_SAMPLE_MAX_GAP.as_secs_f64() * 1e3;
        let gap = r
            .designs
            .iter()
            .map(|d| d.lock_sample_max_gap_ms)
            .fold(0.0, f64::max);
        if gap > promised {
            out.push(Section::Warning(format!(
                "WARNING: lock-wait samples were up to {gap:.0} ms apart (meant: at most {promised:.0} ms); \
                 the machine was too busy to keep the pace, so short waits may be missed."
            )));
        }
        for d in r.designs.iter().filter(|d| !d.counts_match) {
            out.push(Section::Warning(format!(
                "WARNING: {} read {} for {} writes acknowledged.",
                d.design.name(),
                d.count_read,
                d.writes_acknowledged
            )));
        }
        out
    }
}

/// The designs side by side: rate, latency, lock waits and the count.
pub fn designs_grid(designs: &[DesignResult]) -> Section {
    Section::Grid {
        title: "Counter designs".into(),
        header: [
            "design",
            "writes/s",
            "p50 / p99 ms",
            "lock waits (samples)",
            "count read",
        ]
        .map(String::from)
        .to_vec(),
        rows: designs
            .iter()
            .map(|d| {
                vec![
                    d.design.name().to_string(),
                    fmt::num(d.ops_per_second_mean.round()),
                    format!("{:.3} / {:.3}", d.latency_p50_ms, d.latency_p99_ms),
                    format!(
                        "{} ({})",
                        fmt::count(d.lock_waits),
                        fmt::count(d.lock_wait_samples)
                    ),
                    format!(
                        "{} of {} writes: {}",
                        fmt::num(d.count_read as f64),
                        fmt::count(d.writes_acknowledged),
                        if d.counts_match { "match" } else { "MISMATCH" }
                    ),
                ]
            })
            .collect(),
        secondary: Vec::new(),
    }
}

/// The machine in one line: host, CPU, OS and the server's version.
pub fn machine_line(m: &Machine) -> String {
    let mut text = format!(
        "{}, {} logical CPUs ({}), {}",
        m.hostname.as_deref().unwrap_or("unknown host"),
        m.logical_cpus,
        m.cpu_model.as_deref().unwrap_or("CPU model unknown"),
        m.os
    );
    if let Some(v) = &m.server_version {
        text += &format!("; server {v}");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measure::ShardLoad;
    use crate::model::picker::Picker;
    use crate::output::csv::CsvExporter;
    use crate::output::table::TableExporter;
    use crate::output::Exporter;

    pub(crate) fn sample(count_read: i64) -> PgMeasureReport {
        let design = |design, ops, waits, count_read: i64| DesignResult {
            design,
            writes_acknowledged: 500,
            seconds: 0.5,
            ops_per_second_mean: ops,
            latency_p50_ms: 1.5,
            latency_p99_ms: 4.25,
            latency_max_ms: 9.0,
            lock_waits: waits,
            lock_wait_samples: 100,
            lock_sample_max_gap_ms: 6.5,
            count_read,
            read_ms: 0.5,
            counts_match: count_read == 500,
            durability: Some(crate::measure::durability::Durability::clean(
                500, count_read,
            )),
        };
        PgMeasureReport {
            store: "postgres".into(),
            postgres: "postgres://app:***@127.0.0.1:5433/likes".into(),
            run_id: "1a2b3c4d".into(),
            schema: "shardplan_1a2b3c4d".into(),
            schema_dropped: true,
            shards: 64,
            clients: 8,
            designs: vec![
                design(Design::SingleRow, 1000.0, 650, 500),
                design(Design::ShardedRows, 3000.0, 12, count_read),
                design(Design::LikeRows, 2500.0, 0, 500),
            ],
            counts_match: count_read == 500,
            synchronous_commit: Some("on".into()),
            machine: Machine {
                hostname: Some("box".into()),
                os: "Debian GNU/Linux 12 (bookworm)".into(),
                cpu_model: Some("AMD EPYC".into()),
                logical_cpus: 2,
                server_version: Some("15.4".into()),
            },
            picker: Picker::Sticky,
            shard_load: Some(ShardLoad {
                totals: [vec![63; 8], vec![0; 56]].concat(),
                total_min: 0,
                total_max: 63,
                total_spread: 63,
                seconds_sampled: 0,
                busiest_per_second: None,
                mean_per_shard_per_second: None,
            }),
        }
    }

    fn render(e: &dyn Exporter, r: PgMeasureReport) -> String {
        String::from_utf8(e.render(&PgMeasureView(r)).unwrap()).unwrap()
    }

    #[test]
    fn table_shows_the_designs_and_the_machine() {
        let plain = TableExporter {
            style: crate::output::terminal::Style::plain(
                crate::output::terminal::ColorChoice::Never,
            ),
        };
        let text = render(&plain, sample(500));
        for needle in [
            "postgres://app:***@127.0.0.1:5433/likes",
            "shardplan_1a2b3c4d (run id 1a2b3c4d), dropped",
            "box, 2 logical CPUs (AMD EPYC), Debian GNU/Linux 12 (bookworm); server 15.4",
            "single-row",
            "650 (100)",
            "500 of 500 writes: match",
            "sticky: each of the 8 clients is one app server",
            "min 0, max 63, max - min 63 over 64 rows",
            // 8 sticky servers on 64 rows: the fullest row takes one
            // server's 3,000 / 8 writes a second.
            "375 a second: the fullest shard's share of 8 sticky servers on 64 shards",
        ] {
            assert!(text.contains(needle), "{needle}: {text}");
        }
        assert!(!text.contains("WARNING"), "{text}");
        let mut slow = sample(500);
        slow.designs[1].lock_sample_max_gap_ms = 190.4;
        let text = render(&plain, slow);
        assert!(text.contains("samples were up to 190 ms apart"), "{text}");
        let text = render(&plain, sample(499));
        assert!(
            text.contains("WARNING: sharded-rows read 499 for 500 writes acknowledged."),
            "{text}"
        );
    }

    #[test]
    fn csv_has_one_row_per_design() {
        let csv = render(&CsvExporter { delimiter: b',' }, sample(500));
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 4, "{csv}");
        assert!(lines[0].starts_with("store,postgres,run_id"), "{csv}");
        assert!(lines[0].contains("machine_server_version"), "{csv}");
        assert!(lines[1].contains("single-row") && lines[3].contains("like-rows"));
        assert!(lines[0].contains("shard_load_total_spread"), "{csv}");
        assert!(lines[0].contains("shard_load_model_figure"), "{csv}");
        assert!(!lines[0].contains("totals"), "{csv}");
        let json = PgMeasureView(sample(500)).json();
        assert_eq!(json["shard_load_model"]["figure"], "sticky_fullest_shard");
        assert_eq!(json["picker"], "sticky");
        // A file written before pickers reads back with the defaults.
        let mut old = row(&sample(500));
        old.as_object_mut().unwrap().remove("picker");
        old.as_object_mut().unwrap().remove("shard_load");
        let back: PgMeasureReport = serde_json::from_value(old).unwrap();
        assert_eq!((back.picker, back.shard_load), (Picker::Random, None));
    }
}
