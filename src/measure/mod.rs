//! Drive a real Redis (standalone or cluster) with the shard keys.
//!
//! Two bounded write phases run back to back from C concurrent connections:
//! INCRs on one key, then INCRs on S shard keys chosen uniformly at random.
//! Each phase stops by itself at the deadline or after `--max-ops` INCRs.
//! The report gives ops/s for both, latency percentiles, INCRs per cluster
//! node (each shard key's slot mapped to its node through CLUSTER SLOTS, and
//! cross-checked against the nodes' own `INFO commandstats`), the shard sum
//! against the INCRs sent, and the read path: S pipelined GETs (grouped per
//! node by the cluster client) against one MGET of S keys sharing a slot.
//!
//! Every key the run writes is checked to be absent first (`--overwrite`
//! resets them instead) and deleted at the end unless `--keep`.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context};

use crate::model::placement::key_slot;
use hdrhistogram::Histogram;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use redis::cluster::{ClusterClient, ClusterConnection};
use redis::{Connection, ConnectionAddr, ConnectionInfo, IntoConnectionInfo, Value};

use crate::error::{InputError, InputResult};
use crate::model::validate;

/// The placeholder a `--template` must contain (the same one `keys` uses);
/// replaced by 0..S-1.
pub use crate::model::placement::SHARD_PLACEHOLDER;

/// Redis Cluster has 16384 hash slots.
const CLUSTER_SLOTS: u16 = 16_384;
/// How long to wait for a TCP connect, and for any one reply.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(3);
const RESPONSE_TIMEOUT: Duration = Duration::from_secs(10);

/// A validated `shardplan measure` invocation.
#[derive(Debug, Clone, PartialEq)]
pub struct MeasureConfig {
    /// `--redis`: a `redis://` URL (for a cluster, any node).
    pub redis: String,
    /// `--cluster`: talk Redis Cluster (route by slot, follow MOVED).
    pub cluster: bool,
    /// `--shards`: S, the number of shard keys.
    pub shards: u64,
    /// `--clients`: C, the concurrent connections.
    pub clients: u64,
    /// `--duration`: the time limit of each phase.
    pub duration: Duration,
    /// `--max-ops`: the INCR limit of each phase (`None`: time only).
    pub max_ops: Option<u64>,
    /// `--pipeline`: INCRs sent per round trip (1 = no pipelining).
    pub pipeline: u64,
    /// `--template`: the shard key pattern, with `<shard>` once.
    pub template: String,
    /// `--keep`: leave the keys in Redis after the run.
    pub keep: bool,
    /// `--overwrite`: reset keys that exist before the run instead of refusing.
    pub overwrite: bool,
    /// `--reads`: repetitions of each read-path measurement.
    pub reads: u64,
    /// `--seed`: seeds the per-client shard choice.
    pub seed: u64,
}

impl MeasureConfig {
    /// Validate the required flags; `keep`, `overwrite`, `reads` (100) and
    /// `seed` (1) take defaults and can be set on the result.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        redis: &str,
        cluster: bool,
        shards: u64,
        clients: u64,
        duration: Duration,
        max_ops: Option<u64>,
        pipeline: u64,
        template: &str,
    ) -> InputResult<Self> {
        let config = MeasureConfig {
            redis: redis.to_string(),
            cluster,
            shards,
            clients,
            duration,
            max_ops,
            pipeline,
            template: template.to_string(),
            keep: false,
            overwrite: false,
            reads: 100,
            seed: 1,
        };
        config.validate()?;
        Ok(config)
    }

    /// Check every field; [`run`] calls this too, since fields are public.
    pub fn validate(&self) -> InputResult<()> {
        check_url(&self.redis)?;
        validate::count("--shards", self.shards, crate::model::defaults::MAX_SHARDS)?;
        validate::count(
            "--clients",
            self.clients,
            crate::model::defaults::MAX_CLIENTS,
        )?;
        validate::count(
            "--pipeline",
            self.pipeline,
            crate::model::defaults::MAX_PIPELINE,
        )?;
        validate::count("--reads", self.reads, crate::model::defaults::MAX_READS)?;
        if let Some(m) = self.max_ops {
            validate::count("--max-ops", m, crate::model::defaults::MAX_OPS)?;
        }
        if self.duration.is_zero() || self.duration > crate::model::defaults::MAX_DURATION {
            return Err(InputError::new(
                "--duration",
                format!(
                    "must be more than 0 and at most 1h, e.g. 10s or 500ms (got {} s)",
                    self.duration.as_secs_f64()
                ),
            ));
        }
        let n = self.template.matches(SHARD_PLACEHOLDER).count();
        if n != 1 {
            return Err(InputError::new(
                "--template",
                format!(
                    "must contain {SHARD_PLACEHOLDER} exactly once, e.g. 'likes:<shard>' (got {:?} with {n})",
                    self.template
                ),
            ));
        }
        Ok(())
    }

    /// Shard key `i` (0-based).
    pub fn shard_key(&self, i: u64) -> String {
        self.template.replacen(SHARD_PLACEHOLDER, &i.to_string(), 1)
    }

    /// The one key of the single-key phase: the template with `single` for
    /// the shard number, so it shares the template's hash tag if any.
    pub fn single_key(&self) -> String {
        self.template.replacen(SHARD_PLACEHOLDER, "single", 1)
    }

    /// Key `i` of the same-slot copy used to time MGET when the shard keys
    /// span several slots: the whole single-key name becomes a hash tag.
    fn mget_key(&self, i: u64) -> String {
        format!(
            "{{{}}}:{i}",
            self.template.replacen(SHARD_PLACEHOLDER, "mget", 1)
        )
    }
}

