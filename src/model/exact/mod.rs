//! The exact distribution of the busiest shard's writes in one second, and
//! the risk figures built on it (issue 3).
//!
//! - Fixed traffic (exactly `L` likes a second): the shard counts are
//!   Multinomial(L; 1/S, ..., 1/S). `P(max <= c)` comes from Levin's (1981)
//!   representation (see the `levin` module); the upper tail `P(max > c)` from the
//!   inclusion-exclusion (Bonferroni) bounds where they pin it to double
//!   precision, because `1 - P(max <= c)` cancels when it is tiny.
//! - Poisson traffic (a Poisson(rate) count a second): the shard counts are
//!   independent Poisson(rate / S), so `P(max <= c) = F(c)^S` in closed form.
//!
//! Everything is computed as a logarithm, so probabilities far below 1e-300
//! keep their value (`ln_sf`), and figures are exact (no simulation).

mod busiest;
mod empirical_mix;
pub(crate) mod gamma_mix;
mod joint;
mod levin;
mod pairs;
mod point;
mod quietest;
mod risk;
pub(crate) mod special;
mod upper_tail;

pub use busiest::{BusiestShard, MAX_MIXED_ROWS};

/// A figure the exact engine or a sampler does not offer for its inputs.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ExactProblem {
    /// A gamma-poisson table longer than [`MAX_MIXED_ROWS`].
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
        crate::model::validate::shown(*risk)
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
pub use quietest::QuietestShard;
pub use risk::{ln_p_any_over, ln_p_any_over_cap, shards_for_risk, sweep, OverCap, Risk};

#[cfg(test)]
mod empirical_tests;
#[cfg(test)]
mod tests;
