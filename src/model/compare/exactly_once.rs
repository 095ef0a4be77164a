//! Exactly-once counting and what it costs (issue 7, parts 2 and 3).
//!
//! - Transactions: the like row and the shard increment commit together
//!   (DynamoDB `TransactWriteItems`). Each transactional write costs the
//!   store preset's `transactional_write_cost` units (2 on DynamoDB: prepare
//!   and commit), so a key takes at most cap / cost likes a second, and two
//!   transactions on one shard at the same instant conflict: one is
//!   cancelled (`TransactionConflict`) and still spends its units.
//! - Drift without transactions: an increment is not idempotent. A timed-out
//!   increment that had in fact been applied and is then retried counts the
//!   like twice; a like whose every attempt failed after its like row was
//!   saved is not counted. The nightly reconciliation (count the like rows)
//!   corrects both; this estimates how far the live count drifts meanwhile.

use crate::model::defaults::{MAX_RETRIES, MAX_TXN_MS};
use serde::Serialize;

use crate::error::{ParamError, ParamResult, Problem};
use crate::model::store::Store;
use crate::model::validate;

/// Likes a second one key takes when each like is one transaction:
/// cap / write cost (500 at a 1,000 cap on DynamoDB).
pub fn transactional_cap(cap: f64, store: Option<Store>) -> f64 {
    cap / Store::transactional_write_cost(store)
}

/// The conflict model's inputs.
///
/// Assumption (stated in docs/compare.md): each transaction holds its shard
/// for `txn_ms` milliseconds from its start; transactions on one shard start
/// as a Poisson process at `rate_per_shard` a second (arrival times spread
/// uniformly over each second); a transaction is cancelled when another
/// started on the same shard less than `txn_ms` before it. Then
/// `P(conflict) = 1 - exp(-r d / 1000)` (the gap to the previous arrival is
/// exponential with mean 1/r). A cancelled transaction is retried after a
/// random backoff, at an independent instant, so it conflicts again with the
/// same probability: attempts per like are geometric, mean `1 / (1 - p)`.
/// This first-order model does not feed the retries' own load back into
/// `p`, so it is optimistic when `p` is large.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ConflictModel {
    /// Transactions a second on one shard, r.
    pub rate_per_shard: f64,
    /// Milliseconds a transaction holds its shard, d.
    pub txn_ms: f64,
    /// Write units per transactional write.
    pub write_cost: f64,
}

/// What conflicts cost on one shard key.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Conflicts {
    /// Transactions a second on the shard, r.
    pub rate_per_shard: f64,
    /// Milliseconds each holds the shard, d.
    pub txn_ms: f64,
    /// Write units per transactional write.
    pub write_cost: f64,
    /// P(a transaction is cancelled by a conflict) = 1 - exp(-r d / 1000).
    pub p_conflict: f64,
    /// Expected attempts per like = 1 / (1 - p) = exp(r d / 1000).
    pub attempts_per_like: f64,
    /// Cancelled transactions a second on the shard = r p / (1 - p): each
    /// is retried once more, so this is also the retries a second.
    pub cancellations_per_second: f64,
    /// Write units a second the shard spends = r x cost x attempts.
    pub write_units_per_second: f64,
}

impl ConflictModel {
    /// The model's inputs, checked (errors name the parameters `rate`, `txn_ms`).
    pub fn new(rate_per_shard: f64, txn_ms: f64, write_cost: f64) -> ParamResult<Self> {
        validate::non_negative("rate", rate_per_shard)?;
        validate::non_negative("txn_ms", txn_ms)?;
        if txn_ms > crate::model::defaults::MAX_TXN_MS {
            return Err(ParamError::new(
                "txn_ms",
                Problem::MillisecondsAbove {
                    got: txn_ms,
                    max: MAX_TXN_MS,
                },
            ));
        }
        validate::positive("--transactional write cost", write_cost)?;
        Ok(ConflictModel {
            rate_per_shard,
            txn_ms,
            write_cost,
        })
    }

    /// P(conflict) = 1 - exp(-r d / 1000), computed with exp_m1 so a small
    /// value keeps its digits.
    pub fn p_conflict(&self) -> f64 {
        -(-self.rate_per_shard * self.txn_ms / 1000.0).exp_m1()
    }

    /// The conflicts' cost on one shard under this model.
    pub fn conflicts(&self) -> Conflicts {
        let p = self.p_conflict();
        // 1 / (1 - p) = exp(r d / 1000) exactly: no rounding to 1 / 0 when
        // p is within an ulp of 1 (beyond e^709 it is infinite: JSON null).
        let r = self.rate_per_shard;
        let attempts = (r * self.txn_ms / 1000.0).exp();
        Conflicts {
            rate_per_shard: r,
            txn_ms: self.txn_ms,
            write_cost: self.write_cost,
            p_conflict: p,
            attempts_per_like: attempts,
            cancellations_per_second: r * (attempts - 1.0),
            write_units_per_second: r * self.write_cost * attempts,
        }
    }
}

