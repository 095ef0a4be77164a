//! The five ways to keep a hot like count (issue 7, part 1): one key,
//! shards, per-server buffers, shards of buffers, and a log with a consumer.
//! Over-cap risks come from [`crate::model::exact::Risk`], reads from
//! [`crate::model::sizing::ReadPlan::cost`], conflicts and drift from
//! [`super::exactly_once`]; nothing here re-derives them.

use crate::model::defaults::MAX_PERIOD_SECONDS;
use serde::Serialize;

use super::exactly_once::{shards_for_conflicts, ConflictModel, Conflicts, Drift, DriftModel};
use super::verdict::{CountError, Verdict, RISK_OK};
use super::CompareRow;
use crate::error::{InputError, InputResult};
use crate::model::exact::Risk;
use crate::model::sizing::{shards_for, ReadPlan};
use crate::model::traffic::TrafficModel;
use crate::model::validate;

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
    pub traffic: TrafficModel,
    /// The run the "any second over the cap" figures cover.
    pub duration_seconds: f64,
    pub reads: ReadPlan,
    /// Each likes server writes its tally every this many seconds.
    pub flush_seconds: f64,
    /// The log consumer writes totals every this many seconds.
    pub log_commit_seconds: f64,
    pub transactional: Option<Transactional>,
    /// Timeouts and retries of plain (non-transactional) writes.
    pub drift: DriftModel,
}

impl CompareInputs {
    /// Checks the inputs no other constructor checks.
    pub fn validate(self) -> InputResult<Self> {
        validate::rate("--rate", self.rate)?;
        validate::count("--shards", self.shards, crate::model::defaults::MAX_SHARDS)?;
        period("--flush-seconds", self.flush_seconds)?;
        period("--log-commit-seconds", self.log_commit_seconds)?;
        Ok(self)
    }
}

fn period(what: &'static str, v: f64) -> InputResult<f64> {
    validate::positive(what, v)?;
    if v > crate::model::defaults::MAX_PERIOD_SECONDS {
        return Err(InputError::new(
            what,
            format!("must be at most {MAX_PERIOD_SECONDS} seconds (got {v})"),
        ));
    }
    Ok(v)
}

/// One strategy's row: the shared [`CompareRow`] plus the figures only the
/// write-path designs have (CSV columns and JSON fields, all snake_case).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StrategyRow {
    #[serde(flatten)]
    pub row: CompareRow,
    /// Keys the count is written to.
    pub keys: Option<u64>,
    /// Natural logs of the two over-cap chances where they come from the
    /// exact risk: finite where a chance underflows f64 (prints 0).
    pub ln_p_over_cap_per_second: Option<f64>,
    pub ln_p_any_over_cap: Option<f64>,
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
    /// Drift of the live count from timed-out increments, per hour.
    pub overcount_per_hour: Option<f64>,
    pub undercount_per_hour: Option<f64>,
    pub net_drift_per_hour: Option<f64>,
}

impl From<CompareRow> for StrategyRow {
    /// A row from another model (the approximate designs): no write-path extras.
    fn from(row: CompareRow) -> Self {
        StrategyRow {
            row,
            keys: None,
            ln_p_over_cap_per_second: None,
            ln_p_any_over_cap: None,
            cap_likes_per_key: None,
            reads_uncached_per_second: None,
            p_conflict: None,
            attempts_per_like: None,
            cancellations_per_second: None,
            overcount_per_hour: None,
            undercount_per_hour: None,
            net_drift_per_hour: None,
        }
    }
}

/// The transactional figures of the per-like designs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TransactionalSummary {
    pub write_cost: f64,
    pub txn_ms: f64,
    /// cap / write cost: likes/s a key takes before conflicts.
    pub cap_likes_per_key: f64,
    /// ceil(rate x cost / safe): the sizing with the cost alone.
    pub shards_without_conflicts: u64,
    /// Fewest shards with r x cost / (1 - p(r)) <= safe, r = rate / S.
    pub shards_with_conflicts: Option<u64>,
    /// The conflicts at the compared shard count.
    pub conflicts: Conflicts,
    pub shards: u64,
}

/// The comparison: one row per strategy, plus the transactional summary.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    pub inputs: CompareInputs,
    pub rows: Vec<StrategyRow>,
    pub transactional: Option<TransactionalSummary>,
    /// Drift of the increment designs without transactions.
    pub drift: Drift,
    /// Shards the sharded-buffered design uses.
    pub buffered_shards: u64,
}

/// The per-like write designs.
#[derive(Debug, Clone, Copy)]
enum Design {
    /// Every like increments one key.
    Single,
    /// Every like increments one of S shard keys.
    Sharded,
}

