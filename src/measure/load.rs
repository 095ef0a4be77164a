//! The write load: C threads, each with its own connection, INCR keys
//! until the deadline or the op limit; per-INCR latency in a histogram.
//! Each INCR's key is drawn uniformly at random, or, on the shard keys with
//! a `--picker` other than `random`, chosen by the client's own app-server
//! picker ([`Pick`]). In a sharded phase the phase's own thread reads every
//! shard key's count each second ([`super::shard_load`]).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Barrier, Mutex};
use std::time::{Duration, Instant};

use anyhow::anyhow;
use hdrhistogram::Histogram;
use rand::RngExt;

use super::cluster::Target;
use super::config::MeasureConfig;
use super::pickers::{client_rng, Chooser, Pick};
use super::report::Latency;
use super::shard_load::{FirstStop, Sampler, Seconds};
use super::{first_real_error, AnotherClientFailed};

/// Reads every shard key's count once (one MGET, or pipelined GETs when
/// the keys span a cluster's slots), from a connection of its own.
pub(super) type ReadCounts<'a> = &'a mut dyn FnMut() -> anyhow::Result<Vec<i64>>;

/// The keys of a phase, what each holds by this run's count, and how each
/// INCR picks one.
pub(super) struct PhaseKeys<'a> {
    pub(super) keys: &'a [String],
    /// `written[i]`: the INCRs of `keys[i]` the server acknowledged.
    pub(super) written: &'a [AtomicU64],
    pub(super) pick: Pick<'a>,
}

impl<'a> PhaseKeys<'a> {
    /// `keys`, each INCR's drawn uniformly (the one-key phase).
    pub(super) fn uniform(keys: &'a [String], written: &'a [AtomicU64]) -> Self {
        PhaseKeys {
            keys,
            written,
            pick: Pick::Uniform,
        }
    }
}

/// One bounded write phase.
pub(super) struct Phase {
    /// INCRs acknowledged.
    pub(super) sent: u64,
    /// Wall seconds from the barrier to the last client's finish.
    pub(super) seconds: f64,
    /// Per-INCR latency in microseconds (with pipelining, each INCR of a
    /// batch is charged the batch's round trip).
    histogram: Histogram<u64>,
    /// The whole seconds sampled (none when the phase was not sampled).
    pub(super) sampled: Seconds,
}

impl Phase {
    /// Add `other`'s latencies to this phase's histogram (pooled figures
    /// over the runs).
    pub(super) fn pool(&mut self, other: &Phase) {
        // Same bounds on both sides: adding cannot fail; a failure would
        // only drop figures from the pooled percentiles.
        let _ = self.histogram.add(&other.histogram);
    }

    /// An empty phase, to pool runs into.
    pub(super) fn empty() -> Phase {
        Phase {
            sent: 0,
            seconds: 0.0,
            histogram: new_histogram(),
            sampled: Seconds::default(),
        }
    }

    /// The phase's latency percentiles in milliseconds.
    pub(super) fn latency(&self) -> Latency {
        let q = |p: f64| self.histogram.value_at_quantile(p) as f64 / 1e3;
        Latency {
            p50_ms: q(0.50),
            p99_ms: q(0.99),
            p999_ms: q(0.999),
            max_ms: self.histogram.max() as f64 / 1e3,
        }
    }
}

/// How often the phase's own thread looks whether the clients are done
/// (and whether a progress report is due); it sends no traffic.
const POLL: Duration = Duration::from_millis(10);

fn new_histogram() -> Histogram<u64> {
    // 1 µs to 60 s at 3 significant digits; `saturating_record` clamps beyond.
    Histogram::new_with_bounds(1, 60_000_000, 3).expect("constant histogram bounds are valid")
}

