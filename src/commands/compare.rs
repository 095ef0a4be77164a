//! `shardplan compare`: one row per counter design, every figure from the
//! models `size`, `simulate` and `risk` use (sizing, exact, read cost).

use serde_json::Value;

use crate::cli::CompareArgs;
use crate::config::load::planned_rate as whole_rate;
use crate::config::{Resolver, Sourced};
use crate::error::InputError;
use crate::model::compare::approx::{approx_rows, ApproxInputs};
use crate::model::compare::exactly_once::{shards_for_conflicts, DriftModel};
use crate::model::compare::strategies::{
    compare, num, run_length, CompareInputs, Comparison, StrategyRow, Transactional,
};
use crate::model::defaults::{
    DEFAULT_APPLIED_SHARE, DEFAULT_FLUSH_SECONDS, DEFAULT_LOG_COMMIT_SECONDS, DEFAULT_RETRIES,
    DEFAULT_TIMEOUT_RATE, DEFAULT_TXN_MS, MAX_SHARDS, MAX_TXN_MS,
};
use crate::model::validate;
use crate::output::{fmt, row, OutputSet, Report, Section};

/// `compare`'s report: the rows plus what the tables need.
pub struct CompareReport {
    pub scenario: String,
    pub comparison: Comparison,
}

impl Report for CompareReport {
    fn rows(&self) -> Vec<Value> {
        self.comparison.rows.iter().map(row).collect()
    }

    fn json(&self) -> Value {
        Value::Array(self.rows())
    }