/// Parse `--duration` (`10`, `10s`, `500ms`, `2m`) with the project's
/// duration syntax.
pub fn parse_duration(what: &str, text: &str) -> InputResult<Duration> {
    crate::model::duration::parse_seconds(text)
        .map(Duration::from_secs_f64)
        .map_err(|e| InputError::new(what, e))
}

fn check_url(url: &str) -> InputResult<()> {
    let bad = |why: String| {
        InputError::new(
            "--redis",
            format!("must be a URL such as redis://127.0.0.1:6379 ({why}; got {url:?})"),
        )
    };
    // redis-rs accepts a bare `host:port` as TCP too; we insist on the
    // scheme so a typo cannot silently mean something else. TLS
    // (`rediss://`) is not compiled in.
    if !url.starts_with("redis://") {
        return Err(bad("the scheme must be redis://".into()));
    }
    url.into_connection_info().map_err(|e| bad(e.to_string()))?;
    Ok(())
}

/// The URL with any password replaced by `***`, for reports and messages.
pub fn redact(url: &str) -> String {
    let Some(rest) = url.strip_prefix("redis://") else {
        return url.to_string();
    };
    let host_start = rest.find('/').unwrap_or(rest.len());
    match rest[..host_start].rfind('@') {
        Some(at) => {
            let user = rest[..at].split(':').next().unwrap_or("");
            let has_password = rest[..at].contains(':');
            let shown = if has_password {
                format!("{user}:***")
            } else {
                user.to_string()
            };
            format!("redis://{shown}@{}", &rest[at + 1..])
        }
        None => url.to_string(),
    }
}

/// Latency percentiles of one phase, in milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Latency {
    pub p50_ms: f64,
    pub p99_ms: f64,
    pub p999_ms: f64,
    pub max_ms: f64,
}

/// What one cluster node (or the standalone server) received.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct NodeOps {
    /// `host:port` as CLUSTER SLOTS announces it.
    pub node: String,
    /// Hash slots the node owns (16384 on a standalone server).
    pub slots: u64,
    /// How many of the S shard keys hash to this node.
    pub shard_keys: u64,
    /// Sharded-phase INCRs sent to this node's keys (client-side count).
    pub sharded_incr: u64,
    /// Single-phase INCRs sent to this node.
    pub single_incr: u64,
    /// INCR calls the node itself counted during the sharded phase
    /// (`INFO commandstats` delta); other clients' INCRs would show here too.
    pub server_incr: Option<u64>,
}

/// The read path: the cost of reading the whole count once.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ReadPath {
    /// Reads timed for each figure.
    pub reads: u64,
    /// Distinct nodes one read touches (round trips of the pipelined GETs).
    pub nodes_per_read: u64,
    /// Median time of one read as S pipelined GETs grouped per node (the
    /// median, not the mean, so a stall of a shared machine does not
    /// dominate).
    pub pipelined_get_p50_ms: f64,
    /// Median time of one MGET of S keys in one slot; `None` if no such
    /// set could be built (a template whose braces defeat the copy's tag).
    pub mget_p50_ms: Option<f64>,
    /// Which keys the MGET read: `shard_keys` when they share a slot (or
    /// on a standalone server), `same_slot_copy` (the S values copied
    /// under one hash tag for the timing, then deleted), or `none`.
    pub mget_keys: String,
    /// The server's reply to one MGET over the shard keys when they span
    /// several slots; `None` when they do not.
    pub crossslot_error: Option<String>,
}

/// The result of [`run`]. JSON field names are stable.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct MeasureReport {
    pub redis: String,
    pub cluster: bool,
    pub shards: u64,
    pub clients: u64,
    pub pipeline: u64,
    pub template: String,
    pub single_key: String,
    /// Single-key phase: INCRs acknowledged, wall seconds, ops/s.
    pub single_incr_sent: u64,
    pub single_seconds: f64,
    pub single_ops_per_second: f64,
    /// The single key's final value (equals `single_incr_sent` if nothing was lost).
    pub single_value: i64,
    pub single_latency: Latency,
    /// Sharded phase: INCRs acknowledged, wall seconds, ops/s.
    pub incr_sent: u64,
    pub sharded_seconds: f64,
    pub sharded_ops_per_second: f64,
    pub sharded_latency: Latency,
    /// `sharded_latency.p99_ms`, flat for scripts.
    pub latency_p99_ms: f64,
    /// Sum of the S shard values read back after the sharded phase.
    pub shard_sum: i64,
    /// `shard_sum == incr_sent && single_value == single_incr_sent`.
    pub counts_match: bool,
    /// `sharded_ops_per_second / single_ops_per_second`.
    pub speedup: f64,
    /// Nodes holding at least one shard key.
    pub nodes_reached: u64,
    pub nodes: Vec<NodeOps>,
    pub read: ReadPath,
    /// Whether the keys were left in Redis (`--keep`).
    pub keys_kept: bool,
}

/// Read the single-key ops/s from the JSON `shardplan measure` wrote, to use
/// as the per-key cap for `size` and `simulate` (`--cap-from-measure`).
/// Accepts the report object itself or an array whose first element with
/// the field is the report.
pub fn cap_from_measure_file(path: &Path) -> Result<f64, InputError> {
    const WHAT: &str = "--cap-from-measure";
    let shown = path.display();
    let text = std::fs::read_to_string(path)
        .map_err(|e| InputError::new(WHAT, format!("cannot read {shown}: {e}")))?;
    let json: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
        InputError::new(
            WHAT,
            format!("{shown} is not JSON ({e}); expected the JSON `shardplan measure` wrote"),
        )
    })?;
    let field = "single_ops_per_second";
    let found = match &json {
        serde_json::Value::Array(items) => items.iter().find_map(|v| v.get(field)),
        other => other.get(field),
    };
    let Some(found) = found else {
        return Err(InputError::new(
            WHAT,
            format!("{shown} has no {field} field; expected the JSON `shardplan measure` wrote"),
        ));
    };
    match found.as_f64() {
        Some(v) if v.is_finite() && v > 0.0 => Ok(v),
        _ => Err(InputError::new(
            WHAT,
            format!("{field} in {shown} must be a number above 0 (got {found})"),
        )),
    }
}

