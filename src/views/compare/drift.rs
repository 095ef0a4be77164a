//! The drift of a live count: retried increments that had been applied
//! count twice, failed ones are missing, per hour at the rate; and the
//! note on what corrects it.

use crate::model::compare::exactly_once::Drift;
use crate::model::compare::strategies::StrategyRow;
use crate::output::fmt::{self, num};
use crate::output::Section;

/// The table, a row for each design that drifts.
pub(super) fn section(rows: &[StrategyRow], rate: f64, d: &Drift) -> Section {
    let drift_rows = rows
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
    Section::Grid {
        title: format!(
            "Drift per hour at {} likes/s (timeouts {}, {} of them applied, up to {} retries)",
            fmt::rate(rate),
            fmt::percent(d.timeout_rate),
            fmt::percent(d.applied_share),
            d.retries
        ),
        header: ["strategy", "overcount/h", "undercount/h", "net drift/h"]
            .iter()
            .map(|h| h.to_string())
            .collect(),
        rows: drift_rows,
        secondary: Vec::new(),
    }
}

/// Why increments drift and what corrects them.
pub(super) fn reconciliation_note() -> Section {
    Section::Note(
        "Increments are not idempotent: a retried increment that had been applied counts \
         twice, a like whose every attempt failed is missing. The nightly reconciliation \
         (counting the like rows) corrects the drift; transactions and the log's totals do \
         not drift."
            .into(),
    )
}
