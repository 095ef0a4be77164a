//! Tests of the observed-trace parsers, the series rules and the fit. The
//! documents are written by hand from the formats' documentation.

mod cloudwatch;
mod csv;
mod fit;
mod prometheus;
mod series;

use super::*;

/// 2026-11-30T18:00:00Z, Unix seconds.
const T0: i64 = 1_796_061_600;

/// One document's trace.
fn one(text: &str) -> ObservedTrace {
    parse(&[text], None).unwrap_or_else(|e| panic!("{e}"))
}

/// The error one document gives.
fn one_err(text: &str) -> TraceError {
    match parse(&[text], None) {
        Ok(t) => panic!("accepted: {t:?}"),
        Err(e) => e,
    }
}

/// The error several documents give.
fn err(documents: &[&str], metric_id: Option<&str>) -> TraceError {
    match parse(documents, metric_id) {
        Ok(t) => panic!("accepted: {t:?}"),
        Err(e) => e,
    }
}

/// A CSV line's row.
fn line(n: usize) -> Option<Row> {
    Some(Row::Line(n))
}

/// A JSON point's row, without a page or series.
fn point(index: usize) -> Option<Row> {
    Some(Row::Point { group: None, index })
}
