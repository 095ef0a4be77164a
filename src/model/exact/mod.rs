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
mod gamma_blocks;
mod gamma_each;
pub(crate) mod gamma_mix;
mod gamma_parts;
mod gamma_row;
mod gamma_smooth;
mod incgamma;
mod joint;
mod levin;
pub(crate) mod negbin;
mod pairs;
mod point;
mod poisson_max;
mod quietest;
mod ripple;
mod risk;
mod row;
pub(crate) mod special;
mod sticky;
mod table;
mod temme;
mod trapezoid;
mod upper_tail;

pub use busiest::{BusiestShard, MAX_MIXED_ROWS};

pub use crate::error::ExactProblem;
pub use quietest::QuietestShard;
pub use risk::{fewest_meeting, ln_p_any_over_cap, shards_for_risk, sweep, OverCap};
pub use row::{ln_p_any_over, validate_seconds, Risk};
pub use sticky::sticky_ln_sf;

#[cfg(test)]
mod empirical_tests;
#[cfg(test)]
mod tests;