/// The fewest shards (at most `max_shards`) at which each shard's write
/// units, retries included, stay within `safe_units` (the safe rate in
/// write units, e.g. 700 of a 1,000 cap): `r x cost / (1 - p(r)) <= safe`
/// with `r = rate / S`. The left side falls as S grows, so
/// [`crate::model::search::fewest_shards`] finds the edge. `None` when even `max_shards` does not do.
pub fn shards_for_conflicts(
    rate: f64,
    txn_ms: f64,
    write_cost: f64,
    safe_units: f64,
    max_shards: u64,
) -> Option<u64> {
    let fits = |s: u64| {
        let c = ConflictModel {
            rate_per_shard: rate / s as f64,
            txn_ms,
            write_cost,
        }
        .conflicts();
        c.write_units_per_second <= safe_units * (1.0 + 1e-12)
    };
    match crate::model::search::fewest_shards(max_shards, |s| {
        Ok::<_, std::convert::Infallible>(fits(s))
    }) {
        Ok(s) => s,
        Err(never) => match never {},
    }
}

/// The retry policy's inputs for the drift estimate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DriftModel {
    /// Likes a second.
    pub rate: f64,
    /// Share of increment attempts that time out.
    pub timeout_rate: f64,
    /// Share of timed-out increments that had in fact been applied.
    pub applied_share: f64,
    /// Retries after a timeout: 0 = never retry, k = up to k more attempts.
    pub retries: u64,
}

/// How far the live count drifts, and why.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Drift {
    /// Share of increment attempts that time out.
    pub timeout_rate: f64,
    /// Share of timed-out increments that had in fact been applied.
    pub applied_share: f64,
    /// Retries after a timeout.
    pub retries: u64,
    /// Expected increments applied per like (1 = no drift).
    pub applied_per_like: f64,
    /// Likes counted more than once, per hour at the rate.
    pub overcount_per_hour: f64,
    /// Likes never counted (like row saved, every increment failed), per hour.
    pub undercount_per_hour: f64,
    /// overcount - undercount: what the nightly reconciliation takes off.
    pub net_drift_per_hour: f64,
}

impl DriftModel {
    /// The retry policy, checked (errors name the parameters `timeout_rate`,
    /// `applied_share`, `retries`).
    pub fn new(
        rate: f64,
        timeout_rate: f64,
        applied_share: f64,
        retries: u64,
    ) -> ParamResult<Self> {
        validate::non_negative("rate", rate)?;
        in_closed_unit("timeout_rate", timeout_rate)?;
        if timeout_rate >= 1.0 {
            return Err(ParamError::new(
                "timeout_rate",
                Problem::NoIncrementSucceeds(timeout_rate),
            ));
        }
        in_closed_unit("applied_share", applied_share)?;
        if retries > crate::model::defaults::MAX_RETRIES {
            return Err(ParamError::new(
                "retries",
                Problem::WholeAbove {
                    got: retries,
                    max: MAX_RETRIES,
                },
            ));
        }
        Ok(DriftModel {
            rate,
            timeout_rate,
            applied_share,
            retries,
        })
    }

    /// Each attempt, independently: succeeds (1 - t), times out after being
    /// applied (t a), or times out unapplied (t (1 - a)); a timeout is
    /// retried while retries remain. With k retries:
    /// - attempts made: E\[A\] = sum_{i=0..k} t^i = (1 - t^(k+1)) / (1 - t);
    /// - increments applied: E\[applied\] = E\[A\] (1 - t (1 - a));
    /// - never counted: P(all k+1 attempts unapplied timeouts) = (t (1 - a))^(k+1);
    /// - counted twice or more: E\[applied\] - P(at least one applied)
    ///   = E\[applied\] - 1 + (t (1 - a))^(k+1).
    ///
    /// Per hour: each times rate x 3600.
    pub fn drift(&self) -> Drift {
        let (t, a, k) = (self.timeout_rate, self.applied_share, self.retries);
        let kept = 1.0 - t * (1.0 - a);
        let tk1 = t.powi(k as i32 + 1);
        let attempts = (1.0 - tk1) / (1.0 - t);
        let applied = attempts * kept;
        let never = (t * (1.0 - a)).powi(k as i32 + 1);
        // applied - 1 = (t a - t^(k+1) kept) / (1 - t), written without
        // subtracting 1 so a tiny drift keeps its digits; clamp rounding.
        let extra = ((t * a - tk1 * kept) / (1.0 - t) + never).max(0.0);
        let per_hour = self.rate * 3600.0;
        let over = per_hour * extra;
        let under = per_hour * never;
        Drift {
            timeout_rate: t,
            applied_share: a,
            retries: k,
            applied_per_like: applied,
            overcount_per_hour: over,
            undercount_per_hour: under,
            net_drift_per_hour: over - under,
        }
    }
}