impl Design {
    fn name(self) -> &'static str {
        match self {
            Design::Single => "single",
            Design::Sharded => "sharded",
        }
    }
}

/// The buffered designs: servers flush tallies to one key, or to several.
#[derive(Debug, Clone, Copy)]
enum Buffering {
    One,
    Sharded,
}

impl Buffering {
    fn name(self) -> &'static str {
        match self {
            Buffering::One => "buffered",
            Buffering::Sharded => "sharded-buffered",
        }
    }
}

/// The fewest keys so that ceil(servers / keys) flushes every F seconds
/// stay within `safe` writes/s (server i writes key i mod keys); `servers`
/// keys (one each) when even that is over.
pub fn buffered_shards(servers: u64, flush_seconds: f64, safe: f64) -> u64 {
    let per_key = (safe * flush_seconds * (1.0 + 1e-12)).floor();
    if per_key < 1.0 {
        return servers;
    }
    servers.div_ceil(per_key.min(servers as f64) as u64).max(1)
}

/// Figures of a key written at a steady rate: the writes are deterministic
/// (one per server per flush), so the chance of a second over the cap is 1
/// or 0, not a distribution.
fn deterministic(writes: f64, cap: f64) -> f64 {
    if writes > cap {
        1.0
    } else {
        0.0
    }
}

