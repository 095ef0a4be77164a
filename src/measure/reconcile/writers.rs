//! The writers of a `measure --reconcile` run, each the article's
//! `add_like`: save the like row (`INSERT ... ON CONFLICT DO NOTHING`),
//! then INCR a random shard, with the faults made on purpose.

use std::io::Write as _;
use std::net::{TcpStream, ToSocketAddrs};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{anyhow, Context};
use rand::RngExt;
use redis::ConnectionAddr;

use super::{ReconcileConfig, Writes, REEL};
use crate::measure::cluster::Target;
use crate::measure::conn::Conn;
use crate::measure::durability::pace;
use crate::measure::pickers::client_rng;
use crate::measure::postgres::conn::{describe, open};
use crate::model::reconcile::Retry;

/// The phase number that seeds the writers' draws.
const RECONCILE_PHASE: u64 = 0xEC;

/// What the writers and the job share.
pub(super) struct Shared<'a> {
    pub(super) config: &'a ReconcileConfig,
    pub(super) target: &'a Target,
    /// The S shard keys.
    pub(super) shards: Vec<String>,
    /// The ledger key ([`super::LEDGER`]).
    pub(super) ledger: String,
    /// `schema.likes`.
    pub(super) table: String,
    /// The run's `application_name` prefix on PostgreSQL.
    pub(super) app: String,
    /// The client name of the connections whose reply is dropped.
    pub(super) lost_name: String,
    pub(super) start: Instant,
    pub(super) end: Instant,
    /// Set when a writer or the job failed: everyone stops.
    pub(super) stop: AtomicBool,
}

impl Shared<'_> {
    /// Whether the writes should stop now: an error, a signal, or past the
    /// hard stop.
    pub(super) fn stopping(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
            || crate::output::interrupt::received().is_some()
            || Instant::now() >= pace::hard_stop(self.end, self.config.redis.duration)
    }
}

/// A writer's connections, opened before the writes start (so the clock
/// does not run while logins are made) and its prepared INSERT.
pub(super) struct Link {
    pg: postgres::Client,
    insert: postgres::Statement,
    redis: Conn,
}

/// Writer `c`'s connections: PostgreSQL (named `<app>-<c>`) and Redis.
pub(super) fn link(
    config: &ReconcileConfig,
    target: &Target,
    (app, table): (&str, &str),
    c: usize,
) -> anyhow::Result<Link> {
    let mut pg = open(&config.pg, &format!("{app}-{c}"))?;
    let sql = format!("INSERT INTO {table} (reel, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING");
    let insert = pg
        .prepare(&sql)
        .map_err(|e| anyhow!("preparing the like row's INSERT: {}", describe(&e)))?;
    Ok(Link {
        pg,
        insert,
        redis: target.open()?,
    })
}

/// Writer `c` until the end of the writes; its counts, or its first error
/// (which stops every writer).
pub(super) fn writer(s: &Shared, c: usize, link: Link) -> anyhow::Result<Writes> {
    let result = write_likes(s, c, link);
    if result.is_err() {
        s.stop.store(true, Ordering::Relaxed);
    }
    result
}

fn write_likes(s: &Shared, c: usize, mut link: Link) -> anyhow::Result<Writes> {
    let config = s.config;
    let mut rng = client_rng(config.redis.seed, RECONCILE_PHASE, c);
    let mut w = Writes::default();
    for j in 0u64.. {
        let due = pace::due(s.start, config.rate, config.redis.clients, c, j);
        if due >= s.end || s.stopping() {
            break;
        }
        pace::sleep_until(due);
        // Every like is a new user: writer c's j-th.
        let user = ((c as i64) << 32) | j as i64;
        let saved = link
            .pg
            .execute(&link.insert, &[&REEL, &user])
            .map_err(|e| anyhow!("saving a like row: {}", describe(&e)))?;
        if saved == 0 {
            continue; // save_like_once found the row: not counted again
        }
        w.likes += 1;
        let draw: f64 = rng.random();
        if draw < config.failed_increments {
            w.failed_increments += 1;
            continue;
        }
        let shard = &s.shards[rng.random_range(0..s.shards.len())];
        if draw < config.failed_increments + config.lost_replies {
            send_and_drop(s, shard)?;
            w.lost_replies += 1;
            if config.retry == Retry::Once {
                incr(&mut link.redis, shard)?;
                w.retried += 1;
            }
        } else {
            incr(&mut link.redis, shard)?;
            w.acknowledged += 1;
        }
    }
    Ok(w)
}

