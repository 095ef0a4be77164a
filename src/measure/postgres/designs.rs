//! One design's write phase: C threads, each with its own connection
//! (named for the lock-wait monitor), write until the deadline or the op
//! limit; each write is one autocommitted statement, timed into a
//! histogram. The monitor samples lock waits beside them. In the
//! `sharded-rows` phase each client picks its row with `--picker` (client
//! `c` as app server `c`), and the phase's own thread reads every row's
//! count each second with one SELECT from a connection of its own.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Barrier, Mutex};
use std::thread::ScopedJoinHandle;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail};
use hdrhistogram::Histogram;
use rand::RngExt;

use crate::model::defaults::{LOCK_SAMPLE_INTERVAL, MEASURE_LIKES_POST_ID};

use super::config::PgConfig;
use super::conn::{describe, load_name, open};
use super::lock_waits::{monitor, LockWaits};
use super::report::Design;
use crate::measure::pickers::{client_rng, writers, Chooser, Pick};
use crate::measure::shard_load::{FirstStop, Sampler, Seconds};
use crate::measure::{first_real_error, AnotherClientFailed};

/// How often the phase's own thread looks whether the clients are done,
/// between the samples of the rows' counts.
const POLL: Duration = Duration::from_millis(10);

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
    /// The whole seconds sampled (`sharded-rows` only).
    pub(super) sampled: Seconds,
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

/// Every shard row's count, in row order: the per-second samples and the
/// final totals of `sharded-rows`.
pub(super) fn shard_rows_sql(schema: &str) -> String {
    format!("SELECT n FROM {schema}.counter_shards ORDER BY id")
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
    let sharded = design == Design::ShardedRows;
    let writers = match sharded {
        true => writers(config.picker, config.clients, config.shards, config.seed),
        false => Vec::new(),
    };
    let load = Load {
        config,
        design,
        pick: Pick::of(&writers),
        stops: FirstStop::new(),
        phase,
        max: config.max_ops.unwrap_or(u64::MAX),
        claimed: AtomicU64::new(0),
        failed: AtomicBool::new(false),
        barrier: Barrier::new(clients + 1),
        sql: write_sql(design, schema),
        app: load_name(run_id),
        // One histogram for the phase, shared: a write is a round trip and a
        // commit, far longer than the lock.
        histogram: Mutex::new(
            Histogram::<u64>::new_with_bounds(1, 60_000_000, 3)
                .map_err(|e| anyhow!("histogram bounds: {e}"))?,
        ),
    };
    let stop = AtomicBool::new(false);
    let mut watcher = open(config, &format!("{}-monitor", load.app))?;
    let mut sampler = match sharded {
        true => Some(open(config, &format!("{}-sampler", load.app))?),
        false => None,
    };
    let rows_sql = shard_rows_sql(schema);

    let (start, results, waits, sampled) = std::thread::scope(|scope| {
        let waits = scope.spawn(|| monitor(&mut watcher, &load.app, LOCK_SAMPLE_INTERVAL, &stop));
        let handles: Vec<_> = (0..clients)
            .map(|c| {
                let load = &load;
                scope.spawn(move || load.client(c))
            })
            .collect();
        load.barrier.wait();
        let start = Instant::now();
        let sampled = match sampler.as_mut() {
            Some(conn) => load.sample(conn, &rows_sql, &handles, start),
            None => Ok(Seconds::default()),
        };
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
        (start, results, waits, sampled)
    });
    let mut phase = load.phase_of(start, results, waits)?;
    phase.sampled = sampled?;
    Ok(phase)
}

/// What the clients of one design's phase share.
struct Load<'a> {
    config: &'a PgConfig,
    design: Design,
    /// How a `sharded-rows` write picks its row.
    pick: Pick<'a>,
    /// When the first client stopped (the sampling's end).
    stops: FirstStop,
    phase: u64,
    /// `max_ops`, or no limit.
    max: u64,
    claimed: AtomicU64,
    failed: AtomicBool,
    barrier: Barrier,
    /// The design's one write.
    sql: String,
    /// The application name of the run's load connections.
    app: String,
    histogram: Mutex<Histogram<u64>>,
}

impl Load<'_> {
    /// Client `c`: connect and prepare the write, wait for the others at
    /// the barrier, then write until the deadline, the op limit, a failure
    /// (its own or another client's) or a signal; the writes it sent and
    /// when it finished.
    fn client(&self, c: usize) -> anyhow::Result<(u64, Instant)> {
        let (config, design, max) = (self.config, self.design, self.max);
        let (claimed, failed, barrier, histogram, sql, app) = (
            &self.claimed,
            &self.failed,
            &self.barrier,
            &self.histogram,
            &self.sql,
            &self.app,
        );
        let conn = open(config, app).and_then(|mut client| {
            let statement = client
                .prepare(sql)
                .map_err(|e| anyhow!("preparing {}: {}", design.name(), describe(&e)))?;
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
            return Err(AnotherClientFailed.into());
        }
        let mut chooser = Chooser::new(&self.pick, c, self.phase);
        let deadline = chooser.started() + config.duration;
        let mut rng = client_rng(config.seed, self.phase, c);
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
                    let row = match chooser.pick(&mut rng, sent) {
                        Some(shard) => shard,
                        None => rng.random_range(0..config.shards),
                    } as i32;
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
        self.stops.stop();
        Ok((sent, Instant::now()))
    }

    /// Reads every shard row's count with `sql` on `conn` at `start` and
    /// each whole second after it while every client writes
    /// ([`Sampler::step`]). A failed read stops the clients and is the
    /// phase's error.
    fn sample(
        &self,
        conn: &mut postgres::Client,
        sql: &str,
        handles: &[ScopedJoinHandle<'_, anyhow::Result<(u64, Instant)>>],
        start: Instant,
    ) -> anyhow::Result<Seconds> {
        let mut sampler = Sampler::new(start);
        let mut read = || -> anyhow::Result<Vec<i64>> {
            let rows = conn
                .query(sql, &[])
                .map_err(|e| anyhow!("sampling the shard rows' counts: {}", describe(&e)))?;
            Ok(rows.iter().map(|r| r.get::<_, i64>(0)).collect())
        };
        loop {
            let done = handles.iter().all(|h| h.is_finished());
            match sampler.step(&self.stops, &mut read) {
                Ok(true) if !done => std::thread::sleep(sampler.wait(POLL)),
                Ok(_) => break,
                Err(e) => {
                    self.failed.store(true, Ordering::Relaxed);
                    return Err(e);
                }
            }
        }
        Ok(sampler.seconds())
    }

    /// The phase from its clients' results and the monitor's: the writes
    /// they sent, from the barrier to the last one's finish, or the first
    /// real error.
    fn phase_of(
        self,
        start: Instant,
        results: Vec<anyhow::Result<(u64, Instant)>>,
        waits: anyhow::Result<LockWaits>,
    ) -> anyhow::Result<Phase> {
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
            histogram: self
                .histogram
                .into_inner()
                .unwrap_or_else(|e| e.into_inner()),
            waits: waits?,
            sampled: Seconds::default(),
        })
    }
}
