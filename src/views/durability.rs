//! `measure --design`'s view: the run, then the durability table (where
//! every like ended, and one line on whether anything acknowledged was
//! lost), the fault and the errors. CSV gets one flat row; JSON the report
//! with `durability` as a block.

use serde_json::{Map, Value};

use crate::measure::durability::{Design, Durability, DurabilityReport};
use crate::output::{fmt, row, Report, Section};

/// A durability run's report as tables, Markdown, one CSV row and JSON.
pub struct DurabilityView(pub DurabilityReport);

impl Report for DurabilityView {
    fn rows(&self) -> Vec<Value> {
        let Value::Object(m) = row(&self.0) else {
            return vec![row(&self.0)];
        };
        let mut out = Map::new();
        for (k, v) in m {
            match (k.as_str(), v) {
                // Lists stay in JSON; CSV counts them.
                ("keys" | "errors", Value::Array(a)) => {
                    out.insert(k, a.len().into());
                }
                ("machine", _) => {}
                // The same columns whether or not the run had one.
                ("fault" | "rebuild", Value::Null) => {
                    for ik in optional_columns(&k) {
                        out.insert(format!("{k}_{ik}"), Value::Null);
                    }
                }
                // Nested objects as `outer_inner` columns, as `measure`'s.
                (_, v) => super::measure::flatten(&k, v, &mut out),
            }
        }
        vec![Value::Object(out)]
    }

    fn json(&self) -> Value {
        row(&self.0)
    }

    fn sections(&self) -> Vec<Section> {
        let mut out = sections(&self.0);
        out.push(Section::Note(
            "One run's loss of zero is not a guarantee: it is what this fault, at this moment, \
             cost this run (docs/measure.md)."
                .into(),
        ));
        out
    }
}

/// The run, where every like ended, the line on loss, the fault and the
/// errors: the view's tables, and `report --measure`'s for a durability
/// run.
pub fn sections(r: &DurabilityReport) -> Vec<Section> {
    let mut out = vec![run(r), table(&r.durability)];
    out.push(Section::verdict(
        loss_line(&r.durability),
        r.durability.lost_any(),
    ));
    if let Some(f) = &r.fault {
        out.push(Section::Note(fault_line(f)));
    }
    if !r.errors.is_empty() {
        out.push(Section::Grid {
            title: "Errors the writers met".into(),
            header: vec!["error".into(), "requests".into()],
            rows: r
                .errors
                .iter()
                .map(|e| vec![e.error.clone(), fmt::count(e.count)])
                .collect(),
            secondary: Vec::new(),
        });
    }
    if !r.durability.reconciled {
        out.push(Section::Failure(format!(
            "The count {} is above the acknowledged and unknown likes together ({}): likes were \
             applied twice or another client wrote the keys.",
            r.durability.counted,
            r.durability.acknowledged + r.durability.unknown
        )));
    }
    out
}

/// The columns of an object that may be absent: a fault's, a rebuild's.
fn optional_columns(field: &str) -> &'static [&'static str] {
    match field {
        "fault" => &[
            "kind",
            "command",
            "at_seconds",
            "seconds",
            "exit_code",
            "stderr",
        ],
        _ => &["rebuilt", "counted", "matches"],
    }
}

/// The run's set-up and figures.
fn run(r: &DurabilityReport) -> Section {
    let mut rows = vec![
        (
            "server",
            format!("{}{}", r.server, if r.cluster { " (cluster)" } else { "" }),
        ),
        ("design", design_line(r)),
        (
            "writes",
            format!(
                "{} likes/s asked, {} likes/s created over {} s by {} writers; {} writes/s per key",
                fmt::rate(r.rate),
                fmt::num(r.likes_per_second.round()),
                fmt::num((r.seconds * 100.0).round() / 100.0),
                r.clients,
                fmt::num((r.writes_per_second_per_key * 10.0).round() / 10.0)
            ),
        ),
        (
            "lag to the count",
            format!(
                "p50 {} ms, p99 {} ms, max {} ms",
                ms(r.lag.p50_ms),
                ms(r.lag.p99_ms),
                ms(r.lag.max_ms)
            ),
        ),
    ];
    rows.extend(design_rows(r));
    let u = &r.unavailable;
    rows.push((
        "unavailable",
        if u.keys == 0 {
            "no write failed".to_string()
        } else {
            format!(
                "{} keys saw failed writes; the longest gap to a success {} s{}",
                u.keys,
                fmt::num((u.longest_seconds * 1000.0).round() / 1000.0),
                if u.unrecovered > 0 {
                    format!(", {} keys never recovered before the end", u.unrecovered)
                } else {
                    String::new()
                }
            )
        },
    ));
    let title = match r.store.as_str() {
        "postgres" => "Durability measured on a real PostgreSQL",
        _ => "Durability measured on a real Redis",
    };
    Section::pairs(title, rows)
}

