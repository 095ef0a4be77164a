//! The "Strategies" table: one row a design, its columns chosen by
//! `--wide`; without it the verdicts get a table of their own. The
//! chances print from their logarithms where they underflow f64.

use super::words::verdict;
use crate::model::compare::strategies::StrategyRow;
use crate::model::probability::Probability;
use crate::output::fmt::{self, num, run_length, Underflow};
use crate::output::Section;

/// How one column of the strategies table draws a row's cell.
type Cell<'a> = Box<dyn Fn(&StrategyRow) -> String + 'a>;

/// One column: its header, whether the compact table keeps it, its cell.
type Column<'a> = (String, bool, Cell<'a>);

/// A chance with its log: printed from the log (starred) where it
/// underflows; "n/a" where the design has none.
fn chance(p: Option<f64>, ln: Option<f64>) -> String {
    match (p, ln) {
        (Some(p), Some(ln)) => fmt::probability(Probability::new(p, ln), Underflow::Starred),
        (Some(p), None) => fmt::prob(p),
        (None, _) => "n/a".to_string(),
    }
}

/// Whether a chance is below f64's range (printed from its log).
fn underflows(p: Option<f64>, ln: Option<f64>) -> bool {
    matches!((p, ln), (Some(p), Some(ln)) if Probability::new(p, ln).underflows())
}

/// The design, its keys and the writes each key takes.
fn design_columns<'a>() -> Vec<Column<'a>> {
    vec![
        (
            "strategy".into(),
            true,
            Box::new(|r| r.row.strategy.clone()),
        ),
        (
            "keys".into(),
            true,
            Box::new(|r| r.keys.map_or(String::new(), fmt::count)),
        ),
        (
            "writes/key/s".into(),
            true,
            Box::new(|r| fmt::rate(r.row.writes_per_key_per_second)),
        ),
    ]
}

/// The over-cap chances: per second (wide only) and over the run.
fn over_cap_columns<'a>(duration_seconds: f64) -> Vec<Column<'a>> {
    vec![
        (
            "P(second over cap)".into(),
            false,
            Box::new(|r| {
                chance(
                    r.row.key_p_over_cap_per_second,
                    r.key_ln_p_over_cap_per_second,
                )
            }),
        ),
        (
            format!("P(any over, {})", run_length(duration_seconds)),
            true,
            Box::new(|r| chance(r.row.key_p_any_over_cap, r.key_ln_p_any_over_cap)),
        ),
    ]
}

/// The read cost: cached reads, with the uncached beside them when wide.
fn reads_column<'a>(wide: bool) -> Column<'a> {
    let header = match wide {
        true => "reads/s cached (uncached)",
        false => "reads/s cached",
    };
    let cell: Cell = Box::new(move |r| match (wide, r.reads_uncached_per_second) {
        (true, Some(u)) => format!("{} ({})", num(r.row.reads_per_second), num(u)),
        _ => num(r.row.reads_per_second),
    });
    (header.into(), true, cell)
}

/// What the design costs in freshness and exactness, and its verdict
/// (wide only: the compact table gives the verdicts a table of their own,
/// where the sentences have the width to read).
fn consequence_columns<'a>() -> Vec<Column<'a>> {
    vec![
        (
            "lag s".into(),
            false,
            Box::new(|r| num(r.row.freshness_lag_seconds)),
        ),
        (
            "crash loss".into(),
            false,
            Box::new(|r| num(r.row.crash_loss_likes)),
        ),
        (
            "double count".into(),
            false,
            Box::new(|r| num(r.row.double_count_likes)),
        ),
        (
            "verdict".into(),
            false,
            Box::new(|r| verdict(&r.row.verdict)),
        ),
    ]
}

/// The table: every column, in order, or with the compact (80-column
/// terminal) default those it keeps.
pub(super) fn section(rows: &[StrategyRow], wide: bool, duration_seconds: f64) -> Section {
    let mut columns = design_columns();
    columns.extend(over_cap_columns(duration_seconds));
    columns.push(reads_column(wide));
    columns.extend(consequence_columns());
    let shown: Vec<_> = columns
        .iter()
        .filter(|(_, compact, _)| wide || *compact)
        .collect();
    Section::Grid {
        title: "Strategies".into(),
        header: shown.iter().map(|(h, _, _)| h.clone()).collect(),
        rows: rows
            .iter()
            .map(|r| shown.iter().map(|(_, _, cell)| cell(r)).collect())
            .collect(),
        secondary: Vec::new(),
    }
}

/// The compact table's verdicts, a row each, and what `--wide` adds.
pub(super) fn verdicts_and_wide_note(rows: &[StrategyRow]) -> [Section; 2] {
    let verdicts = rows
        .iter()
        .map(|r| (r.row.strategy.as_str(), verdict(&r.row.verdict)))
        .collect();
    [
        Section::pairs("Verdicts", verdicts),
        Section::Note(
            "--wide adds P(second over cap), uncached reads, lag, crash loss and double \
             count (CSV and JSON carry them always)."
                .into(),
        ),
    ]
}

/// The note on a starred chance, when a shown one underflows.
pub(super) fn underflow_note(rows: &[StrategyRow], wide: bool) -> Option<Section> {
    let underflow = rows.iter().any(|r| {
        (wide
            && underflows(
                r.row.key_p_over_cap_per_second,
                r.key_ln_p_over_cap_per_second,
            ))
            || underflows(r.row.key_p_any_over_cap, r.key_ln_p_any_over_cap)
    });
    underflow.then(|| {
        Section::Note(
            "* below f64's range, printed from its logarithm (JSON: the ln_ fields)".into(),
        )
    })
}
