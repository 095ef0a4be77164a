//! The repeated runs: one short warm-up on the shard keys, then `--runs`
//! times a one-key phase and a sharded phase, alternating (run 1 one key,
//! run 1 sharded, run 2 one key, ...), so a slow stretch of a shared
//! machine falls on both. Each phase is bracketed by a sample of every
//! node's INFO (CPU seconds and INCRs served). With a `--picker` other than
//! `random`, client `c` is app server `c` on the shard keys, its picker
//! kept from the warm-up through every sharded phase; every sharded phase
//! samples the shard keys' counts each second.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use super::cluster::Target;
use super::config::MeasureConfig;
use super::conn::Conn;
use super::cpu::{shares, NodeDelta, Probe};
use super::keys::RunKeys;
use super::load::{load_phase, Phase, PhaseKeys};
use super::pickers::{writers, Pick};
use super::shard_load::Seconds;
use super::summary::RunResult;
use crate::model::defaults::MEASURE_WARMUP;
use crate::model::picker::Writer;

/// What the load phases acknowledged per key, kept outside them so the
/// clean-up knows what each key should hold even after a failure.
pub(super) struct Written {
    pub(super) single: [AtomicU64; 1],
    pub(super) shards: Vec<AtomicU64>,
    /// The same-slot copy's keys and the values MSET gave them.
    pub(super) copies: Vec<(String, String)>,
}

/// Which part of the run is going on, for a progress line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// The warm-up before the measured runs.
    Warmup,
    /// A one-key phase.
    Single,
    /// A sharded phase.
    Sharded,
}

/// Where a run is, for a progress line on a terminal.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Progress {
    /// The phase under way.
    pub stage: Stage,
    /// The run, from 1 (0 during the warm-up).
    pub run: u64,
    /// `--runs`.
    pub runs: u64,
    /// INCRs acknowledged per second so far in this phase.
    pub ops_per_second: f64,
}

/// Every phase of every run, added up.
pub(super) struct Runs {
    /// Each run's figures.
    pub(super) results: Vec<RunResult>,
    /// The one-key phases pooled (INCRs, seconds, latencies).
    pub(super) single: Phase,
    /// The sharded phases pooled.
    pub(super) sharded: Phase,
    /// INCRs the warm-up wrote to the shard keys.
    pub(super) warmup_sent: u64,
    /// What each node did in all one-key phases.
    pub(super) single_nodes: Vec<NodeDelta>,
    /// What each node did in all sharded phases.
    pub(super) sharded_nodes: Vec<NodeDelta>,
    /// Each shard key's INCRs in the measured sharded phases (not the
    /// warm-up's).
    pub(super) shard_counts: Vec<u64>,
    /// The whole seconds sampled in the sharded phases.
    pub(super) sampled: Seconds,
}

impl Runs {
    /// No run yet: the warm-up's INCRs, and zero for each of `nodes`.
    fn new(runs: u64, warmup_sent: u64, nodes: usize) -> Runs {
        let zero = NodeDelta {
            incr: Some(0),
            cpu_seconds: Some(0.0),
        };
        Runs {
            results: Vec::with_capacity(runs as usize),
            single: Phase::empty(),
            sharded: Phase::empty(),
            warmup_sent,
            single_nodes: vec![zero; nodes],
            sharded_nodes: vec![zero; nodes],
            shard_counts: Vec::new(),
            sampled: Seconds::default(),
        }
    }

    /// Adds run `run`: its figures, what each node did, and its phases
    /// pooled into the totals.
    fn add_run(
        &mut self,
        run: u64,
        single: &Phase,
        sharded: &Phase,
        single_load: &[NodeDelta],
        sharded_load: &[NodeDelta],
    ) {
        self.results
            .push(run_result(run, single, sharded, single_load, sharded_load));
        add(&mut self.single_nodes, single_load);
        add(&mut self.sharded_nodes, sharded_load);
        self.single.pool(single);
        self.sharded.pool(sharded);
        self.single.sent += single.sent;
        self.single.seconds += single.seconds;
        self.sharded.sent += sharded.sent;
        self.sharded.seconds += sharded.seconds;
    }
}

