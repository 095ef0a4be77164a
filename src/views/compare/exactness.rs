//! The "Exactness and memory" table: whether each design's count is
//! exact, why not (its count error in words), the memory it takes and the
//! store reads a sum costs.

use super::words::count_error;
use crate::model::compare::strategies::StrategyRow;
use crate::output::fmt;
use crate::output::Section;

/// One design's row: exact or not, its error, memory and reads per sum.
fn exactness_row(r: &StrategyRow) -> Vec<String> {
    let x = &r.row;
    vec![
        x.strategy.clone(),
        if x.exact { "exact" } else { "approximate" }.to_string(),
        x.error.as_ref().map_or_else(|| "none".into(), count_error),
        x.memory_bytes
            .map(|b| format!("{} bytes", fmt::num(b.round())))
            .unwrap_or_else(|| "-".into()),
        fmt::num(x.reads_per_view),
    ]
}

/// The table, a row a design.
pub(super) fn section(rows: &[StrategyRow]) -> Section {
    Section::Grid {
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
        rows: rows.iter().map(exactness_row).collect(),
        secondary: Vec::new(),
    }
}
