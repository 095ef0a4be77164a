//! The rows of the five write-path designs, each with its verdict: per-like
//! writes to one key or to shards, buffered tallies to one key or to
//! several, and a log with a consumer.

use super::{CompareInputs, Comparison, StrategyRow, TransactionalSummary};
use crate::error::ParamResult;
use crate::model::compare::exactly_once::{shards_for_conflicts, ConflictModel, Conflicts, Drift};
use crate::model::compare::verdict::{CountError, Verdict};
use crate::model::compare::CompareRow;
use crate::model::picker::risk::key_over_cap;
use crate::model::picker::{Picker, Writers};
use crate::model::sizing::shards_for;

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

/// Builds every row. Errors name the model parameter (from
/// [`key_over_cap`]).
pub fn compare(inputs: &CompareInputs) -> ParamResult<Comparison> {
    let i = inputs;
    let drift = i.drift.drift();
    let (single, _) = per_like_row(i, 1, Design::Single, &drift)?;
    let (sharded, conflicts) = per_like_row(i, i.shards, Design::Sharded, &drift)?;
    let buffered = buffered_row(i, 1, Buffering::One, &drift);
    let buffered_shards = buffered_shards(i.reads.servers, i.flush_seconds, i.safe);
    let sharded_buffered = buffered_row(i, buffered_shards, Buffering::Sharded, &drift);
    let log = log_row(i);
    let transactional = transactional_summary(i, conflicts);
    Ok(Comparison {
        inputs: i.clone(),
        rows: vec![single, sharded, buffered, sharded_buffered, log],
        transactional,
        drift,
        buffered_shards,
    })
}

impl Design {
    /// The verdict on a per-like design over `keys` keys, from its
    /// conflicts (with `--transactional`) and its over-cap risk.
    fn verdict(
        self,
        i: &CompareInputs,
        conflicts: Option<&Conflicts>,
        p_any: f64,
        cap_likes: f64,
    ) -> Verdict {
        match self {
            Design::Single => match conflicts {
                Some(c) if c.p_conflict > 0.5 => Verdict::TransactionsConflict {
                    p_conflict: c.p_conflict,
                    attempts_per_like: c.attempts_per_like,
                },
                _ if p_any > i.risk => Verdict::OneKeyOverCap {
                    rate: i.rate,
                    cap_likes_per_key: cap_likes,
                },
                _ => Verdict::SimplestExact,
            },
            Design::Sharded if p_any > i.risk => Verdict::AddShards {
                seconds: i.duration_seconds,
                key_p_any_over_cap: p_any,
            },
            Design::Sharded => Verdict::ExactAndLive { shards: i.shards },
        }
    }
}

