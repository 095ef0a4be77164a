//! Checks shared by every command: each returns the value or an
//! [`InputError`] naming the flag and what is accepted.

use crate::error::{InputError, InputResult};
use crate::traffic::TrafficModel;

/// Largest like rate we accept: a billion likes a second is far beyond any
/// real reel and keeps `rate x seconds` well inside `u64`.
pub const MAX_RATE: f64 = 1e9;
/// Largest shard count we accept.
pub const MAX_SHARDS: u64 = 100_000;

/// A finite number strictly greater than zero.
pub fn positive(what: &str, v: f64) -> InputResult<f64> {
    if !v.is_finite() {
        return Err(InputError::new(
            what,
            format!("must be a finite number greater than 0 (got {v})"),
        ));
    }
    if v <= 0.0 {
        return Err(InputError::new(
            what,
            format!("must be greater than 0 (got {v})"),
        ));
    }
    Ok(v)
}

/// A finite number >= 0.
pub fn non_negative(what: &str, v: f64) -> InputResult<f64> {
    if !v.is_finite() || v < 0.0 {
        return Err(InputError::new(
            what,
            format!("must be a finite number >= 0 (got {v})"),
        ));
    }
    Ok(v)
}

/// A finite number in `[lo, hi)`.
pub fn in_half_open(what: &str, v: f64, lo: f64, hi: f64) -> InputResult<f64> {
    if !v.is_finite() || v < lo || v >= hi {
        return Err(InputError::new(
            what,
            format!("must be at least {lo} and below {hi} (got {v})"),
        ));
    }
    Ok(v)
}

/// A finite number in the open interval `(0, 1)`.
pub fn probability_open(what: &str, v: f64) -> InputResult<f64> {
    if !v.is_finite() || v <= 0.0 || v >= 1.0 {
        return Err(InputError::new(
            what,
            format!("must be a probability strictly between 0 and 1 (got {v})"),
        ));
    }
    Ok(v)
}

/// A like rate: positive and at most [`MAX_RATE`].
pub fn rate(what: &str, v: f64) -> InputResult<f64> {
    let v = positive(what, v)?;
    if v > MAX_RATE {
        return Err(InputError::new(
            what,
            format!("must be at most {MAX_RATE:e} likes/s (got {v})"),
        ));
    }
    Ok(v)
}

/// A like rate for a traffic model: fixed traffic sends exactly `rate`
/// likes a second, so the rate must be whole; Poisson takes any mean.
pub fn traffic_rate(what: &str, v: f64, model: TrafficModel) -> InputResult<f64> {
    let v = rate(what, v)?;
    if model == TrafficModel::Fixed && v.fract() != 0.0 {
        return Err(InputError::new(
            what,
            format!(
                "must be a whole number of likes per second with --traffic fixed \
                 (got {v}); use --traffic poisson for a fractional mean"
            ),
        ));
    }
    Ok(v)
}

/// A per-key write cap a simulation compares whole counts with: positive,
/// at most [`MAX_RATE`], and whole.
pub fn whole_cap(what: &str, v: f64) -> InputResult<u64> {
    let v = rate(what, v)?;
    if v.fract() != 0.0 {
        return Err(InputError::new(
            what,
            format!("must be a whole number of writes per second for a simulation (got {v})"),
        ));
    }
    Ok(v as u64)
}

/// An integer count in `1..=max`.
pub fn count(what: &str, v: u64, max: u64) -> InputResult<u64> {
    if v == 0 || v > max {
        return Err(InputError::new(
            what,
            format!("must be a whole number from 1 to {max} (got {v})"),
        ));
    }
    Ok(v)
}
