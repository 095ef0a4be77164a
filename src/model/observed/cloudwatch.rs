//! CloudWatch `aws cloudwatch get-metric-data` output:
//!
//! ```json
//! {"MetricDataResults": [{"Id": "m1", "Label": "ConsumedWriteCapacityUnits",
//!   "Timestamps": ["2026-11-30T18:05:00+00:00", "2026-11-30T18:04:00+00:00"],
//!   "Values": [120.0, 118.0], "StatusCode": "Complete"}],
//!  "NextToken": "...", "Messages": []}
//! ```
//!
//! - Each value is the Sum over its period (the query's statistic must be
//!   `Sum` for a count of likes; the output does not say which it was).
//! - Times are RFC 3339 strings, or Unix seconds as numbers. CloudWatch
//!   returns newest first by default (`ScanBy` `TimestampDescending`);
//!   either direction is accepted, each page one way.
//! - Several results: `metric_id` chooses one by its `Id`; without it, only
//!   output with one `Id` is accepted.
//! - Paged output is joined: the documents given, and the pages a document
//!   holds back to back, are concatenated per `Id`, then ordered; a time in
//!   two pages is a duplicate.
//! - `partial` records a `StatusCode` other than `Complete` on the last
//!   page (the last document's last page, in the order given).
//! - CloudWatch leaves out periods with no data: such a period is a gap in
//!   the trace, not a zero.
//!
//! Fields not named here are ignored: the format is AWS's, and grows.

use std::fmt;

use serde::de::{self, Deserializer, Visitor};
use serde::Deserialize;

use super::fields::{check_count, count_rows, parse_time, time_from_seconds};
use super::series::{Rows, Segment};
use super::{Group, JsonKind, Row, TraceError, TraceProblem};

/// One page of output.
#[derive(Deserialize)]
struct Page {
    #[serde(rename = "MetricDataResults")]
    results: Vec<MetricResult>,
}

/// One query's result in a page.
#[derive(Deserialize)]
struct MetricResult {
    #[serde(rename = "Id")]
    id: String,
    #[serde(rename = "Timestamps", default)]
    timestamps: Vec<Stamp>,
    #[serde(rename = "Values", default)]
    values: Vec<f64>,
    #[serde(rename = "StatusCode", default)]
    status_code: Option<String>,
}

/// A timestamp, read as it is deserialized: the problem is kept, not
/// raised, so that the error can name the point's index.
struct Stamp(Result<i64, TraceProblem>);

impl<'de> Deserialize<'de> for Stamp {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct StampVisitor;
        impl Visitor<'_> for StampVisitor {
            type Value = Stamp;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an RFC 3339 time string or Unix seconds")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Stamp, E> {
                Ok(Stamp(parse_time(v)))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Stamp, E> {
                Ok(Stamp(time_from_seconds(v as f64, || v.to_string())))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Stamp, E> {
                Ok(Stamp(time_from_seconds(v as f64, || v.to_string())))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Stamp, E> {
                Ok(Stamp(time_from_seconds(v, || v.to_string())))
            }
        }
        d.deserialize_any(StampVisitor)
    }
}

/// The chosen metric's points, one segment per page.
pub(super) struct Read {
    /// One segment per page holding the chosen `Id`.
    pub segments: Vec<Segment>,
    /// The last page's `StatusCode` is not `Complete`.
    pub partial: bool,
    /// The chosen `Id`.
    pub id: String,
}

/// Reads every document's pages and keeps the result with `metric_id`
/// (or the only `Id` there is).
pub(super) fn read(
    documents: &[&str],
    metric_id: Option<&str>,
    rows: &mut usize,
) -> Result<Read, TraceError> {
    // (document, page within it when it holds several, page)
    let mut pages: Vec<(usize, Option<usize>, Page)> = Vec::new();
    for (d, text) in documents.iter().enumerate() {
        let text = text.trim_start_matches('\u{feff}');
        let read: Vec<Page> = serde_json::Deserializer::from_str(text)
            .into_iter::<Page>()
            .collect::<Result<_, _>>()
            .map_err(|e| {
                let problem = TraceProblem::Json {
                    format: JsonKind::CloudWatch,
                    message: e.to_string(),
                };
                TraceError::in_document(d, problem)
            })?;
        let several = read.len() > 1;
        for (k, page) in read.into_iter().enumerate() {
            pages.push((d, several.then_some(k + 1), page));
        }
    }
    let id = match metric_id {
        Some(id) => id.to_string(),
        None => only_id(&pages)?,
    };
    let mut segments = Vec::new();
    let mut partial = false;
    for (d, page_no, page) in pages {
        let ids: Vec<String> = page.results.iter().map(|r| r.id.clone()).collect();
        let mut found = false;
        for result in page.results.into_iter().filter(|r| r.id == id) {
            found = true;
            // Overwritten page by page: the last page's status stays.
            partial = result
                .status_code
                .as_deref()
                .is_some_and(|s| s != "Complete");
            segments.push(segment(result, d, page_no, rows)?);
        }
        if !found {
            let problem = TraceProblem::NoSuchMetric {
                id: id.clone(),
                ids,
            };
            return Err(TraceError::in_document(d, problem));
        }
    }
    Ok(Read {
        segments,
        partial,
        id,
    })
}

/// The one `Id` in the output; several are refused, listing them.
fn only_id(pages: &[(usize, Option<usize>, Page)]) -> Result<String, TraceError> {
    let mut ids: Vec<&str> = Vec::new();
    for (_, _, page) in pages {
        for r in &page.results {
            if !ids.contains(&r.id.as_str()) {
                ids.push(&r.id);
            }
        }
    }
    match ids[..] {
        [] => Err(TraceError::in_document(0, TraceProblem::Empty)),
        [id] => Ok(id.to_string()),
        _ => {
            let ids = ids.into_iter().map(String::from).collect();
            Err(TraceError::in_document(
                0,
                TraceProblem::SeveralMetrics { ids },
            ))
        }
    }
}

/// One result's points, in page order.
fn segment(
    result: MetricResult,
    document: usize,
    page: Option<usize>,
    rows: &mut usize,
) -> Result<Segment, TraceError> {
    let n = result.timestamps.len();
    if result.values.len() != n {
        let problem = TraceProblem::LengthMismatch {
            page,
            timestamps: n,
            values: result.values.len(),
        };
        return Err(TraceError::in_document(document, problem));
    }
    count_rows(rows, n).map_err(|p| TraceError::in_document(document, p))?;
    let group = page.map(Group::Page);
    let at = |i: usize| Row::Point {
        group,
        index: i + 1,
    };
    let times = result
        .timestamps
        .into_iter()
        .enumerate()
        .map(|(i, s)| s.0.map_err(|p| TraceError::at(document, at(i), p)))
        .collect::<Result<Vec<_>, _>>()?;
    let values = result
        .values
        .into_iter()
        .enumerate()
        .map(|(i, v)| {
            check_count(v, || v.to_string()).map_err(|p| TraceError::at(document, at(i), p))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Segment {
        document,
        times,
        values,
        rows: Rows::Points(group),
    })
}
