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
//! Without `--template` the keys are named by a fresh random run id. Every
//! key the run writes is checked to be absent first (`--overwrite` sets
//! string keys aside and restores them after), and at the end each key that
//! still holds what this run wrote is deleted unless `--keep`.

#![warn(missing_docs)]

mod cluster;
mod config;
mod conn;
mod errors;
mod keys;
mod load;
pub mod machine;
mod measurement;
pub mod postgres;
mod reads;
mod report;
mod url;

use std::sync::atomic::{AtomicU64, Ordering};

use anyhow::{anyhow, Context};

use crate::error::Interrupted;
use crate::model::placement::key_slot;

use cluster::Target;
use conn::Conn;
use keys::{Cleanup, RunKeys};
use load::load_phase;
use reads::read_path;

pub use config::{parse_duration, MeasureConfig};
pub use measurement::{read_measurement, Measurement, RedisSummary};
pub use report::{
    cap_from_measure_file, Latency, MeasureReport, MeasuredCap, MgetKeys, NodeOps, ReadPath,
};
pub use url::{redact, with_password};

/// The placeholder a `--template` must contain (the same one `keys` uses);
/// replaced by 0..S-1.
pub use crate::model::placement::SHARD_PLACEHOLDER;

/// What the load phases acknowledged per key, kept outside them so the
/// clean-up knows what each key should hold even after a failure.
struct Written {
    single: [AtomicU64; 1],
    shards: Vec<AtomicU64>,
    /// The same-slot copy's keys and the values MSET gave them.
    copies: Vec<(String, String)>,
}

/// Run both phases and the read path against the server in `config`.
///
/// Errors: a bad config, or keys that already exist (without
/// `--overwrite`, or of a type it cannot restore), come back as an
/// [`InputError`](crate::error::InputError) inside the `anyhow::Error`
/// (downcast it for exit code 2); a run stopped by a signal as
/// [`Interrupted`]; a server that is down or misbehaves is a plain error.
pub fn run(config: &MeasureConfig) -> anyhow::Result<MeasureReport> {
    config.validate()?;
    let target = Target::connect(config)?;
    let keys = RunKeys::choose(
        config.template.as_ref(),
        config.shards,
        config.cluster,
        &target,
    )?;
    let mut admin = target.open()?;
    let set_aside = keys::claim(&mut admin, &keys.all(), config.overwrite)?;
    let mut written = Written {
        single: [AtomicU64::new(0)],
        shards: keys.shard.iter().map(|_| AtomicU64::new(0)).collect(),
        copies: Vec::new(),
    };
    let result = measure(config, &target, &mut admin, &keys, &mut written);
    // Clean up also when the measurement failed half way, so a failed run
    // leaves nothing of its own behind. The same-slot copies go even with
    // --keep; a key nobody's INCR reached was never created.
    let mut ours = std::mem::take(&mut written.copies);
    if !config.keep {
        let counted = keys
            .shard
            .iter()
            .zip(&written.shards)
            .chain(std::iter::once((&keys.single, &written.single[0])));
        ours.extend(counted.filter_map(|(k, n)| {
            let n = n.load(Ordering::Relaxed);
            (n > 0).then(|| (k.clone(), n.to_string()))
        }));
    }
    let cleanup = keys::clean_up(&mut admin, &ours, &set_aside);
    finish(result, cleanup, config.keep)
}

/// The run's result after its clean-up: the report with what the clean-up
/// did, or the first failure with the clean-up's in the same line.
fn finish(
    result: anyhow::Result<MeasureReport>,
    cleanup: anyhow::Result<Cleanup>,
    kept: bool,
) -> anyhow::Result<MeasureReport> {
    let cleanup = cleanup.context("deleting the keys this run wrote");
    if let Some(signal) = crate::output::interrupt::received() {
        let c = cleanup?;
        return Err(Interrupted {
            signal,
            deleted: c.deleted,
            left: c.left,
            kept,
        }
        .into());
    }
    match (result, cleanup) {
        (Ok(mut report), Ok(c)) => {
            report.keys_deleted = c.deleted;
            report.keys_left = c.left;
            report.keys_restored = c.restored;
            Ok(report)
        }
        (Ok(_), Err(c)) => Err(c),
        (Err(e), Ok(c)) if c.left.is_empty() => Err(e),
        (Err(e), Ok(c)) => Err(anyhow!(
            "{e:#}; left {} keys another client changed or an unacknowledged INCR reached (e.g. {})",
            c.left.len(),
            c.left[0]
        )),
        (Err(e), Err(c)) => Err(anyhow!("{e:#}; then {c:#}")),
    }
}

/// Both phases, the INCRs per node and the read path, on keys [`run`] has
/// claimed; [`run`] cleans them up afterwards.
fn measure(
    config: &MeasureConfig,
    target: &Target,
    admin: &mut Conn,
    keys: &RunKeys,
    written: &mut Written,
) -> anyhow::Result<MeasureReport> {
    let single_key = keys.single.clone();
    let shard_keys = &keys.shard[..];
    let single = load_phase(
        config,
        target,
        std::slice::from_ref(&single_key),
        &written.single,
        0,
    )?;
    let single_value = admin.get_values(std::slice::from_ref(&single_key))?[0];

    let before = target.server_incr_calls();
    let sharded = load_phase(config, target, shard_keys, &written.shards, 1)?;
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
    for (key, count) in shard_keys.iter().zip(&written.shards) {
        let node = &mut nodes[target.node_of(key_slot(key.as_bytes()))];
        node.shard_keys += 1;
        node.sharded_incr += count.load(Ordering::Relaxed);
    }

    let counts_match = shard_sum == sharded.sent as i64 && single_value == single.sent as i64;
    let read = read_path(
        config,
        target,
        admin,
        keys,
        &values,
        counts_match,
        &mut written.copies,
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
        template: keys.template.template().to_string(),
        run_id: keys.run_id.clone(),
        single_key,
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
        counts_match,
        // A phase too short for one INCR would divide by zero.
        speedup: if single_ops > 0.0 {
            sharded_ops / single_ops
        } else {
            0.0
        },
        nodes_reached: keys.nodes_reached,
        nodes_possible: keys.nodes_possible,
        nodes,
        read,
        keys_kept: config.keep,
        // Filled in by the clean-up.
        keys_deleted: 0,
        keys_left: Vec::new(),
        keys_restored: 0,
        machine: crate::measure::machine::Machine::here(None),
    })
}
