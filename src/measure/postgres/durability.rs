//! `measure --postgres URL --design single|sharded`: what a counter in
//! rows loses when the server stops. Writers UPDATE the single row (or one
//! of S shard rows) at `--rate`, each like one autocommitted statement,
//! while the fault strikes (`pg_ctl stop -m immediate` and a restart, say);
//! a writer whose connection died reconnects for its next like. Each like
//! ends acknowledged (the UPDATE's reply came), failed (the server said it
//! failed with an ERROR, or no connection could be made) or unknown (no
//! reply, or a FATAL that ended the session: a commit may have reached the
//! disk first). The count is read once the server answers again.

use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail};
use hdrhistogram::Histogram;
use postgres::{Client, Statement};
use rand::RngExt;

use super::config::{redact, PgDurabilityConfig};
use super::conn::{describe, load_name, open};
use super::designs::count_sql;
use crate::measure::durability::accounting::Tally;
use crate::measure::durability::pace::{self, new_histogram, sleep_until, Avail};
use crate::measure::durability::{fault, Design, DurabilityReport, Lag};
use crate::measure::pickers::client_rng;

/// How long the run tries to read the count back after the writes (a
/// restart in progress must finish first).
const READ_BACK_LIMIT: Duration = Duration::from_secs(30);
/// How long a writer that could not connect waits before its next like.
const UNREACHABLE_PAUSE: Duration = Duration::from_millis(10);

/// What the writers share.
struct Shared<'a> {
    config: &'a PgDurabilityConfig,
    app: String,
    sql: String,
    tally: Tally,
    avail: Avail,
    lags: Mutex<Histogram<u64>>,
    start: Instant,
    end: Instant,
    /// When the last writer stopped.
    ended: Mutex<Option<Instant>>,
}

/// Runs `config` in a schema of its own (created, then dropped).
pub fn run(config: &PgDurabilityConfig) -> anyhow::Result<DurabilityReport> {
    config.validate()?;
    let run_id = format!("{:08x}", rand::rng().random::<u32>());
    let schema = config
        .base
        .schema
        .clone()
        .unwrap_or_else(|| format!("shardplan_{run_id}"));
    let app = load_name(&run_id);
    let mut admin = open(&config.base, &format!("{app}-admin"))?;
    super::schema::create(&mut admin, &schema, config.base.shards)?;
    let synchronous_commit = super::show(&mut admin, "synchronous_commit")?;
    let version = super::show(&mut admin, "server_version")?;
    drop(admin);
    let table = match config.design {
        Design::Single => format!("{schema}.counters"),
        _ => format!("{schema}.counter_shards"),
    };
    let start = Instant::now();
    let shared = Shared {
        config,
        sql: format!("UPDATE {table} SET n = n + 1 WHERE id = $1"),
        app: app.clone(),
        tally: Tally::default(),
        avail: Avail::new(config.rows() as usize, start),
        lags: Mutex::new(new_histogram()),
        start,
        end: start + config.base.duration,
        ended: Mutex::new(None),
    };
    let fault = drive(&shared);
    let counted = read_back(config, &app, &count_sql(config.row_design(), &schema));
    let dropped = drop_schema(config, &app, &schema);
    if let Some(signal) = crate::output::interrupt::received() {
        dropped?;
        return Err(crate::error::SchemaInterrupted { signal, schema }.into());
    }
    let counted = counted?;
    dropped?;
    let found = Found {
        fault,
        counted,
        synchronous_commit,
        version,
        run_id,
        table,
    };
    Ok(report(&shared, found))
}

/// The writers and the fault, until the writes end.
fn drive(s: &Shared) -> Option<crate::measure::durability::FaultReport> {
    // No writer to kill here: the flag is nobody's.
    let unused = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let striker = s
        .config
        .fault
        .clone()
        .map(|f| fault::Striker::start(f, s.start, unused));
    std::thread::scope(|scope| {
        for c in 0..s.config.base.clients as usize {
            scope.spawn(move || writer(s, c));
        }
    });
    let mut ended = s.ended.lock().unwrap_or_else(|e| e.into_inner());
    *ended = Some(Instant::now());
    drop(ended);
    striker.and_then(fault::Striker::finish)
}

/// A writer's connection and its prepared UPDATE.
struct Link {
    client: Client,
    update: Statement,
}

fn connect(s: &Shared, c: usize) -> Option<Link> {
    let mut client = open(&s.config.base, &format!("{}-{c}", s.app)).ok()?;
    let update = client.prepare(&s.sql).ok()?;
    Some(Link { client, update })
}

