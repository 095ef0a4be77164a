//! `compare`'s inputs: the load, sizing and reads every command resolves,
//! plus the designs' own (flush and log-commit periods, transactions,
//! timeouts and retries).

use super::plan::{Plan, PlanFlags};
use super::{Resolver, Sourced};
use crate::cli::CompareArgs;
use crate::error::{InputError, InputResult};
use crate::model::compare::approx::ApproxInputs;
use crate::model::compare::exactly_once::{shards_for_conflicts, DriftModel};
use crate::model::compare::strategies::{CompareInputs, Transactional};
use crate::model::defaults::{
    DEFAULT_APPLIED_SHARE, DEFAULT_FLUSH_SECONDS, DEFAULT_LOG_COMMIT_SECONDS, DEFAULT_RETRIES,
    DEFAULT_TIMEOUT_RATE, DEFAULT_TXN_MS, MAX_SHARDS, MAX_TXN_MS,
};
use crate::model::recommendation::planned_rate as whole_rate;
use crate::model::validate;

impl Resolver {
    /// The write-path designs' inputs and the approximate designs' inputs,
    /// on the same load.
    pub fn comparison(
        &mut self,
        a: &CompareArgs,
    ) -> InputResult<(CompareInputs, ApproxInputs, Plan)> {
        let flags = PlanFlags {
            plan: Some(&a.plan),
            duration: a.duration.seconds(),
            traffic: a.traffic.traffic,
            dispersion: a.traffic.dispersion,
            ..Default::default()
        };
        let plan = self.plan(&a.sizing, &a.reads, flags)?;
        let (sizing, reads) = (plan.sizing.clone(), plan.reads);
        let traffic = self.traffic(a.traffic.traffic, a.traffic.dispersion)?;
        let rate = self.rate(a.rate.one()?, sizing.peak.peak, traffic)?;
        let seconds = self.duration(a.duration.seconds())?;
        // The sizing's cap and safe rate are per like; the comparison wants the
        // store's own units (buffered and log writes are not transactions).
        let cost = sizing.write_cost.unwrap_or(1.0);
        let (cap, safe) = (sizing.plan.cap * cost, sizing.plan.safe_per_shard() * cost);
        let transactional = self.transactional(a, sizing.write_cost)?;
        let sized = match transactional {
            Some(t) => self.transaction_shards(a, t, sizing.peak.peak, safe)?,
            None => Sourced::derived(
                plan.recommendation.shards,
                "the recommendation (shardplan size)",
            ),
        };
        let shards = self.shards(a.shards.one()?, sized);
        let flush = given_or_default("--flush-seconds", a.flush_seconds, DEFAULT_FLUSH_SECONDS);
        let commit = given_or_default(
            "--log-commit-seconds",
            a.log_commit_seconds,
            DEFAULT_LOG_COMMIT_SECONDS,
        );
        let drift = self.retry_drift(a, rate)?;
        let inputs = CompareInputs {
            rate,
            shards,
            cap,
            safe,
            traffic,
            duration_seconds: seconds,
            reads,
            flush_seconds: self.inputs.take("flush_seconds", flush),
            log_commit_seconds: self.inputs.take("log_commit_seconds", commit),
            transactional,
            drift,
            writers: plan.inputs.writers,
            risk: plan.inputs.key_check.risk,
        }
        .validate()
        .map_err(|e| self.blame(e))?;
        let approx = self.approx_designs(rate, &inputs)?;
        Ok((inputs, approx, plan))
    }

