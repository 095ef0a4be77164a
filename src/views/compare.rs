//! `compare`'s tables and machine rows: the model's rows with their
//! verdicts and count errors in words ([`words`]). One file a section: the
//! inputs compared ([`inputs`]), the strategies table and the compact
//! table's verdicts ([`strategies`]), exactness and memory ([`exactness`]),
//! the drift ([`drift`]) and the transactions' conflicts ([`transactions`]).

mod drift;
mod exactness;
mod inputs;
pub(crate) mod pickers;
mod strategies;
mod transactions;
pub mod words;

use serde_json::Value;

use crate::model::compare::strategies::{Comparison, StrategyRow};
use crate::model::recommendation::Recommendation;
use crate::output::{row, Report, Section};

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
    /// The pickers side by side, simulated from `picker_seed`.
    pub pickers: Vec<crate::model::picker::table::PickerRow>,
    /// The seed of the pickers' simulations.
    pub picker_seed: u64,
    /// Every column in the table and Markdown (`--wide`); the compact
    /// default leaves out the per-second chance, uncached reads, lag, crash
    /// loss and double count. CSV, TSV and JSON always carry every field.
    pub wide: bool,
    /// `--measure FILE`: what a measurement lost, quoted beside the
    /// designs.
    pub measured: Option<crate::measure::MeasuredLoss>,
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

impl CompareReport {
    /// The first line: the plan's verdict on the sharded rows' count.
    fn sharded_verdict(&self) -> Section {
        Section::verdict(
            format!(
                "Sharded rows: {}; the rows' chances are per key.",
                super::verdict::line(&self.verdict)
            ),
            !self.verdict.holds,
        )
    }
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
            "pickers": self.pickers.iter().map(row).collect::<Vec<_>>(),
            "measured": self.measured.as_ref().map(row),
        })
    }

    fn sections(&self) -> Vec<Section> {
        let c = &self.comparison;
        let i = &c.inputs;
        let mut sections = vec![
            self.sharded_verdict(),
            inputs::section(&self.scenario, i),
            strategies::section(&c.rows, self.wide, i.duration_seconds),
        ];
        if let Some(m) = &self.measured {
            sections.extend(super::durability::measured_loss(m));
        }
        sections.extend(pickers::section(&self.pickers, self.picker_seed));
        if !self.wide {
            sections.extend(strategies::verdicts_and_wide_note(&c.rows));
        }
        sections.push(exactness::section(&c.rows));
        sections.extend(super::price::compare_cost_sections(&c.rows));
        sections.push(drift::section(&c.rows, i.rate, &c.drift));
        sections.extend(strategies::underflow_note(&c.rows, self.wide));
        sections.push(drift::reconciliation_note());
        if let Some(t) = &c.transactional {
            sections.push(transactions::section(t, i));
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
            key_p_over_cap_per_second: None,
            key_p_any_over_cap: None,
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
