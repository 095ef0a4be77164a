//! CSV `time,count`: one line a period, the likes counted in it.
//!
//! ```text
//! time,count
//! 2026-11-30T18:00:00Z,9120
//! 2026-11-30T18:00:01Z,9342
//! ```
//!
//! - The header is optional: a first line `time,count`, in any case, with
//!   spaces around the names allowed. Any other first line that does not
//!   start like a number is a header error (it names what is accepted).
//! - `time`: Unix seconds (`1764525600`, or `1764525600.0`) or RFC 3339
//!   with an offset ([`parse_time`]).
//! - `count`: a finite number >= 0; fractional counts are accepted (a
//!   rate times a period), though the per-second fit's count histogram
//!   needs whole ones.
//! - Fields may be surrounded by spaces or double quotes; `\r\n` line ends
//!   and a UTF-8 byte-order mark are accepted; blank lines are skipped
//!   (they still count in line numbers). Exactly two fields a line.
//!
//! Lines are split by hand rather than by the `csv` crate: the fields are
//! numbers and times (no quoted commas to honour), and a 30-day per-second
//! file (2.6 million lines) must read in a fraction of a second.

use super::fields::{check_count, count_rows, parse_time};
use super::series::{Rows, Segment};
use super::{Row, TraceError, TraceProblem};
use crate::error::shorten;

/// Reads one CSV document (the `document`-th) into a segment in file order,
/// adding its points to `rows` (refused past [`MAX_ROWS`](super::MAX_ROWS)).
pub(super) fn read(text: &str, document: usize, rows: &mut usize) -> Result<Segment, TraceError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // About 20 bytes a line for `1764525600,9120`: reserving for that
    // avoids most regrowth without overshooting RFC 3339 files by much.
    let guess = text.len() / 20;
    let mut times = Vec::with_capacity(guess);
    let mut values = Vec::with_capacity(guess);
    let mut breaks: Vec<(usize, usize)> = Vec::new();
    let mut seen_first = false;
    let mut expected_line = 0;
    for (i, raw) in text.split('\n').enumerate() {
        let line_no = i + 1;
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if line.trim().is_empty() {
            continue;
        }
        let err = |problem| TraceError::at(document, Row::Line(line_no), problem);
        let Some((time, count)) = line.split_once(',') else {
            return Err(err(TraceProblem::Fields { found: 1 }));
        };
        if count.contains(',') {
            let found = line.split(',').count();
            return Err(err(TraceProblem::Fields { found }));
        }
        let (time, count) = (field(time), field(count));
        if !seen_first {
            seen_first = true;
            if is_header(time, count, line).map_err(err)? {
                continue;
            }
        }
        let t = parse_time(time).map_err(err)?;
        let v = parse_count(count).map_err(err)?;
        if line_no != expected_line {
            breaks.push((times.len(), line_no));
        }
        expected_line = line_no + 1;
        times.push(t);
        values.push(v);
        // Checked a line at a time so a huge file stops at the limit, not
        // after filling memory.
        if times.len() & 0xffff == 0 {
            count_rows(rows, 0x1_0000).map_err(err)?;
        }
    }
    count_rows(rows, times.len() & 0xffff).map_err(|p| TraceError::in_document(document, p))?;
    Ok(Segment {
        document,
        times,
        values,
        rows: Rows::Lines(breaks),
    })
}

/// A field without surrounding spaces and double quotes.
fn field(text: &str) -> &str {
    let text = text.trim();
    text.strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .map_or(text, str::trim)
}

/// Whether the first line is the header: `time,count` in any case. A first
/// line whose time field cannot start a number or a date is a header of
/// another shape: refused, naming the accepted one.
fn is_header(time: &str, count: &str, line: &str) -> Result<bool, TraceProblem> {
    if time.eq_ignore_ascii_case("time") && count.eq_ignore_ascii_case("count") {
        return Ok(true);
    }
    let numeric_start = time
        .bytes()
        .next()
        .is_some_and(|b| b.is_ascii_digit() || b == b'-' || b == b'+' || b == b'.');
    if numeric_start {
        Ok(false)
    } else {
        Err(TraceProblem::Header {
            found: shorten(line),
        })
    }
}

/// A count: a finite number >= 0.
fn parse_count(text: &str) -> Result<f64, TraceProblem> {
    // Whole counts by hand: the usual case, and twice as fast as the float
    // parser. Up to 15 digits stay exact in an f64.
    if !text.is_empty() && text.len() <= 15 && text.bytes().all(|b| b.is_ascii_digit()) {
        let n = text.bytes().fold(0u64, |n, b| n * 10 + u64::from(b - b'0'));
        return Ok(n as f64);
    }
    match text.parse::<f64>() {
        Ok(v) => check_count(v, || text.to_string()),
        Err(_) => Err(TraceProblem::NonNumericCount {
            text: shorten(text),
        }),
    }
}