/// Run both phases and the read path against the server in `config`.
///
/// Errors: a bad config or keys that already exist (without `--overwrite`)
/// come back as an [`InputError`] inside the `anyhow::Error` (downcast it
/// for exit code 2); a server that is down or misbehaves is a plain error.
pub fn run(config: &MeasureConfig) -> anyhow::Result<MeasureReport> {
    config.validate()?;
    let target = Target::connect(config)?;
    let shard_keys: Vec<String> = (0..config.shards).map(|i| config.shard_key(i)).collect();
    let single_key = config.single_key();
    let slots: Vec<u16> = shard_keys.iter().map(|k| key_slot(k.as_bytes())).collect();
    let spans_slots = config.cluster && slots.iter().any(|&s| s != slots[0]);
    let mut mget_keys: Vec<String> = Vec::new();
    if spans_slots {
        mget_keys = (0..config.shards).map(|i| config.mget_key(i)).collect();
        let first = key_slot(mget_keys[0].as_bytes());
        if mget_keys.iter().any(|k| key_slot(k.as_bytes()) != first) {
            mget_keys.clear();
        }
    }
    let mut all_keys: Vec<String> = shard_keys.clone();
    all_keys.push(single_key.clone());
    all_keys.extend(mget_keys.iter().cloned());

    let mut admin = target.open()?;
    let existing = admin
        .count_existing(&all_keys)
        .context("checking for existing keys")?;
    if existing.0 > 0 {
        if !config.overwrite {
            return Err(InputError::new(
                "--overwrite",
                format!(
                    "{} of the {} keys this run writes already exist (e.g. {}); pass --overwrite to reset them, or choose another --template",
                    existing.0,
                    all_keys.len(),
                    existing.1.unwrap_or_default()
                ),
            )
            .into());
        }
        admin
            .del(&all_keys)
            .context("resetting existing keys (--overwrite)")?;
    }

    let result = measure(
        config,
        &target,
        &mut admin,
        &shard_keys,
        &single_key,
        spans_slots,
        &mget_keys,
    );
    // Clean up also when the measurement failed half way, so a failed run
    // does not block the next one with "keys already exist".
    let cleanup = if config.keep {
        admin.del(&mget_keys)
    } else {
        admin.del(&all_keys)
    };
    let report = result?;
    cleanup.context("deleting the keys this run wrote")?;
    Ok(report)
}

fn measure(
    config: &MeasureConfig,
    target: &Target,
    admin: &mut Conn,
    shard_keys: &[String],
    single_key: &str,
    spans_slots: bool,
    mget_keys: &[String],
) -> anyhow::Result<MeasureReport> {
    let single = load_phase(
        config,
        target,
        std::slice::from_ref(&single_key.to_string()),
        0,
    )?;
    let single_value = admin.get_values(std::slice::from_ref(&single_key.to_string()))?[0];

    let before = target.server_incr_calls();
    let sharded = load_phase(config, target, shard_keys, 1)?;
    let after = target.server_incr_calls();

    let values = admin.get_values(shard_keys)?;
    let shard_sum: i64 = values.iter().sum();

    // Map each key to its node through the slot table.
    let single_node = target.node_of(key_slot(single_key.as_bytes()));
    let mut nodes: Vec<NodeOps> = target
        .nodes
        .iter()
        .enumerate()
        .map(|(i, n)| NodeOps {
            node: n.addr.clone(),
            slots: n.slots,
            shard_keys: 0,
            sharded_incr: 0,
            single_incr: if i == single_node { single.sent } else { 0 },
            server_incr: match (&before, &after) {
                (Some(b), Some(a)) => Some(a[i].saturating_sub(b[i])),
                _ => None,
            },
        })
        .collect();
    for (key, count) in shard_keys.iter().zip(&sharded.per_key) {
        let node = &mut nodes[target.node_of(key_slot(key.as_bytes()))];
        node.shard_keys += 1;
        node.sharded_incr += count;
    }
    let nodes_reached = nodes.iter().filter(|n| n.shard_keys > 0).count() as u64;

    let read = read_path(
        config,
        target,
        admin,
        shard_keys,
        &values,
        spans_slots,
        mget_keys,
    )?;

    let single_ops = single.sent as f64 / single.seconds;
    let sharded_ops = sharded.sent as f64 / sharded.seconds;
    let sharded_latency = sharded.latency();
    Ok(MeasureReport {
        redis: redact(&config.redis),
        cluster: config.cluster,
        shards: config.shards,
        clients: config.clients,
        pipeline: config.pipeline,
        template: config.template.clone(),
        single_key: single_key.to_string(),
        single_incr_sent: single.sent,
        single_seconds: single.seconds,
        single_ops_per_second: single_ops,
        single_value,
        single_latency: single.latency(),
        incr_sent: sharded.sent,
        sharded_seconds: sharded.seconds,
        sharded_ops_per_second: sharded_ops,
        sharded_latency,
        latency_p99_ms: sharded_latency.p99_ms,
        shard_sum,
        counts_match: shard_sum == sharded.sent as i64 && single_value == single.sent as i64,
        // A phase too short for one INCR would divide by zero.
        speedup: if single_ops > 0.0 {
            sharded_ops / single_ops
        } else {
            0.0
        },
        nodes_reached,
        nodes,
        read,
        keys_kept: config.keep,
    })
}

