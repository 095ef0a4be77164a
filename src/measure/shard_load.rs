//! How the sharded load fell on the shards, from the server's own counts
//! (both stores): each shard's total at the end, and the busiest shard of
//! each whole second. During each sharded phase every shard's count is read
//! at the phase's start and at each whole second after it (one MGET, or one
//! SELECT, from a connection of its own); consecutive samples differenced
//! give each shard's writes in that second. A second counts only if no
//! client stopped writing before its end (less [`STOP_SLACK`]), so a phase's
//! last, partial second is left out, and only if both its samples were read
//! on time ([`SAMPLE_SLACK`]).

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The busiest shard's writes a second, over the seconds sampled.
#[derive(
    Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
pub struct BusiestPerSecond {
    /// The mean over the seconds.
    pub mean: f64,
    /// The 99th percentile (nearest rank: the `ceil(0.99 n)`-th smallest
    /// of the `n` seconds; the maximum below 100 seconds).
    pub p99: i64,
    /// The busiest second.
    pub max: i64,
}

/// The shards' load in the sharded phases. JSON field names are stable.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct ShardLoad {
    /// Each shard's count read from the server after the last sharded
    /// phase, in shard order (Redis: the warm-up's INCRs included).
    pub totals: Vec<i64>,
    /// The smallest of `totals`, likes.
    pub total_min: i64,
    /// The largest of `totals`, likes.
    pub total_max: i64,
    /// `total_max - total_min`, likes.
    pub total_spread: i64,
    /// Whole seconds sampled, over every sharded phase.
    pub seconds_sampled: u64,
    /// The busiest shard's writes in each second sampled; `null` when no
    /// whole second was sampled (a phase shorter than a second).
    pub busiest_per_second: Option<BusiestPerSecond>,
    /// The writes a second of the average shard over the seconds sampled:
    /// their writes / (seconds x S); `null` when no second was sampled.
    pub mean_per_shard_per_second: Option<f64>,
}

impl ShardLoad {
    /// The load from the final `totals` and the seconds sampled.
    pub(crate) fn new(totals: Vec<i64>, seconds: &Seconds) -> ShardLoad {
        let total_min = totals.iter().copied().min().unwrap_or(0);
        let total_max = totals.iter().copied().max().unwrap_or(0);
        let n = seconds.busiest.len();
        let busiest_per_second = (n > 0).then(|| {
            let mut sorted = seconds.busiest.clone();
            sorted.sort_unstable();
            // Nearest rank: the smallest value with at least 99% of the
            // seconds at or below it.
            let rank = (0.99 * n as f64).ceil() as usize;
            BusiestPerSecond {
                mean: sorted.iter().sum::<i64>() as f64 / n as f64,
                p99: sorted[rank.clamp(1, n) - 1],
                max: sorted[n - 1],
            }
        });
        let shards = totals.len().max(1) as f64;
        ShardLoad {
            total_spread: total_max - total_min,
            total_min,
            total_max,
            totals,
            seconds_sampled: n as u64,
            busiest_per_second,
            mean_per_shard_per_second: (n > 0).then(|| seconds.writes as f64 / (n as f64 * shards)),
        }
    }
}

/// The whole seconds sampled so far: each one's busiest shard, and the
/// writes of all of them.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Seconds {
    busiest: Vec<i64>,
    writes: i64,
}

impl Seconds {
    /// Adds the seconds of `other` (another phase's).
    pub(crate) fn extend(&mut self, other: Seconds) {
        self.busiest.extend(other.busiest);
        self.writes += other.writes;
    }
}

/// How late a sample may be read and still close (or open) a second: a
/// machine too busy to read it on time leaves that second out rather than
/// count more than a second's writes as one.
pub(crate) const SAMPLE_SLACK: Duration = Duration::from_millis(50);

/// How long before a second's end a client may have stopped and the second
/// still count: each client stops at its own deadline, from its own start
/// after the barrier, microseconds apart.
pub(crate) const STOP_SLACK: Duration = Duration::from_millis(1);

/// When the first client of a phase stopped writing.
pub(crate) struct FirstStop {
    epoch: Instant,
    /// Nanoseconds from `epoch`; `u64::MAX` while every client writes.
    nanos: AtomicU64,
}

impl FirstStop {
    /// Every client writing, from now.
    pub(crate) fn new() -> FirstStop {
        FirstStop {
            epoch: Instant::now(),
            nanos: AtomicU64::new(u64::MAX),
        }
    }

    /// A client stops writing now.
    pub(crate) fn stop(&self) {
        let now = self.epoch.elapsed().as_nanos() as u64;
        self.nanos.fetch_min(now, Ordering::Relaxed);
    }

    /// Whether every client wrote until `t` (less [`STOP_SLACK`]).
    fn writing_until(&self, t: Instant) -> bool {
        let until = t
            .saturating_duration_since(self.epoch)
            .saturating_sub(STOP_SLACK);
        self.nanos.load(Ordering::Relaxed) >= until.as_nanos() as u64
    }
}

/// One phase's sampling: when the next sample is due, the last one read
/// on time, and the seconds found so far.
pub(crate) struct Sampler {
    start: Instant,
    /// The next sample's whole second after the start (0: the first).
    next: u64,
    /// The last sample, if it was read on time for second `next - 1`.
    last: Option<Vec<i64>>,
    seconds: Seconds,
}

impl Sampler {
    /// Sampling a phase that started at `start`.
    pub(crate) fn new(start: Instant) -> Sampler {
        Sampler {
            start,
            next: 0,
            last: None,
            seconds: Seconds::default(),
        }
    }