fn incr(redis: &mut Conn, key: &str) -> anyhow::Result<()> {
    redis
        .command::<i64>(redis::cmd("INCR").arg(key))
        .map(|_| ())
        .context("INCR of a shard key failed")
}

/// The increment of `shard` on a connection of its own, closed without
/// reading a reply: `MULTI; INCR shard; INCR ledger; EXEC`, so the ledger
/// counts exactly the ones the server applied. The writer never reads
/// anything on this connection (not even the login's reply), so whether
/// the increment was applied is unknown to it.
fn send_and_drop(s: &Shared, shard: &str) -> anyhow::Result<()> {
    let info = &s.target.info;
    let (host, port) = match info.addr() {
        ConnectionAddr::Tcp(h, p) => (h.clone(), *p),
        other => anyhow::bail!("--lost-replies needs a TCP address (got {other})"),
    };
    let addr = (host.as_str(), port)
        .to_socket_addrs()
        .with_context(|| format!("resolving {host}"))?
        .next()
        .ok_or_else(|| anyhow!("{host} resolves to no address"))?;
    let wait = s.config.redis.timeout;
    let mut stream = TcpStream::connect_timeout(&addr, wait.min(Duration::from_secs(3)))
        .with_context(|| {
            format!("connecting to {host}:{port} for an increment whose reply is dropped")
        })?;
    stream.set_write_timeout(Some(wait))?;
    let mut bytes = Vec::new();
    let settings = info.redis_settings();
    if let Some(pw) = settings.password() {
        let mut auth = redis::cmd("AUTH");
        if let Some(user) = settings.username() {
            auth.arg(user);
        }
        bytes.extend(auth.arg(pw).get_packed_command());
    }
    if settings.db() != 0 {
        bytes.extend(redis::cmd("SELECT").arg(settings.db()).get_packed_command());
    }
    for cmd in [
        redis::cmd("CLIENT")
            .arg("SETNAME")
            .arg(&s.lost_name)
            .clone(),
        redis::cmd("MULTI"),
        redis::cmd("INCR").arg(shard).clone(),
        redis::cmd("INCR").arg(&s.ledger).clone(),
        redis::cmd("EXEC"),
    ] {
        bytes.extend(cmd.get_packed_command());
    }
    stream
        .write_all(&bytes)
        .context("sending an increment whose reply is dropped")?;
    // Closed here, its replies unread.
    drop(stream);
    Ok(())
}

/// Waits until the server has closed every connection whose reply was
/// dropped (none named [`Shared::lost_name`] in `CLIENT LIST`), so what
/// they sent is applied or discarded before the final job reads the
/// shards; at most `--timeout`. A server that refuses CLIENT LIST gets a
/// short pause instead.
pub(super) fn settle_dropped(s: &Shared, admin: &mut Conn) {
    let deadline = Instant::now() + s.config.redis.timeout;
    let needle = format!(" name={} ", s.lost_name);
    loop {
        match admin.command::<String>(redis::cmd("CLIENT").arg("LIST")) {
            Ok(list) if !list.contains(&needle) => return,
            Ok(_) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(5)),
            Ok(_) => return,
            Err(_) => {
                std::thread::sleep(Duration::from_millis(200));
                return;
            }
        }
    }
}