fn read_path(
    config: &MeasureConfig,
    target: &Target,
    admin: &mut Conn,
    shard_keys: &[String],
    values: &[i64],
    spans_slots: bool,
    mget_keys: &[String],
) -> anyhow::Result<ReadPath> {
    let reads = config.reads;
    let mut distinct: Vec<usize> = shard_keys
        .iter()
        .map(|k| target.node_of(key_slot(k.as_bytes())))
        .collect();
    distinct.sort_unstable();
    distinct.dedup();

    let mut times = Vec::with_capacity(reads as usize);
    for _ in 0..reads {
        let start = Instant::now();
        admin.get_values(shard_keys)?;
        times.push(ms(start.elapsed()));
    }
    let pipelined_get_p50_ms = median(&mut times);

    let (mget_set, mget_label, crossslot_error) = if !spans_slots {
        (shard_keys, "shard_keys", None)
    } else {
        // Show what the server says to an MGET over several slots, asked
        // directly of the node owning the first key (the cluster client
        // would refuse it before sending).
        let node = &target.nodes[target.node_of(key_slot(shard_keys[0].as_bytes()))];
        let mut direct = target.node_connection(node)?;
        let reply = redis::cmd("MGET")
            .arg(shard_keys)
            .query::<Value>(&mut direct);
        let text = match reply {
            // The server's own words ("CROSSSLOT Keys in request don't
            // hash to the same slot"), not the client's rewording.
            Err(e) => match (e.code(), e.detail()) {
                (Some(code), Some(detail)) => format!("{code} {detail}"),
                _ => e.to_string(),
            },
            Ok(v) => format!("no error: the server answered {v:?}"),
        };
        if mget_keys.is_empty() {
            (mget_keys, "none", Some(text))
        } else {
            admin.mset(mget_keys, values)?;
            (mget_keys, "same_slot_copy", Some(text))
        }
    };
    let mut mget_p50_ms = None;
    if !mget_set.is_empty() {
        times.clear();
        for _ in 0..reads {
            let start = Instant::now();
            let got = admin.mget(mget_set)?;
            times.push(ms(start.elapsed()));
            if got.iter().sum::<i64>() != values.iter().sum::<i64>() {
                bail!("MGET read back a different sum than the pipelined GETs");
            }
        }
        mget_p50_ms = Some(median(&mut times));
    }
    Ok(ReadPath {
        reads,
        nodes_per_read: distinct.len() as u64,
        pipelined_get_p50_ms,
        mget_p50_ms,
        mget_keys: mget_label.to_string(),
        crossslot_error,
    })
}

/// Median of a non-empty sample (mean of the middle two for even sizes).
fn median(xs: &mut [f64]) -> f64 {
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    if n % 2 == 1 {
        xs[n / 2]
    } else {
        (xs[n / 2 - 1] + xs[n / 2]) / 2.0
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// One bounded write phase.
struct Phase {
    sent: u64,
    seconds: f64,
    per_key: Vec<u64>,
    /// Per-INCR latency in microseconds (with pipelining, each INCR of a
    /// batch is charged the batch's round trip).
    histogram: Histogram<u64>,
}

impl Phase {
    fn latency(&self) -> Latency {
        let q = |p: f64| self.histogram.value_at_quantile(p) as f64 / 1e3;
        Latency {
            p50_ms: q(0.50),
            p99_ms: q(0.99),
            p999_ms: q(0.999),
            max_ms: self.histogram.max() as f64 / 1e3,
        }
    }
}

fn new_histogram() -> Histogram<u64> {
    // 1 µs to 60 s at 3 significant digits; `saturating_record` clamps beyond.
    Histogram::new_with_bounds(1, 60_000_000, 3).expect("constant histogram bounds are valid")
}

/// C threads, each with its own connection, INCR random keys of `keys`
/// until the deadline or until `max_ops` INCRs have been claimed.
fn load_phase(
    config: &MeasureConfig,
    target: &Target,
    keys: &[String],
    phase: u64,
) -> anyhow::Result<Phase> {
    let clients = config.clients as usize;
    let max = config.max_ops.unwrap_or(u64::MAX);
    let claimed = AtomicU64::new(0);
    let failed = AtomicBool::new(false);
    let barrier = Barrier::new(clients + 1);
    let batch_size = config.pipeline;
    let keys = Arc::new(keys.to_vec());

    struct Worker {
        sent: u64,
        per_key: Vec<u64>,
        histogram: Histogram<u64>,
        finished: Instant,
    }

    let (start, results) = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..clients)
            .map(|c| {
                let (claimed, failed, barrier, keys) =
                    (&claimed, &failed, &barrier, Arc::clone(&keys));
                scope.spawn(move || -> anyhow::Result<Worker> {
                    let conn = target.open();
                    // Everyone reaches the barrier, connected or not, so a
                    // failed connect cannot leave the others waiting.
                    if conn.is_err() {
                        failed.store(true, Ordering::Relaxed);
                    }
                    barrier.wait();
                    let mut conn = conn?;
                    if failed.load(Ordering::Relaxed) {
                        bail!("another client failed to connect");
                    }
                    let deadline = Instant::now() + config.duration;
                    let mut rng = Xoshiro256PlusPlus::seed_from_u64(
                        config.seed
                            ^ (phase << 32)
                            ^ (c as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15),
                    );
                    let mut w = Worker {
                        sent: 0,
                        per_key: vec![0; keys.len()],
                        histogram: new_histogram(),
                        finished: Instant::now(),
                    };
                    let mut batch: Vec<usize> = Vec::with_capacity(batch_size as usize);
                    while !failed.load(Ordering::Relaxed) && Instant::now() < deadline {
                        let first = claimed.fetch_add(batch_size, Ordering::Relaxed);
                        if first >= max {
                            break;
                        }
                        let n = batch_size.min(max - first);
                        batch.clear();
                        batch.extend((0..n).map(|_| rng.random_range(0..keys.len())));
                        let t = Instant::now();
                        if let Err(e) = conn.incr(&keys, &batch) {
                            failed.store(true, Ordering::Relaxed);
                            return Err(e);
                        }
                        let us = t.elapsed().as_micros().max(1) as u64;
                        w.histogram.saturating_record_n(us, n);
                        w.sent += n;
                        for &k in &batch {
                            w.per_key[k] += 1;
                        }
                    }
                    w.finished = Instant::now();
                    Ok(w)
                })
            })
            .collect();
        barrier.wait();
        let start = Instant::now();
        let results: Vec<anyhow::Result<Worker>> = handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(anyhow!("a load thread panicked")))
            })
            .collect();
        (start, results)
    });

    let mut phase_result = Phase {
        sent: 0,
        seconds: 0.0,
        per_key: vec![0; keys.len()],
        histogram: new_histogram(),
    };
    let mut end = start;
    // Report the first real error, not the "another client failed" echoes.
    let mut errors: Vec<anyhow::Error> = Vec::new();
    for r in results {
        match r {
            Ok(w) => {
                phase_result.sent += w.sent;
                end = end.max(w.finished);
                for (a, b) in phase_result.per_key.iter_mut().zip(&w.per_key) {
                    *a += b;
                }
                phase_result
                    .histogram
                    .add(&w.histogram)
                    .context("merging latency histograms")?;
            }
            Err(e) => errors.push(e),
        }
    }
    if !errors.is_empty() {
        let pos = errors
            .iter()
            .position(|e| !e.to_string().starts_with("another client"))
            .unwrap_or(0);
        return Err(errors.swap_remove(pos));
    }
    phase_result.seconds = (end - start).as_secs_f64().max(1e-9);
    Ok(phase_result)
}

