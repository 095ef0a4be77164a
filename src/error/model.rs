//! The problems of one part of the model each, typed at their source and
//! worded here: `model::law`, `model::exact` and `model::timeline::curve`
//! re-export theirs. (Here, not there, so `error` stays the bottom layer:
//! nothing it names imports it back.)

use super::shown_number;
use crate::model::defaults::{MAX_DISPERSION, MAX_MIXED_ROWS, MAX_RATE, MIN_DISPERSION};

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
         gamma-poisson table stops at {MAX_MIXED_ROWS}: give \
         a larger dispersion, or fewer likes per shard",
        hi - lo + 1
    )]
    MixedRowsAbove {
        /// The table's first count.
        lo: u64,
        /// Its last.
        hi: u64,
    },
    /// A picker whose busiest shard has neither an exact law nor a bound
    /// under this traffic (`model::picker::risk`).
    #[error(
        "{picker} writers under {traffic} traffic have no exact or bounded chance of going \
         over the cap here; `shardplan simulate --picker {picker}` gives their Monte Carlo \
         figures (sticky has an exact one under fixed, poisson and gamma-poisson traffic; \
         round-robin a bound under every traffic law, two-choice random picks' law)"
    )]
    NoPickerFigure {
        /// The picker's name.
        picker: &'static str,
        /// The traffic law's name.
        traffic: &'static str,
    },
    /// A picker simulated server by server with the exact-table sampler.
    #[error(
        "exact-table draws the random picker's busiest shard; {0} writers are drawn server by \
         server: use --sampler auto or multinomial"
    )]
    PickerNoTable(&'static str),
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
