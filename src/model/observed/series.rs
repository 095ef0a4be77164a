//! The rules every format's points follow.
//!
//! 1. Each segment (a CSV document, a CloudWatch page's result, a
//!    Prometheus series) runs one way, set by its first two points: oldest
//!    first or newest first. A time against that direction is an error, and
//!    so is a time equal to the one before (a duplicate).
//! 2. Segments are joined: put in time order and merged; a time in two of
//!    them is a duplicate naming both points.
//! 3. The period is the smallest step between two times. Every step must be
//!    a whole multiple of it (else "mixed periods", naming the later point);
//!    a step of k > 1 periods is a gap of k - 1 missing periods.
//!
//! Times are Unix seconds, whole, in the years 1 to 9999
//! ([`fields`](super::fields)), so that any difference of two fits in an
//! i64 with room to spare.

use super::{Gap, Group, Place, Row, TraceError, TraceProblem};

/// Points in the order their input gave them, and where each came from.
#[derive(Debug)]
pub(super) struct Segment {
    /// The document (0-based).
    pub document: usize,
    /// Unix seconds.
    pub times: Vec<i64>,
    /// The values as given; NaN marks a point without a usable value (a
    /// Prometheus gap).
    pub values: Vec<f64>,
    /// The rows of the points.
    pub rows: Rows,
}

/// Where each point of a segment is in its document.
#[derive(Debug)]
pub(super) enum Rows {
    /// CSV: `(i, line)` says point i is on `line`, and the points after it
    /// on the lines after it, up to the next entry (blank lines and the
    /// header are the only breaks, so there are few entries).
    Lines(Vec<(usize, usize)>),
    /// JSON: point i is the (i + 1)-th element of its array.
    Points(Option<Group>),
    /// Each point's row (the sum of Prometheus series).
    Each(Vec<Row>),
}

impl Rows {
    /// The row of point `i` (0-based, in input order).
    fn row(&self, i: usize) -> Row {
        match self {
            Rows::Lines(breaks) => {
                let k = breaks.partition_point(|&(start, _)| start <= i) - 1;
                let (start, line) = breaks[k];
                Row::Line(line + (i - start))
            }
            Rows::Points(group) => Row::Point {
                group: *group,
                index: i + 1,
            },
            Rows::Each(rows) => rows[i],
        }
    }
}

/// A segment put oldest first, keeping what is needed to name its rows.
#[derive(Debug)]
struct Part {
    document: usize,
    rows: Rows,
    reversed: bool,
    len: usize,
}

impl Part {
    /// The place of the point at `pos` in the ordered segment.
    fn place(&self, pos: usize) -> Place {
        let i = if self.reversed {
            self.len - 1 - pos
        } else {
            pos
        };
        Place {
            document: self.document,
            row: self.rows.row(i),
        }
    }
}

/// A segment put oldest first.
struct Ordered {
    part: Part,
    /// Whether it ran newest first; `None` below two points, which set no
    /// direction.
    direction: Option<bool>,
    times: Vec<i64>,
    values: Vec<f64>,
}

/// Checks that a segment runs one way and holds no time twice, and puts it
/// oldest first.
fn order(seg: Segment) -> Result<Ordered, TraceError> {
    let Segment {
        document,
        mut times,
        mut values,
        rows,
    } = seg;
    let n = times.len();
    let direction = (n >= 2).then(|| times[1] < times[0]);
    let descending = direction == Some(true);
    // One pass, no branch taken in a well-formed input: each step must go
    // the first step's way.
    let bad = times
        .windows(2)
        .position(|w| (w[1] < w[0]) != descending || w[1] == w[0]);
    if let Some(k) = bad {
        let (prev, time) = (times[k], times[k + 1]);
        let problem = if time == prev {
            let first = Place {
                document,
                row: rows.row(k),
            };
            TraceProblem::Duplicate { time, first }
        } else {
            TraceProblem::OutOfOrder {
                time,
                previous: prev,
                descending,
            }
        };
        return Err(TraceError::at(document, rows.row(k + 1), problem));
    }
    if descending {
        times.reverse();
        values.reverse();
    }
    let part = Part {
        document,
        rows,
        reversed: descending,
        len: n,
    };
    Ok(Ordered {
        part,
        direction,
        times,
        values,
    })
}

