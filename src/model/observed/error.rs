//! What can be wrong with an observed trace, and where: a typed problem, the
//! document it is in and, when it is about one point, that point's row.
//! Every message says what is wrong and what is accepted, on one line; the
//! shell puts the file's name in front.

use std::fmt;

use super::TraceFormat;

/// A trace that cannot be read.
///
/// Displays as `line 17: count -3 is negative; counts must be finite
/// numbers >= 0` (the row, when there is one, then the problem).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{}{problem}", RowPrefix(.row))]
pub struct TraceError {
    /// The document the problem is in: 0-based, in the order given to
    /// [`parse`](super::parse) (the shell names its file).
    pub document: usize,
    /// The point the problem is about, when it is about one.
    pub row: Option<Row>,
    /// What is wrong.
    pub problem: TraceProblem,
}

impl TraceError {
    /// A problem with one point of `document`.
    pub fn at(document: usize, row: Row, problem: TraceProblem) -> Self {
        TraceError {
            document,
            row: Some(row),
            problem,
        }
    }

    /// A problem with `document` as a whole.
    pub fn in_document(document: usize, problem: TraceProblem) -> Self {
        TraceError {
            document,
            row: None,
            problem,
        }
    }
}

/// `row: ` before the problem, or nothing.
struct RowPrefix<'a>(&'a Option<Row>);

impl fmt::Display for RowPrefix<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(row) => write!(f, "{row}: "),
            None => Ok(()),
        }
    }
}

/// Where one point is within its document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Row {
    /// CSV: the 1-based line number (a header and blank lines count).
    Line(usize),
    /// JSON: the point's 1-based index in its array (CloudWatch's
    /// `Timestamps`/`Values`, a Prometheus series' `values`).
    Point {
        /// The page or series holding the array, when the document holds
        /// more than one.
        group: Option<Group>,
        /// The 1-based index in the array.
        index: usize,
    },
}

/// A page or series within one JSON document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Group {
    /// A CloudWatch page (1-based) among several documents concatenated in
    /// one text, as a loop over `NextToken` appending to one file makes.
    Page(usize),
    /// A Prometheus series (1-based) in `data.result`.
    Series(usize),
}

impl fmt::Display for Row {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Row::Line(line) => write!(f, "line {line}"),
            Row::Point { group: None, index } => write!(f, "point {index}"),
            Row::Point {
                group: Some(Group::Page(page)),
                index,
            } => write!(f, "page {page}, point {index}"),
            Row::Point {
                group: Some(Group::Series(series)),
                index,
            } => write!(f, "series {series}, point {index}"),
        }
    }
}

/// A point somewhere in the input: the other half of a duplicate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Place {
    /// The document (0-based, in the order given).
    pub document: usize,
    /// The point's row in it.
    pub row: Row,
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Messages count documents from 1, in the order given.
        write!(f, "{} of input {}", self.row, self.document + 1)
    }
}

