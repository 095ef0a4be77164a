//! The writers of a durability run: each one app instance with its own
//! connections ([`Router`]), creating likes at its share of `--rate` and
//! writing them by the design, directly (INCR, XADD) or buffered (INCRBY
//! every `--flush`). Each records where every like it created ended.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use hdrhistogram::Histogram;
use rand::RngExt;
use redis::{Cmd, Value};

use super::accounting::Tally;
use super::node::{Router, Sent};
use super::pace::{new_histogram, sleep_until, Avail};
use super::{Design, DurabilityConfig};
use crate::measure::cluster::Target;
use crate::measure::pickers::client_rng;
use crate::model::placement::key_slot;

/// The phase number that seeds the writers' key choice (the comparison
/// run's phases use 0 and up).
const DURABILITY_PHASE: u64 = 0xD0;
/// How long a writer that reached no node waits before its next like, so a
/// dead cluster is not hammered with connects.
const UNREACHABLE_PAUSE: Duration = Duration::from_millis(10);

/// Redis answers a WAIT that ran out on a timer tick (`hz` 10: every
/// 100 ms), after its timeout.
const WAIT_TICK: Duration = Duration::from_millis(200);

/// What the writers (and the log's consumer) share.
pub(super) struct Shared<'a> {
    pub(super) config: &'a DurabilityConfig,
    pub(super) target: &'a Target,
    /// The counter keys, and their slots.
    pub(super) counters: Vec<String>,
    /// The log design's streams (one a counter key, in its slot).
    pub(super) streams: Vec<String>,
    pub(super) slots: Vec<u16>,
    pub(super) tally: Tally,
    pub(super) avail: Avail,
    /// From a like's creation to its place in the count, in microseconds.
    pub(super) lags: Mutex<Histogram<u64>>,
    /// Write requests sent (INCR, INCRBY or XADD).
    pub(super) requests: AtomicU64,
    /// Buffered: likes held when the writes ended.
    pub(super) held_at_end: AtomicU64,
    /// The instant `start_ns` counts from (the set-up's).
    base: Instant,
    /// When the writes start, in nanoseconds from `base`: set once, right
    /// before the writers (`u64::MAX` until then).
    start_ns: AtomicU64,
    /// Set by `--fault kill-writer`: writer 0 dies with its buffer.
    pub(super) kill_writer: std::sync::Arc<AtomicBool>,
    /// Set when every writer has stopped.
    pub(super) writers_done: AtomicBool,
    /// When they stopped (behind schedule, after `end`), in nanoseconds
    /// from `start`.
    pub(super) writes_ended_ns: AtomicU64,
}

impl<'a> Shared<'a> {
    pub(super) fn new(
        config: &'a DurabilityConfig,
        target: &'a Target,
        counters: Vec<String>,
    ) -> Self {
        let streams: Vec<String> = match config.design {
            Design::Log => counters.iter().map(|k| stream_of(k)).collect(),
            _ => Vec::new(),
        };
        let slots = counters.iter().map(|k| key_slot(k.as_bytes())).collect();
        let n = counters.len();
        Shared {
            config,
            target,
            counters,
            streams,
            slots,
            tally: Tally::default(),
            avail: Avail::new(n, Instant::now()),
            lags: Mutex::new(new_histogram()),
            requests: AtomicU64::new(0),
            held_at_end: AtomicU64::new(0),
            base: Instant::now(),
            start_ns: AtomicU64::new(u64::MAX),
            kill_writer: std::sync::Arc::new(AtomicBool::new(false)),
            writers_done: AtomicBool::new(false),
            writes_ended_ns: AtomicU64::new(0),
        }
    }

    /// When writer `c`'s `j`-th like is due: the writers' likes interleave
    /// evenly at `--rate` in all.
    /// When the writes start (the first call sets it).
    pub(super) fn start(&self) -> Instant {
        let now = self.base.elapsed().as_nanos() as u64;
        let set = match self.start_ns.compare_exchange(
            u64::MAX,
            now,
            Ordering::Relaxed,
            Ordering::Relaxed,
        ) {
            Ok(_) => now,
            Err(earlier) => earlier,
        };
        self.base + Duration::from_nanos(set)
    }

    /// When the last like is due.
    pub(super) fn end(&self) -> Instant {
        self.start() + self.config.base.duration
    }

    fn due(&self, c: usize, j: u64) -> Instant {
        super::pace::due(
            self.start(),
            self.config.rate,
            self.config.base.clients,
            c,
            j,
        )
    }