/// C threads, each with its own connection, INCR keys of `phase_keys`
/// for `duration` or until `max_ops` INCRs have been claimed.
///
/// `written[i]` counts the INCRs of `keys[i]` the server acknowledged. It
/// is kept outside the phase so that the end of the run knows what each
/// key should hold also when the phase fails or is interrupted half way.
/// `phase` seeds the clients' key choice; `tick` is told the INCRs
/// acknowledged per second so far, every
/// [`MEASURE_PROGRESS_TICK`](crate::model::defaults::MEASURE_PROGRESS_TICK);
/// `sample`, if any, reads every key's count each second.
pub(super) fn load_phase(
    config: &MeasureConfig,
    target: &Target,
    phase_keys: PhaseKeys<'_>,
    phase: u64,
    duration: Duration,
    tick: &dyn Fn(f64),
    sample: Option<ReadCounts<'_>>,
) -> anyhow::Result<Phase> {
    let clients = config.clients as usize;
    let PhaseKeys {
        keys,
        written,
        pick,
    } = phase_keys;
    let load = Load {
        config,
        target,
        keys: Arc::new(keys.to_vec()),
        written,
        pick,
        stops: FirstStop::new(),
        phase,
        duration,
        max: config.max_ops.unwrap_or(u64::MAX),
        claimed: AtomicU64::new(0),
        acked: AtomicU64::new(0),
        failed: AtomicBool::new(false),
        barrier: Barrier::new(clients + 1),
        // One histogram for the phase, shared: one per client would take
        // 150 KB each (150 MB at 1,000 clients); the lock is taken once per
        // round trip, which is tens of microseconds.
        histogram: Mutex::new(new_histogram()),
    };

    let (start, results, sampled) = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..clients)
            .map(|c| {
                let load = &load;
                scope.spawn(move || load.client(c))
            })
            .collect();
        load.barrier.wait();
        let start = Instant::now();
        let sampled = load.watch(&handles, start, tick, sample);
        let results: Vec<anyhow::Result<Worker>> = handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(anyhow!("a load thread panicked")))
            })
            .collect();
        (start, results, sampled)
    });
    let mut phase = load.phase_of(start, results)?;
    phase.sampled = sampled?;
    Ok(phase)
}

/// One client's share of a phase: the INCRs it sent and when it finished.
struct Worker {
    sent: u64,
    finished: Instant,
}

/// What the clients of one phase share.
struct Load<'a> {
    config: &'a MeasureConfig,
    target: &'a Target,
    keys: Arc<Vec<String>>,
    written: &'a [AtomicU64],
    pick: Pick<'a>,
    /// When the first client stopped (the sampling's end).
    stops: FirstStop,
    phase: u64,
    duration: Duration,
    /// `max_ops`, or no limit.
    max: u64,
    claimed: AtomicU64,
    acked: AtomicU64,
    failed: AtomicBool,
    barrier: Barrier,
    histogram: Mutex<Histogram<u64>>,
}

