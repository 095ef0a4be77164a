//! `shardplan compare`: one row per counter design, every figure from the
//! models `size`, `simulate` and `risk` use (sizing, exact, read cost).

use crate::cli::CompareArgs;
use crate::config::load::planned_rate as whole_rate;
use crate::config::{Resolver, Sourced};
use crate::error::InputError;
use crate::model::compare::approx::{approx_rows, ApproxInputs};
use crate::model::compare::exactly_once::{shards_for_conflicts, DriftModel};
use crate::model::compare::strategies::{compare, CompareInputs, StrategyRow, Transactional};
use crate::model::defaults::{
    DEFAULT_APPLIED_SHARE, DEFAULT_FLUSH_SECONDS, DEFAULT_LOG_COMMIT_SECONDS, DEFAULT_RETRIES,
    DEFAULT_TIMEOUT_RATE, DEFAULT_TXN_MS, MAX_SHARDS, MAX_TXN_MS,
};
use crate::model::validate;
use crate::output::OutputSet;
use crate::views::compare::CompareReport;

pub fn run(args: CompareArgs) -> anyhow::Result<()> {
    let mut r = Resolver::for_load(&args.scenario, "compare")?;
    let (sizing, reads) = r.sizing_and_reads(&args.sizing, &args.reads)?;
    let traffic = r.traffic(args.traffic);
    let rate = r.rate(args.rate, sizing.peak.peak, traffic)?;
    let seconds = r.duration(args.duration.map(|d| d as f64))?;
    // The sizing's cap and safe rate are per like; the comparison wants the
    // store's own units (buffered and log writes are not transactions).
    let cost = sizing.write_cost.unwrap_or(1.0);
    let (cap, safe) = (sizing.plan.cap * cost, sizing.plan.safe_per_shard() * cost);
    let txn_ms = Sourced::flag("--txn-ms", args.txn_ms);
    let transactional = match (sizing.write_cost, txn_ms) {
        (Some(write_cost), txn_ms) => {
            let txn_ms = txn_ms.unwrap_or(Sourced::default(DEFAULT_TXN_MS));
            let ms = txn_ms.check(|v| validate::non_negative("txn_ms", *v))?;
            if ms > MAX_TXN_MS {
                return Err(txn_ms
                    .error(format!("must be at most {MAX_TXN_MS} ms (got {ms})"))
                    .into());
            }
            r.inputs.record("txn_ms", &txn_ms);
            Some(Transactional {
                write_cost,
                txn_ms: ms,
            })
        }
        (None, Some(_)) => {
            return Err(InputError::new("--txn-ms", "needs --transactional").into());
        }
        (None, None) => None,
    };
    let sized = match transactional {
        Some(t) => {
            let fewest =
                shards_for_conflicts(sizing.peak.peak, t.txn_ms, t.write_cost, safe, MAX_SHARDS);
            match fewest {
                Some(n) => {
                    Sourced::derived(n, "the fewest shards that absorb the conflicts' retries")
                }
                None if args.shards.is_none() && r.scenario.scenario.shards.is_none() => {
                    return Err(InputError::new(
                        r.inputs
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
                    .into())
                }
                None => Sourced::derived(MAX_SHARDS, "unused: the shards are given"),
            }
        }
        None => Sourced::derived(sizing.plan.size().shards, "peak / safe rate, rounded up"),
    };
    let shards = r.shards(args.shards, sized);
    let flag = |name: &'static str, v: Option<f64>, default: f64| {
        Sourced::flag(name, v).unwrap_or(Sourced::default(default))
    };
    let flush = flag("--flush-seconds", args.flush_seconds, DEFAULT_FLUSH_SECONDS);
    let commit = flag(
        "--log-commit-seconds",
        args.log_commit_seconds,
        DEFAULT_LOG_COMMIT_SECONDS,
    );
    let timeout = flag("--timeout-rate", args.timeout_rate, DEFAULT_TIMEOUT_RATE);
    let applied = flag("--applied-share", args.applied_share, DEFAULT_APPLIED_SHARE);
    let retries =
        Sourced::flag("--retries", args.retries).unwrap_or(Sourced::default(DEFAULT_RETRIES));
    let drift = DriftModel::new(
        rate,
        r.inputs.take("timeout_rate", timeout),
        r.inputs.take("applied_share", applied),
        r.inputs.take("retries", retries),
    )
    .map_err(|e| r.blame(e))?;
    let inputs = CompareInputs {
        rate,
        shards,
        cap,
        safe,
        traffic,
        duration_seconds: seconds,
        reads,
        flush_seconds: r.inputs.take("flush_seconds", flush),
        log_commit_seconds: r.inputs.take("log_commit_seconds", commit),
        transactional,
        drift,
    }
    .validate()
    .map_err(|e| r.blame(e))?;
    // The uniqueness and approximate designs (sets, like rows, HyperLogLog,
    // Count-Min, hashes) from their own model, on the same inputs.
    let mut approx = ApproxInputs::new(
        whole_rate(rate, inputs.traffic),
        inputs.reads.views,
        shards,
        cap,
        inputs.duration_seconds,
    )
    .map_err(|e| r.blame(e))?;
    approx.servers = inputs.reads.servers;
    approx.cache_seconds = inputs.reads.cache_seconds;
    if let Some(day) = r.field("likes_per_day", &r.scenario.scenario.likes_per_day) {
        approx.likes_per_day = r.inputs.take("likes_per_day", day);
    }
    approx.validate().map_err(|e| r.blame(e))?;
    let out = OutputSet::prepare(args.out.format, &args.out.output)?;
    let mut comparison = compare(&inputs).map_err(|e| r.blame(e))?;
    let approx_rows = approx_rows(&approx)?;
    comparison
        .rows
        .extend(approx_rows.into_iter().map(StrategyRow::from));
    // One meaning for every row: the store reads one sum of the count (an
    // uncached view) costs; the cached reads/s are that times the sums/s.
    let sums = inputs.reads.cost(shards).sums_cached_per_second;
    for row in &mut comparison.rows {
        row.row.reads_per_view = row.row.reads_per_second / sums;
    }
    let report = CompareReport {
        scenario: r.scenario.name.clone(),
        comparison,
    };
    super::emit(out, &report, &r.inputs, args.out.explain)
}