    /// When the next sample is due.
    pub(crate) fn due(&self) -> Instant {
        self.start + Duration::from_secs(self.next)
    }

    /// Reads the counts with `read` when a sample is due and every client
    /// wrote until its time: `Ok(false)` once one stopped before (no second
    /// can count any more), else `Ok(true)`.
    pub(crate) fn step(
        &mut self,
        stops: &FirstStop,
        read: &mut dyn FnMut() -> anyhow::Result<Vec<i64>>,
    ) -> anyhow::Result<bool> {
        let now = Instant::now();
        if now < self.due() {
            return Ok(true);
        }
        if !stops.writing_until(self.due()) {
            return Ok(false);
        }
        self.record(now, read()?);
        Ok(true)
    }

    /// How long to sleep before the next sample, at most `poll`.
    pub(crate) fn wait(&self, poll: Duration) -> Duration {
        poll.min(self.due().saturating_duration_since(Instant::now()))
    }

    /// The counts of a sample whose read began at `read_at` (at or after
    /// [`Sampler::due`]): the second since the last sample is recorded when
    /// both were read within [`SAMPLE_SLACK`] of their time; a late one
    /// starts afresh at the next whole second.
    pub(crate) fn record(&mut self, read_at: Instant, counts: Vec<i64>) {
        let late = read_at.saturating_duration_since(self.due());
        if late > SAMPLE_SLACK {
            self.last = None;
            self.next = read_at.saturating_duration_since(self.start).as_secs() + 1;
            return;
        }
        if let Some(last) = &self.last {
            let diffs = counts.iter().zip(last).map(|(now, then)| now - then);
            let (busiest, writes) = diffs.fold((0, 0), |(b, w), d| (b.max(d), w + d));
            self.seconds.busiest.push(busiest);
            self.seconds.writes += writes;
        }
        self.last = Some(counts);
        self.next += 1;
    }

    /// The seconds sampled.
    pub(crate) fn seconds(self) -> Seconds {
        self.seconds
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_and_seconds_summarise() {
        let mut s = Seconds::default();
        for (i, b) in (1..=200).enumerate() {
            s.busiest.push(b);
            s.writes += 10 * (i as i64 + 1);
        }
        let load = ShardLoad::new(vec![5, 9, 7, 6], &s);
        assert_eq!(
            (load.total_min, load.total_max, load.total_spread),
            (5, 9, 4)
        );
        assert_eq!(load.seconds_sampled, 200);
        let b = load.busiest_per_second.unwrap();
        // ceil(0.99 x 200) = 198: the 198th smallest of 1..=200.
        assert_eq!((b.mean, b.p99, b.max), (100.5, 198, 200));
        assert_eq!(load.mean_per_shard_per_second, Some(201_000.0 / 800.0));
        let none = ShardLoad::new(vec![3], &Seconds::default());
        assert_eq!(none.busiest_per_second, None);
        assert_eq!(none.mean_per_shard_per_second, None);
    }

    #[test]
    fn samples_difference_into_seconds() {
        let start = Instant::now();
        let at = |ms: u64| start + Duration::from_millis(ms);
        let mut sampler = Sampler::new(start);
        assert_eq!(sampler.due(), start);
        sampler.record(at(1), vec![0, 0, 0]);
        assert_eq!(sampler.due(), at(1000));
        sampler.record(at(1010), vec![5, 9, 1]);
        sampler.record(at(2000), vec![6, 12, 20]);
        // Late: no second, and the next sample is due at the next whole
        // second; it only opens a second.
        sampler.record(at(3200), vec![7, 13, 21]);
        assert_eq!(sampler.due(), at(4000));
        sampler.record(at(4000), vec![8, 14, 22]);
        sampler.record(at(5000), vec![10, 14, 23]);
        let s = sampler.seconds();
        assert_eq!(s.busiest, [9, 19, 2]);
        assert_eq!(s.writes, 15 + 23 + 3);
        let mut total = Seconds::default();
        total.extend(s.clone());
        total.extend(s);
        assert_eq!(total.busiest.len(), 6);
        assert_eq!(total.writes, 82);
    }

    #[test]
    fn a_client_that_stopped_ends_the_sampling() {
        let three_ago = Instant::now() - Duration::from_secs(3);
        let stops = FirstStop {
            epoch: three_ago,
            nanos: AtomicU64::new(u64::MAX),
        };
        let mut sampler = Sampler::new(three_ago);
        sampler.next = 2; // due a second ago
        let mut reads = 0;
        let mut read = || {
            reads += 1;
            Ok(vec![reads])
        };
        // Every client writing: read (late, so it opens no second).
        assert!(sampler.step(&stops, &mut read).unwrap());
        assert_eq!(sampler.due(), three_ago + Duration::from_secs(4));
        // Not due yet: nothing read.
        assert!(sampler.step(&stops, &mut read).unwrap());
        // A client stopped 1.5 s in: a sample due at 2 s ends the sampling
        // unread; one due at 1 s (within the slack of it, or before) reads.
        stops.nanos.store(1_500_000_000, Ordering::Relaxed);
        sampler.next = 2;
        assert!(!sampler.step(&stops, &mut read).unwrap());
        assert!(stops.writing_until(three_ago + Duration::from_millis(1501)));
        assert!(!stops.writing_until(three_ago + Duration::from_millis(1502)));
        assert_eq!(reads, 1);
        let fresh = FirstStop::new();
        assert!(fresh.writing_until(Instant::now() + Duration::from_secs(1)));
        fresh.stop();
        assert!(!fresh.writing_until(Instant::now() + Duration::from_secs(1)));
    }
}
