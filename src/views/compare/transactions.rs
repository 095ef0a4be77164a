//! The "Transactions (conflict model)" block (`--transactional`): the cap
//! in likes, the conflicts on each shard, the retries they cost and the
//! shards needed with and without them.

use crate::model::compare::strategies::{CompareInputs, TransactionalSummary};
use crate::output::fmt::{self, num};
use crate::output::Section;

/// The block.
pub(super) fn section(t: &TransactionalSummary, i: &CompareInputs) -> Section {
    let k = &t.conflicts;
    Section::pairs(
        "Transactions (conflict model)",
        vec![
            (
                "cap per key",
                format!(
                    "{} likes/s = {} / {} units",
                    num(t.cap_likes_per_key),
                    fmt::num(i.cap),
                    fmt::num(t.write_cost)
                ),
            ),
            (
                "per shard",
                format!(
                    "{} likes/s over {}, each transaction {} ms",
                    num(k.rate_per_shard),
                    crate::views::verdict::shards(t.shards),
                    fmt::num(t.txn_ms)
                ),
            ),
            (
                "P(conflict)",
                format!("{} = 1 - exp(-r d / 1000)", fmt::prob(k.p_conflict)),
            ),
            (
                "attempts per like",
                format!("{} = 1 / (1 - p)", num(k.attempts_per_like)),
            ),
            ("cancellations (= retries)", cancellations(t)),
            (
                "write units per shard",
                format!(
                    "{}/s (safe {})",
                    num(k.write_units_per_second),
                    fmt::num(i.safe)
                ),
            ),
            ("shards needed", shards_needed(t)),
        ],
    )
}

/// The cancelled transactions (each one retried), per shard and in all.
fn cancellations(t: &TransactionalSummary) -> String {
    let k = &t.conflicts;
    format!(
        "{}/s per shard, {}/s in all",
        num(k.cancellations_per_second),
        num(k.cancellations_per_second * t.shards as f64)
    )
}

/// The shards the write cost alone needs, and with the conflicts' retries.
fn shards_needed(t: &TransactionalSummary) -> String {
    format!(
        "{} for the cost alone; {} with the conflicts' retries",
        fmt::count(t.shards_without_conflicts),
        t.shards_with_conflicts
            .map_or("more than 100,000".to_string(), fmt::count)
    )
}
