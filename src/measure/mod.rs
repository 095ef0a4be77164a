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

#![warn(missing_docs)]

mod cluster;
mod config;
mod conn;
mod load;
mod reads;
mod report;
mod url;

use anyhow::Context;

use crate::error::InputError;
use crate::model::placement::key_slot;

use cluster::Target;
use conn::Conn;
use load::load_phase;
use reads::read_path;

pub use config::{parse_duration, MeasureConfig};
pub use report::{cap_from_measure_file, Latency, MeasureReport, MgetKeys, NodeOps, ReadPath};
pub use url::{redact, with_password};

/// The placeholder a `--template` must contain (the same one `keys` uses);
/// replaced by 0..S-1.
pub use crate::model::placement::SHARD_PLACEHOLDER;

/// Run both phases and the read path against the server in `config`.
///
/// Errors: a bad config or keys that already exist (without `--overwrite`)
/// come back as an [`InputError`] inside the `anyhow::Error` (downcast it
/// for exit code 2); a server that is down or misbehaves is a plain error.
pub fn run(config: &MeasureConfig) -> anyhow::Result<MeasureReport> {
    config.validate()?;
    let target = Target::connect(config)?;
    let shard_keys = config.template.keys(config.shards);
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
    if let Some(signal) = crate::output::interrupt::received() {
        cleanup.context("deleting the keys this run wrote")?;
        return Err(crate::error::Interrupted(signal).into());
    }
    let report = result?;
    cleanup.context("deleting the keys this run wrote")?;
    Ok(report)
}

/// Both phases, the INCRs per node and the read path, on keys [`run`] has
/// checked to be absent (or reset); [`run`] deletes them afterwards.
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
        template: config.template.template().to_string(),
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
