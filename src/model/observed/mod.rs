//! Observed like traffic: a trace read from the contents of one or more
//! files, and its fit ([`TraceFit`]).
//!
//! Three formats, told apart by their content, not by a file name:
//! - CSV `time,count` ([`csv`]): a count of likes per period;
//! - CloudWatch `get-metric-data` output ([`cloudwatch`]): per-period Sums;
//! - a Prometheus `query_range` response ([`prometheus`]): per-second rates,
//!   as `rate()` returns them.
//!
//! Every format then follows the same series rules ([`series`]): the times
//! run one way, appear once, and every step is a whole number of periods,
//! the period being the smallest step. A longer step is a gap: reported,
//! never filled (a missing period is not a quiet one: CloudWatch leaves out
//! periods without data, a scrape can fail), never dropped silently.
//!
//! Nothing here reads files: [`parse`] takes their contents, and a
//! [`TraceError`] names the document by its index so the shell can name the
//! file.

pub mod cloudwatch;
pub mod csv;
mod error;
pub mod fields;
pub mod fit;
pub mod prometheus;
pub mod series;

#[cfg(test)]
mod tests;

use std::fmt;

use serde::de::IgnoredAny;
use serde::{Deserialize, Serialize};

pub use error::{Group, JsonKind, Place, Row, TraceError, TraceProblem};
pub use fit::TraceFit;

pub use crate::model::defaults::MAX_ROWS;

/// The format of a trace's documents.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TraceFormat {
    /// CSV `time,count`: likes per period.
    Csv,
    /// CloudWatch `get-metric-data` output: per-period Sums.
    CloudWatch,
    /// A Prometheus `query_range` response: per-second rates.
    Prometheus,
}

impl fmt::Display for TraceFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TraceFormat::Csv => "CSV",
            TraceFormat::CloudWatch => "CloudWatch",
            TraceFormat::Prometheus => "Prometheus",
        })
    }
}

/// Missing periods between two points of a trace.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Gap {
    /// The time of the last point before the gap, Unix seconds.
    pub after: i64,
    /// How many whole periods are missing (1 or more).
    pub missing_periods: u64,
}

/// A trace of observed likes, ascending in time, one value per period.
///
/// Built by [`parse`], which checks every rule in [`series`]; the fields
/// are public to read, and a trace assembled by hand skips those checks.
#[derive(Debug, Clone, PartialEq)]
pub struct ObservedTrace {
    /// The documents' format.
    pub format: TraceFormat,
    /// The period: the smallest step between two times, seconds.
    pub period_seconds: u64,
    /// The time of the first point with a value, Unix seconds.
    pub start: i64,
    /// The time of every point with a value, ascending, Unix seconds.
    pub times: Vec<i64>,
    /// The rate in each period, likes/s: the count over the period for CSV
    /// and CloudWatch, the value itself for Prometheus (already a rate).
    pub per_second: Vec<f64>,
    /// Missing periods between points, in time order.
    pub gaps: Vec<Gap>,
    /// Prometheus only: periods before the first point with a value whose
    /// points had none (NaN, or a series without the timestamp); they are
    /// outside the trace, so not in `gaps`. 0 for the other formats.
    pub missing_at_start: u64,
    /// Prometheus only: the same after the last point with a value.
    pub missing_at_end: u64,
    /// Prometheus: how many series were added; 1 for the other formats.
    pub series_summed: usize,
    /// The input ran newest first: every document (CloudWatch page,
    /// Prometheus series) with two or more points did.
    pub descending_input: bool,
    /// CloudWatch: the last page's chosen result has a `StatusCode` other
    /// than `Complete` (e.g. `PartialData`: more pages exist). A result
    /// without a `StatusCode` counts as complete.
    pub partial: bool,
    /// CloudWatch: the `Id` of the result read.
    pub metric_id: Option<String>,
}

