//! One design's write phase: C threads, each with its own connection
//! (named for the lock-wait monitor), write until the deadline or the op
//! limit; each write is one autocommitted statement, timed into a
//! histogram. The monitor samples lock waits beside them.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Barrier, Mutex};
use std::time::Instant;

use anyhow::{anyhow, bail};
use hdrhistogram::Histogram;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::model::defaults::{LOCK_SAMPLE_INTERVAL, MEASURE_LIKES_POST_ID};

use super::config::PgConfig;
use super::conn::{describe, load_name, open};
use super::lock_waits::{monitor, LockWaits};
use super::report::Design;
use crate::measure::load::{first_real_error, ANOTHER_CLIENT_FAILED};

/// One bounded write phase.
pub(super) struct Phase {
    /// Writes acknowledged (committed).
    pub(super) sent: u64,
    /// Wall seconds from the barrier to the last client's finish.
    pub(super) seconds: f64,
    /// Per-write latency in microseconds.
    pub(super) histogram: Histogram<u64>,
    /// What the lock-wait monitor saw.
    pub(super) waits: LockWaits,
}

/// The one write of `design` in `schema`.
fn write_sql(design: Design, schema: &str) -> String {
    match design {
        Design::SingleRow => format!("UPDATE {schema}.counters SET n = n + 1 WHERE id = $1"),
        Design::ShardedRows => {
            format!("UPDATE {schema}.counter_shards SET n = n + 1 WHERE id = $1")
        }
        Design::LikeRows => {
            format!("INSERT INTO {schema}.likes (user_id, post_id) VALUES ($1, $2)")
        }
    }
}

/// The read of the whole count of `design` in `schema`.
pub(super) fn count_sql(design: Design, schema: &str) -> String {
    match design {
        Design::SingleRow => format!("SELECT n FROM {schema}.counters WHERE id = 1"),
        Design::ShardedRows => {
            format!("SELECT coalesce(sum(n), 0)::bigint FROM {schema}.counter_shards")
        }
        Design::LikeRows => format!("SELECT count(*) FROM {schema}.likes"),
    }
}

/// Run `design`'s phase: C clients write until the deadline or until
/// `max_ops` writes have been claimed, while the monitor samples.
pub(super) fn load_phase(
    config: &PgConfig,
    run_id: &str,
    schema: &str,
    design: Design,
    phase: u64,
) -> anyhow::Result<Phase> {
    let clients = config.clients as usize;
    let max = config.max_ops.unwrap_or(u64::MAX);
    let claimed = AtomicU64::new(0);
    let failed = AtomicBool::new(false);
    let stop = AtomicBool::new(false);
    let barrier = Barrier::new(clients + 1);
    let sql = write_sql(design, schema);
    let app = load_name(run_id);
    // One histogram for the phase, shared: a write is a round trip and a
    // commit, far longer than the lock.
    let histogram = Mutex::new(
        Histogram::<u64>::new_with_bounds(1, 60_000_000, 3)
            .map_err(|e| anyhow!("histogram bounds: {e}"))?,
    );
    let mut watcher = open(config, &format!("{app}-monitor"))?;

    let (start, results, waits) = std::thread::scope(|scope| {
        let waits = scope.spawn(|| monitor(&mut watcher, &app, LOCK_SAMPLE_INTERVAL, &stop));
        let handles: Vec<_> = (0..clients)
            .map(|c| {
                let (claimed, failed, barrier, histogram, sql, app) =
                    (&claimed, &failed, &barrier, &histogram, &sql, &app);
                scope.spawn(move || -> anyhow::Result<(u64, Instant)> {
                    let conn = open(config, app).and_then(|mut client| {
                        let statement = client.prepare(sql).map_err(|e| {
                            anyhow!("preparing {}: {}", design.name(), describe(&e))
                        })?;
                        Ok((client, statement))
                    });
                    // Everyone reaches the barrier, connected or not, so a
                    // failed connect cannot leave the others waiting.
                    if conn.is_err() {
                        failed.store(true, Ordering::Relaxed);
                    }
                    barrier.wait();
                    let (mut client, statement) = conn?;
                    if failed.load(Ordering::Relaxed) {
                        bail!("{ANOTHER_CLIENT_FAILED}");
                    }
                    let deadline = Instant::now() + config.duration;
                    let mut rng = Xoshiro256PlusPlus::seed_from_u64(
                        config.seed
                            ^ (phase << 32)
                            ^ (c as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15),
                    );
                    let mut sent = 0u64;
                    while !failed.load(Ordering::Relaxed)
                        && Instant::now() < deadline
                        && crate::output::interrupt::received().is_none()
                    {
                        if claimed.fetch_add(1, Ordering::Relaxed) >= max {
                            break;
                        }
                        let t = Instant::now();
                        let done = match design {
                            Design::SingleRow => client.execute(&statement, &[&1i32]),
                            Design::ShardedRows => {
                                let row = rng.random_range(0..config.shards) as i32;
                                client.execute(&statement, &[&row])
                            }
                            Design::LikeRows => {
                                // A user id no other write of the run uses.
                                let user = ((c as i64) << 32) | sent as i64;
                                client.execute(&statement, &[&user, &MEASURE_LIKES_POST_ID])
                            }
                        };
                        match done {
                            Ok(1) => {}
                            Ok(n) => {
                                failed.store(true, Ordering::Relaxed);
                                bail!("{}: a write changed {n} rows, not 1", design.name());
                            }
                            Err(e) => {
                                failed.store(true, Ordering::Relaxed);
                                bail!("{} design: {}", design.name(), describe(&e));
                            }
                        }
                        let us = t.elapsed().as_micros().max(1) as u64;
                        histogram
                            .lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .saturating_record(us);
                        sent += 1;
                    }
                    Ok((sent, Instant::now()))
                })
            })
            .collect();
        barrier.wait();
        let start = Instant::now();
        let results: Vec<anyhow::Result<(u64, Instant)>> = handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(anyhow!("a load thread panicked")))
            })
            .collect();
        stop.store(true, Ordering::Relaxed);
        let waits = waits
            .join()
            .unwrap_or_else(|_| Err(anyhow!("the lock-wait monitor panicked")));
        (start, results, waits)
    });

    let mut sent = 0;
    let mut end = start;
    // Report the first real error, not the "another client failed" echoes.
    let mut errors: Vec<anyhow::Error> = Vec::new();
    for r in results {
        match r {
            Ok((n, finished)) => {
                sent += n;
                end = end.max(finished);
            }
            Err(e) => errors.push(e),
        }
    }
    if let Some(e) = first_real_error(errors) {
        return Err(e);
    }
    Ok(Phase {
        sent,
        seconds: (end - start).as_secs_f64().max(1e-9),
        histogram: histogram.into_inner().unwrap_or_else(|e| e.into_inner()),
        waits: waits?,
    })
}
