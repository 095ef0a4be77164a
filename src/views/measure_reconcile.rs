//! `measure --reconcile`'s view: the run, where each like ended, the jobs,
//! and the count against the rows before and after the final job. CSV
//! gets one flat row (the jobs counted, the final job's columns); JSON the
//! report as is.

use serde_json::{Map, Value};

use crate::measure::reconcile::{Job, ReconcileReport, Reconciliation, Writes};
use crate::output::{fmt, row, Report, Section};

/// A reconcile run's report as tables, Markdown, one CSV row and JSON.
pub struct ReconcileMeasureView(pub ReconcileReport);

impl Report for ReconcileMeasureView {
    fn rows(&self) -> Vec<Value> {
        let Value::Object(m) = row(&self.0) else {
            return vec![row(&self.0)];
        };
        let mut out = Map::new();
        for (k, v) in m {
            match (k.as_str(), v) {
                ("keys", Value::Array(a)) => {
                    out.insert(k, a.len().into());
                }
                ("machine", _) => {}
                ("reconciliation", Value::Object(mut r)) => {
                    let jobs = r.remove("jobs").unwrap_or(Value::Null);
                    super::measure::flatten("reconciliation", Value::Object(r), &mut out);
                    let list = jobs.as_array().cloned().unwrap_or_default();
                    out.insert("jobs".into(), list.len().into());
                    if let Some(last) = list.last() {
                        super::measure::flatten("final_job", last.clone(), &mut out);
                    }
                }
                (_, v) => super::measure::flatten(&k, v, &mut out),
            }
        }
        vec![Value::Object(out)]
    }

    fn json(&self) -> Value {
        row(&self.0)
    }

    fn sections(&self) -> Vec<Section> {
        let r = &self.0;
        let c = &r.reconciliation;
        vec![
            run(r),
            writes(&r.writes, r.retry.name()),
            jobs(&c.jobs),
            count(c, &r.writes),
            Section::verdict(closing_line(c), c.drift_after != 0 || !c.explained),
        ]
    }
}

/// A count that may be negative: `4,001`, `-12`.
fn whole(n: i64) -> String {
    match n < 0 {
        true => format!("-{}", fmt::count(n.unsigned_abs())),
        false => fmt::count(n as u64),
    }
}

/// A signed count: `+4`, `-12`, `0`.
fn signed(n: i64) -> String {
    match n {
        0 => "0".into(),
        n if n > 0 => format!("+{}", fmt::count(n as u64)),
        n => format!("-{}", fmt::count(n.unsigned_abs())),
    }
}

fn share(x: f64) -> String {
    format!("{}%", fmt::num((x * 1e4).round() / 100.0))
}

/// The run's set-up.
fn run(r: &ReconcileReport) -> Section {
    Section::pairs(
        "Reconciliation measured on real Redis and PostgreSQL",
        vec![
            (
                "servers",
                format!("{} (shard keys), {} (like rows)", r.redis, r.postgres),
            ),
            (
                "writes",
                format!(
                    "{} likes/s asked, {} likes/s saved over {} s by {} writers on {} shards",
                    fmt::num(r.rate),
                    fmt::num(r.likes_per_second.round()),
                    fmt::num((r.seconds * 100.0).round() / 100.0),
                    r.clients,
                    r.shards
                ),
            ),
            (
                "faults",
                format!(
                    "{} of replies dropped, retry {}; {} of increments skipped after the row",
                    share(r.lost_replies_share),
                    r.retry.name(),
                    share(r.failed_increments_share)
                ),
            ),
            (
                "job",
                match r.reconcile_every_seconds {
                    Some(s) => format!("every {} s during the writes, once after", fmt::num(s)),
                    None => "once, after the writes".into(),
                },
            ),
            ("like table", r.reconciliation.like_table.clone()),
        ],
    )
}

/// Where each like ended.
fn writes(w: &Writes, retry: &str) -> Section {
    Section::pairs(
        "Where each like ended",
        vec![
            ("like rows saved", fmt::count(w.likes)),
            ("increments acknowledged", fmt::count(w.acknowledged)),
            (
                "replies dropped",
                format!(
                    "{}; {} applied (the server's ledger)",
                    fmt::count(w.lost_replies),
                    fmt::count(w.lost_applied)
                ),
            ),
            (
                "sent again",
                format!("{} (retry {retry})", fmt::count(w.retried)),
            ),
            ("increments skipped", fmt::count(w.failed_increments)),
            ("over-counted", fmt::count(w.over)),
            ("under-counted", fmt::count(w.under)),
            ("the faults' drift", signed(w.fault_drift)),
        ],
    )
}

/// Each job: when, what it counted and read, what it added.
fn jobs(jobs: &[Job]) -> Section {
    Section::Grid {
        title: "The jobs".into(),
        header: [
            "at (s)",
            "rows",
            "counted",
            "difference",
            "landed meanwhile",
            "shard",
            "took (ms)",
        ]
        .map(String::from)
        .to_vec(),
        rows: jobs
            .iter()
            .map(|j| {
                vec![
                    match j.after_writes {
                        true => format!("{} (final)", fmt::num((j.at_seconds * 1e3).round() / 1e3)),
                        false => fmt::num((j.at_seconds * 1e3).round() / 1e3),
                    },
                    fmt::count(j.rows),
                    whole(j.counted),
                    signed(j.difference),
                    signed(j.landed),
                    j.shard.map_or("-".into(), |s| s.to_string()),
                    fmt::num((j.seconds * 1e4).round() / 10.0),
                ]
            })
            .collect(),
        secondary: Vec::new(),
    }
}

/// The count against the rows.
fn count(c: &Reconciliation, w: &Writes) -> Section {
    Section::pairs(
        "The count against the rows",
        vec![
            ("like rows", fmt::count(c.rows)),
            ("counted before the final job", whole(c.counted_before)),
            (
                "drift before",
                format!(
                    "{} (the faults' {} + the jobs during the writes' {}{})",
                    signed(c.drift_before),
                    signed(w.fault_drift),
                    signed(c.corrected_during),
                    if c.explained {
                        ""
                    } else {
                        ": NOT accounted for"
                    }
                ),
            ),
            ("counted after", whole(c.counted_after)),
            ("drift after", signed(c.drift_after)),
        ],
    )
}

/// The run's answer in one line.
fn closing_line(c: &Reconciliation) -> String {
    match (c.drift_after, c.explained) {
        (0, true) => format!(
            "After the final job the counter equals the rows ({}); every like is accounted for.",
            fmt::count(c.rows)
        ),
        (0, false) => "After the final job the counter equals the rows, but the drift before it \
                       is not the faults' and the jobs': another client wrote the keys or the table."
            .into(),
        (d, _) => format!(
            "After the final job the counter is off by {} from the rows: something wrote the keys or \
             the table during the job.",
            signed(d)
        ),
    }
}
