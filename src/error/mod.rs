//! Errors a user can cause, in two layers.
//!
//! - A model constructor rejects a parameter with a [`ParamError`]: the
//!   model's own name for the parameter (`cap`, `cache_seconds`) and a typed
//!   [`Problem`]. The model does not know whether the value came from a flag,
//!   a scenario field or a default.
//! - The configuration layer knows where every value came from and turns a
//!   `ParamError` into an [`InputError`] naming that source (`--cap`,
//!   `scenario viral-evening.toml: monitor.settings_ttl_seconds`).
//!
//! `main` maps both to one stderr line and exit code 2; every other error
//! exits 1.
//!
//! The typed problems are in `problem.rs` (one value's) and `model.rs`
//! (the laws', the exact engine's, rate curves'); the errors of a run that
//! are not bad input in `run.rs`.

use std::fmt;

mod model;
mod problem;
mod run;

pub use model::{CurveProblem, ExactProblem, LawProblem};
pub use problem::Problem;
pub use run::{CountMismatch, Interrupted, SchemaInterrupted};

/// A flag whose server client this build left out (`cargo install
/// --no-default-features`): the error names the cargo feature that brings
/// it back.
pub fn missing_feature(flag: &str, feature: &str) -> InputError {
    InputError::new(
        flag,
        format!(
            "this shardplan was built without the `{feature}` feature; reinstall with it \
             (cargo install shardplan --features {feature}, or keep the default features)"
        ),
    )
}

/// `text` cut to 40 characters for an error line (an input may be huge).
pub fn shorten(text: &str) -> String {
    match text.char_indices().nth(40) {
        Some((i, _)) => format!("{}...", &text[..i]),
        None => text.to_string(),
    }
}

/// A number for an error message: as typed, but in scientific notation
/// when tiny or huge (1e-300, not 0.000...0001).
pub fn shown_number(v: f64) -> String {
    if v != 0.0 && (v.abs() < 1e-4 || v.abs() >= 1e15) {
        format!("{v:e}")
    } else {
        v.to_string()
    }
}

/// A model parameter its constructor rejected.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{param}: {problem}")]
pub struct ParamError {
    /// The model's name for the parameter (`cap`, `monitor.threshold`).
    pub param: &'static str,
    /// What is wrong with it.
    pub problem: Problem,
}

impl ParamError {
    /// Whether it is a risk no shard count up to the limit meets (a plan
    /// that is infeasible, said as data, not an input error).
    pub fn is_risk_unmet(&self) -> bool {
        matches!(
            self.problem,
            Problem::Exact(crate::error::ExactProblem::RiskUnmet { .. })
        )
    }

    /// A parameter with a typed problem.
    pub fn new(param: &'static str, problem: Problem) -> Self {
        ParamError { param, problem }
    }
}

/// Bad input, attributed: names the flag, file or scenario field the user
/// wrote, and what is accepted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{what}: {message}")]
pub struct InputError {
    /// The flag (`--peak`), scenario field (`scenario x.toml: peak`) or file.
    pub what: String,
    /// What is wrong and what is accepted.
    pub message: String,
}

impl InputError {
    /// An error about `what` (a flag, a scenario field, a file).
    pub fn new(what: impl fmt::Display, message: impl fmt::Display) -> Self {
        InputError {
            what: what.to_string(),
            message: message.to_string(),
        }
    }
}

/// A parameter error no configuration layer attributed names the model's
/// parameter (library users see the names they passed).
impl From<ParamError> for InputError {
    fn from(e: ParamError) -> Self {
        InputError::new(e.param, e.problem)
    }
}

/// The result of a user-facing check.
pub type InputResult<T> = Result<T, InputError>;
/// The result of a model constructor.
pub type ParamResult<T> = Result<T, ParamError>;

#[cfg(test)]
mod tests {
    /// A build without a client names the flag and the feature to add.
    #[test]
    fn a_missing_feature_names_the_flag_and_the_feature() {
        let e = super::missing_feature("--redis", "redis");
        assert_eq!(e.what, "--redis");
        assert!(e.message.contains("--features redis"), "{}", e.message);
    }
}