/// One series oldest first, each point with its row.
pub(super) struct OrderedSeries {
    /// Unix seconds, ascending.
    pub times: Vec<i64>,
    /// The values, NaN for a gap.
    pub values: Vec<f64>,
    /// Each point's row.
    pub rows: Vec<Row>,
    /// Whether it ran newest first (`None` below two points).
    pub direction: Option<bool>,
}

/// Orders one segment as [`join`] does, keeping each point's row: for a sum
/// of series, which are ordered one by one before they are added.
pub(super) fn ordered_rows(seg: Segment) -> Result<OrderedSeries, TraceError> {
    let o = order(seg)?;
    let rows = (0..o.part.len).map(|pos| o.part.place(pos).row).collect();
    Ok(OrderedSeries {
        times: o.times,
        values: o.values,
        rows,
        direction: o.direction,
    })
}

/// The points of every segment, oldest first, and where each came from.
#[derive(Debug)]
pub(super) struct Joined {
    times: Vec<i64>,
    values: Vec<f64>,
    parts: Vec<Part>,
    origin: Origin,
}

/// Which part a joined point came from.
#[derive(Debug)]
enum Origin {
    /// Parts that do not overlap in time, one after the other: `(first
    /// joined position, part)`, ascending.
    Runs(Vec<(usize, usize)>),
    /// Interleaved parts: `(part, position in it)` for every point.
    Each(Vec<(u32, u32)>),
}

impl Joined {
    /// The place of the joined point at `pos`.
    fn place(&self, pos: usize) -> Place {
        let (part, at) = match &self.origin {
            Origin::Runs(runs) => {
                let k = runs.partition_point(|&(start, _)| start <= pos) - 1;
                (runs[k].1, pos - runs[k].0)
            }
            Origin::Each(each) => (each[pos].0 as usize, each[pos].1 as usize),
        };
        self.parts[part].place(at)
    }

    fn error(&self, pos: usize, problem: TraceProblem) -> TraceError {
        let place = self.place(pos);
        TraceError::at(place.document, place.row, problem)
    }
}

/// Orders every segment ([`order`]) and joins them oldest first. Returns
/// the points and whether the input ran newest first (every segment that
/// set a direction did).
pub(super) fn join(segments: Vec<Segment>) -> Result<(Joined, bool), TraceError> {
    let mut parts = Vec::with_capacity(segments.len());
    let mut data = Vec::with_capacity(segments.len());
    let (mut newest_first, mut oldest_first) = (false, false);
    for seg in segments {
        let o = order(seg)?;
        newest_first |= o.direction == Some(true);
        oldest_first |= o.direction == Some(false);
        parts.push(o.part);
        data.push((o.times, o.values));
    }
    let descending = newest_first && !oldest_first;
    // The usual case: one segment, or pages that follow each other in time.
    let mut by_start: Vec<usize> = (0..data.len()).filter(|&p| !data[p].0.is_empty()).collect();
    by_start.sort_by_key(|&p| data[p].0[0]);
    let disjoint = by_start
        .windows(2)
        .all(|w| data[w[0]].0.last() < data[w[1]].0.first());
    if disjoint {
        let total = data.iter().map(|d| d.0.len()).sum();
        let (mut times, mut values) = (Vec::with_capacity(total), Vec::with_capacity(total));
        let mut runs = Vec::with_capacity(by_start.len());
        if by_start.len() == 1 {
            // Moved, not copied: a 30-day per-second file is 40 MB of points.
            let p = by_start[0];
            (times, values) = std::mem::take(&mut data[p]);
            runs.push((0, p));
        } else {
            for &p in &by_start {
                runs.push((times.len(), p));
                times.extend_from_slice(&data[p].0);
                values.extend_from_slice(&data[p].1);
            }
        }
        let origin = Origin::Runs(runs);
        let joined = Joined {
            times,
            values,
            parts,
            origin,
        };
        return Ok((joined, descending));
    }
    // Interleaved: merge by sorting (time, part, position); the limit of 50
    // million points fits the positions in u32.
    let mut all: Vec<(i64, u32, u32)> = Vec::new();
    for (p, (times, _)) in data.iter().enumerate() {
        all.extend(
            times
                .iter()
                .enumerate()
                .map(|(i, &t)| (t, p as u32, i as u32)),
        );
    }
    all.sort_unstable();
    if let Some(k) = all.windows(2).position(|w| w[0].0 == w[1].0) {
        let (first, second) = (all[k], all[k + 1]);
        let first = parts[first.1 as usize].place(first.2 as usize);
        let second = parts[second.1 as usize].place(second.2 as usize);
        let problem = TraceProblem::Duplicate {
            time: all[k].0,
            first,
        };
        return Err(TraceError::at(second.document, second.row, problem));
    }
    let times = all.iter().map(|a| a.0).collect();
    let values = all
        .iter()
        .map(|a| data[a.1 as usize].1[a.2 as usize])
        .collect();
    let origin = Origin::Each(all.iter().map(|a| (a.1, a.2)).collect());
    let joined = Joined {
        times,
        values,
        parts,
        origin,
    };
    Ok((joined, descending))
}