/// The warm-up and `config.runs` alternating runs on `keys`.
pub(super) fn measure_runs(
    config: &MeasureConfig,
    target: &Target,
    keys: &RunKeys,
    written: &Written,
    probe: &mut Probe,
    progress: &(dyn Fn(&Progress) + Sync),
) -> anyhow::Result<Runs> {
    let runs = config.runs;
    let tell = |stage, run| {
        move |ops_per_second| {
            progress(&Progress {
                stage,
                run,
                runs,
                ops_per_second,
            })
        }
    };
    let writers = writers(config.picker, config.clients, config.shards, config.seed);
    let shard_keys = || shard_phase(keys, written, &writers);
    let mut sampler = target.open()?;
    let mut read_counts = shard_counts(&mut sampler, keys);
    tell(Stage::Warmup, 0)(0.0);
    let warmup = load_phase(
        config,
        target,
        shard_keys(),
        u64::MAX,
        config.duration.min(MEASURE_WARMUP),
        &tell(Stage::Warmup, 0),
        None,
    )?;
    let after_warmup: Vec<u64> = counts(&written.shards);
    let mut out = Runs::new(runs, warmup.sent, target.nodes.len());
    for run in 1..=runs {
        // A signal (Ctrl-C) ends the runs: the run then cleans up and exits.
        if crate::output::interrupt::received().is_some() {
            break;
        }
        tell(Stage::Single, run)(0.0);
        let before = probe.sample()?;
        let single = load_phase(
            config,
            target,
            PhaseKeys::uniform(std::slice::from_ref(&keys.single), &written.single),
            2 * run,
            config.duration,
            &tell(Stage::Single, run),
            None,
        )?;
        let middle = probe.sample()?;
        tell(Stage::Sharded, run)(0.0);
        let mut sharded = load_phase(
            config,
            target,
            shard_keys(),
            2 * run + 1,
            config.duration,
            &tell(Stage::Sharded, run),
            Some(&mut read_counts),
        )?;
        let after = probe.sample()?;
        let single_load = probe.delta(&before, &middle);
        let sharded_load = probe.delta(&middle, &after);
        out.sampled.extend(std::mem::take(&mut sharded.sampled));
        out.add_run(run, &single, &sharded, &single_load, &sharded_load);
    }
    out.shard_counts = counts(&written.shards)
        .iter()
        .zip(&after_warmup)
        .map(|(now, then)| now - then)
        .collect();
    Ok(out)
}

/// Every shard key's count, read on the sampler's own connection: one MGET
/// (pipelined GETs, grouped per node, where the keys span a cluster's
/// slots).
fn shard_counts<'a>(
    sampler: &'a mut Conn,
    keys: &'a RunKeys,
) -> impl FnMut() -> anyhow::Result<Vec<i64>> + 'a {
    move || match keys.spans_slots {
        false => sampler.mget(&keys.shard),
        true => sampler.get_values(&keys.shard),
    }
}

/// The shard keys as a phase writes them: with the clients' pickers, if
/// any.
fn shard_phase<'a>(
    keys: &'a RunKeys,
    written: &'a Written,
    writers: &'a [Mutex<Writer>],
) -> PhaseKeys<'a> {
    PhaseKeys {
        keys: &keys.shard,
        written: &written.shards,
        pick: Pick::of(writers),
    }
}

fn counts(written: &[AtomicU64]) -> Vec<u64> {
    written.iter().map(|n| n.load(Ordering::Relaxed)).collect()
}

/// Add one phase's node figures to the totals (a figure unknown once
/// stays unknown).
fn add(total: &mut [NodeDelta], phase: &[NodeDelta]) {
    for (t, p) in total.iter_mut().zip(phase) {
        t.incr = t.incr.zip(p.incr).map(|(a, b)| a + b);
        t.cpu_seconds = t.cpu_seconds.zip(p.cpu_seconds).map(|(a, b)| a + b);
    }
}

/// All nodes' CPU seconds in a phase and the busiest node's share of it;
/// `None` if any node's INFO did not say.
pub(super) fn cpu_total_and_max_share(nodes: &[NodeDelta]) -> (Option<f64>, Option<f64>) {
    let cpu: Option<Vec<f64>> = nodes.iter().map(|n| n.cpu_seconds).collect();
    match cpu {
        Some(c) if !c.is_empty() => {
            let max = shares(&c).into_iter().fold(0.0, f64::max);
            (Some(c.iter().sum()), Some(max))
        }
        _ => (None, None),
    }
}

fn run_result(
    run: u64,
    single: &Phase,
    sharded: &Phase,
    single_nodes: &[NodeDelta],
    sharded_nodes: &[NodeDelta],
) -> RunResult {
    let single_ops = single.sent as f64 / single.seconds;
    let sharded_ops = sharded.sent as f64 / sharded.seconds;
    let (single_lat, sharded_lat) = (single.latency(), sharded.latency());
    let (single_cpu, single_max) = cpu_total_and_max_share(single_nodes);
    let (sharded_cpu, sharded_max) = cpu_total_and_max_share(sharded_nodes);
    RunResult {
        run,
        single_incr: single.sent,
        single_seconds: single.seconds,
        single_ops_per_second: single_ops,
        single_p50_ms: single_lat.p50_ms,
        single_p99_ms: single_lat.p99_ms,
        sharded_incr: sharded.sent,
        sharded_seconds: sharded.seconds,
        sharded_ops_per_second: sharded_ops,
        sharded_p50_ms: sharded_lat.p50_ms,
        sharded_p99_ms: sharded_lat.p99_ms,
        // A phase too short for one INCR would divide by zero.
        ratio: if single_ops > 0.0 {
            sharded_ops / single_ops
        } else {
            0.0
        },
        single_cpu_seconds: single_cpu,
        sharded_cpu_seconds: sharded_cpu,
        single_max_cpu_share: single_max,
        sharded_max_cpu_share: sharded_max,
    }
}
