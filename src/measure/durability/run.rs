//! A durability run from start to end: claim the keys, drive the writers
//! (and the log's consumer) while the fault strikes, read the count back
//! once every slot answers, and delete the keys.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail};
use redis::Value;

use super::consumer::{self, Consumed};
use super::fault::{self, FaultReport};
use super::node::{Router, Sent};
use super::writers::{self, Shared};
use super::{Design, DurabilityConfig, DurabilityReport, Lag, Rebuild};
use crate::error::Interrupted;
use crate::measure::cluster::Target;
use crate::measure::keys::{self, RunKeys};
use crate::measure::url::redact;

/// How long the run tries to read the count back after the writes (a
/// failover in progress must finish first).
const READ_BACK_LIMIT: Duration = Duration::from_secs(30);

/// Runs `config`: the writes, the fault, the count read back, the keys
/// deleted (unless `--keep`).
///
/// Errors: a bad config, or keys that already exist, as an
/// [`InputError`](crate::error::InputError) inside the `anyhow::Error`; a
/// run stopped by a signal as [`Interrupted`]; a server that cannot be
/// reached before the writes, or a count that cannot be read back, as a
/// plain error. A count that cannot be reconciled is in the report
/// (`durability.reconciled`), for the caller to fail on.
pub fn run(config: &DurabilityConfig) -> anyhow::Result<DurabilityReport> {
    config.validate()?;
    let base = &config.base;
    let target = Target::connect(base)?;
    let keys = RunKeys::choose(base.template.as_ref(), base.shards, base.cluster, &target)?;
    let counters: Vec<String> = match config.design {
        Design::Single => vec![keys.single.clone()],
        _ => keys.shard.clone(),
    };
    let shared = Shared::new(config, &target, counters);
    let mut all: Vec<String> = shared.counters.clone();
    all.extend(shared.streams.iter().cloned());
    let mut admin = target.open()?;
    keys::refuse_existing(&mut admin, &all)?;
    let mut router = Router::new(&target);
    let result = drive_and_read(&shared, &mut router);
    let deleted = if base.keep {
        0
    } else {
        delete(&mut router, &all)
    };
    if let Some(signal) = crate::output::interrupt::received() {
        return Err(Interrupted {
            signal,
            deleted: deleted as u64,
            left: Vec::new(),
            kept: base.keep,
        }
        .into());
    }
    let (consumed, fault, counted, rebuilt) = result?;
    let ended = Duration::from_nanos(shared.writes_ended_ns.load(Ordering::Relaxed));
    let end = shared.start() + ended;
    Ok(report(
        &shared,
        &keys,
        all,
        Outcome {
            consumed,
            fault,
            counted,
            rebuilt,
            deleted,
            end,
        },
    ))
}

/// What the writes and the read-back found, for the report.
struct Outcome {
    consumed: Option<Consumed>,
    fault: Option<FaultReport>,
    counted: i64,
    rebuilt: Option<i64>,
    deleted: usize,
    end: Instant,
}

type Driven = (Option<Consumed>, Option<FaultReport>, i64, Option<i64>);

/// The writes (with the log's consumer and the fault), then the count.
fn drive_and_read(s: &Shared, router: &mut Router) -> anyhow::Result<Driven> {
    if s.config.design == Design::Log {
        consumer::create_groups(s, router)?;
    }
    let (consumed, fault) = drive(s);
    let counted: i64 = read_back(s, router)?.iter().sum();
    let rebuilt = if s.config.rebuild {
        Some(consumer::rebuild(s, router)?)
    } else {
        None
    };
    Ok((consumed, fault, counted, rebuilt))
}