    /// With `--transactional`, the write cost of a like and how long a
    /// transaction holds its shard (`--txn-ms`, which needs it).
    fn transactional(
        &mut self,
        a: &CompareArgs,
        write_cost: Option<f64>,
    ) -> InputResult<Option<Transactional>> {
        let txn_ms = Sourced::flag("--txn-ms", a.txn_ms);
        match (write_cost, txn_ms) {
            (Some(write_cost), txn_ms) => {
                let txn_ms = txn_ms.unwrap_or(Sourced::default(DEFAULT_TXN_MS));
                let ms = txn_ms.check(|v| validate::non_negative("txn_ms", *v))?;
                if ms > MAX_TXN_MS {
                    return Err(txn_ms.error(format!("must be at most {MAX_TXN_MS} ms (got {ms})")));
                }
                self.inputs.record("txn_ms", &txn_ms);
                Ok(Some(Transactional {
                    write_cost,
                    txn_ms: ms,
                }))
            }
            (None, Some(_)) => Err(InputError::new("--txn-ms", "needs --transactional")),
            (None, None) => Ok(None),
        }
    }

    /// The shards transactions need at the peak: the fewest that absorb the
    /// conflicts' retries under the safe rate (refused when none up to
    /// [`MAX_SHARDS`] does and no shard count is given).
    fn transaction_shards(
        &self,
        a: &CompareArgs,
        t: Transactional,
        peak: f64,
        safe: f64,
    ) -> InputResult<Sourced<u64>> {
        let fewest = shards_for_conflicts(peak, t.txn_ms, t.write_cost, safe, MAX_SHARDS);
        match fewest {
            Some(n) => Ok(Sourced::derived(
                n,
                "the fewest shards that absorb the conflicts' retries",
            )),
            None if a.shards.shards.is_none() && self.scenario.scenario.shards.is_none() => {
                Err(InputError::new(
                    self.inputs
                        .source("txn_ms")
                        .map(|s| s.to_string())
                        .unwrap_or("--txn-ms".into()),
                    format!(
                        "{} ms transactions conflict so often at {} likes/s that no shard \
                         count up to {MAX_SHARDS} keeps under the safe rate; lower --txn-ms or \
                         give --shards",
                        t.txn_ms, peak
                    ),
                ))
            }
            None => Ok(Sourced::derived(MAX_SHARDS, "unused: the shards are given")),
        }
    }

    /// The drift of an increment retried after a timeout: the timeout
    /// rate, the share of timed-out increments applied, and the retries.
    fn retry_drift(&mut self, a: &CompareArgs, rate: f64) -> InputResult<DriftModel> {
        let timeout = given_or_default("--timeout-rate", a.timeout_rate, DEFAULT_TIMEOUT_RATE);
        let applied = given_or_default(
            "--applied-share",
            a.applied_share.applied_share,
            DEFAULT_APPLIED_SHARE,
        );
        let retries =
            Sourced::flag("--retries", a.retries).unwrap_or(Sourced::default(DEFAULT_RETRIES));
        DriftModel::new(
            rate,
            self.inputs.take("timeout_rate", timeout),
            self.inputs.take("applied_share", applied),
            self.inputs.take("retries", retries),
        )
        .map_err(|e| self.blame(e))
    }

    /// The approximate designs' inputs on the write-path designs' load.
    fn approx_designs(&mut self, rate: f64, inputs: &CompareInputs) -> InputResult<ApproxInputs> {
        // The uniqueness and approximate designs (sets, like rows, HyperLogLog,
        // Count-Min, hashes) from their own model, on the same inputs.
        let mut approx = ApproxInputs::new(
            whole_rate(rate, inputs.traffic),
            inputs.reads.views,
            inputs.shards,
            inputs.cap,
            inputs.duration_seconds,
        )
        .map_err(|e| self.blame(e))?;
        approx.servers = inputs.reads.servers;
        approx.traffic = inputs.traffic;
        approx.writers = inputs.writers;
        approx.cache_seconds = inputs.reads.cache_seconds;
        if let Some(day) = self.field("likes_per_day", &self.scenario.scenario.likes_per_day) {
            approx.likes_per_day = self.inputs.take("likes_per_day", day);
        }
        approx.validate().map_err(|e| self.blame(e))?;
        Ok(approx)
    }
}

/// A flag's value, else the default.
fn given_or_default(name: &'static str, v: Option<f64>, default: f64) -> Sourced<f64> {
    Sourced::flag(name, v).unwrap_or(Sourced::default(default))
}
