//! `compare`'s tables and machine rows: the model's rows with their
//! verdicts and count errors in words ([`words`]).

pub mod words;

use serde_json::Value;

use crate::model::compare::strategies::{Comparison, StrategyRow};
use crate::model::probability::Probability;
use crate::model::recommendation::Recommendation;
use crate::output::fmt::{num, run_length, Underflow};
use crate::output::{fmt, row, Report, Section};

/// How one column of the strategies table draws a row's cell.
type Cell<'a> = Box<dyn Fn(&StrategyRow) -> String + 'a>;

/// `compare`'s report: the rows plus what the tables need.
pub struct CompareReport {
    /// The scenario's name.
    pub scenario: String,
    /// The model's rows and summaries.
    pub comparison: Comparison,
    /// The plan's recommendation (the sharded rows' default count).
    pub recommendation: Recommendation,
    /// The plan's verdict at the sharded rows' count.
    pub verdict: crate::model::verdict::Verdict,
    /// Every column in the table and Markdown (`--wide`); the compact
    /// default leaves out the per-second chance, uncached reads, lag, crash
    /// loss and double count. CSV, TSV and JSON always carry every field.
    pub wide: bool,
}

/// One CSV line or JSON object: the row's fields in declaration order, the
/// verdict and the count error as their sentences.
fn machine_row(r: &StrategyRow) -> Value {
    let mut v = row(r);
    if let Value::Object(m) = &mut v {
        // Replacing a key keeps its place (serde_json preserves order).
        if let Some(e) = &r.row.error {
            m.insert("error".into(), words::count_error(e).into());
        }
        m.insert("verdict".into(), words::verdict(&r.row.verdict).into());
    }
    v
}

impl Report for CompareReport {
    fn rows(&self) -> Vec<Value> {
        self.comparison.rows.iter().map(machine_row).collect()
    }

    fn json(&self) -> Value {
        serde_json::json!({
            "rows": self.rows(),
            "recommendation": row(&self.recommendation),
            "verdict": row(&self.verdict),
        })
    }