/// What is wrong with a trace, and what is accepted.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TraceProblem {
    /// No data points at all.
    #[error("no data points; a trace needs at least two")]
    Empty,
    /// One point with a value: no step, so no period.
    #[error(
        "only one data point with a value (time {time}); a trace needs at least two, \
         as the period is the smallest step between their times"
    )]
    OnePoint {
        /// Its time, Unix seconds.
        time: i64,
    },
    /// More points than [`MAX_ROWS`](super::MAX_ROWS).
    #[error("more than {limit} data points; aggregate to a coarser period or cut the trace")]
    TooManyRows {
        /// The limit.
        limit: usize,
    },
    /// A CSV line with other than two fields.
    #[error("{found} fields; each line must be `time,count`")]
    Fields {
        /// How many fields the line has.
        found: usize,
    },
    /// A first line that is neither data nor the `time,count` header.
    #[error("header `{found}` is not `time,count`; the header is optional, in any case")]
    Header {
        /// The line, shortened.
        found: String,
    },
    /// A time that is neither Unix seconds nor RFC 3339.
    #[error(
        "time `{text}` is neither Unix seconds nor RFC 3339; \
         write 1764525600 or 2026-11-30T18:00:00Z (or +01:00)"
    )]
    BadTime {
        /// The time as written, shortened.
        text: String,
    },
    /// A time between two whole seconds.
    #[error("time `{text}` is not a whole second; times must fall on whole seconds")]
    FractionalTime {
        /// The time as written, shortened.
        text: String,
    },
    /// A time outside the years 1 to 9999.
    #[error("time `{text}` is outside the years 1 to 9999")]
    TimeOutOfRange {
        /// The time as written, shortened.
        text: String,
    },
    /// A count that does not parse as a number.
    #[error("count `{text}` is not a number; counts must be finite numbers >= 0")]
    NonNumericCount {
        /// The count as written, shortened.
        text: String,
    },
    /// A negative count.
    #[error("count {text} is negative; counts must be finite numbers >= 0")]
    NegativeCount {
        /// The count as written, shortened.
        text: String,
    },
    /// A NaN or infinite count.
    #[error("count {text} is not finite; counts must be finite numbers >= 0")]
    NotFiniteCount {
        /// The count as written, shortened.
        text: String,
    },
    /// A Prometheus value that does not parse as a number.
    #[error("value `{text}` is not a number; values must be rates >= 0, or NaN or Inf for a gap")]
    NonNumericRate {
        /// The value as written, shortened.
        text: String,
    },
    /// A negative Prometheus value.
    #[error("value {text} is negative; values must be rates >= 0, or NaN or Inf for a gap")]
    NegativeRate {
        /// The value as written, shortened.
        text: String,
    },
    /// A time against the direction the first two points set.
    #[error(
        "time {time} comes after {previous}, but the times run {} from the first two points; \
         the times of one input must all run one way",
        if *.descending { "newest first" } else { "oldest first" }
    )]
    OutOfOrder {
        /// This point's time, Unix seconds.
        time: i64,
        /// The previous point's time.
        previous: i64,
        /// The direction the first two points set.
        descending: bool,
    },
    /// The same time twice.
    #[error("time {time} appears twice (also at {first}); each time must appear once")]
    Duplicate {
        /// The time, Unix seconds.
        time: i64,
        /// The other point with that time.
        first: Place,
    },
    /// A step that is not a whole number of periods.
    #[error(
        "a step of {step} s from the previous point is not a whole multiple of the period, \
         {period} s (the smallest step); every step must be one period or a whole number of them"
    )]
    MixedPeriods {
        /// The step to this point, seconds.
        step: u64,
        /// The period: the smallest step in the input, seconds.
        period: u64,
    },
    /// JSON that does not parse as the detected format.
    #[error("not a valid {format} document: {message}")]
    Json {
        /// The format the document looked like.
        format: JsonKind,
        /// serde_json's message (it names the line and column).
        message: String,
    },
    /// JSON of neither accepted shape.
    #[error(
        "JSON that is neither CloudWatch get-metric-data output (MetricDataResults) \
         nor a Prometheus query_range response (status, data); CSV time,count is accepted too"
    )]
    UnknownJson,
    /// Documents of different formats.
    #[error("a {found} document after {first} ones; all documents must have one format")]
    MixedFormats {
        /// The first document's format.
        first: TraceFormat,
        /// This document's format.
        found: TraceFormat,
    },
    /// A metric Id given for a format without Ids.
    #[error("a metric Id was given, but {format} input has none; give one only for CloudWatch")]
    MetricIdNotApplicable {
        /// The input's format.
        format: TraceFormat,
    },
    /// Several CloudWatch results and no Id to choose one.
    #[error("several metrics (Ids {}); choose one by its Id", .ids.join(", "))]
    SeveralMetrics {
        /// Every Id in the input, in order of appearance.
        ids: Vec<String>,
    },
    /// A CloudWatch page without the chosen Id.
    #[error("no metric with Id `{id}` (Ids here: {}); choose one of those", .ids.join(", "))]
    NoSuchMetric {
        /// The Id asked for.
        id: String,
        /// The Ids the page has.
        ids: Vec<String>,
    },
    /// CloudWatch `Timestamps` and `Values` of different lengths.
    #[error(
        "{timestamps} Timestamps but {values} Values{}; each timestamp needs one value",
        PageSuffix(*.page)
    )]
    LengthMismatch {
        /// The page (1-based) among several in the document.
        page: Option<usize>,
        /// How many timestamps.
        timestamps: usize,
        /// How many values.
        values: usize,
    },
    /// A Prometheus response whose status is not `success`.
    #[error("status `{status}` ({error}); only a successful query_range response is accepted")]
    PrometheusStatus {
        /// The status given.
        status: String,
        /// The response's errorType and error, shortened.
        error: String,
    },
    /// A Prometheus result that is not a matrix.
    #[error("resultType `{found}`; only a matrix (a query_range response) is accepted")]
    PrometheusResultType {
        /// The resultType given.
        found: String,
    },
    /// More than one Prometheus response.
    #[error("{count} Prometheus responses; give one query_range response (its series are summed)")]
    SeveralPrometheusDocuments {
        /// How many were given.
        count: usize,
    },
    /// Prometheus points, none with a value.
    #[error("every value is NaN or infinite; a trace needs at least two points with values")]
    NoValues,
}

/// ` in page N` after a CloudWatch count, or nothing.
struct PageSuffix(Option<usize>);

impl fmt::Display for PageSuffix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(page) => write!(f, " in page {page}"),
            None => Ok(()),
        }
    }
}

/// Which JSON shape a document that failed to parse looked like.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonKind {
    /// Not even JSON.
    Json,
    /// CloudWatch `get-metric-data` output.
    CloudWatch,
    /// A Prometheus `query_range` response.
    Prometheus,
}

impl fmt::Display for JsonKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            JsonKind::Json => "JSON",
            JsonKind::CloudWatch => "CloudWatch get-metric-data",
            JsonKind::Prometheus => "Prometheus query_range",
        })
    }
}
