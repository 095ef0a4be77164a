//! What every durability run shares, whatever the store: the writers'
//! pace, their lag histogram and each key's unavailable time.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use hdrhistogram::Histogram;

/// When writer `c` of `clients`' `j`-th like is due, at `rate` likes a
/// second over all of them from `start`: the writers' likes interleave
/// evenly.
pub(crate) fn due(start: Instant, rate: f64, clients: u64, c: usize, j: u64) -> Instant {
    let clients = clients as f64;
    let every = clients / rate;
    start + Duration::from_secs_f64(every * (j as f64 + c as f64 / clients))
}

/// Microseconds since the Unix epoch, on this machine's clock (the writers
/// and the consumer share it).
pub(crate) fn now_micros() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_micros() as u64)
}

/// When writers stop whatever is still due: the end of the writes plus
/// as long again, at least 30 s. A server that holds every request for
/// `--timeout` would otherwise keep a run for hours.
pub(crate) fn hard_stop(end: Instant, duration: Duration) -> Instant {
    end + duration.max(Duration::from_secs(30))
}

/// 1 µs to 1 h at 3 significant digits.
pub(crate) fn new_histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, 3_600_000_000, 3).expect("constant histogram bounds are valid")
}

/// Per key: since when its writes fail, and the longest such time.
pub(crate) struct Avail {
    start: Instant,
    /// Nanoseconds from `start` + 1 of the first failure not yet followed
    /// by a success; 0 when none.
    since: Vec<AtomicU64>,
    hit: Vec<AtomicBool>,
    longest_ns: AtomicU64,
}

impl Avail {
    pub(crate) fn new(keys: usize, start: Instant) -> Avail {
        Avail {
            start,
            since: (0..keys).map(|_| AtomicU64::new(0)).collect(),
            hit: (0..keys).map(|_| AtomicBool::new(false)).collect(),
            longest_ns: AtomicU64::new(0),
        }
    }

    fn now_ns(&self) -> u64 {
        self.start.elapsed().as_nanos() as u64 + 1
    }

    pub(crate) fn failed(&self, key: usize) {
        self.hit[key].store(true, Ordering::Relaxed);
        let _ = self.since[key].compare_exchange(
            0,
            self.now_ns(),
            Ordering::Relaxed,
            Ordering::Relaxed,
        );
    }

    pub(crate) fn succeeded(&self, key: usize) {
        let since = self.since[key].swap(0, Ordering::Relaxed);
        if since != 0 {
            let window = self.now_ns().saturating_sub(since);
            self.longest_ns.fetch_max(window, Ordering::Relaxed);
        }
    }

    /// The figures at `end`, the windows still open closed there.
    pub(crate) fn at(&self, end: Instant) -> super::Unavailable {
        let end_ns = end.duration_since(self.start).as_nanos() as u64 + 1;
        let mut longest = self.longest_ns.load(Ordering::Relaxed);
        let mut unrecovered = 0;
        for s in &self.since {
            let since = s.load(Ordering::Relaxed);
            if since != 0 {
                unrecovered += 1;
                longest = longest.max(end_ns.saturating_sub(since));
            }
        }
        super::Unavailable {
            keys: self
                .hit
                .iter()
                .filter(|h| h.load(Ordering::Relaxed))
                .count() as u64,
            longest_seconds: longest as f64 / 1e9,
            unrecovered,
        }
    }
}

/// Sleeps until `at`.
pub(crate) fn sleep_until(at: Instant) {
    let now = Instant::now();
    if at > now {
        std::thread::sleep(at - now);
    }
}