/// The rows only some designs and stores have.
fn design_rows(r: &DurabilityReport) -> Vec<(&'static str, String)> {
    let mut rows = Vec::new();
    if let Some(sc) = &r.synchronous_commit {
        rows.push(("synchronous_commit", sc.clone()));
    }
    if let Some(held) = r.held_at_end {
        rows.push((
            "held at the end",
            format!("{} likes (then flushed)", fmt::count(held)),
        ));
    }
    if let Some(b) = r.backlog_at_end {
        rows.push((
            "consumer backlog",
            format!("{} entries when the writes ended", fmt::count(b)),
        ));
    }
    if let Some(rb) = &r.rebuild {
        rows.push((
            "rebuilt from the streams",
            format!(
                "{} against the counters' {}: {}",
                rb.rebuilt,
                rb.counted,
                if rb.matches { "equal" } else { "DIFFERENT" }
            ),
        ));
    }
    if let (Some(n), Some(short)) = (r.wait_replicas, r.wait_short) {
        rows.push((
            "WAIT",
            format!(
                "{n} replicas after each write; {} writes reached fewer",
                fmt::count(short)
            ),
        ));
    }
    rows
}

fn design_line(r: &DurabilityReport) -> String {
    let keys = match r.shards {
        1 => "1 key".to_string(),
        n => format!("{n} keys"),
    };
    let rows = match r.shards {
        1 => "1 row".to_string(),
        n => format!("{n} rows"),
    };
    match r.design {
        Design::Single if r.store == "postgres" => "single: UPDATE of 1 row".into(),
        Design::Sharded if r.store == "postgres" => format!("sharded: UPDATE of one of {rows}"),
        Design::Single => "single: INCR of 1 key".into(),
        Design::Sharded => format!("sharded: INCR of one of {keys}"),
        Design::Buffered => format!(
            "buffered: each writer sends one INCRBY per key every {} s, over {keys}",
            fmt::num(r.flush_seconds.unwrap_or(0.0))
        ),
        Design::Log => format!(
            "log: XADD to {} streams, a consumer group into {keys}",
            r.shards
        ),
    }
}

fn ms(x: f64) -> String {
    fmt::num((x * 100.0).round() / 100.0)
}

/// Where every like ended.
fn table(d: &Durability) -> Section {
    let rows = [
        ("sent", "likes the writers created", d.sent as i64),
        (
            "acknowledged",
            "a reply said applied",
            d.acknowledged as i64,
        ),
        (
            "failed",
            "a reply said not applied, or no node took it",
            d.failed as i64,
        ),
        (
            "unknown",
            "in flight when a connection died",
            d.unknown as i64,
        ),
        ("counted", "the server's count after the run", d.counted),
        (
            "lost_at_least",
            "acknowledged and not counted",
            d.lost_at_least as i64,
        ),
        (
            "lost_in_buffers",
            "held by a killed writer",
            d.lost_in_buffers as i64,
        ),
    ];
    Section::Grid {
        title: "Every like accounted for".into(),
        header: vec!["".into(), "likes".into(), "what".into()],
        rows: rows
            .iter()
            .map(|(name, what, n)| {
                let n = if *n < 0 {
                    n.to_string()
                } else {
                    fmt::count(*n as u64)
                };
                vec![name.to_string(), n, what.to_string()]
            })
            .collect(),
        secondary: Vec::new(),
    }
}

/// The one line on loss.
pub fn loss_line(d: &Durability) -> String {
    match (d.lost_at_least, d.lost_in_buffers) {
        (0, 0) => format!(
            "Nothing acknowledged was lost: the count holds all {} acknowledged likes{}.",
            fmt::count(d.acknowledged),
            match d.counted - d.acknowledged as i64 {
                0 => String::new(),
                extra => format!(" and {extra} of the {} unknown", d.unknown),
            }
        ),
        (lost, 0) => format!(
            "LOST: at least {} acknowledged likes are not in the count ({} of {}).",
            fmt::count(lost),
            d.counted,
            fmt::count(d.acknowledged)
        ),
        (0, held) => {
            format!("LOST: {held} likes the killed writer held; nothing acknowledged was lost.")
        }
        (lost, held) => format!(
            "LOST: at least {lost} acknowledged likes are not in the count, and {held} the killed \
             writer held."
        ),
    }
}