/// Reads a trace from the contents of one or more documents (files), all
/// of one format, detected from the content ([`detect_format`]).
///
/// Several documents are joined: CSV files and CloudWatch pages alike are
/// concatenated, then ordered, and a time present in two of them is a
/// duplicate (an error). A CloudWatch document may also hold several pages
/// back to back. A Prometheus response is one document: several are
/// refused, as its series are already summed.
///
/// `metric_id` chooses a CloudWatch result by its `Id`, needed when the
/// output holds several; it is an error for the other formats, where it
/// would have no effect.
pub fn parse(documents: &[&str], metric_id: Option<&str>) -> Result<ObservedTrace, TraceError> {
    if documents.is_empty() {
        return Err(TraceError::in_document(0, TraceProblem::Empty));
    }
    let format = detect_format(documents[0]).map_err(|p| TraceError::in_document(0, p))?;
    for (d, text) in documents.iter().enumerate().skip(1) {
        let found = detect_format(text).map_err(|p| TraceError::in_document(d, p))?;
        if found != format {
            let problem = TraceProblem::MixedFormats {
                first: format,
                found,
            };
            return Err(TraceError::in_document(d, problem));
        }
    }
    if metric_id.is_some() && format != TraceFormat::CloudWatch {
        let problem = TraceProblem::MetricIdNotApplicable { format };
        return Err(TraceError::in_document(0, problem));
    }
    let mut rows = 0;
    let mut partial = false;
    let mut chosen_id = None;
    let mut series_summed = 1;
    let mut series_descending = false;
    // Per-period totals (CSV, CloudWatch) are divided by the period once it
    // is known; Prometheus values are rates already.
    let totals = format != TraceFormat::Prometheus;
    let segments = match format {
        TraceFormat::Csv => documents
            .iter()
            .enumerate()
            .map(|(d, text)| csv::read(text, d, &mut rows))
            .collect::<Result<Vec<_>, _>>()?,
        TraceFormat::CloudWatch => {
            let read = cloudwatch::read(documents, metric_id, &mut rows)?;
            partial = read.partial;
            chosen_id = Some(read.id);
            read.segments
        }
        TraceFormat::Prometheus => {
            if documents.len() > 1 {
                let problem = TraceProblem::SeveralPrometheusDocuments {
                    count: documents.len(),
                };
                return Err(TraceError::in_document(1, problem));
            }
            let read = prometheus::read(documents[0], 0, &mut rows)?;
            series_summed = read.series;
            series_descending = read.descending;
            vec![read.segment]
        }
    };
    let (joined, descending) = series::join(segments)?;
    // A sum of Prometheus series is ordered before it is joined: its own
    // direction is that of the series.
    let descending_input = descending || series_descending;
    let grid = series::grid(joined)?;
    let mut per_second = grid.values;
    if totals {
        let period = grid.period as f64;
        per_second.iter_mut().for_each(|v| *v /= period);
    }
    Ok(ObservedTrace {
        format,
        period_seconds: grid.period,
        start: grid.times[0],
        times: grid.times,
        per_second,
        gaps: grid.gaps,
        missing_at_start: grid.missing_at_start,
        missing_at_end: grid.missing_at_end,
        series_summed,
        descending_input,
        partial,
        metric_id: chosen_id,
    })
}

/// The format of one document, from its content: JSON with
/// `MetricDataResults` is CloudWatch, JSON with `status` or `data` is
/// Prometheus, other JSON is refused, and anything else is read as CSV.
/// JSON that does not parse is told by the keys it holds, so that the error
/// names the format it was meant to be.
pub fn detect_format(text: &str) -> Result<TraceFormat, TraceProblem> {
    let body = text.trim_start_matches('\u{feff}').trim_start();
    if body.is_empty() {
        return Err(TraceProblem::Empty);
    }
    if !body.starts_with(['{', '[']) {
        return Ok(TraceFormat::Csv);
    }
    // Only the keys are looked at; the values are skipped unparsed, and
    // only the first of several concatenated documents is read.
    #[derive(Deserialize)]
    struct Probe {
        #[serde(rename = "MetricDataResults")]
        metric_data_results: Option<IgnoredAny>,
        status: Option<IgnoredAny>,
        data: Option<IgnoredAny>,
    }
    let probe = serde_json::Deserializer::from_str(body)
        .into_iter::<Probe>()
        .next()
        .expect("a non-empty text holds a value or an error");
    match probe {
        Ok(p) if p.metric_data_results.is_some() => Ok(TraceFormat::CloudWatch),
        Ok(p) if p.status.is_some() || p.data.is_some() => Ok(TraceFormat::Prometheus),
        Ok(_) => Err(TraceProblem::UnknownJson),
        // An array, or a document of another shape.
        Err(e) if e.is_data() => Err(TraceProblem::UnknownJson),
        // Broken JSON (cut short, a stray comma): if its keys say which
        // format it meant, that format's reader names the fault.
        Err(_) if body.contains("\"MetricDataResults\"") => Ok(TraceFormat::CloudWatch),
        Err(_) if body.contains("\"resultType\"") => Ok(TraceFormat::Prometheus),
        Err(e) => Err(TraceProblem::Json {
            format: JsonKind::Json,
            message: e.to_string(),
        }),
    }
}
