//! `shardplan compare`: one row per counter design, every figure from the
//! models `size`, `simulate` and `risk` use (sizing, exact, read cost).

use serde_json::Value;

use crate::cli::CompareArgs;
use crate::config::check;
use crate::config::load::planned_rate as whole_rate;
use crate::config::resolve as common;
use crate::error::InputError;
use crate::model::compare::approx::{approx_rows, ApproxInputs};
use crate::model::compare::exactly_once::{
    shards_for_conflicts, transactional_write_cost, DriftModel,
};
use crate::model::compare::strategies::{
    compare, num, run_length, CompareInputs, Comparison, StrategyRow, Transactional,
};
use crate::model::defaults::MAX_TXN_MS;
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
