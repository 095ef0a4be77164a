//! `shardplan compare`: one row per counter design, every figure from the
//! models `size`, `simulate` and `risk` use (sizing, exact, read cost).

use crate::cli::CompareArgs;
use crate::commands::risk::whole_rate;
use crate::config::check;
use crate::config::resolve as common;
use crate::error::InputError;
use crate::model::compare::approx::{approx_rows, ApproxInputs};
use crate::model::compare::exactly_once::{
    shards_for_conflicts, transactional_write_cost, DriftModel,
};
use crate::model::compare::strategies::{compare, CompareInputs, StrategyRow, Transactional};
use crate::model::defaults::MAX_TXN_MS;
use crate::output::OutputSet;
use crate::views::compare::CompareReport;

pub fn run(args: CompareArgs) -> anyhow::Result<()> {
    let scenario = common::load_scenario(&args.scenario)?;
    let s = &scenario.scenario;
    let (peak, plan) = common::sizing_plan(&scenario, &args.sizing)?;
    let reads = common::read_plan(&scenario, &args.reads, args.sizing.store)?;
    let rate = match args.rate {
        Some(r) => check::rate("--rate", r)?,
        None => whole_rate(
            s.rate.unwrap_or(peak.peak),
            args.traffic.or(s.traffic).unwrap_or_default(),
        ),
    };
    // The sizing's cap and safe rate are per like; the comparison wants the
    // store's own units (buffered and log writes are not transactions).
    let cost = common::write_cost(&scenario, &args.sizing);
    let (cap, safe) = (plan.cap * cost, plan.safe_per_shard() * cost);
    let transactional = if args.sizing.transactional {
        let txn_ms = check::non_negative(
            "--txn-ms",
            args.txn_ms
                .unwrap_or(crate::model::defaults::DEFAULT_TXN_MS),
        )?;
        if txn_ms > MAX_TXN_MS {
            return Err(InputError::new(
                "--txn-ms",
                format!("must be at most {MAX_TXN_MS} ms (got {txn_ms})"),
            )
            .into());
        }
        Some(Transactional {
            write_cost: transactional_write_cost(args.sizing.store.or(s.store_preset)),
            txn_ms,
        })
    } else {
        if args.txn_ms.is_some() {
            return Err(InputError::new("--txn-ms", "needs --transactional").into());
        }
        None
    };
    let shards = match (args.shards.or(s.shards), transactional) {
        (Some(n), _) => n,
        (None, Some(t)) => {
            shards_for_conflicts(peak.peak, t.txn_ms, t.write_cost, safe, crate::model::defaults::MAX_SHARDS)
                .ok_or_else(|| {
                    InputError::new(
                        "--txn-ms",
                        format!(
                            "{} ms transactions conflict so often at {} likes/s that no shard \
                             count up to {} keeps under the safe rate; lower --txn-ms or give --shards",
                            t.txn_ms,
                            peak.peak,
                            crate::model::defaults::MAX_SHARDS
                        ),
                    )
                })?
        }
        (None, None) => plan.size().shards,
    };
    let inputs = CompareInputs {
        rate,
        shards,
        cap,
        safe,
        traffic: args.traffic.or(s.traffic).unwrap_or_default(),
        duration_seconds: args
            .duration
            .map_or(crate::model::defaults::DEFAULT_DURATION_SECONDS, |d| {
                d as f64
            }),
        reads,
        flush_seconds: args
            .flush_seconds
            .unwrap_or(crate::model::defaults::DEFAULT_FLUSH_SECONDS),
        log_commit_seconds: args
            .log_commit_seconds
            .unwrap_or(crate::model::defaults::DEFAULT_LOG_COMMIT_SECONDS),
        transactional,
        drift: DriftModel::new(
            rate,
            args.timeout_rate
                .unwrap_or(crate::model::defaults::DEFAULT_TIMEOUT_RATE),
            args.applied_share
                .unwrap_or(crate::model::defaults::DEFAULT_APPLIED_SHARE),
            args.retries
                .unwrap_or(crate::model::defaults::DEFAULT_RETRIES),
        )?,
    }
    .validate()?;
    // The uniqueness and approximate designs (sets, like rows, HyperLogLog,
    // Count-Min, hashes) from their own model, on the same inputs.
    let mut approx = ApproxInputs::new(
        whole_rate(rate, inputs.traffic),
        inputs.reads.views,
        shards,
        cap,
        inputs.duration_seconds,
    )?;
    approx.servers = inputs.reads.servers;
    approx.cache_seconds = inputs.reads.cache_seconds;
    if let Some(day) = s.likes_per_day {
        approx.likes_per_day = day;
    }
    approx.validate()?;
    let out = OutputSet::prepare(args.out.format, &args.out.output)?;
    let mut comparison = compare(&inputs)?;
    comparison
        .rows
        .extend(approx_rows(&approx)?.into_iter().map(StrategyRow::from));
    // One meaning for every row: the store reads one sum of the count (an
    // uncached view) costs; the cached reads/s are that times the sums/s.
    let sums = inputs.reads.cost(shards).sums_cached_per_second;
    for r in &mut comparison.rows {
        r.row.reads_per_view = r.row.reads_per_second / sums;
    }
    out.emit(&CompareReport {
        scenario: scenario.name.clone(),
        comparison,
    })
}
