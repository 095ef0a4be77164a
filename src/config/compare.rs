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
            plan: None,
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
        let txn_ms = Sourced::flag("--txn-ms", a.txn_ms);
        let transactional = match (sizing.write_cost, txn_ms) {
            (Some(write_cost), txn_ms) => {
                let txn_ms = txn_ms.unwrap_or(Sourced::default(DEFAULT_TXN_MS));
                let ms = txn_ms.check(|v| validate::non_negative("txn_ms", *v))?;
                if ms > MAX_TXN_MS {
                    return Err(txn_ms.error(format!("must be at most {MAX_TXN_MS} ms (got {ms})")));
                }
                self.inputs.record("txn_ms", &txn_ms);
                Some(Transactional {
                    write_cost,
                    txn_ms: ms,
                })
            }
            (None, Some(_)) => {
                return Err(InputError::new("--txn-ms", "needs --transactional"));
            }
            (None, None) => None,
        };
        let sized = match transactional {
            Some(t) => {
                let fewest = shards_for_conflicts(
                    sizing.peak.peak,
                    t.txn_ms,
                    t.write_cost,
                    safe,
                    MAX_SHARDS,
                );
                match fewest {
                    Some(n) => {
                        Sourced::derived(n, "the fewest shards that absorb the conflicts' retries")
                    }
                    None if a.shards.shards.is_none() && self.scenario.scenario.shards.is_none() => {
                        return Err(InputError::new(
                            self.inputs
                                .source("txn_ms")
                                .map(|s| s.to_string())
                                .unwrap_or("--txn-ms".into()),
                            format!(
                                "{} ms transactions conflict so often at {} likes/s that no shard \
                                 count up to {MAX_SHARDS} keeps under the safe rate; lower --txn-ms or \
                                 give --shards",
                                t.txn_ms, sizing.peak.peak
                            ),
                        )
                        )
                    }
                    None => Sourced::derived(MAX_SHARDS, "unused: the shards are given"),
                }
            }
            None => Sourced::derived(
                plan.recommendation.shards,
                "the recommendation (shardplan size)",
            ),
        };
        let shards = self.shards(a.shards.one()?, sized);
        let flag = |name: &'static str, v: Option<f64>, default: f64| {
            Sourced::flag(name, v).unwrap_or(Sourced::default(default))
        };
        let flush = flag("--flush-seconds", a.flush_seconds, DEFAULT_FLUSH_SECONDS);
        let commit = flag(
            "--log-commit-seconds",
            a.log_commit_seconds,
            DEFAULT_LOG_COMMIT_SECONDS,
        );
        let timeout = flag("--timeout-rate", a.timeout_rate, DEFAULT_TIMEOUT_RATE);
        let applied = flag("--applied-share", a.applied_share, DEFAULT_APPLIED_SHARE);
        let retries =
            Sourced::flag("--retries", a.retries).unwrap_or(Sourced::default(DEFAULT_RETRIES));
        let drift = DriftModel::new(
            rate,
            self.inputs.take("timeout_rate", timeout),
            self.inputs.take("applied_share", applied),
            self.inputs.take("retries", retries),
        )
        .map_err(|e| self.blame(e))?;
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
        }
        .validate()
        .map_err(|e| self.blame(e))?;
        // The uniqueness and approximate designs (sets, like rows, HyperLogLog,
        // Count-Min, hashes) from their own model, on the same inputs.
        let mut approx = ApproxInputs::new(
            whole_rate(rate, inputs.traffic),
            inputs.reads.views,
            shards,
            cap,
            inputs.duration_seconds,
        )
        .map_err(|e| self.blame(e))?;
        approx.servers = inputs.reads.servers;
        approx.cache_seconds = inputs.reads.cache_seconds;
        if let Some(day) = self.field("likes_per_day", &self.scenario.scenario.likes_per_day) {
            approx.likes_per_day = self.inputs.take("likes_per_day", day);
        }
        approx.validate().map_err(|e| self.blame(e))?;
        Ok((inputs, approx, plan))
    }
}