/// A node of the deployment and the slots it owns.
#[derive(Debug, Clone)]
struct Node {
    /// `host:port`, as reported.
    addr: String,
    host: String,
    port: u16,
    slots: u64,
}

/// Where the load goes: a standalone server, or a cluster with its slot map.
struct Target {
    url: String,
    cluster: Option<ClusterClient>,
    single: Option<redis::Client>,
    nodes: Vec<Node>,
    /// Node index for each of the 16384 slots.
    slot_node: Vec<usize>,
    /// The parsed `--redis` URL; its credentials are reused for every node.
    info: ConnectionInfo,
}

fn connect_message(url: &str, e: &redis::RedisError) -> String {
    let why = if e.is_connection_refusal() {
        "connection refused".to_string()
    } else if e.is_timeout() {
        "timed out".to_string()
    } else {
        e.to_string()
    };
    format!("cannot connect to {url}: {why}")
}

impl Target {
    fn connect(config: &MeasureConfig) -> anyhow::Result<Target> {
        let url = redact(&config.redis);
        let client = redis::Client::open(config.redis.as_str())
            .map_err(|e| InputError::new("--redis", e.to_string()))?;
        let mut seed = client
            .get_connection_with_timeout(CONNECT_TIMEOUT)
            .map_err(|e| anyhow!(connect_message(&url, &e)))?;
        seed.set_read_timeout(Some(RESPONSE_TIMEOUT))?;
        // The handshake does not check a password the URL lacks; the first
        // command does. Fail here with a hint instead of mid-run.
        redis::cmd("PING")
            .query::<String>(&mut seed)
            .map_err(|e| match e.code() {
                Some("NOAUTH") | Some("WRONGPASS") => anyhow!(
                    "{url} refused the login ({e}); put the password in the URL: redis://:PASSWORD@host:port"
                ),
                _ => anyhow!("{url} did not answer PING: {e}"),
            })?;
        let info = client.get_connection_info().clone();
        if !config.cluster {
            let (host, port) = match info.addr() {
                ConnectionAddr::Tcp(h, p) => (h.clone(), *p),
                other => bail!("{url}: unsupported address {other}"),
            };
            // A cluster node answers keys of other nodes with MOVED; say so
            // now rather than after the first INCR.
            let enabled: redis::RedisResult<String> =
                redis::cmd("INFO").arg("cluster").query(&mut seed);
            if let Ok(text) = enabled {
                if text.contains("cluster_enabled:1") {
                    bail!("{url} is a Redis Cluster node; pass --cluster");
                }
            }
            return Ok(Target {
                url,
                cluster: None,
                single: Some(client),
                nodes: vec![Node {
                    addr: format!("{host}:{port}"),
                    host,
                    port,
                    slots: CLUSTER_SLOTS as u64,
                }],
                slot_node: vec![0; CLUSTER_SLOTS as usize],
                info,
            });
        }
        let raw: Value = redis::cmd("CLUSTER").arg("SLOTS").query(&mut seed).map_err(|e| {
            if e.to_string().contains("cluster support disabled") {
                anyhow!("{url} is not a Redis Cluster node (cluster support disabled); drop --cluster")
            } else {
                anyhow!("CLUSTER SLOTS on {url} failed: {e}")
            }
        })?;
        let (nodes, slot_node) = parse_cluster_slots(&raw)
            .with_context(|| format!("reading CLUSTER SLOTS from {url}"))?;
        let cluster = ClusterClient::builder(vec![info.clone()])
            .connection_timeout(CONNECT_TIMEOUT)
            .response_timeout(RESPONSE_TIMEOUT)
            .build()
            .map_err(|e| anyhow!("cannot set up the cluster client for {url}: {e}"))?;
        Ok(Target {
            url,
            cluster: Some(cluster),
            single: None,
            nodes,
            slot_node,
            info,
        })
    }

