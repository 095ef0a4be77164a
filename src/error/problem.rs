//! What is wrong with one value, typed, and its words.

use super::model::{CurveProblem, ExactProblem, LawProblem};
use super::shown_number;

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
    /// A run (simulate, report, fleet) the cost model estimates over an hour on its
    /// worker threads, asked for without
    /// `--long-run`.
    #[error(
        "makes a run of about {hours:.1} hours by the cost model on its worker threads; one over {limit_hours:.0} \
         hour runs only with --long-run (docs/performance.md), so give it or ask for less"
    )]
    NeedsLongRun {
        /// The estimate.
        hours: f64,
        /// The longest run without --long-run.
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
    // Ranges: a value outside what is accepted, worded by its unit.
    /// A share outside `[0, 1]`.
    #[error("must be a share from 0 to 1 (got {0})")]
    NotShare(f64),
    /// A share of likes outside `[0, 1]`, shown short (`1e-5`).
    #[error("must be a share of likes from 0 to 1 (got {})", shown_number(*.0))]
    NotShareOfLikes(f64),
    /// A number outside `[lo, hi]`.
    #[error("must be a number from {lo} to {hi} (got {got})")]
    NumberOutside {
        /// The value given.
        got: f64,
        /// The smallest accepted value.
        lo: f64,
        /// The largest accepted value.
        hi: f64,
    },
    /// A whole number outside `0..=max`.
    #[error("must be a whole number from 0 to {max} (got {got})")]
    WholeAbove {
        /// The value given.
        got: u64,
        /// The largest accepted value.
        max: u64,
    },
    /// Each of a list's values must be a whole number in `0..=max`.
    #[error("each value must be a whole number from 0 to {max}")]
    EachWholeAbove {
        /// The largest accepted value.
        max: u64,
    },
    /// Whole seconds outside `0..=max`.
    #[error("must be a whole number of seconds from 0 to {max} (got {got})")]
    SecondsOutside {
        /// The value given.
        got: u64,
        /// The largest accepted value.
        max: u64,
    },
    /// A period of seconds above the longest accepted.
    #[error("must be at most {max} seconds (got {got})")]
    SecondsAbove {
        /// The value given.
        got: f64,
        /// The longest accepted.
        max: f64,
    },
    /// Milliseconds above the longest accepted.
    #[error("must be at most {max} ms (got {got})")]
    MillisecondsAbove {
        /// The value given.
        got: f64,
        /// The longest accepted.
        max: f64,
    },
    /// A cache time above one day.
    #[error("must be at most 86400 (one day) (got {0})")]
    AboveOneDay(f64),
    /// A number above the largest accepted, which is shown as `1e15`.
    #[error("must be at most {max:e} (got {got})")]
    Above {
        /// The value given.
        got: f64,
        /// The largest accepted value.
        max: f64,
    },
    /// A share rate above the largest accepted.
    #[error("must be at most {max:e} shares/s (got {got})")]
    SharesRateAbove {
        /// The value given.
        got: f64,
        /// The largest accepted rate.
        max: f64,
    },
    /// A duration under one second (or not finite).
    #[error("must be at least 1 second (got {0} s)")]
    BelowOneSecond(f64),
    /// A key number's zero-padding width above the widest accepted.
    #[error("must be a width from 0 to {max} digits (got {got})")]
    PadAbove {
        /// The width given.
        got: usize,
        /// The widest accepted.
        max: usize,
    },
    // Relations: a value judged against another.
    /// A timeout rate of 1 or more: no increment would succeed.
    #[error("must be below 1: some increments must succeed (got {0})")]
    NoIncrementSucceeds(f64),
    /// A safe per-key rate above the cap.
    #[error("must not exceed the cap of {cap} writes/s per key (got {got})")]
    SafeAboveCap {
        /// The safe rate given.
        got: f64,
        /// The per-key cap.
        cap: f64,
    },
    /// A peak that needs more shards than supported.
    #[error(
        "needs {shards} shards at {per_shard} writes/s per shard, more than the {max} supported"
    )]
    TooManyShards {
        /// The shards the peak needs.
        shards: u64,
        /// The safe writes a second per shard.
        per_shard: f64,
        /// The most shards supported.
        max: u64,
    },
    /// A target shard count not above the starting one.
    #[error("must be above the starting shard count {start} (got {got})")]
    NotAboveStart {
        /// The target given.
        got: u64,
        /// The starting shard count.
        start: u64,
    },
    /// A resize to the shard count it starts from.
    #[error("must differ from the shards before to grow or shrink (both are {0})")]
    SameShardCount(u64),
    /// A per-shard list of the wrong length.
    #[error("must list one value per old shard: {want} values (got {got})")]
    ValuesPerShard {
        /// The values given.
        got: usize,
        /// The old shards.
        want: u64,
    },
    // Sizes: an input or an output too large to handle exactly.
    /// A curve whose total likes a time line cannot count.
    #[error("the curve gives about {expected:.3e} likes over {seconds} s; a time-line holds at most {max:e}")]
    TooManyLikes {
        /// The curve's likes over the run.
        expected: f64,
        /// The run's seconds.
        seconds: u64,
        /// The most likes a time line holds.
        max: f64,
    },
    /// A cool-down with more likes per shard than are summed exactly.
    #[error(
        "gives {} likes per shard over the cool-down (rate x seconds / shards); \
         at most {max:e} are summed exactly",
        shown_number(*.likes_per_shard)
    )]
    CoolDownTooLong {
        /// Likes per shard over the cool-down.
        likes_per_shard: f64,
        /// The most summed exactly.
        max: f64,
    },
    /// A key listing over the most key text listed.
    #[error(
        "{shards} keys of {longest} bytes{} are {:.1} MiB of key text; keys lists at \
         most 2 MiB (e.g. 20,000 keys of 100 bytes), so give fewer shards or a shorter \
         template",
        listed(.copies),
        mib(.bytes)
    )]
    KeyTextTooLong {
        /// The shard keys.
        shards: u64,
        /// The longest key's bytes.
        longest: u64,
        /// How many times each key is listed.
        copies: u64,
        /// The listing's bytes of key text.
        bytes: u64,
    },
    /// A key template over the longest accepted.
    #[error("must be at most {max} bytes (got {got}); a shard key is a few dozen")]
    TemplateTooLong {
        /// The template's bytes.
        got: usize,
        /// The most accepted.
        max: usize,
    },
    // Missing parts.
    /// A key template without its shard placeholder.
    #[error(
        "must contain the placeholder {placeholder} where the shard number goes, \
         e.g. 'reel:8841:likes:{placeholder}' (got '{template}')"
    )]
    NoPlaceholder {
        /// The placeholder (`<shard>`).
        placeholder: &'static str,
        /// The template given.
        template: String,
    },
    /// An empty key list.
    #[error("needs at least one key, one per line (got none)")]
    NoKeys,
    /// An empty list of reel rates.
    #[error("has no reels (one rate per line)")]
    NoReels,
    /// A reel rate that is negative, NaN or infinite.
    #[error("rates must be finite numbers >= 0 (got {0})")]
    BadReelRate(f64),
    /// A monitor grid without the monitor it varies.
    #[error("a monitor grid needs a [monitor] section")]
    NoMonitorSection,
}

