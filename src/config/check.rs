//! The model's checks ([`crate::model::validate`]) with the source attached:
//! each takes the name of the flag, scenario field or file the value came
//! from, so the error names what the user wrote.

use crate::error::{InputError, InputResult, ParamResult};
use crate::model::validate;

/// Runs a model check and names `source` in its error.
pub fn attach<T>(source: &str, r: ParamResult<T>) -> InputResult<T> {
    r.map_err(|e| InputError::new(source, e.problem))
}

/// See [`validate::positive`].
pub fn positive(source: &str, v: f64) -> InputResult<f64> {
    attach(source, validate::positive("value", v))
}

/// See [`validate::non_negative`].
pub fn non_negative(source: &str, v: f64) -> InputResult<f64> {
    attach(source, validate::non_negative("value", v))
}

/// See [`validate::in_half_open`].
pub fn in_half_open(source: &str, v: f64, lo: f64, hi: f64) -> InputResult<f64> {
    attach(source, validate::in_half_open("value", v, lo, hi))
}

/// See [`validate::probability_open`].
pub fn probability_open(source: &str, v: f64) -> InputResult<f64> {
    attach(source, validate::probability_open("value", v))
}

/// See [`validate::rate`].
pub fn rate(source: &str, v: f64) -> InputResult<f64> {
    attach(source, validate::rate("value", v))
}

/// See [`validate::count`].
pub fn count(source: &str, v: u64, max: u64) -> InputResult<u64> {
    attach(source, validate::count("value", v, max))
}