/// Writer `c`: one UPDATE a like, when due; reconnects after a lost
/// connection.
fn writer(s: &Shared, c: usize) {
    let mut rng = client_rng(s.config.base.seed, 0xD0, c);
    let mut lags = new_histogram();
    let mut link: Option<Link> = None;
    let rows = s.config.rows();
    for j in 0.. {
        let due = pace::due(s.start, s.config.rate, s.config.base.clients, c, j);
        let hard_stop = pace::hard_stop(s.end, s.config.base.duration);
        if due >= s.end
            || Instant::now() >= hard_stop
            || crate::output::interrupt::received().is_some()
        {
            break;
        }
        sleep_until(due);
        // The single row is id 1; the shard rows are ids 0 to S-1.
        let (row, k) = match s.config.design {
            Design::Single => (1, 0),
            _ => {
                let r = rng.random_range(0..rows);
                (r as i32, r as usize)
            }
        };
        Tally::add(&s.tally.sent, 1);
        if link.as_ref().is_none_or(|l| l.client.is_closed()) {
            link = connect(s, c);
        }
        let Some(l) = link.as_mut() else {
            Tally::add(&s.tally.failed, 1);
            s.tally.error("connection refused");
            s.avail.failed(k);
            std::thread::sleep(UNREACHABLE_PAUSE);
            continue;
        };
        match l.client.execute(&l.update, &[&row]) {
            Ok(1) => {
                Tally::add(&s.tally.acknowledged, 1);
                s.avail.succeeded(k);
                lags.saturating_record(due.elapsed().as_micros().max(1) as u64);
            }
            Ok(n) => {
                Tally::add(&s.tally.failed, 1);
                s.tally.error(&format!("updated {n} rows"));
                s.avail.failed(k);
            }
            Err(e) => {
                settle_error(s, k, &e);
                if e.as_db_error().is_none() || l.client.is_closed() {
                    link = None;
                }
            }
        }
    }
    let mut h = s.lags.lock().unwrap_or_else(|e| e.into_inner());
    let _ = h.add(&lags);
}

/// An UPDATE that failed: an ERROR the server raised was not applied; a
/// FATAL (the session ended: a shutdown) or no reply at all may have
/// committed first.
fn settle_error(s: &Shared, k: usize, e: &postgres::Error) {
    s.avail.failed(k);
    match e.as_db_error() {
        Some(db) if !matches!(db.severity(), "FATAL" | "PANIC") => {
            Tally::add(&s.tally.failed, 1);
            s.tally.error(db.code().code());
        }
        Some(db) => {
            Tally::add(&s.tally.unknown, 1);
            s.tally.error(db.code().code());
        }
        None => {
            Tally::add(&s.tally.unknown, 1);
            s.tally.error("no reply");
        }
    }
}

/// The count, once the server answers (within [`READ_BACK_LIMIT`]).
fn read_back(config: &PgDurabilityConfig, app: &str, sql: &str) -> anyhow::Result<i64> {
    let deadline = Instant::now() + READ_BACK_LIMIT;
    loop {
        let got = open(&config.base, &format!("{app}-admin"))
            .and_then(|mut c| c.query_one(sql, &[]).map_err(|e| anyhow!(describe(&e))));
        match got {
            Ok(row) => return Ok(row.get(0)),
            Err(e) if Instant::now() >= deadline => bail!(
                "the count could not be read back within {} s of the end of the writes: {e:#}",
                READ_BACK_LIMIT.as_secs()
            ),
            Err(_) => std::thread::sleep(Duration::from_millis(200)),
        }
    }
}

fn drop_schema(config: &PgDurabilityConfig, app: &str, schema: &str) -> anyhow::Result<()> {
    let mut admin = open(&config.base, &format!("{app}-admin"))?;
    super::schema::drop(&mut admin, schema)
}

/// What the run found, for the report.
struct Found {
    fault: Option<crate::measure::durability::FaultReport>,
    counted: i64,
    synchronous_commit: String,
    version: String,
    run_id: String,
    table: String,
}

fn report(s: &Shared, f: Found) -> DurabilityReport {
    let config = s.config;
    let end = s
        .ended
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .unwrap_or(s.end);
    let seconds = end.duration_since(s.start).as_secs_f64().max(1e-9);
    let durability = s.tally.against(f.counted);
    let rows = config.rows() as f64;
    let writes =
        (durability.sent - s.tally.failed.load(Ordering::Relaxed).min(durability.sent)) as f64;
    DurabilityReport {
        store: "postgres".into(),
        server: redact(&config.base.url),
        cluster: false,
        synchronous_commit: Some(f.synchronous_commit),
        design: config.design,
        shards: config.rows(),
        clients: config.base.clients,
        rate: config.rate,
        seconds,
        likes_per_second: durability.sent as f64 / seconds,
        writes_per_second_per_key: writes / seconds / rows,
        flush_seconds: None,
        wait_replicas: None,
        wait_short: None,
        lag: Lag::of(&s.lags.lock().unwrap_or_else(|e| e.into_inner())),
        held_at_end: None,
        backlog_at_end: None,
        rebuild: None,
        fault: f.fault,
        unavailable: s.avail.at(end),
        errors: s.tally.errors(),
        durability,
        run_id: Some(f.run_id),
        keys: vec![f.table],
        keys_kept: false,
        keys_deleted: 0,
        machine: crate::measure::machine::Machine::here(Some(f.version)),
    }
}