/// Points on their period: the points with a value, and the gaps.
#[derive(Debug)]
pub(super) struct Grid {
    /// The smallest step, seconds.
    pub period: u64,
    /// The times of the points with a value, ascending.
    pub times: Vec<i64>,
    /// Their values.
    pub values: Vec<f64>,
    /// Missing periods between them.
    pub gaps: Vec<Gap>,
    /// Periods before the first point with a value (points without one).
    pub missing_at_start: u64,
    /// Periods after the last point with a value.
    pub missing_at_end: u64,
}

/// Detects the period and the gaps of joined points. The period comes from
/// every point's time, with a value or not: a Prometheus NaN is a sample
/// that was taken, so it marks the step as well as a number does.
pub(super) fn grid(joined: Joined) -> Result<Grid, TraceError> {
    let n = joined.times.len();
    if n == 0 {
        let document = joined.parts.first().map_or(0, |p| p.document);
        return Err(TraceError::in_document(document, TraceProblem::Empty));
    }
    if n == 1 {
        let problem = if joined.values[0].is_nan() {
            TraceProblem::NoValues
        } else {
            TraceProblem::OnePoint {
                time: joined.times[0],
            }
        };
        return Err(joined.error(0, problem));
    }
    let times = &joined.times;
    // Every step is positive (join refused duplicates and disorder), so
    // the period is at least 1.
    let period = times.windows(2).map(|w| w[1] - w[0]).min().unwrap_or(1);
    if let Some(k) = times.windows(2).position(|w| (w[1] - w[0]) % period != 0) {
        let step = (times[k + 1] - times[k]) as u64;
        let problem = TraceProblem::MixedPeriods {
            step,
            period: period as u64,
        };
        return Err(joined.error(k + 1, problem));
    }
    let Joined {
        mut times,
        mut values,
        ..
    } = joined;
    let with_value = values.iter().filter(|v| !v.is_nan()).count();
    let (mut missing_at_start, mut missing_at_end) = (0, 0);
    if with_value < n {
        // Prometheus gaps: keep the points with a value. The periods before
        // the first and after the last are outside the trace.
        let first = values.iter().position(|v| !v.is_nan());
        let last = values.iter().rposition(|v| !v.is_nan());
        if let (Some(first), Some(last)) = (first, last) {
            missing_at_start = ((times[first] - times[0]) / period) as u64;
            missing_at_end = ((times[n - 1] - times[last]) / period) as u64;
        }
        let mut keep = values.iter().map(|v| !v.is_nan());
        times.retain(|_| keep.next().unwrap_or(false));
        values.retain(|v| !v.is_nan());
    }
    // Only a Prometheus input has points without a value, and it is one
    // document.
    match values.len() {
        0 => return Err(TraceError::in_document(0, TraceProblem::NoValues)),
        1 => {
            let problem = TraceProblem::OnePoint { time: times[0] };
            return Err(TraceError::in_document(0, problem));
        }
        _ => {}
    }
    let gaps = times
        .windows(2)
        .filter(|w| w[1] - w[0] > period)
        .map(|w| Gap {
            after: w[0],
            missing_periods: ((w[1] - w[0]) / period - 1) as u64,
        })
        .collect();
    Ok(Grid {
        period: period as u64,
        times,
        values,
        gaps,
        missing_at_start,
        missing_at_end,
    })
}