fn fault_line(f: &crate::measure::durability::FaultReport) -> String {
    match &f.command {
        Some(c) => format!(
            "Fault at {} s: `{c}` ran for {} s, {}{}.",
            fmt::num((f.at_seconds * 100.0).round() / 100.0),
            fmt::num((f.seconds * 100.0).round() / 100.0),
            match f.exit_code {
                Some(code) => format!("exit code {code}"),
                None => "no exit code (killed by a signal, or still running)".into(),
            },
            f.stderr
                .as_ref()
                .map(|e| format!("; it said: {e}"))
                .unwrap_or_default()
        ),
        None => format!(
            "Fault at {} s: writer 0 killed without flushing.",
            fmt::num((f.at_seconds * 100.0).round() / 100.0)
        ),
    }
}

/// `compare --measure`: what the measurement lost, in a few lines beside
/// the designs' formulas.
pub fn measured_loss(m: &crate::measure::MeasuredLoss) -> Vec<Section> {
    let store = if m.store == "postgres" {
        "PostgreSQL"
    } else {
        "Redis"
    };
    let what = match m.design {
        Some(d) => format!("the {} design on {store} ({})", d.name(), m.server),
        None => format!("the sharded writes of `measure` on {store} ({})", m.server),
    };
    let fault = match &m.fault {
        Some(f) => format!("through the fault `{f}`"),
        None => "without a fault".to_string(),
    };
    let d = &m.durability;
    vec![
        Section::pairs(
            "Measured loss",
            vec![
                ("measured", format!("{what}, {fault} ({})", m.file)),
                (
                    "likes",
                    format!(
                        "{} sent: {} acknowledged, {} failed, {} unknown; {} counted",
                        fmt::count(d.sent),
                        fmt::count(d.acknowledged),
                        fmt::count(d.failed),
                        fmt::count(d.unknown),
                        d.counted
                    ),
                ),
            ],
        ),
        Section::verdict(loss_line(d), d.lost_any()),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measure::durability::{Lag, Rebuild, Unavailable};

    fn sample(rebuild: Option<Rebuild>) -> DurabilityReport {
        DurabilityReport {
            store: "redis".into(),
            server: "redis://127.0.0.1:7000".into(),
            cluster: true,
            synchronous_commit: None,
            design: Design::Log,
            shards: 16,
            clients: 4,
            rate: 1000.0,
            seconds: 5.0,
            likes_per_second: 1000.0,
            writes_per_second_per_key: 62.5,
            flush_seconds: None,
            wait_replicas: None,
            wait_short: None,
            lag: Lag {
                p50_ms: 1.5,
                p99_ms: 6.0,
                max_ms: 20.0,
            },
            held_at_end: None,
            backlog_at_end: Some(3),
            rebuild,
            fault: None,
            unavailable: Unavailable {
                keys: 0,
                longest_seconds: 0.0,
                unrecovered: 0,
            },
            errors: Vec::new(),
            durability: Durability::clean(5000, 4990),
            run_id: Some("1a2b3c4d".into()),
            keys: vec!["k".into()],
            keys_kept: false,
            keys_deleted: 1,
            machine: crate::measure::machine::Machine::here(None),
        }
    }

    #[test]
    fn csv_has_the_same_columns_with_or_without_a_rebuild_or_a_fault() {
        let names = |r: DurabilityReport| -> Vec<String> {
            match &DurabilityView(r).rows()[0] {
                Value::Object(m) => m.keys().cloned().collect(),
                _ => panic!("a row is an object"),
            }
        };
        let with = Rebuild {
            rebuilt: 5000,
            counted: 4990,
            matches: false,
        };
        assert_eq!(names(sample(None)), names(sample(Some(with))));
        assert!(names(sample(None)).contains(&"fault_exit_code".to_string()));
    }

    #[test]
    fn a_count_short_of_the_acknowledged_is_said_lost_in_one_line() {
        let r = sample(None);
        assert_eq!(
            loss_line(&r.durability),
            "LOST: at least 10 acknowledged likes are not in the count (4990 of 5,000)."
        );
        let sections = DurabilityView(r).sections();
        assert!(sections
            .iter()
            .any(|s| matches!(s, Section::Failure(t) if t.starts_with("LOST"))));
    }
}