    /// A writer's router. With `--wait-replicas`, WAIT takes up to
    /// `--timeout` itself, and the server answers it on its next timer
    /// tick: a reply may then take twice the timeout and a tick.
    pub(super) fn router(&self) -> Router {
        let mut router = Router::new(self.target);
        if self.config.wait_replicas.is_some() {
            router.set_wait(self.config.base.timeout * 2 + WAIT_TICK);
        }
        router
    }

    /// Adds a writer's lags to the run's.
    fn merge_lags(&self, local: &Histogram<u64>) {
        let mut h = self.lags.lock().unwrap_or_else(|e| e.into_inner());
        // Same bounds on both: adding cannot fail.
        let _ = h.add(local);
    }

    /// Whether writers should stop: `at` (a like's due time) past the end
    /// of the writes, the clock past [`pace::hard_stop`] (a server that
    /// holds each request for `--timeout` must not keep the run for hours),
    /// or a signal.
    fn over(&self, at: Instant) -> bool {
        at >= self.end()
            || Instant::now() >= super::pace::hard_stop(self.end(), self.config.base.duration)
            || crate::output::interrupt::received().is_some()
    }
}

/// The stream of counter key `key`, in the counter's slot (and node), so
/// the consumer's MULTI may touch both: a key with a hash tag keeps it
/// (`likes:{3}` -> `likes:{3}:log`); any other key becomes the tag
/// (`likes:3` -> `{likes:3}:log`).
pub(super) fn stream_of(key: &str) -> String {
    if has_hash_tag(key) {
        format!("{key}:log")
    } else {
        format!("{{{key}}}:log")
    }
}

/// Whether Redis hashes only part of `key`: a `{`, then a `}` after it
/// with at least one byte between.
fn has_hash_tag(key: &str) -> bool {
    key.find('{')
        .and_then(|open| key[open + 1..].find('}'))
        .is_some_and(|len| len > 0)
}

/// How one write went, for the tallies.
enum Write {
    Applied,
    Refused(String),
    NoReply,
    Unreachable,
}

/// Sends `cmd` to key `k`'s master, then `WAIT n` when asked (its own
/// round trip: a lost WAIT reply cannot hide an applied write).
fn write(s: &Shared, router: &mut Router, k: usize, cmd: Cmd) -> Write {
    let outcome = match router.send(s.slots[k], &[cmd]) {
        Sent::Replies(_) => Write::Applied,
        Sent::Refused(code) => Write::Refused(code),
        Sent::NoReply => Write::NoReply,
        Sent::Unreachable => return Write::Unreachable,
    };
    Tally::add(&s.requests, 1);
    if let (Write::Applied, Some(n)) = (&outcome, s.config.wait_replicas) {
        let ms = s.config.base.timeout.as_millis() as u64;
        let wait = redis::cmd("WAIT").arg(n).arg(ms).clone();
        let confirmed = match router.send(s.slots[k], &[wait]) {
            Sent::Replies(v) => matches!(v.first(), Some(Value::Int(got)) if *got as u64 >= n),
            _ => false,
        };
        if !confirmed {
            Tally::add(&s.tally.wait_short, 1);
        }
    }
    outcome
}

/// Writer `c` of a direct design: each like is one INCR (or XADD, carrying
/// its creation time for the consumer's lag), sent when due.
pub(super) fn direct(s: &Shared, c: usize) {
    let mut router = s.router();
    let mut rng = client_rng(s.config.base.seed, DURABILITY_PHASE, c);
    let mut lags = new_histogram();
    let log = s.config.design == Design::Log;
    for j in 0.. {
        let due = s.due(c, j);
        if s.over(due) {
            break;
        }
        sleep_until(due);
        let k = rng.random_range(0..s.counters.len());
        Tally::add(&s.tally.sent, 1);
        let cmd = if log {
            // The like's due time, on the clock the consumer reads.
            let micros = super::pace::now_micros().saturating_sub(due.elapsed().as_micros() as u64);
            redis::cmd("XADD")
                .arg(&s.streams[k])
                .arg("*")
                .arg("t")
                .arg(micros)
                .clone()
        } else {
            redis::cmd("INCR").arg(&s.counters[k]).clone()
        };
        let outcome = write(s, &mut router, k, cmd);
        if let Write::Applied = outcome {
            if !log {
                lags.saturating_record(due.elapsed().as_micros().max(1) as u64);
            }
        }
        settle(s, k, 1, outcome);
    }
    s.merge_lags(&lags);
}

