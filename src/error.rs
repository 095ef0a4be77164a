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

use std::fmt;

/// `text` cut to 40 characters for an error line (an input may be huge).
pub fn shorten(text: &str) -> String {
    match text.char_indices().nth(40) {
        Some((i, _)) => format!("{}...", &text[..i]),
        None => text.to_string(),
    }
}

/// What is wrong with one value, and what is accepted.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Problem {
    /// NaN or infinite where a number greater than 0 is needed.
    #[error("must be a finite number greater than 0 (got {0})")]
    NotFinitePositive(f64),
    /// Zero or negative where a number greater than 0 is needed.
    #[error("must be greater than 0 (got {0})")]
    NotPositive(f64),
    /// Negative, NaN or infinite where a number >= 0 is needed.
    #[error("must be a finite number >= 0 (got {0})")]
    Negative(f64),
    /// Outside `[lo, hi)`.
    #[error("must be at least {lo} and below {hi} (got {got})")]
    OutsideHalfOpen {
        /// The value given.
        got: f64,
        /// The smallest accepted value.
        lo: f64,
        /// The bound no accepted value reaches.
        hi: f64,
    },
    /// Not strictly between 0 and 1.
    #[error("must be a probability strictly between 0 and 1 (got {0})")]
    NotProbability(f64),
    /// A rate above the largest one accepted.
    #[error("must be at most {max:e} likes/s (got {got})")]
    RateAbove {
        /// The value given.
        got: f64,
        /// The largest accepted rate.
        max: f64,
    },
    /// A fractional like rate under fixed traffic.
    #[error(
        "must be a whole number of likes per second with --traffic fixed (got {0}); \
         use --traffic poisson for a fractional mean"
    )]
    FractionalFixedRate(f64),
    /// A fractional cap where whole writes are compared.
    #[error("must be a whole number of writes per second for a simulation (got {0})")]
    FractionalCap(f64),
    /// A whole number outside `1..=max`.
    #[error("must be a whole number from 1 to {max} (got {got})")]
    CountOutside {
        /// The value given.
        got: u64,
        /// The largest accepted value.
        max: u64,
    },
    /// A run the cost model estimates over the longest accepted.
    #[error(
        "makes a run of about {hours:.0} hours by the cost model; the limit is {limit_hours:.0} hours \
         (docs/performance.md), so ask for less"
    )]
    TooLong {
        /// The estimate.
        hours: f64,
        /// The longest accepted.
        limit_hours: f64,
    },
    /// A traffic law's parameter (`model::law`).
    #[error(transparent)]
    Law(#[from] crate::model::law::LawProblem),
    /// A figure the exact engine or a sampler does not offer for these
    /// inputs (`model::exact`).
    #[error(transparent)]
    Exact(#[from] crate::model::exact::ExactProblem),
    /// A rate curve's points (`model::timeline::curve`).
    #[error(transparent)]
    Curve(#[from] crate::model::timeline::curve::CurveProblem),
    /// A run shorter than a second.
    #[error("must be at least 1 second (got {0} s)")]
    BelowOneSecond(f64),
    /// Anything the variants above do not say: what is wrong and accepted.
    #[error("{0}")]
    Other(String),
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
    /// A parameter with a typed problem.
    pub fn new(param: &'static str, problem: Problem) -> Self {
        ParamError { param, problem }
    }

    /// A parameter with a problem the typed variants do not cover.
    pub fn other(param: &'static str, message: impl fmt::Display) -> Self {
        ParamError {
            param,
            problem: Problem::Other(message.to_string()),
        }
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

/// `measure`'s own count check failed: the shard keys do not sum to the
/// INCRs sent (a client re-sent timed-out commands, or another client
/// wrote the keys). The results are printed, but the run did not measure
/// what it claims: exit code 3.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("count check failed: {0}")]
pub struct CountMismatch(pub String);

/// A run stopped by a signal after cleaning up (`measure` deleted the keys
/// that still held what it wrote, or with `--keep` only its same-slot
/// copies): exit code 128 + the signal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Interrupted {
    /// The signal's number (2 for SIGINT).
    pub signal: i32,
    /// Keys deleted by the clean-up.
    pub deleted: u64,
    /// Keys left because they held something else than this run wrote.
    pub left: Vec<String>,
    /// `--keep`: the run's own keys stay.
    pub kept: bool,
}

impl std::fmt::Display for Interrupted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "interrupted by signal {}; ", self.signal)?;
        if self.kept {
            write!(f, "the run's keys are kept (--keep)")?;
        } else {
            write!(f, "deleted the {} keys this run wrote", self.deleted)?;
        }
        if let Some(first) = self.left.first() {
            write!(
                f,
                ", left {} that another client changed (e.g. {first})",
                self.left.len()
            )?;
        }
        write!(f, "; no results")
    }
}

impl std::error::Error for Interrupted {}

/// A `measure --postgres` run stopped by a signal after dropping its
/// schema: exit code 128 + the signal.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("interrupted by signal {signal}; dropped schema {schema}; no results")]
pub struct SchemaInterrupted {
    /// The signal's number (2 for SIGINT).
    pub signal: i32,
    /// The run's schema, dropped.
    pub schema: String,
}
