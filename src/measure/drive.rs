//! The Redis run itself (built with the `redis` feature): the keys checked
//! and set aside, the warm-up and the runs, the read path, the clean-up.

use std::sync::atomic::{AtomicU64, Ordering};

use anyhow::{anyhow, Context};

use crate::error::Interrupted;
use crate::model::placement::{key_slot, KeysReport};

use super::cluster::Target;
use super::conn::Conn;
use super::cpu::{shares, NodeDelta, Probe};
use super::keys::{Cleanup, RunKeys};
use super::reads::read_path;
use super::runs::{cpu_total_and_max_share, measure_runs, Written};

use super::{
    durability, keys, redact, runs, shard_load, MeasureConfig, MeasureReport, MeasureWarning,
    NodeOps, PhaseSpread, Progress, ReadPath, ShardLoad, Spread,
};

/// What a caller hears during a run: the warnings found before the load
/// starts, and where the run is (for a progress line).
pub struct Watch<'a> {
    /// Called once, before the load, with what makes the figures not what
    /// they seem (e.g. shard keys that do not reach every node).
    pub before: &'a dyn Fn(&[MeasureWarning]),
    /// Called at the start of each phase and every
    /// [`MEASURE_PROGRESS_TICK`](crate::model::defaults::MEASURE_PROGRESS_TICK).
    pub progress: &'a (dyn Fn(&Progress) + Sync),
}

/// [`run_with`] with nobody listening.
pub fn run(config: &MeasureConfig) -> anyhow::Result<MeasureReport> {
    run_with(
        config,
        &Watch {
            before: &|_| {},
            progress: &|_| {},
        },
    )
}