    fn node_of(&self, slot: u16) -> usize {
        self.slot_node[slot as usize]
    }

    fn open(&self) -> anyhow::Result<Conn> {
        if let Some(c) = &self.cluster {
            let conn = c
                .get_connection()
                .map_err(|e| anyhow!(connect_message(&self.url, &e)))?;
            return Ok(Conn::Cluster(Box::new(conn)));
        }
        let client = self.single.as_ref().ok_or_else(|| anyhow!("no client"))?;
        let conn = client
            .get_connection_with_timeout(CONNECT_TIMEOUT)
            .map_err(|e| anyhow!(connect_message(&self.url, &e)))?;
        conn.set_read_timeout(Some(RESPONSE_TIMEOUT))?;
        conn.set_write_timeout(Some(RESPONSE_TIMEOUT))?;
        Ok(Conn::Single(conn))
    }

    /// A plain connection to one node, by `host:port`.
    /// Keeps the URL's credentials, so it works on a server with a password.
    fn node_connection(&self, node: &Node) -> anyhow::Result<Connection> {
        let info = self
            .info
            .clone()
            .set_addr(ConnectionAddr::Tcp(node.host.clone(), node.port));
        let url = format!("redis://{}", node.addr);
        let client = redis::Client::open(info)?;
        let conn = client
            .get_connection_with_timeout(CONNECT_TIMEOUT)
            .map_err(|e| anyhow!(connect_message(&url, &e)))?;
        conn.set_read_timeout(Some(RESPONSE_TIMEOUT))?;
        Ok(conn)
    }

    /// INCR calls each node has served so far, from `INFO commandstats`;
    /// `None` if any node does not say (e.g. the command is renamed).
    fn server_incr_calls(&self) -> Option<Vec<u64>> {
        self.nodes
            .iter()
            .map(|n| {
                let mut c = self.node_connection(n).ok()?;
                let text: String = redis::cmd("INFO").arg("commandstats").query(&mut c).ok()?;
                Some(parse_incr_calls(&text))
            })
            .collect()
    }
}