impl Load<'_> {
    /// Client `c`: connect, wait for the others at the barrier, then INCR
    /// batches of keys until the deadline, the op limit, a failure (its own
    /// or another client's) or a signal.
    fn client(&self, c: usize) -> anyhow::Result<Worker> {
        let (claimed, acked, failed, barrier, keys, histogram) = (
            &self.claimed,
            &self.acked,
            &self.failed,
            &self.barrier,
            Arc::clone(&self.keys),
            &self.histogram,
        );
        let (config, max, batch_size) = (self.config, self.max, self.config.pipeline);
        let conn = self.target.open();
        // Everyone reaches the barrier, connected or not, so a
        // failed connect cannot leave the others waiting.
        if conn.is_err() {
            failed.store(true, Ordering::Relaxed);
        }
        barrier.wait();
        let mut conn = conn?;
        if failed.load(Ordering::Relaxed) {
            return Err(AnotherClientFailed.into());
        }
        let mut chooser = Chooser::new(&self.pick, c, self.phase);
        let deadline = chooser.started() + self.duration;
        let mut rng = client_rng(config.seed, self.phase, c);
        let mut w = Worker {
            sent: 0,
            finished: Instant::now(),
        };
        let mut batch: Vec<usize> = Vec::with_capacity(batch_size as usize);
        // A signal (Ctrl-C) stops the phase early: the run then
        // deletes its keys before it exits.
        while !failed.load(Ordering::Relaxed)
            && Instant::now() < deadline
            && crate::output::interrupt::received().is_none()
        {
            let first = claimed.fetch_add(batch_size, Ordering::Relaxed);
            if first >= max {
                break;
            }
            let n = batch_size.min(max - first);
            batch.clear();
            for i in 0..n {
                batch.push(match chooser.pick(&mut rng, w.sent + i) {
                    Some(shard) => shard as usize,
                    None => rng.random_range(0..keys.len()),
                });
            }
            let t = Instant::now();
            if let Err(e) = conn.incr(&keys, &batch) {
                failed.store(true, Ordering::Relaxed);
                return Err(e);
            }
            let us = t.elapsed().as_micros().max(1) as u64;
            histogram
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .saturating_record_n(us, n);
            w.sent += n;
            acked.fetch_add(n, Ordering::Relaxed);
            for &k in &batch {
                self.written[k].fetch_add(1, Ordering::Relaxed);
            }
        }
        self.stops.stop();
        w.finished = Instant::now();
        Ok(w)
    }

    /// Waits for the clients, telling `tick` the INCRs acknowledged per
    /// second so far every tick and, with `sample`, reading every key's
    /// count at the start and each whole second while every client writes
    /// ([`Sampler::step`]). A failed read stops the clients and is the
    /// phase's error.
    fn watch(
        &self,
        handles: &[std::thread::ScopedJoinHandle<'_, anyhow::Result<Worker>>],
        start: Instant,
        tick: &dyn Fn(f64),
        mut sample: Option<ReadCounts<'_>>,
    ) -> anyhow::Result<Seconds> {
        let mut told = start;
        let mut sampler = Sampler::new(start);
        let mut failure = None;
        loop {
            let done = handles.iter().all(|h| h.is_finished());
            if let Some(read) = sample.as_deref_mut() {
                match sampler.step(&self.stops, read) {
                    Ok(true) => {}
                    Ok(false) => sample = None,
                    Err(e) => {
                        self.failed.store(true, Ordering::Relaxed);
                        failure = Some(e.context("sampling the shard keys' counts"));
                        sample = None;
                    }
                }
            }
            if done {
                break;
            }
            std::thread::sleep(match sample {
                Some(_) => sampler.wait(POLL),
                None => POLL,
            });
            if told.elapsed() >= crate::model::defaults::MEASURE_PROGRESS_TICK {
                told = Instant::now();
                let secs = start.elapsed().as_secs_f64().max(1e-9);
                tick(self.acked.load(Ordering::Relaxed) as f64 / secs);
            }
        }
        match failure {
            Some(e) => Err(e),
            None => Ok(sampler.seconds()),
        }
    }

    /// The phase from its clients' results: the INCRs they sent, from the
    /// barrier to the last one's finish, or the first real error.
    fn phase_of(
        self,
        start: Instant,
        results: Vec<anyhow::Result<Worker>>,
    ) -> anyhow::Result<Phase> {
        let mut phase_result = Phase {
            sent: 0,
            seconds: 0.0,
            histogram: self
                .histogram
                .into_inner()
                .unwrap_or_else(|e| e.into_inner()),
            sampled: Seconds::default(),
        };
        let mut end = start;
        // Report the first real error, not the "another client failed" echoes.
        let mut errors: Vec<anyhow::Error> = Vec::new();
        for r in results {
            match r {
                Ok(w) => {
                    phase_result.sent += w.sent;
                    end = end.max(w.finished);
                }
                Err(e) => errors.push(e),
            }
        }
        if let Some(e) = first_real_error(errors) {
            return Err(e);
        }
        phase_result.seconds = (end - start).as_secs_f64().max(1e-9);
        Ok(phase_result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_real_error_is_not_an_echo() {
        let errors = vec![
            anyhow::Error::from(AnotherClientFailed),
            anyhow!("cannot connect to 127.0.0.1:1: connection refused"),
        ];
        let e = first_real_error(errors).unwrap();
        assert_eq!(
            e.to_string(),
            "cannot connect to 127.0.0.1:1: connection refused"
        );
        let echoes = vec![anyhow::Error::from(AnotherClientFailed)];
        assert_eq!(
            first_real_error(echoes).unwrap().to_string(),
            "another client failed to connect"
        );
        assert!(first_real_error(Vec::new()).is_none());
    }
}