/// Counts `n` likes of key `k` by how their write went.
fn settle(s: &Shared, k: usize, n: u64, outcome: Write) {
    let t = &s.tally;
    match outcome {
        Write::Applied => {
            Tally::add(&t.acknowledged, n);
            s.avail.succeeded(k);
        }
        Write::Refused(code) => {
            Tally::add(&t.failed, n);
            t.error(&code);
            s.avail.failed(k);
        }
        Write::NoReply => {
            Tally::add(&t.unknown, n);
            t.error("no reply");
            s.avail.failed(k);
        }
        Write::Unreachable => {
            Tally::add(&t.failed, n);
            t.error("connection refused");
            s.avail.failed(k);
            std::thread::sleep(UNREACHABLE_PAUSE);
        }
    }
}

/// One buffered writer's memory: per counter key, the creation time of
/// each like not yet sent.
struct Buffer {
    likes: Vec<Vec<Instant>>,
    held: u64,
}

/// Writer `c` of the buffered design: adds each like to its memory when
/// due and sends one INCRBY per key every `--flush` (the writers' flushes
/// spread over the interval). A refused INCRBY stays in the buffer for the
/// next flush (nothing was applied); one without a reply is unknown. At
/// the end it flushes what it holds, unless `--fault kill-writer` killed it
/// (writer 0): then what it held is lost.
pub(super) fn buffered(s: &Shared, c: usize) {
    let mut router = s.router();
    let mut rng = client_rng(s.config.base.seed, DURABILITY_PHASE, c);
    let mut lags = new_histogram();
    let mut buf = Buffer {
        likes: vec![Vec::new(); s.counters.len()],
        held: 0,
    };
    let flush = s.config.flush;
    let clients = s.config.base.clients as f64;
    let mut next_flush = s.start() + flush.mul_f64(1.0 + c as f64 / clients);
    let mut j = 0;
    loop {
        if c == 0 && s.kill_writer.load(Ordering::Relaxed) {
            Tally::add(&s.tally.lost_in_buffers, buf.held);
            s.merge_lags(&lags);
            return;
        }
        let due = s.due(c, j);
        if s.over(due) {
            break;
        }
        if next_flush <= due {
            sleep_until(next_flush);
            send_buffer(s, &mut router, &mut buf, &mut lags, false);
            next_flush += flush;
            continue;
        }
        sleep_until(due.min(next_flush));
        j += 1;
        let k = rng.random_range(0..s.counters.len());
        buf.likes[k].push(due);
        buf.held += 1;
        Tally::add(&s.tally.sent, 1);
    }
    Tally::add(&s.held_at_end, buf.held);
    send_buffer(s, &mut router, &mut buf, &mut lags, true);
    s.merge_lags(&lags);
}

/// One INCRBY per key with likes held; on the `last` flush a refused one
/// counts as failed instead of staying for the next.
fn send_buffer(
    s: &Shared,
    router: &mut Router,
    buf: &mut Buffer,
    lags: &mut Histogram<u64>,
    last: bool,
) {
    for k in 0..buf.likes.len() {
        let n = buf.likes[k].len() as u64;
        if n == 0 {
            continue;
        }
        let cmd = redis::cmd("INCRBY").arg(&s.counters[k]).arg(n).clone();
        let outcome = write(s, router, k, cmd);
        let keep = matches!(outcome, Write::Refused(_) | Write::Unreachable) && !last;
        if let Write::Applied = outcome {
            for t in &buf.likes[k] {
                lags.saturating_record(t.elapsed().as_micros().max(1) as u64);
            }
        }
        if keep {
            // Not applied: tried again at the next flush.
            let t = &s.tally;
            match &outcome {
                Write::Refused(code) => t.error(code),
                _ => t.error("connection refused"),
            }
            s.avail.failed(k);
            continue;
        }
        settle(s, k, n, outcome);
        buf.likes[k].clear();
        buf.held -= n;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stream_shares_its_counter_keys_slot() {
        for key in ["likes:3", "likes:{3}", "{post9}:7", "x{y"] {
            let stream = stream_of(key);
            assert_eq!(
                key_slot(stream.as_bytes()),
                key_slot(key.as_bytes()),
                "{key} -> {stream}"
            );
        }
        assert_eq!(stream_of("likes:3"), "{likes:3}:log");
        assert_eq!(stream_of("likes:{3}"), "likes:{3}:log");
        // An empty tag hashes the whole key, braces included: no stream
        // name can wrap it, and the run refuses the template
        // (consumer::create_groups).
        assert_ne!(key_slot(stream_of("a{}b").as_bytes()), key_slot(b"a{}b"));
    }
}
