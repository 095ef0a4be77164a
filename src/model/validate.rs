//! The checks model constructors share: each returns the value or a
//! [`ParamError`] naming the model's parameter. The configuration layer
//! attaches the flag or scenario field the value came from.

use crate::error::{ParamError, ParamResult, Problem};
use crate::model::defaults::MAX_RATE;

/// A finite number strictly greater than zero.
pub fn positive(param: &'static str, v: f64) -> ParamResult<f64> {
    if !v.is_finite() {
        return Err(ParamError::new(param, Problem::NotFinitePositive(v)));
    }
    if v <= 0.0 {
        return Err(ParamError::new(param, Problem::NotPositive(v)));
    }
    Ok(v)
}

/// A finite number >= 0.
pub fn non_negative(param: &'static str, v: f64) -> ParamResult<f64> {
    if !v.is_finite() || v < 0.0 {
        return Err(ParamError::new(param, Problem::Negative(v)));
    }
    Ok(v)
}

/// A finite number in `[lo, hi)`.
pub fn in_half_open(param: &'static str, v: f64, lo: f64, hi: f64) -> ParamResult<f64> {
    if !v.is_finite() || v < lo || v >= hi {
        return Err(ParamError::new(
            param,
            Problem::OutsideHalfOpen { got: v, lo, hi },
        ));
    }
    Ok(v)
}

/// A number for an error message: as typed, but in scientific notation
/// when tiny or huge (1e-300, not 0.000...0001).
pub use crate::error::shown_number as shown;

/// A finite number in the open interval `(0, 1)`.
pub fn probability_open(param: &'static str, v: f64) -> ParamResult<f64> {
    if !v.is_finite() || v <= 0.0 || v >= 1.0 {
        return Err(ParamError::new(param, Problem::NotProbability(v)));
    }
    Ok(v)
}

/// A like rate: positive and at most [`MAX_RATE`].
pub fn rate(param: &'static str, v: f64) -> ParamResult<f64> {
    let v = positive(param, v)?;
    if v > MAX_RATE {
        return Err(ParamError::new(
            param,
            Problem::RateAbove {
                got: v,
                max: MAX_RATE,
            },
        ));
    }
    Ok(v)
}

/// A per-key write cap a simulation compares whole counts with: positive,
/// at most [`MAX_RATE`], and whole.
pub fn whole_cap(param: &'static str, v: f64) -> ParamResult<u64> {
    let v = rate(param, v)?;
    if v.fract() != 0.0 {
        return Err(ParamError::new(param, Problem::FractionalCap(v)));
    }
    Ok(v as u64)
}

/// An integer count in `1..=max`.
pub fn count(param: &'static str, v: u64, max: u64) -> ParamResult<u64> {
    if v == 0 || v > max {
        return Err(ParamError::new(
            param,
            Problem::CountOutside { got: v, max },
        ));
    }
    Ok(v)
}
