//! The "Compare" block: what every design is compared at (the rate, the
//! cap, the servers' flushes, the log consumer, the reads, how the over-cap
//! chance is counted, and the transactions' cost when given).

use crate::model::compare::strategies::{CompareInputs, Transactional};
use crate::output::fmt::{self, run_length};
use crate::output::Section;

/// The inputs the rows share.
pub(super) fn section(scenario: &str, i: &CompareInputs) -> Section {
    let mut rows = vec![
        ("scenario", scenario.to_string()),
        (
            "rate",
            format!("{} likes/s ({})", fmt::rate(i.rate), i.traffic.name()),
        ),
        (
            "cap per key",
            format!(
                "{} writes/s, safe {} (headroom kept for unevenness)",
                fmt::num(i.cap),
                fmt::num(i.safe)
            ),
        ),
        ("servers", servers(i)),
        (
            "log consumer",
            format!("writes totals every {} s", fmt::num(i.log_commit_seconds)),
        ),
        (
            "reads",
            format!(
                "{} views/s, sum cached {} s on each server",
                fmt::num(i.reads.views),
                fmt::num(i.reads.cache_seconds)
            ),
        ),
        ("over-cap chance", over_cap_chance(i.duration_seconds)),
    ];
    if let Some(t) = i.transactional {
        rows.push(("transactions", transactions(t)));
    }
    Section::pairs("Compare", rows)
}

/// The servers and how often each flushes its buffered tally.
fn servers(i: &CompareInputs) -> String {
    format!(
        "{}, each flushing its tally every {} s (buffered designs)",
        i.reads.servers,
        fmt::num(i.flush_seconds)
    )
}

/// How each kind of design's over-cap chance is counted over the run.
fn over_cap_chance(duration_seconds: f64) -> String {
    let run = run_length(duration_seconds);
    format!(
        "exact (as `risk`) for per-like writes; buffered and log writes are steady, \
         so over the cap is 1 or 0; run of {run}"
    )
}

/// A transactional like's cost in write units and time.
fn transactions(t: Transactional) -> String {
    format!(
        "like row + increment in one transaction: {} units a like, {} ms each",
        fmt::num(t.write_cost),
        fmt::num(t.txn_ms)
    )
}