/// Run the warm-up, the alternating phases and the read path against the
/// server in `config`.
///
/// Errors: a bad config, or keys that already exist (without
/// `--overwrite`, or of a type it cannot restore), come back as an
/// [`InputError`](crate::error::InputError) inside the `anyhow::Error`
/// (downcast it for exit code 2); a run stopped by a signal as
/// [`Interrupted`]; a server that is down or misbehaves is a plain error.
pub fn run_with(config: &MeasureConfig, watch: &Watch) -> anyhow::Result<MeasureReport> {
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
    let result = measure(config, &target, &mut admin, &keys, &mut written, watch);
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

/// Shard keys that do not reach every node of a cluster: how many they
/// reach, and why, as `keys --check` finds it (a shared slot, a hash tag).
/// Keys that reach every node get no warning, even if a few share a slot
/// (a thousand keys in 16384 slots always do).
fn placement_warnings(config: &MeasureConfig, keys: &RunKeys, nodes: u64) -> Vec<MeasureWarning> {
    if !config.cluster || keys.nodes_reached >= nodes {
        return Vec::new();
    }
    let mut out = vec![MeasureWarning::NodesUnreached {
        reached: keys.nodes_reached,
        nodes,
        shards: config.shards,
    }];
    let bytes: Vec<Vec<u8>> = keys.shard.iter().map(|k| k.clone().into_bytes()).collect();
    // No node count: the real slot map is the cluster's, not the layout
    // `keys --nodes` assumes; the slot check needs none.
    if let Ok(report) = KeysReport::from_keys(&bytes, None) {
        out.extend(
            report
                .check_failures()
                .into_iter()
                .map(|warning| MeasureWarning::Placement { warning }),
        );
    }
    out
}

/// The warm-up, the runs, the figures per node and the read path, on keys
/// [`run`] has claimed; [`run`] cleans them up afterwards.
fn measure(
    config: &MeasureConfig,
    target: &Target,
    admin: &mut Conn,
    keys: &RunKeys,
    written: &mut Written,
    watch: &Watch,
) -> anyhow::Result<MeasureReport> {
    let warnings = placement_warnings(config, keys, target.nodes.len() as u64);
    (watch.before)(&warnings);
    // Each node's idle CPU rate, over a quiet interval before the load.
    let mut probe = Probe::start(target, config.timeout)?;
    let runs = measure_runs(config, target, keys, written, &mut probe, watch.progress)?;

    let shard_keys = &keys.shard[..];
    let single_value = admin.get_values(std::slice::from_ref(&keys.single))?[0];
    let values = admin.get_values(shard_keys)?;
    let shard_sum: i64 = values.iter().sum();
    let shard_load = shard_load::ShardLoad::new(values.clone(), &runs.sampled);
    let nodes = node_figures(target, keys, &runs, probe.idle_rates());

    let (single, sharded) = (&runs.single, &runs.sharded);
    let counts_match =
        shard_sum == (sharded.sent + runs.warmup_sent) as i64 && single_value == single.sent as i64;
    let read = read_path(
        config,
        target,
        admin,
        keys,
        &values,
        counts_match,
        &mut written.copies,
    )?;
    let back = ReadBack {
        single_value,
        shard_sum,
        shard_load,
        counts_match,
        nodes,
        warnings,
        read,
    };
    Ok(report(config, keys, runs, back))
}

/// What a run found after its phases: the counts read back, what each
/// node did, the warnings and the read path.
struct ReadBack {
    single_value: i64,
    shard_sum: i64,
    shard_load: ShardLoad,
    counts_match: bool,
    nodes: Vec<NodeOps>,
    warnings: Vec<MeasureWarning>,
    read: ReadPath,
}

/// The report of the runs and what was read back after them (before the
/// clean-up's figures).
fn report(
    config: &MeasureConfig,
    keys: &RunKeys,
    runs: runs::Runs,
    back: ReadBack,
) -> MeasureReport {
    let (single, sharded) = (&runs.single, &runs.sharded);
    let ratios: Vec<f64> = runs.results.iter().map(|r| r.ratio).collect();
    let ratio = Spread::of(&ratios);
    let single_phases = PhaseSpread::single(&runs.results);
    let sharded_phases = PhaseSpread::sharded(&runs.results);
    let (single_cpu, single_max) = cpu_total_and_max_share(&runs.single_nodes);
    let (sharded_cpu, sharded_max) = cpu_total_and_max_share(&runs.sharded_nodes);
    let sharded_latency = sharded.latency();
    MeasureReport {
        redis: redact(&config.redis),
        cluster: config.cluster,
        shards: config.shards,
        clients: config.clients,
        pipeline: config.pipeline,
        template: keys.template.template().to_string(),
        run_id: keys.run_id.clone(),
        single_key: keys.single.clone(),
        runs: config.runs,
        single_ops_per_second_mean: single_phases.ops_per_second.mean,
        sharded_ops_per_second_mean: sharded_phases.ops_per_second.mean,
        ratio_ci95: ratio.ci95,
        ratio,
        single: single_phases,
        sharded: sharded_phases,
        single_cpu_seconds: single_cpu,
        sharded_cpu_seconds: sharded_cpu,
        single_max_cpu_share: single_max,
        sharded_max_cpu_share: sharded_max,
        single_incr_sent: single.sent,
        single_seconds: single.seconds,
        single_ops_per_second: single_phases.ops_per_second.mean,
        single_value: back.single_value,
        single_latency: single.latency(),
        incr_sent: sharded.sent,
        warmup_incr_sent: runs.warmup_sent,
        sharded_seconds: sharded.seconds,
        sharded_ops_per_second: sharded_phases.ops_per_second.mean,
        sharded_latency,
        latency_p99_ms: sharded_latency.p99_ms,
        shard_sum: back.shard_sum,
        counts_match: back.counts_match,
        speedup: ratio.mean,
        nodes_reached: keys.nodes_reached,
        nodes_possible: keys.nodes_possible,
        nodes: back.nodes,
        warnings: back.warnings,
        read: back.read,
        keys_kept: config.keep,
        // Filled in by the clean-up.
        keys_deleted: 0,
        keys_left: Vec::new(),
        keys_restored: 0,
        run_results: runs.results,
        machine: crate::measure::machine::Machine::here(None),
        picker: config.picker,
        shard_load: back.shard_load,
        durability: durability::Durability::clean(
            single.sent + sharded.sent + runs.warmup_sent,
            back.single_value + back.shard_sum,
        ),
    }
}

/// Each master's INCRs (by the slot map and by its own count), CPU seconds
/// and CPU shares over all runs.
fn node_figures(target: &Target, keys: &RunKeys, runs: &runs::Runs, idle: &[f64]) -> Vec<NodeOps> {
    let cpu_shares = |nodes: &[NodeDelta]| -> Vec<Option<f64>> {
        let cpu: Option<Vec<f64>> = nodes.iter().map(|n| n.cpu_seconds).collect();
        match cpu {
            Some(c) => shares(&c).into_iter().map(Some).collect(),
            None => vec![None; nodes.len()],
        }
    };
    let single_shares = cpu_shares(&runs.single_nodes);
    let sharded_shares = cpu_shares(&runs.sharded_nodes);
    let single_node = target.node_of(key_slot(keys.single.as_bytes()));
    let mut nodes: Vec<NodeOps> = target
        .nodes
        .iter()
        .enumerate()
        .map(|(i, n)| NodeOps {
            address: n.addr.clone(),
            node: n.addr.clone(),
            slots: n.slots,
            shard_keys: 0,
            single_incr: if i == single_node {
                runs.single.sent
            } else {
                0
            },
            sharded_incr: 0,
            single_incr_served: runs.single_nodes[i].incr,
            sharded_incr_served: runs.sharded_nodes[i].incr,
            server_incr: runs.sharded_nodes[i].incr,
            single_cpu_seconds: runs.single_nodes[i].cpu_seconds,
            sharded_cpu_seconds: runs.sharded_nodes[i].cpu_seconds,
            single_cpu_share: single_shares[i],
            sharded_cpu_share: sharded_shares[i],
            idle_cpu_per_second: idle[i],
        })
        .collect();
    for (key, count) in keys.shard.iter().zip(&runs.shard_counts) {
        let node = &mut nodes[target.node_of(key_slot(key.as_bytes()))];
        node.shard_keys += 1;
        node.sharded_incr += count;
    }
    nodes
}