fn in_closed_unit(what: &'static str, v: f64) -> ParamResult<f64> {
    if !v.is_finite() || !(0.0..=1.0).contains(&v) {
        return Err(ParamError::new(what, Problem::NotShare(v)));
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transactional_cap_halves_on_dynamodb() {
        assert_eq!(transactional_cap(1000.0, None), 500.0);
        assert_eq!(transactional_cap(1000.0, Some(Store::Dynamodb)), 500.0);
        assert_eq!(transactional_cap(1.0, Some(Store::Firestore)), 1.0);
    }

    #[test]
    fn conflict_formula_by_hand() {
        // r = 350/s, d = 2 ms: r d / 1000 = 0.7, p = 1 - e^-0.7.
        let c = ConflictModel::new(350.0, 2.0, 2.0).unwrap().conflicts();
        let p = 1.0 - (-0.7f64).exp();
        assert!((c.p_conflict - p).abs() < 1e-15);
        assert!((c.attempts_per_like - 0.7f64.exp()).abs() < 1e-12);
        assert!((c.cancellations_per_second - 350.0 * (0.7f64.exp() - 1.0)).abs() < 1e-9);
        assert!((c.write_units_per_second - 700.0 * 0.7f64.exp()).abs() < 1e-9);
        // No duration: no conflicts, exactly cost units per like.
        let c = ConflictModel::new(350.0, 0.0, 2.0).unwrap().conflicts();
        assert_eq!(c.p_conflict, 0.0);
        assert_eq!(c.write_units_per_second, 700.0);
    }

    #[test]
    fn conflict_free_sizing_doubles_the_shards() {
        // 14,000 likes/s at 700 units per key: 20 shards plain, 40 at 2 units a like.
        assert_eq!(
            shards_for_conflicts(14_000.0, 0.0, 1.0, 700.0, 100_000),
            Some(20)
        );
        assert_eq!(
            shards_for_conflicts(14_000.0, 0.0, 2.0, 700.0, 100_000),
            Some(40)
        );
        // With conflicts more are needed, and the answer is the edge.
        let s = shards_for_conflicts(14_000.0, 10.0, 2.0, 700.0, 100_000).unwrap();
        let at = |s: u64| {
            ConflictModel::new(14_000.0 / s as f64, 10.0, 2.0)
                .unwrap()
                .conflicts()
                .write_units_per_second
        };
        assert!(at(s) <= 700.0 && at(s - 1) > 700.0, "{s}");
        assert_eq!(shards_for_conflicts(1e9, 10.0, 2.0, 700.0, 10), None);
    }

    #[test]
    fn drift_by_hand() {
        // Never retry: no over-count; t (1 - a) of likes lost.
        let d = DriftModel::new(100.0, 0.01, 0.5, 0).unwrap().drift();
        assert_eq!(d.overcount_per_hour, 0.0);
        assert!((d.undercount_per_hour - 360_000.0 * 0.005).abs() < 1e-6);
        // One retry: over = t a (1 - t (1 - a)) per like... by enumeration:
        // attempt 1 applied-timeout (0.005) then attempt 2 applies with
        // P(1 - t(1-a)) = 0.995: E[applied] = (1 + t)(1 - t(1-a)).
        let d = DriftModel::new(100.0, 0.01, 0.5, 1).unwrap().drift();
        let applied = 1.01 * 0.995;
        assert!((d.applied_per_like - applied).abs() < 1e-15);
        let never = 0.005f64 * 0.005;
        assert!((d.undercount_per_hour - 360_000.0 * never).abs() < 1e-9);
        assert!((d.overcount_per_hour - 360_000.0 * (applied - 1.0 + never)).abs() < 1e-6);
        // First order: over-count ~ rate x 3600 x t x a.
        assert!((d.overcount_per_hour / (360_000.0 * 0.01 * 0.5) - 1.0).abs() < 0.01);
        assert!(
            (d.net_drift_per_hour - (d.overcount_per_hour - d.undercount_per_hour)).abs() < 1e-9
        );
        // Nothing applied on timeout: retries only ever fix the count.
        let d = DriftModel::new(100.0, 0.01, 0.0, 3).unwrap().drift();
        assert_eq!(d.overcount_per_hour, 0.0);
        assert!((d.undercount_per_hour - 360_000.0 * 1e-8).abs() < 1e-12);
    }

    #[test]
    fn bad_inputs_name_the_flag() {
        assert_eq!(
            DriftModel::new(1.0, 1.0, 0.5, 1).unwrap_err().param,
            "timeout_rate"
        );
        assert_eq!(
            DriftModel::new(1.0, 0.1, 1.5, 1).unwrap_err().param,
            "applied_share"
        );
        assert_eq!(
            DriftModel::new(1.0, 0.1, 0.5, 1000).unwrap_err().param,
            "retries"
        );
        assert_eq!(
            ConflictModel::new(1.0, -1.0, 2.0).unwrap_err().param,
            "txn_ms"
        );
    }
}
