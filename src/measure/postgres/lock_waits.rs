//! The lock-wait monitor: a connection of its own samples
//! `pg_stat_activity` every few milliseconds during a design's phase and
//! counts this run's load backends (found by `application_name`) whose
//! `wait_event_type` is `Lock`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use postgres::Client;

use super::conn::describe;

/// What the monitor saw during one phase.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(super) struct LockWaits {
    /// Backend-samples waiting on a lock.
    pub(super) waiting: u64,
    /// Samples taken.
    pub(super) samples: u64,
    /// The longest gap between two samples.
    pub(super) max_gap: Duration,
}

const SAMPLE: &str = "SELECT count(*) FILTER (WHERE wait_event_type = 'Lock') \
                      FROM pg_stat_activity WHERE application_name = $1";

/// Sample every `interval` until `stop` is set; the load connections are
/// those named `application_name`.
pub(super) fn monitor(
    client: &mut Client,
    application_name: &str,
    interval: Duration,
    stop: &AtomicBool,
) -> anyhow::Result<LockWaits> {
    let statement = client
        .prepare(SAMPLE)
        .map_err(|e| anyhow::anyhow!("preparing the lock-wait sample: {}", describe(&e)))?;
    let mut seen = LockWaits::default();
    let mut last = Instant::now();
    while !stop.load(Ordering::Relaxed) {
        let started = Instant::now();
        let row = client
            .query_one(&statement, &[&application_name])
            .map_err(|e| anyhow::anyhow!("sampling pg_stat_activity: {}", describe(&e)))?;
        let now = Instant::now();
        seen.waiting += row.get::<_, i64>(0).max(0) as u64;
        seen.samples += 1;
        seen.max_gap = seen.max_gap.max(now - last);
        last = now;
        if let Some(rest) = interval.checked_sub(started.elapsed()) {
            std::thread::sleep(rest);
        }
    }
    Ok(seen)
}
