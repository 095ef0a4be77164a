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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::reconcile::Retry;

    fn sample(every: Option<f64>, difference: i64) -> ReconcileReport {
        let job = |after_writes, difference: i64| Job {
            at_seconds: 1.0,
            after_writes,
            rows: 100,
            counted: 100 - difference,
            difference,
            shard: (difference != 0).then_some(3),
            landed: 2,
            seconds: 0.001,
        };
        let mut jobs = vec![job(true, difference)];
        if every.is_some() {
            jobs.insert(0, job(false, -1));
        }
        ReconcileReport {
            redis: "redis://127.0.0.1:6379".into(),
            postgres: "postgres://app@127.0.0.1/likes".into(),
            shards: 8,
            clients: 4,
            rate: 100.0,
            seconds: 1.0,
            likes_per_second: 100.0,
            lost_replies_share: 0.1,
            retry: Retry::Once,
            failed_increments_share: 0.0,
            reconcile_every_seconds: every,
            writes: Writes {
                likes: 100,
                acknowledged: 90,
                lost_replies: 10,
                lost_applied: 10,
                retried: 10,
                ..Writes::default()
            }
            .settle(Retry::Once),
            reconciliation: Reconciliation {
                like_table: "shardplan_1.likes".into(),
                rows: 100,
                counted_before: 100 - difference,
                drift_before: -difference,
                corrected_during: 0,
                explained: true,
                jobs,
                counted_after: 100,
                drift_after: 0,
            },
            run_id: "1".into(),
            keys: vec!["k".into()],
            kept: false,
            keys_deleted: 1,
            postgres_version: "15".into(),
            machine: crate::measure::machine::Machine::here(None),
        }
    }

    #[test]
    fn csv_has_the_same_columns_with_or_without_jobs_during_the_writes() {
        let columns = |r: ReconcileReport| -> Vec<String> {
            let rows = ReconcileMeasureView(r).rows();
            assert_eq!(rows.len(), 1);
            rows[0].as_object().unwrap().keys().cloned().collect()
        };
        let plain = columns(sample(None, 0));
        assert_eq!(plain, columns(sample(Some(0.5), -10)));
        for c in [
            "reconciliation_drift_after",
            "final_job_difference",
            "jobs",
            "writes_over",
        ] {
            assert!(plain.iter().any(|k| k == c), "{c}: {plain:?}");
        }
        assert!(!plain.iter().any(|k| k.starts_with("machine")));
    }

    #[test]
    fn the_closing_line_fails_when_the_count_is_off_or_unexplained() {
        let good = ReconcileMeasureView(sample(Some(0.5), -10)).sections();
        assert!(
            matches!(good.last(), Some(Section::Note(t)) if t.contains("equals the rows (100)"))
        );
        let mut off = sample(None, 0);
        off.reconciliation.drift_after = 2;
        let last = ReconcileMeasureView(off).sections().pop();
        assert!(matches!(last, Some(Section::Failure(t)) if t.contains("off by +2")));
        let mut odd = sample(None, 0);
        odd.reconciliation.explained = false;
        let last = ReconcileMeasureView(odd).sections().pop();
        assert!(matches!(last, Some(Section::Failure(t)) if t.contains("another client")));
    }
}