    fn sections(&self) -> Vec<Section> {
        let c = &self.comparison;
        let i = &c.inputs;
        let run = run_length(i.duration_seconds);
        let mut inputs = vec![
            ("scenario", self.scenario.clone()),
            (
                "rate",
                format!("{} likes/s ({})", fmt::num(i.rate), i.traffic.name()),
            ),
            (
                "cap per key",
                format!(
                    "{} writes/s, safe {} (headroom kept for unevenness)",
                    fmt::num(i.cap),
                    fmt::num(i.safe)
                ),
            ),
            (
                "servers",
                format!(
                    "{}, each flushing its tally every {} s (buffered designs)",
                    i.reads.servers,
                    fmt::num(i.flush_seconds)
                ),
            ),
            (
                "log consumer",
                format!("writes totals every {} s", fmt::num(i.log_commit_seconds)),
            ),
            (
                "reads",
                format!(
                    "{} views/s, sum cached {} s on each server",
                    fmt::num(i.reads.views),
                    fmt::num(i.reads.cache_seconds)
                ),
            ),
            (
                "over-cap chance",
                format!(
                    "exact (as `risk`) for per-like writes; buffered and log writes are steady, \
                     so over the cap is 1 or 0; run of {run}"
                ),
            ),
        ];
        if let Some(t) = i.transactional {
            inputs.push((
                "transactions",
                format!(
                    "like row + increment in one transaction: {} units a like, {} ms each",
                    fmt::num(t.write_cost),
                    fmt::num(t.txn_ms)
                ),
            ));
        }
        let header = [
            "strategy",
            "keys",
            "writes/key/s",
            "P(second over cap)",
            &format!("P(any over, {run})"),
            "reads/s cached (uncached)",
            "lag s",
            "crash loss",
            "double count",
            "verdict",
        ];
        let opt_prob = |p: Option<f64>| p.map_or("n/a".to_string(), fmt::prob);
        let rows =
            c.rows
                .iter()
                .map(|r: &StrategyRow| {
                    let x = &r.row;
                    vec![
                        x.strategy.clone(),
                        r.keys.map_or(String::new(), |k| k.to_string()),
                        num(x.writes_per_key_per_second),
                        match (x.p_over_cap_per_second, r.ln_p_over_cap_per_second) {
                            (Some(p), Some(ln)) => fmt::prob_ln(p, ln)
                                .replace(" (below f64's range; from its log)", "*"),
                            (p, _) => opt_prob(p),
                        },
                        match (x.p_any_over_cap, r.ln_p_any_over_cap) {
                            (Some(p), Some(ln)) => fmt::prob_ln(p, ln)
                                .replace(" (below f64's range; from its log)", "*"),
                            (p, _) => opt_prob(p),
                        },
                        match r.reads_uncached_per_second {
                            Some(u) => format!("{} ({})", num(x.reads_per_second), num(u)),
                            None => num(x.reads_per_second),
                        },
                        num(x.freshness_lag_seconds),
                        num(x.crash_loss_likes),
                        num(x.double_count_likes),
                        x.verdict.clone(),
                    ]
                })
                .collect();
        let mut sections = vec![
            Section::pairs("Compare", inputs),
            Section::Grid {
                title: "Strategies".into(),
                header: header.iter().map(|h| h.to_string()).collect(),
                rows,
            },
            Section::Grid {
                title: "Exactness and memory".into(),
                header: [
                    "strategy",
                    "count",
                    "error",
                    "memory",
                    "store reads per sum",
                ]
                .map(String::from)
                .to_vec(),
                rows: c
                    .rows
                    .iter()
                    .map(|r| {
                        let x = &r.row;
                        vec![
                            x.strategy.clone(),
                            if x.exact { "exact" } else { "approximate" }.to_string(),
                            x.error.clone().unwrap_or_else(|| "none".into()),
                            x.memory_bytes
                                .map(|b| format!("{} bytes", fmt::num(b.round())))
                                .unwrap_or_else(|| "-".into()),
                            fmt::num(x.reads_per_view),
                        ]
                    })
                    .collect(),
            },
        ];

        let d = &c.drift;
        let drift_rows = c
            .rows
            .iter()
            .filter_map(|r| {
                Some(vec![
                    r.row.strategy.clone(),
                    num(r.overcount_per_hour?),
                    num(r.undercount_per_hour?),
                    num(r.net_drift_per_hour?),
                ])
            })
            .collect();
        sections.push(Section::Grid {
            title: format!(
                "Drift per hour at {} likes/s (timeouts {}, {} of them applied, up to {} retries)",
                fmt::num(i.rate),
                fmt::percent(d.timeout_rate),
                fmt::percent(d.applied_share),
                d.retries
            ),
            header: ["strategy", "overcount/h", "undercount/h", "net drift/h"]
                .iter()
                .map(|h| h.to_string())
                .collect(),
            rows: drift_rows,
        });
        let underflow = c.rows.iter().any(|r| {
            r.row.p_over_cap_per_second == Some(0.0)
                && r.ln_p_over_cap_per_second.is_some_and(f64::is_finite)
        });
        if underflow {
            sections.push(Section::Note(
                "* below f64's range, printed from its logarithm (JSON: the ln_ fields)".into(),
            ));
        }
        sections.push(Section::Note(
            "Increments are not idempotent: a retried increment that had been applied counts \
             twice, a like whose every attempt failed is missing. The nightly reconciliation \
             (counting the like rows) corrects the drift; transactions and the log's totals do \
             not drift."
                .into(),
        ));

        if let Some(t) = &c.transactional {
            let k = &t.conflicts;
            sections.push(Section::pairs(
                "Transactions (conflict model)",
                vec![
                    (
                        "cap per key",
                        format!(
                            "{} likes/s = {} / {} units",
                            num(t.cap_likes_per_key),
                            fmt::num(i.cap),
                            fmt::num(t.write_cost)
                        ),
                    ),
                    (
                        "per shard",
                        format!(
                            "{} likes/s over {} shards, each transaction {} ms",
                            num(k.rate_per_shard),
                            t.shards,
                            fmt::num(t.txn_ms)
                        ),
                    ),
                    (
                        "P(conflict)",
                        format!("{} = 1 - exp(-r d / 1000)", fmt::prob(k.p_conflict)),
                    ),
                    (
                        "attempts per like",
                        format!("{} = 1 / (1 - p)", num(k.attempts_per_like)),
                    ),
                    (
                        "cancellations (= retries)",
                        format!(
                            "{}/s per shard, {}/s in all",
                            num(k.cancellations_per_second),
                            num(k.cancellations_per_second * t.shards as f64)
                        ),
                    ),
                    (
                        "write units per shard",
                        format!(
                            "{}/s (safe {})",
                            num(k.write_units_per_second),
                            fmt::num(i.safe)
                        ),
                    ),
                    (
                        "shards needed",
                        format!(
                            "{} for the cost alone; {} with the conflicts' retries",
                            t.shards_without_conflicts,
                            t.shards_with_conflicts
                                .map_or("more than 100,000".to_string(), |s| s.to_string())
                        ),
                    ),
                ],
            ));
        }
        sections
    }
}

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
    .map_err(|e| r.inputs.attach_model(e))?;
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
    .map_err(|e| r.inputs.attach_model(e))?;
    // The uniqueness and approximate designs (sets, like rows, HyperLogLog,
    // Count-Min, hashes) from their own model, on the same inputs.
    let mut approx = ApproxInputs::new(
        whole_rate(rate, inputs.traffic),
        inputs.reads.views,
        shards,
        cap,
        inputs.duration_seconds,
    )
    .map_err(|e| r.inputs.attach_model(e))?;
    approx.servers = inputs.reads.servers;
    approx.cache_seconds = inputs.reads.cache_seconds;
    if let Some(day) = r.field("likes_per_day", &r.scenario.scenario.likes_per_day) {
        approx.likes_per_day = r.inputs.take("likes_per_day", day);
    }
    approx.validate().map_err(|e| r.inputs.attach_model(e))?;
    let out = OutputSet::prepare(args.out.format, &args.out.output)?;
    let mut comparison = compare(&inputs).map_err(|e| r.inputs.attach_model(e))?;
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
