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

use crate::model::defaults::{MAX_DISPERSION, MAX_MIXED_ROWS, MAX_RATE, MIN_DISPERSION};

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
    Law(#[from] LawProblem),
    /// A figure the exact engine or a sampler does not offer for these
    /// inputs (`model::exact`).
    #[error(transparent)]
    Exact(#[from] ExactProblem),
    /// A rate curve's points (`model::timeline::curve`).
    #[error(transparent)]
    Curve(#[from] CurveProblem),
    /// A run shorter than a second.
    #[error("must be at least 1 second (got {0} s)")]
    BelowOneSecond(f64),
    /// Anything the variants above do not say: what is wrong and accepted.
    #[error("{0}")]
    Other(String),
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

// The problems of one part of the model each, typed at their source and
// worded here: `model::law`, `model::exact` and `model::timeline::curve`
// re-export theirs. (Here, not there, so `error` stays the bottom layer:
// nothing it names imports it back.)

/// A law's parameters it cannot run with.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LawProblem {
    /// A Gamma shape out of range.
    #[error(
        "must be a Gamma shape from {min} to {max:e} (got {0}); larger is closer to Poisson, \
         use --traffic poisson past it",
        min = MIN_DISPERSION,
        max = MAX_DISPERSION
    )]
    DispersionOutside(f64),
    /// A second's rate the Gamma sampler refuses.
    #[error("not a usable Gamma mean ({why}, got {rate})")]
    NoGammaRate {
        /// The mean rate.
        rate: f64,
        /// The sampler's reason.
        why: rand_distr::GammaError,
    },
    /// A mean the Poisson sampler refuses.
    #[error("not a usable Poisson mean ({why}, got {rate})")]
    NoPoissonRate {
        /// The mean rate.
        rate: f64,
        /// The sampler's reason.
        why: rand_distr::PoissonError,
    },
    /// A chunk's total mean the Poisson sampler refuses.
    #[error("not a usable Poisson mean ({0})")]
    NoPoissonTotal(rand_distr::PoissonError),
    /// An empirical law with no observed second.
    #[error("empirical traffic needs at least one observed second")]
    NoSeconds,
    /// An observed second past the largest count accepted.
    #[error("an empirical second of {got} likes is above the {max} a second accepted")]
    CountAbove {
        /// The second's likes.
        got: u64,
        /// The most accepted.
        max: u64,
    },
    /// A growth factor that is not a positive number.
    #[error("empirical traffic needs a positive growth factor (got {0})")]
    Growth(f64),
}

/// A figure the exact engine or a sampler does not offer for its inputs.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ExactProblem {
    /// A gamma-poisson table longer than [`MAX_MIXED_ROWS`](crate::model::defaults::MAX_MIXED_ROWS).
    #[error(
        "spreads the busiest shard over {} counts a second ({lo} to {hi}); the exact \
         gamma-poisson table stops at {MAX_MIXED_ROWS} (two integrals a count): give \
         a larger dispersion, or fewer likes per shard",
        hi - lo + 1
    )]
    MixedRowsAbove {
        /// The table's first count.
        lo: u64,
        /// Its last.
        hi: u64,
    },
    /// The exact-table sampler under empirical traffic.
    #[error(
        "exact-table has no quietest-shard table for empirical traffic; use \
         --sampler multinomial or auto"
    )]
    NoQuietestTable,
    /// The exact-table sampler asked for joint per-second rows.
    #[error(
        "exact-table draws each second's busiest and quietest shard from their own \
         distributions, so it cannot write joint --per-second rows; use --sampler \
         multinomial or auto"
    )]
    NoJointRows,
    /// A risk no shard count up to the limit meets.
    #[error(
        "cannot be met with at most {max_shards} shards at {rate} likes/s and cap {cap} \
         over {seconds} s (got {}); raise the cap or the shard limit",
        shown_number(*risk)
    )]
    RiskUnmet {
        /// The most shards tried.
        max_shards: u64,
        /// Likes per second.
        rate: f64,
        /// The per-shard cap.
        cap: f64,
        /// The run's length.
        seconds: f64,
        /// The risk asked for.
        risk: f64,
    },
}

/// What is wrong with a rate curve's points.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CurveProblem {
    /// No point.
    #[error("needs at least one [t_seconds, rate] point (got none)")]
    NoPoints,
    /// A time that is not a finite number of seconds >= 0.
    #[error("point {point}: time must be a finite number of seconds >= 0 (got {t})")]
    Time {
        /// The point, from 1.
        point: usize,
        /// Its time.
        t: f64,
    },
    /// A rate outside `0..=MAX_RATE`.
    #[error(
        "point {point}: rate must be a finite number from 0 to {max:e} likes/s (got {r})",
        max = MAX_RATE
    )]
    Rate {
        /// The point, from 1.
        point: usize,
        /// Its rate.
        r: f64,
    },
    /// A time not after the one before.
    #[error("times must be strictly increasing (point {point} at {t} s follows {before} s)")]
    NotIncreasing {
        /// The point, from 1.
        point: usize,
        /// Its time.
        t: f64,
        /// The time before it.
        before: f64,
    },
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
