//! A `measure --reconcile` run from start to end: the shard keys claimed
//! and the like table created, the writers and the jobs during the writes,
//! the final job once they stop, and everything the run made removed
//! (unless `--keep`).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use anyhow::anyhow;
use postgres::Client;

use super::job::Jobber;
use super::writers::{self, Shared};
use super::{Job, ReconcileConfig, ReconcileReport, Reconciliation, Writes, LEDGER};
use crate::error::Interrupted;
use crate::measure::cluster::Target;
use crate::measure::conn::Conn;
use crate::measure::keys::{self, RunKeys};
use crate::measure::pickers::client_rng;
use crate::measure::postgres::conn::{describe, open};
use crate::measure::postgres::redact as pg_redact;
use crate::measure::url::redact;

/// The phase number that seeds the job's choice of shard.
const JOB_PHASE: u64 = 0xEE;

/// Runs `config`: the writes with their faults, the jobs, the final job,
/// then the keys deleted and the schema dropped (unless `--keep`).
///
/// Errors: a bad config as an [`InputError`](crate::error::InputError); a
/// server that cannot be reached or a write that fails (the faults are
/// made by the writers, never met) as a plain error; a signal as
/// [`Interrupted`].
pub fn run(config: &ReconcileConfig) -> anyhow::Result<ReconcileReport> {
    config.validate()?;
    let target = Target::connect(&config.redis)?;
    let keys = RunKeys::choose(None, config.redis.shards, false, &target)?;
    let run_id = keys.run_id.clone().unwrap_or_default();
    let ledger = format!("shardplan:{run_id}:{LEDGER}");
    let mut all = keys.shard.clone();
    all.push(ledger.clone());
    let mut admin = target.open()?;
    keys::refuse_existing(&mut admin, &all)?;
    let schema = format!("shardplan_{run_id}");
    let app = format!("shardplan-{run_id}");
    let mut pg = open(&config.pg, &format!("{app}-admin"))?;
    create_table(&mut pg, &schema)?;
    let table = format!("{schema}.likes");
    let links = (0..config.redis.clients as usize)
        .map(|c| writers::link(config, &target, (&app, &table), c))
        .collect::<anyhow::Result<Vec<_>>>();
    let start = Instant::now();
    let shared = Shared {
        config,
        target: &target,
        shards: keys.shard.clone(),
        ledger,
        table,
        app,
        lost_name: format!("shardplan-{run_id}-dropped"),
        start,
        end: start + config.redis.duration,
        stop: AtomicBool::new(false),
    };
    let result = links.and_then(|links| drive(&shared, &mut admin, pg, links));
    let keep = config.redis.keep;
    let deleted = if keep { 0 } else { delete(&mut admin, &all) };
    let dropped = if keep {
        Ok(())
    } else {
        drop_schema(config, &shared.app, &schema)
    };
    if let Some(signal) = crate::output::interrupt::received() {
        return Err(Interrupted {
            signal,
            deleted,
            left: Vec::new(),
            kept: keep,
        }
        .into());
    }
    let driven = result?;
    dropped?;
    Ok(report(&shared, run_id, all, deleted, driven))
}

/// The like table, in a schema of its own made for the run.
fn create_table(pg: &mut Client, schema: &str) -> anyhow::Result<()> {
    let sql = format!(
        "BEGIN;
         CREATE SCHEMA {schema};
         CREATE TABLE {schema}.likes (reel bigint NOT NULL, user_id bigint NOT NULL,
                                      PRIMARY KEY (reel, user_id));
         COMMIT;"
    );
    pg.batch_execute(&sql)
        .map_err(|e| anyhow!("creating schema {schema}: {}", describe(&e)))
}

fn drop_schema(config: &ReconcileConfig, app: &str, schema: &str) -> anyhow::Result<()> {
    let mut pg = open(&config.pg, &format!("{app}-admin"))?;
    pg.batch_execute(&format!("DROP SCHEMA IF EXISTS {schema} CASCADE"))
        .map_err(|e| anyhow!("dropping schema {schema}: {}", describe(&e)))
}

/// Deletes `keys`; returns how many were there.
fn delete(admin: &mut Conn, keys: &[String]) -> u64 {
    admin
        .command::<i64>(redis::cmd("DEL").arg(keys))
        .map_or(0, |n| n.max(0) as u64)
}

/// What the writes and the jobs found.
struct Driven {
    writes: Writes,
    jobs: Vec<Job>,
    counted_before: i64,
    counted_after: i64,
    version: String,
    ended: Instant,
}