/// Every writer, the consumer and the fault, until the writes end (and
/// the consumer has drained the streams).
fn drive(s: &Shared) -> (Option<Consumed>, Option<FaultReport>) {
    // The writes start now: the set-up (keys, groups) is behind us.
    let start = s.start();
    let striker = s
        .config
        .fault
        .clone()
        .map(|f| fault::Striker::start(f, start, Arc::clone(&s.kill_writer)));
    let consumed = std::thread::scope(|scope| {
        let consumer =
            (s.config.design == Design::Log).then(|| scope.spawn(|| consumer::consume(s)));
        let handles: Vec<_> = (0..s.config.base.clients as usize)
            .map(|c| {
                scope.spawn(move || match s.config.design {
                    Design::Buffered => writers::buffered(s, c),
                    _ => writers::direct(s, c),
                })
            })
            .collect();
        for h in handles {
            let _ = h.join();
        }
        let ended = start.elapsed().as_nanos() as u64;
        s.writes_ended_ns.store(ended, Ordering::Relaxed);
        s.writers_done.store(true, Ordering::Release);
        consumer.and_then(|h| h.join().ok())
    });
    (consumed, striker.and_then(fault::Striker::finish))
}

/// Each counter key's value, once every one answers (refreshing the slot
/// map between tries), within [`READ_BACK_LIMIT`].
fn read_back(s: &Shared, router: &mut Router) -> anyhow::Result<Vec<i64>> {
    let deadline = Instant::now() + READ_BACK_LIMIT;
    loop {
        router.refresh();
        let mut values = Vec::with_capacity(s.counters.len());
        for (key, &slot) in s.counters.iter().zip(&s.slots) {
            match router.send(slot, &[redis::cmd("GET").arg(key).clone()]) {
                // A missing key reads as 0; anything but a number is an error.
                Sent::Replies(v) => values.push(
                    redis::from_redis_value::<Option<i64>>(v[0].clone())
                        .map_err(|e| anyhow!("a counter key {key} read back as {e}"))?
                        .unwrap_or(0),
                ),
                _ => break,
            }
        }
        if values.len() == s.counters.len() {
            return Ok(values);
        }
        if Instant::now() >= deadline {
            bail!(
                "the counter keys could not all be read back within {} s of the end of the writes \
                 (is every slot served again?)",
                READ_BACK_LIMIT.as_secs()
            );
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// Deletes `keys`; returns how many were there.
fn delete(router: &mut Router, keys: &[String]) -> usize {
    let mut deleted = 0;
    for key in keys {
        let slot = crate::model::placement::key_slot(key.as_bytes());
        if let Sent::Replies(v) = router.send(slot, &[redis::cmd("DEL").arg(key).clone()]) {
            deleted += usize::from(v[0] == Value::Int(1));
        }
    }
    deleted
}

fn report(s: &Shared, keys: &RunKeys, all: Vec<String>, o: Outcome) -> DurabilityReport {
    let config = s.config;
    let seconds = o.end.duration_since(s.start()).as_secs_f64().max(1e-9);
    let durability = s.tally.against(o.counted);
    let requests = s.requests.load(Ordering::Relaxed) as f64;
    DurabilityReport {
        store: "redis".into(),
        server: redact(&config.base.redis),
        cluster: config.base.cluster,
        synchronous_commit: None,
        design: config.design,
        shards: s.counters.len() as u64,
        clients: config.base.clients,
        rate: config.rate,
        seconds,
        likes_per_second: durability.sent as f64 / seconds,
        writes_per_second_per_key: requests / seconds / s.counters.len() as f64,
        flush_seconds: (config.design == Design::Buffered).then_some(config.flush.as_secs_f64()),
        wait_replicas: config.wait_replicas,
        wait_short: config
            .wait_replicas
            .map(|_| s.tally.wait_short.load(Ordering::Relaxed)),
        lag: Lag::of(&s.lags.lock().unwrap_or_else(|e| e.into_inner())),
        held_at_end: (config.design == Design::Buffered)
            .then(|| s.held_at_end.load(Ordering::Relaxed)),
        backlog_at_end: o.consumed.map(|c| c.backlog_at_end),
        rebuild: o.rebuilt.map(|rebuilt| Rebuild {
            rebuilt,
            counted: o.counted,
            matches: rebuilt == o.counted,
        }),
        fault: o.fault,
        unavailable: s.avail.at(o.end),
        errors: s.tally.errors(),
        durability,
        run_id: keys.run_id.clone(),
        keys: all,
        keys_kept: config.base.keep,
        keys_deleted: o.deleted as u64,
        machine: crate::measure::machine::Machine::here(None),
    }
}