    fn sections(&self) -> Vec<Section> {
        let c = &self.comparison;
        let i = &c.inputs;
        let used = Section::verdict(
            format!(
                "Sharded rows: {}; the rows' chances are per key.",
                super::verdict::line(&self.verdict)
            ),
            !self.verdict.holds,
        );
        let run = run_length(i.duration_seconds);
        let mut inputs = vec![
            ("scenario", self.scenario.clone()),
            (
                "rate",
                format!("{} likes/s ({})", fmt::num(i.rate), i.traffic.name()),
            ),
            (
                "cap per key",
                format!(
                    "{} writes/s, safe {} (headroom kept for unevenness)",
                    fmt::num(i.cap),
                    fmt::num(i.safe)
                ),
            ),
            (
                "servers",
                format!(
                    "{}, each flushing its tally every {} s (buffered designs)",
                    i.reads.servers,
                    fmt::num(i.flush_seconds)
                ),
            ),
            (
                "log consumer",
                format!("writes totals every {} s", fmt::num(i.log_commit_seconds)),
            ),
            (
                "reads",
                format!(
                    "{} views/s, sum cached {} s on each server",
                    fmt::num(i.reads.views),
                    fmt::num(i.reads.cache_seconds)
                ),
            ),
            (
                "over-cap chance",
                format!(
                    "exact (as `risk`) for per-like writes; buffered and log writes are steady, \
                     so over the cap is 1 or 0; run of {run}"
                ),
            ),
        ];
        if let Some(t) = i.transactional {
            inputs.push((
                "transactions",
                format!(
                    "like row + increment in one transaction: {} units a like, {} ms each",
                    fmt::num(t.write_cost),
                    fmt::num(t.txn_ms)
                ),
            ));
        }
        let any_over = format!("P(any over, {run})");
        let opt_prob = |p: Option<f64>, ln: Option<f64>| match (p, ln) {
            (Some(p), Some(ln)) => fmt::probability(Probability::new(p, ln), Underflow::Starred),
            (Some(p), None) => fmt::prob(p),
            (None, _) => "n/a".to_string(),
        };
        // Every column, in order; the compact table (an 80-column terminal)
        // keeps those marked `true`.
        let columns: Vec<(&str, bool, Cell)> = vec![
            ("strategy", true, Box::new(|r| r.row.strategy.clone())),
            (
                "keys",
                true,
                Box::new(|r| r.keys.map_or(String::new(), |k| k.to_string())),
            ),
            (
                "writes/key/s",
                true,
                Box::new(|r| num(r.row.writes_per_key_per_second)),
            ),
            (
                "P(second over cap)",
                false,
                Box::new(|r| opt_prob(r.row.p_over_cap_per_second, r.ln_p_over_cap_per_second)),
            ),
            (
                &any_over,
                true,
                Box::new(|r| opt_prob(r.row.p_any_over_cap, r.ln_p_any_over_cap)),
            ),
            (
                if self.wide {
                    "reads/s cached (uncached)"
                } else {
                    "reads/s cached"
                },
                true,
                Box::new(|r| match (self.wide, r.reads_uncached_per_second) {
                    (true, Some(u)) => format!("{} ({})", num(r.row.reads_per_second), num(u)),
                    _ => num(r.row.reads_per_second),
                }),
            ),
            (
                "lag s",
                false,
                Box::new(|r| num(r.row.freshness_lag_seconds)),
            ),
            (
                "crash loss",
                false,
                Box::new(|r| num(r.row.crash_loss_likes)),
            ),
            (
                "double count",
                false,
                Box::new(|r| num(r.row.double_count_likes)),
            ),
            // The compact table gives the verdicts a table of their own, where
            // the sentences have the width to read.
            (
                "verdict",
                false,
                Box::new(|r| words::verdict(&r.row.verdict)),
            ),
        ];
        let shown: Vec<_> = columns
            .iter()
            .filter(|(_, compact, _)| self.wide || *compact)
            .collect();
        let header = shown.iter().map(|(h, _, _)| h.to_string()).collect();
        let rows = c
            .rows
            .iter()
            .map(|r| shown.iter().map(|(_, _, cell)| cell(r)).collect())
            .collect();
        let mut sections = vec![
            used,
            Section::pairs("Compare", inputs),
            Section::Grid {
                title: "Strategies".into(),
                header,
                rows,
            },
        ];
        if !self.wide {
            let verdicts = c
                .rows
                .iter()
                .map(|r| (r.row.strategy.as_str(), words::verdict(&r.row.verdict)))
                .collect();
            sections.push(Section::pairs("Verdicts", verdicts));
            sections.push(Section::Note(
                "--wide adds P(second over cap), uncached reads, lag, crash loss and double \
                 count (CSV and JSON carry them always)."
                    .into(),
            ));
        }
        sections.push(Section::Grid {
            title: "Exactness and memory".into(),
            header: [
                "strategy",
                "count",
                "error",
                "memory",
                "store reads per sum",
            ]
            .map(String::from)
            .to_vec(),
            rows: c
                .rows
                .iter()
                .map(|r| {
                    let x = &r.row;
                    vec![
                        x.strategy.clone(),
                        if x.exact { "exact" } else { "approximate" }.to_string(),
                        x.error
                            .as_ref()
                            .map_or_else(|| "none".into(), words::count_error),
                        x.memory_bytes
                            .map(|b| format!("{} bytes", fmt::num(b.round())))
                            .unwrap_or_else(|| "-".into()),
                        fmt::num(x.reads_per_view),
                    ]
                })
                .collect(),
        });
        sections.extend(super::price::compare_cost_sections(&c.rows));
        let d = &c.drift;
        let drift_rows = c
            .rows
            .iter()
            .filter_map(|r| {
                Some(vec![
                    r.row.strategy.clone(),
                    num(r.overcount_per_hour?),
                    num(r.undercount_per_hour?),
                    num(r.net_drift_per_hour?),
                ])
            })
            .collect();
        sections.push(Section::Grid {
            title: format!(
                "Drift per hour at {} likes/s (timeouts {}, {} of them applied, up to {} retries)",
                fmt::num(i.rate),
                fmt::percent(d.timeout_rate),
                fmt::percent(d.applied_share),
                d.retries
            ),
            header: ["strategy", "overcount/h", "undercount/h", "net drift/h"]
                .iter()
                .map(|h| h.to_string())
                .collect(),
            rows: drift_rows,
        });
        let under = |p: Option<f64>, ln: Option<f64>| matches!((p, ln), (Some(p), Some(ln)) if Probability::new(p, ln).underflows());
        let underflow = c.rows.iter().any(|r| {
            (self.wide && under(r.row.p_over_cap_per_second, r.ln_p_over_cap_per_second))
                || under(r.row.p_any_over_cap, r.ln_p_any_over_cap)
        });
        if underflow {
            sections.push(Section::Note(
                "* below f64's range, printed from its logarithm (JSON: the ln_ fields)".into(),
            ));
        }
        sections.push(Section::Note(
            "Increments are not idempotent: a retried increment that had been applied counts \
             twice, a like whose every attempt failed is missing. The nightly reconciliation \
             (counting the like rows) corrects the drift; transactions and the log's totals do \
             not drift."
                .into(),
        ));

        if let Some(t) = &c.transactional {
            let k = &t.conflicts;
            sections.push(Section::pairs(
                "Transactions (conflict model)",
                vec![
                    (
                        "cap per key",
                        format!(
                            "{} likes/s = {} / {} units",
                            num(t.cap_likes_per_key),
                            fmt::num(i.cap),
                            fmt::num(t.write_cost)
                        ),
                    ),
                    (
                        "per shard",
                        format!(
                            "{} likes/s over {} shards, each transaction {} ms",
                            num(k.rate_per_shard),
                            t.shards,
                            fmt::num(t.txn_ms)
                        ),
                    ),
                    (
                        "P(conflict)",
                        format!("{} = 1 - exp(-r d / 1000)", fmt::prob(k.p_conflict)),
                    ),
                    (
                        "attempts per like",
                        format!("{} = 1 / (1 - p)", num(k.attempts_per_like)),
                    ),
                    (
                        "cancellations (= retries)",
                        format!(
                            "{}/s per shard, {}/s in all",
                            num(k.cancellations_per_second),
                            num(k.cancellations_per_second * t.shards as f64)
                        ),
                    ),
                    (
                        "write units per shard",
                        format!(
                            "{}/s (safe {})",
                            num(k.write_units_per_second),
                            fmt::num(i.safe)
                        ),
                    ),
                    (
                        "shards needed",
                        format!(
                            "{} for the cost alone; {} with the conflicts' retries",
                            t.shards_without_conflicts,
                            t.shards_with_conflicts
                                .map_or("more than 100,000".to_string(), |s| s.to_string())
                        ),
                    ),
                ],
            ));
        }
        sections
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::compare::verdict::{CountError, Verdict};
    use crate::model::compare::CompareRow;

    fn hll(error: Option<CountError>) -> StrategyRow {
        StrategyRow::from(CompareRow {
            strategy: "hll".into(),
            exact: error.is_none(),
            error,
            writes_per_key_per_second: 1.0,
            p_over_cap_per_second: None,
            p_any_over_cap: None,
            reads_per_second: 1.0,
            reads_per_view: 1.0,
            freshness_lag_seconds: 0.0,
            crash_loss_likes: 0.0,
            double_count_likes: 0.0,
            memory_bytes: None,
            verdict: Verdict::Hll,
        })
    }

    #[test]
    fn machine_rows_keep_the_sentences_in_place() {
        let v = machine_row(&hll(Some(CountError::StandardError { share: 0.008125 })));
        let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys[..3], ["strategy", "exact", "error"]);
        assert_eq!(keys[12], "verdict");
        // 24 design fields, then the 6 cost fields (null without prices).
        assert_eq!(keys.len(), 30);
        assert_eq!(v["error"], "0.8125% standard error");
        assert_eq!(
            v["verdict"],
            "12 KB per post and idempotent, but ~1% off and PFADD is one hot key again"
        );
        // An exact count has no error: null, as before.
        assert_eq!(machine_row(&hll(None))["error"], Value::Null);
    }
}
