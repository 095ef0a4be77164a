//! A Prometheus `query_range` response (`/api/v1/query_range`):
//!
//! ```json
//! {"status": "success", "data": {"resultType": "matrix", "result": [
//!   {"metric": {"__name__": "likes_total", "job": "likes"},
//!    "values": [[1764525600, "12.5"], [1764525615, "NaN"]]}]}}
//! ```
//!
//! - Each value is a per-second rate, as `rate()` returns it: taken as is,
//!   not divided by the step. The period is the query's step, detected from
//!   the times like any other input's.
//! - `status` must be `success` and `resultType` `matrix` (an instant query
//!   returns a `vector`: refused, naming `query_range`).
//! - `NaN`, `+Inf` and `-Inf` values are gaps: reported, not filled.
//! - Several series are summed time by time (a query without `sum()` over
//!   several likes servers). A time at which any series lacks a value, or
//!   has NaN or Inf, is a gap for the sum: a sum with a term missing would
//!   understate the traffic, and silently.
//!
//! Fields not named here (`warnings`, `infos`, `stats`, labels) are
//! ignored.

use serde::Deserialize;

use super::fields::{count_rows, time_from_seconds};
use super::series::{ordered_rows, OrderedSeries, Rows, Segment};
use super::{Group, JsonKind, Row, TraceError, TraceProblem};
use crate::error::shorten;

/// The envelope, read first: an error response has no `result` to read.
#[derive(Deserialize)]
struct Head {
    status: String,
    #[serde(rename = "errorType", default)]
    error_type: Option<String>,
    #[serde(default)]
    error: Option<String>,
    #[serde(default)]
    data: Option<HeadData>,
}

#[derive(Deserialize)]
struct HeadData {
    #[serde(rename = "resultType", default)]
    result_type: Option<String>,
    // `result` is not read here: its shape depends on resultType.
}

/// A successful matrix response.
#[derive(Deserialize)]
struct Response {
    data: Data,
}

#[derive(Deserialize)]
struct Data {
    result: Vec<Series>,
}

#[derive(Deserialize)]
struct Series {
    /// `[time, "value"]`: Unix seconds as a JSON number, the value as a
    /// string (so that NaN and Inf can be written).
    #[serde(default)]
    values: Vec<(f64, String)>,
}

/// The summed series.
pub(super) struct Read {
    /// The sum, oldest first; NaN where it has a gap.
    pub segment: Segment,
    /// How many series were added.
    pub series: usize,
    /// Every series with two or more points ran newest first.
    pub descending: bool,
}

/// Reads one response (the `document`-th) and sums its series.
pub(super) fn read(text: &str, document: usize, rows: &mut usize) -> Result<Read, TraceError> {
    let text = text.trim_start_matches('\u{feff}');
    let json = |e: serde_json::Error| {
        let problem = TraceProblem::Json {
            format: JsonKind::Prometheus,
            message: e.to_string(),
        };
        TraceError::in_document(document, problem)
    };
    let head: Head = serde_json::from_str(text).map_err(json)?;
    if head.status != "success" {
        let error = [head.error_type, head.error]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(": ");
        let problem = TraceProblem::PrometheusStatus {
            status: shorten(&head.status),
            error: shorten(&error),
        };
        return Err(TraceError::in_document(document, problem));
    }
    let result_type = head.data.and_then(|d| d.result_type).unwrap_or_default();
    if result_type != "matrix" {
        let problem = TraceProblem::PrometheusResultType {
            found: shorten(&result_type),
        };
        return Err(TraceError::in_document(document, problem));
    }
    let response: Response = serde_json::from_str(text).map_err(json)?;
    let series = response.data.result;
    let several = series.len() > 1;
    let mut ordered = Vec::with_capacity(series.len());
    let (mut newest_first, mut oldest_first) = (false, false);
    for (k, s) in series.into_iter().enumerate() {
        let group = several.then_some(Group::Series(k + 1));
        let segment = segment(s, document, group, rows)?;
        if !several {
            return Ok(Read {
                segment,
                series: 1,
                descending: false,
            });
        }
        let o = ordered_rows(segment)?;
        newest_first |= o.direction == Some(true);
        oldest_first |= o.direction == Some(false);
        ordered.push(o);
    }
    let count = ordered.len();
    Ok(Read {
        segment: sum(ordered, document),
        series: count,
        descending: newest_first && !oldest_first,
    })
}

/// One series' points in response order; NaN for a gap.
fn segment(
    series: Series,
    document: usize,
    group: Option<Group>,
    rows: &mut usize,
) -> Result<Segment, TraceError> {
    count_rows(rows, series.values.len()).map_err(|p| TraceError::in_document(document, p))?;
    let mut times = Vec::with_capacity(series.values.len());
    let mut values = Vec::with_capacity(series.values.len());
    for (i, (t, v)) in series.values.into_iter().enumerate() {
        let at = |p| {
            TraceError::at(
                document,
                Row::Point {
                    group,
                    index: i + 1,
                },
                p,
            )
        };
        times.push(time_from_seconds(t, || t.to_string()).map_err(at)?);
        values.push(parse_rate(&v).map_err(at)?);
    }
    Ok(Segment {
        document,
        times,
        values,
        rows: Rows::Points(group),
    })
}

/// A value: a rate >= 0, or NaN for a gap (`NaN`, `+Inf`, `-Inf`: no rate
/// was computed, or it is meaningless).
fn parse_rate(text: &str) -> Result<f64, TraceProblem> {
    match text.parse::<f64>() {
        Ok(v) if !v.is_finite() => Ok(f64::NAN),
        Ok(v) if v < 0.0 => Err(TraceProblem::NegativeRate {
            text: shorten(text),
        }),
        Ok(v) => Ok(v + 0.0),
        Err(_) => Err(TraceProblem::NonNumericRate {
            text: shorten(text),
        }),
    }
}

/// The sum of ordered series at every time any of them has: NaN where one
/// lacks the time or has no value there. Each point's row is that of the
/// first series holding the time.
fn sum(series: Vec<OrderedSeries>, document: usize) -> Segment {
    let n = series.len();
    // (time, series, position): sorted, a time's points are together, the
    // series in order. Prometheus caps a response at 11,000 points a
    // series, so a sort is cheap.
    let mut all: Vec<(i64, usize, usize)> = series
        .iter()
        .enumerate()
        .flat_map(|(k, s)| s.times.iter().enumerate().map(move |(i, &t)| (t, k, i)))
        .collect();
    all.sort_unstable();
    let (mut times, mut values, mut rows) = (Vec::new(), Vec::new(), Vec::new());
    for group in all.chunk_by(|a, b| a.0 == b.0) {
        let (t, k, i) = group[0];
        // Each series holds a time at most once (ordered_rows refused
        // duplicates), so a full group has one point from every series.
        let total = if group.len() == n {
            group.iter().map(|&(_, k, i)| series[k].values[i]).sum()
        } else {
            f64::NAN
        };
        times.push(t);
        values.push(total);
        rows.push(series[k].rows[i]);
    }
    Segment {
        document,
        times,
        values,
        rows: Rows::Each(rows),
    }
}