/// Per-like writes (single, sharded) to `keys` keys: transactions change
/// the cost per like and add conflicts; plain increments drift instead.
fn per_like_row(
    i: &CompareInputs,
    keys: u64,
    design: Design,
    drift: &Drift,
) -> ParamResult<(StrategyRow, Option<Conflicts>)> {
    let retries = i.drift.retries > 0;
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
    // The per-key figure `size` weighs: the plan's law and writers (one
    // key splits nothing, whatever the picker).
    let writers = match design {
        Design::Sharded => i.writers,
        Design::Single => Writers {
            picker: Picker::Random,
            ..i.writers
        },
    };
    // The rate as resolved (a fractional rate under fixed traffic is
    // refused, naming --rate, as `risk` refuses it).
    let over = key_over_cap(i.rate, keys, cap_likes, i.traffic, writers)?;
    let (ln_p, ln_any) = (over.ln_p_per_second, over.ln_p_any(i.duration_seconds));
    let cost_reads = i.reads.cost(keys);
    let tx = i.transactional.is_some();
    let verdict = design.verdict(i, conflicts.as_ref(), ln_any.exp(), cap_likes);
    let row = CompareRow {
        strategy: design.name().into(),
        exact: true,
        error: None,
        writes_per_key_per_second: r,
        key_p_over_cap_per_second: Some(ln_p.exp()),
        key_p_any_over_cap: Some(ln_any.exp()),
        reads_per_second: cost_reads.reads_cached_per_second,
        reads_per_view: cost_reads.reads_cached_per_second / i.reads.views,
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
    s.key_ln_p_over_cap_per_second = Some(ln_p);
    s.key_ln_p_any_over_cap = Some(ln_any);
    s.keys = Some(keys);
    s.cap_likes_per_key = Some(cap_likes);
    s.reads_uncached_per_second = Some(cost_reads.reads_uncached_per_second);
    if let Some(c) = &conflicts {
        s.p_conflict = Some(c.p_conflict);
        s.attempts_per_like = Some(c.attempts_per_like);
        s.cancellations_per_second = Some(c.cancellations_per_second * keys as f64);
    }
    let d = if tx { zero_drift(drift) } else { drift.clone() };
    set_drift(&mut s, &d);
    Ok((s, conflicts))
}

impl Buffering {
    /// The verdict on buffers flushed to `keys` keys at `writes` writes/s
    /// each, losing `crash_loss` likes when a server crashes.
    fn verdict(self, i: &CompareInputs, keys: u64, writes: f64, crash_loss: f64) -> Verdict {
        match self {
            Buffering::One if writes > i.safe => Verdict::ShardTheBuffers {
                writes,
                safe: i.safe,
            },
            Buffering::One => Verdict::FewestWrites { writes, crash_loss },
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
        }
    }
}

/// Buffered: each of N servers writes one +n per key every F seconds
/// (at most N/F writes/s, and never more than one per like). Plain
/// increments: the like rows and a +n cannot share a transaction.
fn buffered_row(i: &CompareInputs, keys: u64, design: Buffering, drift: &Drift) -> StrategyRow {
    let n = i.reads.servers as f64;
    let f = i.flush_seconds;
    let retries = i.drift.retries > 0;
    let per_key_servers = i.reads.servers.div_ceil(keys) as f64;
    let writes = (per_key_servers / f).min(i.rate / keys as f64);
    let p = deterministic(writes, i.cap);
    let reads = i.reads.cost(keys);
    // One server holds rate / N likes a second for up to F seconds.
    let loss = i.rate / n * f;
    let verdict = design.verdict(i, keys, writes, loss);
    let row = CompareRow {
        strategy: design.name().into(),
        exact: false,
        error: Some(CountError::CrashLoss { likes: loss }),
        writes_per_key_per_second: writes,
        key_p_over_cap_per_second: Some(p),
        key_p_any_over_cap: Some(p),
        reads_per_second: reads.reads_cached_per_second,
        reads_per_view: reads.reads_cached_per_second / i.reads.views,
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
    set_drift(&mut s, drift);
    s
}

/// Log: every like is an event; one consumer writes the total (a set,
/// not an increment) every C seconds. A crash after writing the total
/// but before saving the log position replays up to C seconds of
/// events; with --transactional the total and position commit together.
fn log_row(i: &CompareInputs) -> StrategyRow {
    let one_key = i.reads.cost(1);
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
    StrategyRow {
        row: CompareRow {
            strategy: "log".into(),
            exact: tx,
            error: (!tx).then_some(CountError::Replay { likes: replay }),
            writes_per_key_per_second: log_writes,
            key_p_over_cap_per_second: Some(p),
            key_p_any_over_cap: Some(p),
            reads_per_second: one_key.reads_cached_per_second,
            reads_per_view: one_key.reads_cached_per_second / i.reads.views,
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
        key_ln_p_over_cap_per_second: None,
        key_ln_p_any_over_cap: None,
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
        costs: Default::default(),
    }
}

/// With `--transactional`: what transactions cost and how many shards
/// they need, with the sharded design's `conflicts` (none on one shard).
fn transactional_summary(
    i: &CompareInputs,
    conflicts: Option<Conflicts>,
) -> Option<TransactionalSummary> {
    i.transactional.map(|t| {
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
            conflicts: conflicts.unwrap_or(Conflicts {
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