/// How often a key listing names each key, in words.
fn listed(copies: &u64) -> &'static str {
    match *copies > 1 {
        true => " (each listed twice)",
        false => "",
    }
}

/// Bytes in MiB.
fn mib(bytes: &u64) -> f64 {
    *bytes as f64 / (1u64 << 20) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ParamError;

    #[test]
    fn typed_problems_keep_their_words() {
        let said = |p: Problem| p.to_string();
        assert_eq!(
            said(Problem::NotShareOfLikes(-0.00001)),
            "must be a share of likes from 0 to 1 (got -1e-5)"
        );
        assert_eq!(
            said(Problem::KeyTextTooLong {
                shards: 100_000,
                longest: 30,
                copies: 2,
                bytes: 6_000_000,
            }),
            "100000 keys of 30 bytes (each listed twice) are 5.7 MiB of key text; keys lists at \
             most 2 MiB (e.g. 20,000 keys of 100 bytes), so give fewer shards or a shorter template"
        );
        assert_eq!(
            said(Problem::TooManyLikes {
                expected: 2.5e18,
                seconds: 100,
                max: 1e18,
            }),
            "the curve gives about 2.500e18 likes over 100 s; a time-line holds at most 1e18"
        );
        assert_eq!(
            said(Problem::CoolDownTooLong {
                likes_per_shard: 2e15,
                max: 1e6,
            }),
            "gives 2e15 likes per shard over the cool-down (rate x seconds / shards); \
             at most 1e6 are summed exactly"
        );
        assert_eq!(
            said(Problem::NumberOutside {
                got: 11.5,
                lo: 0.0,
                hi: 10.0,
            }),
            "must be a number from 0 to 10 (got 11.5)"
        );
        assert_eq!(
            ParamError::new(
                "post_likes",
                Problem::Above {
                    got: 2e15,
                    max: 1e15
                }
            )
            .to_string(),
            "post_likes: must be at most 1e15 (got 2000000000000000)"
        );
    }
}
