//! The five ways to keep a hot like count (issue 7, part 1): one key,
//! shards, per-server buffers, shards of buffers, and a log with a consumer.
//! Over-cap risks come from [`crate::model::exact::OverCap`], reads from
//! [`crate::model::read_cost::ReadPlan::cost`], conflicts and drift from
//! [`super::exactly_once`]; nothing here re-derives them.

mod designs;

use crate::model::defaults::MAX_PERIOD_SECONDS;
use serde::Serialize;

use super::exactly_once::{Conflicts, Drift, DriftModel};
use super::CompareRow;
use crate::error::{ParamError, ParamResult, Problem};
use crate::model::law::TrafficModel;
use crate::model::read_cost::ReadPlan;
use crate::model::validate;

pub use designs::{buffered_shards, compare};

/// Transactions: each like's row and shard increment commit together.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Transactional {
    /// Write units per transactional write (2 on DynamoDB).
    pub write_cost: f64,
    /// How long a transaction holds its shard, ms (the conflict model).
    pub txn_ms: f64,
}

/// Everything the comparison needs, validated.
#[derive(Debug, Clone, PartialEq)]
pub struct CompareInputs {
    /// Likes per second at the peak.
    pub rate: f64,
    /// Shards of the sharded design.
    pub shards: u64,
    /// The store's write cap per key, write units/s.
    pub cap: f64,
    /// Safe write units per key (cap less headroom).
    pub safe: f64,
    /// Likes per second: exactly the rate, or Poisson with that mean.
    pub traffic: TrafficModel,
    /// The run the "any second over the cap" figures cover.
    pub duration_seconds: f64,
    /// Views, servers and their cache: what showing the count costs.
    pub reads: ReadPlan,
    /// Each likes server writes its tally every this many seconds.
    pub flush_seconds: f64,
    /// The log consumer writes totals every this many seconds.
    pub log_commit_seconds: f64,
    /// With `--transactional`: the transactions' cost and length.
    pub transactional: Option<Transactional>,
    /// Timeouts and retries of plain (non-transactional) writes.
    pub drift: DriftModel,
    /// How the app servers pick a shard of the sharded designs (the
    /// plan's writers): the per-key risk is theirs, as `size` weighs it.
    pub writers: crate::model::picker::Writers,
    /// The risk a design's hottest key is judged at over the spell: the
    /// plan's accepted risk, else the default check's 1%.
    pub risk: f64,
}

impl CompareInputs {
    /// Checks the inputs no other constructor checks.
    pub fn validate(self) -> ParamResult<Self> {
        validate::rate("rate", self.rate)?;
        validate::count("shards", self.shards, crate::model::defaults::MAX_SHARDS)?;
        period("flush_seconds", self.flush_seconds)?;
        period("log_commit_seconds", self.log_commit_seconds)?;
        Ok(self)
    }
}

fn period(what: &'static str, v: f64) -> ParamResult<f64> {
    validate::positive(what, v)?;
    if v > crate::model::defaults::MAX_PERIOD_SECONDS {
        return Err(ParamError::new(
            what,
            Problem::SecondsAbove {
                got: v,
                max: MAX_PERIOD_SECONDS,
            },
        ));
    }
    Ok(v)
}

/// One strategy's row: the shared [`CompareRow`] plus the figures only the
/// write-path designs have (CSV columns and JSON fields, all snake_case).
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct StrategyRow {
    /// The fields every design has.
    #[serde(flatten)]
    pub row: CompareRow,
    /// Keys the count is written to.
    pub keys: Option<u64>,
    /// Natural logs of the two over-cap chances where they come from the
    /// exact risk: finite where a chance underflows f64 (prints 0).
    pub key_ln_p_over_cap_per_second: Option<f64>,
    /// ln P(any second over the cap in the run), as above.
    pub key_ln_p_any_over_cap: Option<f64>,
    /// Likes a second one key may take: cap / write cost / attempts per like.
    pub cap_likes_per_key: Option<f64>,
    /// Store reads per second without the servers' cache.
    pub reads_uncached_per_second: Option<f64>,
    /// Transactions: P(one is cancelled by a conflict).
    pub p_conflict: Option<f64>,
    /// Transactions: attempts per like, 1 / (1 - p).
    pub attempts_per_like: Option<f64>,
    /// Transactions: cancelled (and retried) transactions a second, all keys.
    pub cancellations_per_second: Option<f64>,
    /// Drift of the live count from timed-out increments: likes counted
    /// twice, likes per hour.
    pub overcount_per_hour: Option<f64>,
    /// Drift of the live count from timed-out increments: likes never
    /// counted, likes per hour.
    pub undercount_per_hour: Option<f64>,
    /// overcount_per_hour - undercount_per_hour, likes per hour.
    pub net_drift_per_hour: Option<f64>,
    /// The cost figures at the user's prices (null without; set by
    /// [`crate::model::compare::usage::design_usage`]'s caller).
    #[serde(flatten)]
    pub costs: crate::model::price::Costs,
}

impl From<CompareRow> for StrategyRow {
    /// A row from another model (the approximate designs): no write-path extras.
    fn from(row: CompareRow) -> Self {
        StrategyRow {
            row,
            keys: None,
            key_ln_p_over_cap_per_second: None,
            key_ln_p_any_over_cap: None,
            cap_likes_per_key: None,
            reads_uncached_per_second: None,
            p_conflict: None,
            attempts_per_like: None,
            cancellations_per_second: None,
            overcount_per_hour: None,
            undercount_per_hour: None,
            net_drift_per_hour: None,
            costs: Default::default(),
        }
    }
}

/// The transactional figures of the per-like designs.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct TransactionalSummary {
    /// Write units per transactional write.
    pub write_cost: f64,
    /// Milliseconds a transaction holds its shard.
    pub txn_ms: f64,
    /// cap / write cost: likes/s a key takes before conflicts.
    pub cap_likes_per_key: f64,
    /// ceil(rate x cost / safe): the sizing with the cost alone.
    pub shards_without_conflicts: u64,
    /// Fewest shards with r x cost / (1 - p(r)) <= safe, r = rate / S.
    pub shards_with_conflicts: Option<u64>,
    /// The conflicts at the compared shard count.
    pub conflicts: Conflicts,
    /// The compared shard count.
    pub shards: u64,
}

/// The comparison: one row per strategy, plus the transactional summary.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    /// What was compared.
    pub inputs: CompareInputs,
    /// One row per design, in the table's order.
    pub rows: Vec<StrategyRow>,
    /// With `--transactional`: the conflict model's figures.
    pub transactional: Option<TransactionalSummary>,
    /// Drift of the increment designs without transactions.
    pub drift: Drift,
    /// Shards the sharded-buffered design uses.
    pub buffered_shards: u64,
}

#[cfg(test)]
mod tests;
