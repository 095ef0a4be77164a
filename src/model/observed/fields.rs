//! One time or one count as written, shared by the formats, and the row
//! limit.
//!
//! Times are Unix seconds, whole, in the years 1 to 9999, so that any
//! difference of two fits in an i64 with room to spare.

use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;

use super::{TraceProblem, MAX_ROWS};
use crate::error::shorten;

/// 0001-01-01T00:00:00Z, Unix seconds: the earliest time accepted.
pub const MIN_TIME: i64 = -62_135_596_800;
/// 9999-12-31T23:59:59Z, Unix seconds: the latest time accepted.
pub const MAX_TIME: i64 = 253_402_300_799;

/// A time as written: Unix seconds (an integer, or a float with an integral
/// value, as some exporters write) or RFC 3339 with an offset
/// (`2026-11-30T18:00:00Z`, `2026-11-30T18:00:00+01:00`; fractional seconds
/// only if they are zero).
pub fn parse_time(text: &str) -> Result<i64, TraceProblem> {
    // The common case first: plain digits.
    if let Ok(t) = text.parse::<i64>() {
        return check_range(t, text);
    }
    if text.contains(':') {
        let bad = || TraceProblem::BadTime {
            text: shorten(text),
        };
        let at = OffsetDateTime::parse(text, &Rfc3339).map_err(|_| bad())?;
        if at.nanosecond() != 0 {
            return Err(TraceProblem::FractionalTime {
                text: shorten(text),
            });
        }
        return check_range(at.unix_timestamp(), text);
    }
    match text.parse::<f64>() {
        Ok(t) if t.is_finite() => time_from_seconds(t, || text.to_string()),
        _ => Err(TraceProblem::BadTime {
            text: shorten(text),
        }),
    }
}

/// Unix seconds given as a float (JSON numbers, `1.7645256e9`): whole and
/// in range. `text` writes the time for an error message (only then).
pub fn time_from_seconds(t: f64, text: impl Fn() -> String) -> Result<i64, TraceProblem> {
    let text = || shorten(&text());
    if !t.is_finite() {
        return Err(TraceProblem::BadTime { text: text() });
    }
    if t.fract() != 0.0 {
        return Err(TraceProblem::FractionalTime { text: text() });
    }
    // Checked as a float first: `as i64` saturates, which would turn a huge
    // value into a wrong but in-range-looking one.
    if t < MIN_TIME as f64 || t > MAX_TIME as f64 {
        return Err(TraceProblem::TimeOutOfRange { text: text() });
    }
    Ok(t as i64)
}

fn check_range(t: i64, text: &str) -> Result<i64, TraceProblem> {
    if (MIN_TIME..=MAX_TIME).contains(&t) {
        Ok(t)
    } else {
        Err(TraceProblem::TimeOutOfRange {
            text: shorten(text),
        })
    }
}

/// A count (likes in one period) already parsed: finite and >= 0. `-0`
/// becomes 0.
pub fn check_count(v: f64, text: impl FnOnce() -> String) -> Result<f64, TraceProblem> {
    if !v.is_finite() {
        Err(TraceProblem::NotFiniteCount {
            text: shorten(&text()),
        })
    } else if v < 0.0 {
        Err(TraceProblem::NegativeCount {
            text: shorten(&text()),
        })
    } else {
        Ok(v + 0.0)
    }
}

/// Adds `n` points to the running count, refusing past [`MAX_ROWS`].
pub(super) fn count_rows(rows: &mut usize, n: usize) -> Result<(), TraceProblem> {
    *rows += n;
    if *rows > MAX_ROWS {
        Err(TraceProblem::TooManyRows { limit: MAX_ROWS })
    } else {
        Ok(())
    }
}