/// Builds every row. Errors name the flag (from [`Risk::compute`]).
pub fn compare(inputs: &CompareInputs) -> InputResult<Comparison> {
    let i = inputs;
    let n = i.reads.servers as f64;
    let f = i.flush_seconds;
    let views = i.reads.views;
    let one_key = i.reads.cost(1);
    let drift = i.drift.drift();
    let retries = i.drift.retries > 0;

    // Per-like writes (single, sharded): transactions change the cost per
    // like and add conflicts; plain increments drift instead.
    let per_like = |keys: u64, design: Design| -> InputResult<(StrategyRow, Option<Conflicts>)> {
        let r = i.rate / keys as f64;
        let (cost, conflicts) = match i.transactional {
            Some(t) => {
                let c = ConflictModel::new(r, t.txn_ms, t.write_cost)?.conflicts();
                (t.write_cost, Some(c))
            }
            None => (1.0, None),
        };
        let attempts = conflicts.as_ref().map_or(1.0, |c| c.attempts_per_like);
        // Retries add load in proportion, so the key takes fewer likes.
        let cap_likes = i.cap / (cost * attempts);
        let risk = Risk::compute(i.rate, keys, cap_likes, i.duration_seconds, i.traffic)?;
        let cost_reads = i.reads.cost(keys);
        let tx = i.transactional.is_some();
        let verdict = match design {
            Design::Single => match &conflicts {
                Some(c) if c.p_conflict > 0.5 => Verdict::TransactionsConflict {
                    p_conflict: c.p_conflict,
                    attempts_per_like: c.attempts_per_like,
                },
                _ if risk.p_any_over_cap > RISK_OK => Verdict::OneKeyOverCap {
                    rate: i.rate,
                    cap_likes_per_key: cap_likes,
                },
                _ => Verdict::SimplestExact,
            },
            Design::Sharded if risk.p_any_over_cap > RISK_OK => Verdict::AddShards {
                seconds: i.duration_seconds,
                p_any_over_cap: risk.p_any_over_cap,
            },
            Design::Sharded => Verdict::ExactAndLive { shards: i.shards },
        };
        let row = CompareRow {
            strategy: design.name().into(),
            exact: true,
            error: None,
            writes_per_key_per_second: r,
            p_over_cap_per_second: Some(risk.p_over_cap_per_second),
            p_any_over_cap: Some(risk.p_any_over_cap),
            reads_per_second: cost_reads.reads_cached_per_second,
            reads_per_view: cost_reads.reads_cached_per_second / views,
            freshness_lag_seconds: i.reads.cache_seconds,
            crash_loss_likes: 0.0,
            // A retried increment that had been applied counts one like twice;
            // a retried transaction finds its like row (the condition that it
            // does not exist yet) and is cancelled: no second count.
            double_count_likes: if retries && !tx { 1.0 } else { 0.0 },
            memory_bytes: None,
            verdict,
        };
        let mut s = StrategyRow::from(row);
        s.ln_p_over_cap_per_second = Some(risk.ln_p_over_cap_per_second);
        s.ln_p_any_over_cap = Some(risk.ln_p_any_over_cap);
        s.keys = Some(keys);
        s.cap_likes_per_key = Some(cap_likes);
        s.reads_uncached_per_second = Some(cost_reads.reads_uncached_per_second);
        if let Some(c) = &conflicts {
            s.p_conflict = Some(c.p_conflict);
            s.attempts_per_like = Some(c.attempts_per_like);
            s.cancellations_per_second = Some(c.cancellations_per_second * keys as f64);
        }
        let d = if tx {
            zero_drift(&drift)
        } else {
            drift.clone()
        };
        set_drift(&mut s, &d);
        Ok((s, conflicts))
    };

    let (single, _) = per_like(1, Design::Single)?;
    let (sharded, conflicts) = per_like(i.shards, Design::Sharded)?;

    // Buffered: each of N servers writes one +n per key every F seconds
    // (at most N/F writes/s, and never more than one per like). Plain
    // increments: the like rows and a +n cannot share a transaction.
    let buffered_row = |keys: u64, design: Buffering| -> StrategyRow {
        let per_key_servers = i.reads.servers.div_ceil(keys) as f64;
        let writes = (per_key_servers / f).min(i.rate / keys as f64);
        let p = deterministic(writes, i.cap);
        let reads = i.reads.cost(keys);
        // One server holds rate / N likes a second for up to F seconds.
        let loss = i.rate / n * f;
        let verdict = match design {
            Buffering::One if writes > i.safe => Verdict::ShardTheBuffers {
                writes,
                safe: i.safe,
            },
            Buffering::One => Verdict::FewestWrites {
                writes,
                crash_loss: loss,
            },
            Buffering::Sharded if writes > i.safe => Verdict::FlushLessOften {
                writes,
                safe: i.safe,
            },
            Buffering::Sharded if keys == 1 => Verdict::BufferedNotNeeded,
            Buffering::Sharded => Verdict::BufferedKeys {
                keys,
                writes,
                safe: i.safe,
            },
        };
        let row = CompareRow {
            strategy: design.name().into(),
            exact: false,
            error: Some(CountError::CrashLoss { likes: loss }),
            writes_per_key_per_second: writes,
            p_over_cap_per_second: Some(p),
            p_any_over_cap: Some(p),
            reads_per_second: reads.reads_cached_per_second,
            reads_per_view: reads.reads_cached_per_second / views,
            freshness_lag_seconds: f + i.reads.cache_seconds,
            crash_loss_likes: loss,
            // A retried +n that had been applied counts n likes twice.
            double_count_likes: if retries { loss } else { 0.0 },
            memory_bytes: None,
            verdict,
        };
        let mut s = StrategyRow::from(row);
        s.keys = Some(keys);
        s.cap_likes_per_key = Some(i.cap);
        s.reads_uncached_per_second = Some(reads.reads_uncached_per_second);
        set_drift(&mut s, &drift);
        s
    };
    let buffered = buffered_row(1, Buffering::One);
    let buffered_shards = buffered_shards(i.reads.servers, f, i.safe);
    let sharded_buffered = buffered_row(buffered_shards, Buffering::Sharded);

    // Log: every like is an event; one consumer writes the total (a set,
    // not an increment) every C seconds. A crash after writing the total
    // but before saving the log position replays up to C seconds of
    // events; with --transactional the total and position commit together.
    let c = i.log_commit_seconds;
    let tx = i.transactional.is_some();
    let log_writes = 1.0 / c;
    let log_cost = if tx {
        i.transactional.map_or(1.0, |t| t.write_cost)
    } else {
        1.0
    };
    let replay = if tx { 0.0 } else { i.rate * c };
    let p = deterministic(log_writes * log_cost, i.cap);
    let log = StrategyRow {
        row: CompareRow {
            strategy: "log".into(),
            exact: tx,
            error: (!tx).then_some(CountError::Replay { likes: replay }),
            writes_per_key_per_second: log_writes,
            p_over_cap_per_second: Some(p),
            p_any_over_cap: Some(p),
            reads_per_second: one_key.reads_cached_per_second,
            reads_per_view: one_key.reads_cached_per_second / views,
            freshness_lag_seconds: c + i.reads.cache_seconds,
            crash_loss_likes: 0.0,
            double_count_likes: replay,
            memory_bytes: None,
            verdict: if tx {
                Verdict::ExactlyOnce {
                    lag_seconds: c + i.reads.cache_seconds,
                }
            } else {
                Verdict::NoHotKey {
                    replay_likes: replay,
                }
            },
        },
        ln_p_over_cap_per_second: None,
        ln_p_any_over_cap: None,
        keys: Some(1),
        cap_likes_per_key: Some(i.cap / log_cost),
        reads_uncached_per_second: Some(one_key.reads_uncached_per_second),
        p_conflict: None,
        attempts_per_like: None,
        cancellations_per_second: None,
        // Writing a total (a set) is idempotent: retries cannot drift it.
        overcount_per_hour: Some(0.0),
        undercount_per_hour: Some(0.0),
        net_drift_per_hour: Some(0.0),
    };

    let transactional = i.transactional.map(|t| {
        let units_safe = i.safe;
        TransactionalSummary {
            write_cost: t.write_cost,
            txn_ms: t.txn_ms,
            cap_likes_per_key: i.cap / t.write_cost,
            shards_without_conflicts: shards_for(i.rate * t.write_cost, units_safe),
            shards_with_conflicts: shards_for_conflicts(
                i.rate,
                t.txn_ms,
                t.write_cost,
                units_safe,
                crate::model::defaults::MAX_SHARDS,
            ),
            conflicts: conflicts.clone().unwrap_or(Conflicts {
                rate_per_shard: i.rate / i.shards as f64,
                txn_ms: t.txn_ms,
                write_cost: t.write_cost,
                p_conflict: 0.0,
                attempts_per_like: 1.0,
                cancellations_per_second: 0.0,
                write_units_per_second: 0.0,
            }),
            shards: i.shards,
        }
    });

    Ok(Comparison {
        inputs: i.clone(),
        rows: vec![single, sharded, buffered, sharded_buffered, log],
        transactional,
        drift,
        buffered_shards,
    })
}