/// `cmdstat_incr:calls=N,...` from `INFO commandstats` (absent: 0 calls).
fn parse_incr_calls(info: &str) -> u64 {
    info.lines()
        .find_map(|l| l.trim().strip_prefix("cmdstat_incr:calls="))
        .and_then(|rest| rest.split(',').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

/// CLUSTER SLOTS replies `[[start, end, [ip, port, id, ...], replicas...], ...]`;
/// masters only (replicas do not take writes).
fn parse_cluster_slots(raw: &Value) -> anyhow::Result<(Vec<Node>, Vec<usize>)> {
    let int = |v: &Value| match v {
        Value::Int(i) => Some(*i),
        _ => None,
    };
    let text = |v: &Value| match v {
        Value::BulkString(b) => Some(String::from_utf8_lossy(b).into_owned()),
        Value::SimpleString(s) => Some(s.clone()),
        _ => None,
    };
    let Value::Array(ranges) = raw else {
        bail!("expected an array, got {raw:?}");
    };
    let mut by_addr: BTreeMap<String, usize> = BTreeMap::new();
    let mut nodes: Vec<Node> = Vec::new();
    let mut slot_node = vec![usize::MAX; CLUSTER_SLOTS as usize];
    for range in ranges {
        let Value::Array(parts) = range else {
            bail!("expected a slot range array, got {range:?}");
        };
        let (Some(start), Some(end), Some(Value::Array(master))) = (
            parts.first().and_then(int),
            parts.get(1).and_then(int),
            parts.get(2),
        ) else {
            bail!("unexpected slot range {range:?}");
        };
        let (Some(ip), Some(port)) = (master.first().and_then(text), master.get(1).and_then(int))
        else {
            bail!("unexpected node entry {master:?}");
        };
        if !(0..CLUSTER_SLOTS as i64).contains(&start)
            || !(start..CLUSTER_SLOTS as i64).contains(&end)
        {
            bail!("slot range {start}-{end} is outside 0-16383");
        }
        let port = u16::try_from(port).map_err(|_| anyhow!("bad port {port}"))?;
        let addr = format!("{ip}:{port}");
        let idx = *by_addr.entry(addr.clone()).or_insert_with(|| {
            nodes.push(Node {
                addr,
                host: ip,
                port,
                slots: 0,
            });
            nodes.len() - 1
        });
        nodes[idx].slots += (end - start + 1) as u64;
        for s in start..=end {
            slot_node[s as usize] = idx;
        }
    }
    if let Some(s) = slot_node.iter().position(|&n| n == usize::MAX) {
        bail!("slot {s} is not served by any node; is the cluster state ok?");
    }
    // Order nodes by address so reports are stable run to run.
    let mut order: Vec<usize> = (0..nodes.len()).collect();
    order.sort_by(|&a, &b| nodes[a].addr.cmp(&nodes[b].addr));
    let mut new_index = vec![0; nodes.len()];
    for (new, &old) in order.iter().enumerate() {
        new_index[old] = new;
    }
    let sorted = order.iter().map(|&i| nodes[i].clone()).collect();
    let slot_node = slot_node.into_iter().map(|i| new_index[i]).collect();
    Ok((sorted, slot_node))
}

/// A connection to either kind of deployment, with the few operations the
/// run needs. Cluster pipelines are split per node by the client.
enum Conn {
    Single(Connection),
    Cluster(Box<ClusterConnection>),
}

impl Conn {
    /// Run `cmds` (each a command name and its arguments) as one pipeline.
    fn pipeline<T: redis::FromRedisValue>(&mut self, cmds: &[redis::Cmd]) -> redis::RedisResult<T> {
        match self {
            Conn::Single(c) => {
                let mut p = redis::pipe();
                for cmd in cmds {
                    p.add_command(cmd.clone());
                }
                p.query(c)
            }
            Conn::Cluster(c) => {
                let mut p = redis::cluster::cluster_pipe();
                for cmd in cmds {
                    p.add_command(cmd.clone());
                }
                p.query(c)
            }
        }
    }

    fn command<T: redis::FromRedisValue>(&mut self, cmd: &redis::Cmd) -> redis::RedisResult<T> {
        match self {
            Conn::Single(c) => cmd.query(c),
            Conn::Cluster(c) => cmd.query(c.as_mut()),
        }
    }

    /// INCR `keys[i]` for each i in `batch`; one command or one pipeline.
    fn incr(&mut self, keys: &[String], batch: &[usize]) -> anyhow::Result<()> {
        let result = if let [one] = batch {
            self.command::<i64>(redis::cmd("INCR").arg(&keys[*one]))
                .map(|_| ())
        } else {
            let cmds: Vec<redis::Cmd> = batch
                .iter()
                .map(|&i| redis::cmd("INCR").arg(&keys[i]).clone())
                .collect();
            self.pipeline::<Vec<i64>>(&cmds).map(|_| ())
        };
        result.map_err(|e| {
            let hint = if e.to_string().contains("MOVED") {
                " (the server is a cluster node; pass --cluster)"
            } else {
                ""
            };
            anyhow!("INCR failed: {e}{hint}")
        })
    }

    /// Values of `keys` by pipelined GETs (missing keys read as 0).
    fn get_values(&mut self, keys: &[String]) -> anyhow::Result<Vec<i64>> {
        let cmds: Vec<redis::Cmd> = keys
            .iter()
            .map(|k| redis::cmd("GET").arg(k).clone())
            .collect();
        let got: Vec<Option<i64>> = self
            .pipeline(&cmds)
            .context("GET of the shard keys failed")?;
        Ok(got.into_iter().map(|v| v.unwrap_or(0)).collect())
    }

    /// One MGET of `keys` (all in one slot on a cluster).
    fn mget(&mut self, keys: &[String]) -> anyhow::Result<Vec<i64>> {
        let got: Vec<Option<i64>> = self
            .command(redis::cmd("MGET").arg(keys))
            .context("MGET failed")?;
        Ok(got.into_iter().map(|v| v.unwrap_or(0)).collect())
    }

    /// One MSET of `keys` to `values` (all in one slot on a cluster).
    fn mset(&mut self, keys: &[String], values: &[i64]) -> anyhow::Result<()> {
        let mut cmd = redis::cmd("MSET");
        for (k, v) in keys.iter().zip(values) {
            cmd.arg(k).arg(*v);
        }
        self.command::<()>(&cmd)
            .context("MSET of the same-slot copy failed")
    }

    /// How many of `keys` exist, and the first one that does.
    fn count_existing(&mut self, keys: &[String]) -> anyhow::Result<(u64, Option<String>)> {
        let cmds: Vec<redis::Cmd> = keys
            .iter()
            .map(|k| redis::cmd("EXISTS").arg(k).clone())
            .collect();
        let got: Vec<u64> = self.pipeline(&cmds)?;
        let first = keys
            .iter()
            .zip(&got)
            .find(|(_, &n)| n > 0)
            .map(|(k, _)| k.clone());
        Ok((got.iter().sum(), first))
    }

    fn del(&mut self, keys: &[String]) -> anyhow::Result<()> {
        if keys.is_empty() {
            return Ok(());
        }
        let cmds: Vec<redis::Cmd> = keys
            .iter()
            .map(|k| redis::cmd("DEL").arg(k).clone())
            .collect();
        self.pipeline::<Vec<u64>>(&cmds)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(template: &str) -> InputResult<MeasureConfig> {
        MeasureConfig::new(
            "redis://127.0.0.1:7000",
            true,
            16,
            50,
            Duration::from_secs(10),
            None,
            1,
            template,
        )
    }

    #[test]
    fn keys_follow_the_template() {
        let c = config("likes:<shard>").unwrap();
        assert_eq!(c.shard_key(0), "likes:0");
        assert_eq!(c.shard_key(15), "likes:15");
        assert_eq!(c.single_key(), "likes:single");
        assert_eq!(c.mget_key(3), "{likes:mget}:3");
        let slot = key_slot(c.mget_key(0).as_bytes());
        assert!((0..16).all(|i| key_slot(c.mget_key(i).as_bytes()) == slot));
        let tagged = config("{likes}:<shard>").unwrap();
        assert!((0..16).all(|i| key_slot(tagged.shard_key(i).as_bytes()) == key_slot(b"likes")));
    }

    #[test]
    fn bad_flags_name_the_flag() {
        let e = config("likes").unwrap_err();
        assert_eq!(e.what, "--template");
        assert_eq!(config("<shard>:<shard>").unwrap_err().what, "--template");
        for url in [
            "127.0.0.1:7000",
            "http://127.0.0.1:7000",
            "redis://",
            "redis://host:notaport",
            "rediss://127.0.0.1:6379",
        ] {
            let e = MeasureConfig::new(
                url,
                false,
                1,
                1,
                Duration::from_secs(1),
                None,
                1,
                "k:<shard>",
            )
            .unwrap_err();
            assert_eq!(e.what, "--redis", "{url}: {e}");
        }
        let ok = |s, c, p, m| {
            MeasureConfig::new(
                "redis://127.0.0.1",
                false,
                s,
                c,
                Duration::from_secs(1),
                m,
                p,
                "k:<shard>",
            )
        };
        assert_eq!(ok(0, 1, 1, None).unwrap_err().what, "--shards");
        assert_eq!(ok(1, 0, 1, None).unwrap_err().what, "--clients");
        assert_eq!(ok(1, 1, 0, None).unwrap_err().what, "--pipeline");
        assert_eq!(ok(1, 1, 1, Some(0)).unwrap_err().what, "--max-ops");
        let e = MeasureConfig::new(
            "redis://127.0.0.1",
            false,
            1,
            1,
            Duration::ZERO,
            None,
            1,
            "k:<shard>",
        )
        .unwrap_err();
        assert_eq!(e.what, "--duration");
    }

    #[test]
    fn passwords_are_redacted() {
        assert_eq!(
            redact("redis://:s3cret@127.0.0.1:7000"),
            "redis://:***@127.0.0.1:7000"
        );
        assert_eq!(redact("redis://app:pw@h:1/0"), "redis://app:***@h:1/0");
        assert_eq!(redact("redis://app@h:1"), "redis://app@h:1");
        assert_eq!(redact("redis://127.0.0.1:7000"), "redis://127.0.0.1:7000");
    }

    #[test]
    fn durations_parse() {
        assert_eq!(
            parse_duration("--duration", "10s").unwrap(),
            Duration::from_secs(10)
        );
        assert_eq!(
            parse_duration("--duration", "500ms").unwrap(),
            Duration::from_millis(500)
        );
        assert_eq!(
            parse_duration("--duration", "2").unwrap(),
            Duration::from_secs(2)
        );
        assert_eq!(
            parse_duration("--duration", "1.5m").unwrap(),
            Duration::from_secs(90)
        );
        for bad in ["", "0", "-1", "ten", "10 parsecs", "NaN"] {
            assert_eq!(
                parse_duration("--duration", bad).unwrap_err().what,
                "--duration",
                "{bad}"
            );
        }
    }

    #[test]
    fn cluster_slots_reply_maps_every_slot() {
        let node = |port: i64| {
            Value::Array(vec![
                Value::BulkString(b"127.0.0.1".to_vec()),
                Value::Int(port),
                Value::BulkString(b"id".to_vec()),
            ])
        };
        let raw = Value::Array(vec![
            Value::Array(vec![Value::Int(5461), Value::Int(10922), node(7001)]),
            Value::Array(vec![Value::Int(0), Value::Int(5460), node(7000)]),
            Value::Array(vec![Value::Int(10923), Value::Int(16383), node(7002)]),
        ]);
        let (nodes, slot_node) = parse_cluster_slots(&raw).unwrap();
        let addrs: Vec<_> = nodes.iter().map(|n| (n.addr.as_str(), n.slots)).collect();
        assert_eq!(
            addrs,
            [
                ("127.0.0.1:7000", 5461),
                ("127.0.0.1:7001", 5462),
                ("127.0.0.1:7002", 5461)
            ]
        );
        assert_eq!((slot_node[0], slot_node[5461], slot_node[16383]), (0, 1, 2));
        let partial = Value::Array(vec![Value::Array(vec![
            Value::Int(0),
            Value::Int(100),
            node(7000),
        ])]);
        assert!(parse_cluster_slots(&partial)
            .unwrap_err()
            .to_string()
            .contains("slot 101"));
    }

    #[test]
    fn median_of_odd_and_even_samples() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 3.0, 2.0]), 2.5);
        assert_eq!(median(&mut [7.0]), 7.0);
    }

    #[test]
    fn incr_calls_from_commandstats() {
        let info = "# Commandstats\r\ncmdstat_get:calls=3,usec=1\r\ncmdstat_incr:calls=4711,usec=9,usec_per_call=0.1\r\n";
        assert_eq!(parse_incr_calls(info), 4711);
        assert_eq!(parse_incr_calls("# Commandstats\r\n"), 0);
    }

    #[test]
    fn cap_from_measure_reads_single_ops() {
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str, text: &str| {
            let p = dir.path().join(name);
            std::fs::write(&p, text).unwrap();
            p
        };
        let p = write(
            "a.json",
            r#"{"single_ops_per_second": 41234.5, "sharded_ops_per_second": 90000}"#,
        );
        assert_eq!(cap_from_measure_file(&p).unwrap(), 41234.5);
        let p = write("b.json", r#"[{"single_ops_per_second": 1000}]"#);
        assert_eq!(cap_from_measure_file(&p).unwrap(), 1000.0);
        for (name, text, needle) in [
            ("c.json", "not json", "is not JSON"),
            ("d.json", r#"{"cap": 3}"#, "no single_ops_per_second"),
            ("e.json", r#"{"single_ops_per_second": 0}"#, "above 0"),
            ("f.json", r#"{"single_ops_per_second": "fast"}"#, "above 0"),
        ] {
            let e = cap_from_measure_file(&write(name, text)).unwrap_err();
            assert_eq!(e.what, "--cap-from-measure");
            assert!(e.message.contains(needle), "{name}: {e}");
        }
        let e = cap_from_measure_file(&dir.path().join("missing.json")).unwrap_err();
        assert!(e.message.contains("cannot read"), "{e}");
    }
}