/// The writers and the jobs during the writes, then the final job.
fn drive(
    s: &Shared,
    admin: &mut Conn,
    pg: Client,
    links: Vec<writers::Link>,
) -> anyhow::Result<Driven> {
    let mut jobber = Jobber {
        pg,
        redis: s.target.open()?,
        rng: client_rng(s.config.redis.seed, JOB_PHASE, 0),
    };
    let version = crate::measure::postgres::show(&mut jobber.pg, "server_version")?;
    let (writes, jobs, ended) = std::thread::scope(|scope| {
        let writers: Vec<_> = links
            .into_iter()
            .enumerate()
            .map(|(c, link)| scope.spawn(move || writers::writer(s, c, link)))
            .collect();
        let jobs = match s.config.every {
            Some(every) => jobber.during(s, every),
            None => Ok(Vec::new()),
        };
        if jobs.is_err() {
            s.stop.store(true, Ordering::Relaxed);
        }
        let mut total = Writes::default();
        let mut first_error = None;
        for w in writers {
            match w
                .join()
                .unwrap_or_else(|_| Err(anyhow!("a writer panicked")))
            {
                Ok(w) => total = add(total, w),
                Err(e) => first_error = first_error.or(Some(e)),
            }
        }
        let ended = Instant::now();
        match (first_error, jobs) {
            (Some(e), _) | (None, Err(e)) => Err(e),
            (None, Ok(jobs)) => Ok((total, jobs, ended)),
        }
    })?;
    finish(s, admin, jobber, (writes, jobs, ended), version)
}

/// After the writes: the dropped replies settled, the ledger read, the
/// final job, the count after it.
fn finish(
    s: &Shared,
    admin: &mut Conn,
    mut jobber: Jobber,
    (mut writes, mut jobs, ended): (Writes, Vec<Job>, Instant),
    version: String,
) -> anyhow::Result<Driven> {
    writers::settle_dropped(s, admin);
    let applied: Option<i64> = admin.command(redis::cmd("GET").arg(&s.ledger))?;
    writes.lost_applied = applied.unwrap_or(0).max(0) as u64;
    let writes = writes.settle(s.config.retry);
    let counted_before: i64 = jobber.shards(s)?.iter().sum();
    jobs.push(jobber.run(s, true)?);
    let counted_after: i64 = jobber.shards(s)?.iter().sum();
    Ok(Driven {
        writes,
        jobs,
        counted_before,
        counted_after,
        version,
        ended,
    })
}

/// Two writers' counts together.
fn add(a: Writes, b: Writes) -> Writes {
    Writes {
        likes: a.likes + b.likes,
        acknowledged: a.acknowledged + b.acknowledged,
        lost_replies: a.lost_replies + b.lost_replies,
        lost_applied: a.lost_applied + b.lost_applied,
        retried: a.retried + b.retried,
        failed_increments: a.failed_increments + b.failed_increments,
        ..Writes::default()
    }
}

fn report(
    s: &Shared,
    run_id: String,
    keys: Vec<String>,
    deleted: u64,
    d: Driven,
) -> ReconcileReport {
    let config = s.config;
    let last = d.jobs.last().expect("the final job ran");
    let rows = last.rows;
    let drift_before = d.counted_before - rows as i64;
    let corrected_during: i64 = d
        .jobs
        .iter()
        .filter(|j| !j.after_writes)
        .map(|j| j.difference)
        .sum();
    let seconds = d.ended.duration_since(s.start).as_secs_f64().max(1e-9);
    ReconcileReport {
        redis: redact(&config.redis.redis),
        postgres: pg_redact(&config.pg.url),
        shards: config.redis.shards,
        clients: config.redis.clients,
        rate: config.rate,
        seconds,
        likes_per_second: d.writes.likes as f64 / seconds,
        lost_replies_share: config.lost_replies,
        retry: config.retry,
        failed_increments_share: config.failed_increments,
        reconcile_every_seconds: config.every.map(|e| e.as_secs_f64()),
        reconciliation: Reconciliation {
            like_table: s.table.clone(),
            rows,
            counted_before: d.counted_before,
            drift_before,
            corrected_during,
            explained: drift_before == d.writes.fault_drift + corrected_during
                && rows == d.writes.likes,
            jobs: d.jobs,
            counted_after: d.counted_after,
            drift_after: d.counted_after - rows as i64,
        },
        writes: d.writes,
        run_id,
        keys,
        kept: config.redis.keep,
        keys_deleted: deleted,
        postgres_version: d.version,
        machine: crate::measure::machine::Machine::here(None),
    }
}