fn zero_drift(d: &Drift) -> Drift {
    Drift {
        applied_per_like: 1.0,
        overcount_per_hour: 0.0,
        undercount_per_hour: 0.0,
        net_drift_per_hour: 0.0,
        ..d.clone()
    }
}

fn set_drift(s: &mut StrategyRow, d: &Drift) {
    s.overcount_per_hour = Some(d.overcount_per_hour);
    s.undercount_per_hour = Some(d.undercount_per_hour);
    s.net_drift_per_hour = Some(d.net_drift_per_hour);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inputs(rate: f64, shards: u64) -> CompareInputs {
        CompareInputs {
            rate,
            shards,
            cap: 1000.0,
            safe: 700.0,
            traffic: TrafficModel::Fixed,
            duration_seconds: 14_400.0,
            reads: ReadPlan::new(50_000.0, 40, 2.0, 100, 3000.0).unwrap(),
            flush_seconds: 1.0,
            log_commit_seconds: 5.0,
            transactional: None,
            drift: DriftModel::new(rate, 0.001, 0.5, 2).unwrap(),
        }
    }

    fn row<'a>(c: &'a Comparison, strategy: &str) -> &'a StrategyRow {
        c.rows.iter().find(|r| r.row.strategy == strategy).unwrap()
    }

    #[test]
    fn reference_rows_by_hand() {
        let c = compare(&inputs(9_000.0, 20)).unwrap();
        let names: Vec<_> = c.rows.iter().map(|r| r.row.strategy.as_str()).collect();
        assert_eq!(
            names,
            ["single", "sharded", "buffered", "sharded-buffered", "log"]
        );

        // One key takes every like: 9,000 > 1,000, over the cap every second.
        let s = row(&c, "single");
        assert_eq!(s.row.writes_per_key_per_second, 9_000.0);
        assert_eq!(s.row.p_over_cap_per_second, Some(1.0));
        // Cached: min(50,000 views, 40 servers / 2 s) = 20 sums/s of 1 key.
        assert_eq!(s.row.reads_per_second, 20.0);
        assert_eq!(s.reads_uncached_per_second, Some(50_000.0));
        assert_eq!(s.row.double_count_likes, 1.0);

        // 20 shards: 450 per shard on average; reads 20 x 20 = 400/s cached,
        // 50,000 x 20 = 1,000,000/s uncached (sizing.rs reference).
        let s = row(&c, "sharded");
        assert_eq!(s.row.writes_per_key_per_second, 450.0);
        assert_eq!(s.row.reads_per_second, 400.0);
        assert_eq!(s.reads_uncached_per_second, Some(1_000_000.0));
        let risk = Risk::compute(9_000.0, 20, 1000.0, 14_400.0, TrafficModel::Fixed).unwrap();
        assert_eq!(
            s.row.p_over_cap_per_second,
            Some(risk.p_over_cap_per_second)
        );
        assert_eq!(s.row.p_any_over_cap, Some(risk.p_any_over_cap));

        // 40 servers at 1 s: 40 writes/s on the key, whatever the traffic;
        // one crash loses 9,000 / 40 x 1 = 225 likes.
        let b = row(&c, "buffered");
        assert_eq!(b.row.writes_per_key_per_second, 40.0);
        assert_eq!(b.row.crash_loss_likes, 225.0);
        assert_eq!(b.row.p_over_cap_per_second, Some(0.0));
        assert_eq!(b.row.freshness_lag_seconds, 3.0);
        assert_eq!(b.row.double_count_likes, 225.0);

        // 40 writes/s is under the safe 700: one key is enough.
        assert_eq!(c.buffered_shards, 1);

        // Log: one write per 5 s, 7 s behind, a replay double counts 45,000.
        let l = row(&c, "log");
        assert_eq!(l.row.writes_per_key_per_second, 0.2);
        assert_eq!(l.row.freshness_lag_seconds, 7.0);
        assert_eq!(l.row.double_count_likes, 45_000.0);
        assert_eq!(l.row.crash_loss_likes, 0.0);
        assert_eq!(l.net_drift_per_hour, Some(0.0));
    }

    #[test]
    fn buffered_is_traffic_independent_and_sharded_buffered_splits_servers() {
        for rate in [9_000.0, 200_000.0] {
            let c = compare(&inputs(rate, 20)).unwrap();
            assert_eq!(row(&c, "buffered").row.writes_per_key_per_second, 40.0);
        }
        // 4,000 servers at 1 s: 4,000 writes/s on one key is over the cap;
        // 700 per key needs ceil(4,000 / 700) = 6 keys, 667 servers each.
        let mut i = inputs(200_000.0, 286);
        i.reads = ReadPlan::new(50_000.0, 4_000, 2.0, 100, 3000.0).unwrap();
        let c = compare(&i).unwrap();
        assert_eq!(row(&c, "buffered").row.p_over_cap_per_second, Some(1.0));
        assert_eq!(c.buffered_shards, 6);
        let sb = row(&c, "sharded-buffered");
        assert_eq!(sb.row.writes_per_key_per_second, 667.0);
        assert_eq!(sb.row.p_over_cap_per_second, Some(0.0));
        assert_eq!(sb.row.crash_loss_likes, 50.0);
        // Firestore-like: 1 write/s per key, safe 0.7: a key per server.
        assert_eq!(buffered_shards(40, 1.0, 0.7), 40);
        assert_eq!(buffered_shards(40, 2.0, 0.7), 40);
        assert_eq!(buffered_shards(40, 10.0, 0.7), 6);
    }

    #[test]
    fn transactions_halve_the_cap_and_stop_drift() {
        let mut i = inputs(14_000.0, 40);
        i.transactional = Some(Transactional {
            write_cost: 2.0,
            txn_ms: 0.0,
        });
        let c = compare(&i).unwrap();
        let s = row(&c, "sharded");
        assert_eq!(s.cap_likes_per_key, Some(500.0));
        assert_eq!(s.p_conflict, Some(0.0));
        assert_eq!(s.net_drift_per_hour, Some(0.0));
        assert_eq!(s.row.double_count_likes, 0.0);
        let t = c.transactional.as_ref().unwrap();
        // 14,000 x 2 / 700 = 40 shards (20 without transactions).
        assert_eq!(t.shards_without_conflicts, 40);
        assert_eq!(t.shards_with_conflicts, Some(40));
        assert_eq!(row(&c, "log").row.double_count_likes, 0.0);

        i.transactional = Some(Transactional {
            write_cost: 2.0,
            txn_ms: 10.0,
        });
        let c = compare(&i).unwrap();
        let s = row(&c, "sharded");
        // r = 350/s, d = 10 ms: p = 1 - e^-3.5.
        let p = 1.0 - (-3.5f64).exp();
        assert!((s.p_conflict.unwrap() - p).abs() < 1e-12);
        assert!((s.attempts_per_like.unwrap() - 3.5f64.exp()).abs() < 1e-9);
        assert!(
            (s.cancellations_per_second.unwrap() - 14_000.0 * (3.5f64.exp() - 1.0)).abs() < 1e-6
        );
        assert!(c.transactional.unwrap().shards_with_conflicts.unwrap() > 40);
    }

    #[test]
    fn bad_periods_name_the_flag() {
        let mut i = inputs(9_000.0, 20);
        i.flush_seconds = 0.0;
        assert_eq!(i.validate().unwrap_err().what, "--flush-seconds");
        let mut i = inputs(9_000.0, 20);
        i.log_commit_seconds = f64::NAN;
        assert_eq!(i.validate().unwrap_err().what, "--log-commit-seconds");
    }
}
