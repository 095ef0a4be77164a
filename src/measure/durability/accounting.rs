//! Where every like of a durability run ended: each one is counted once, in
//! exactly one of acknowledged, failed, unknown or lost in a killed
//! writer's buffer; the server's count read after the run is set against
//! them.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// The run's tallies, shared by its writers.
#[derive(Debug, Default)]
pub(crate) struct Tally {
    /// Likes the writers created (sent, or added to a buffer).
    pub(crate) sent: AtomicU64,
    /// Likes a reply said were applied.
    pub(crate) acknowledged: AtomicU64,
    /// Likes a reply said were not applied, or that could not be sent at
    /// all (no node took the connection).
    pub(crate) failed: AtomicU64,
    /// Likes in flight when a connection died: applied or not, nobody
    /// knows.
    pub(crate) unknown: AtomicU64,
    /// Likes a killed writer held in memory.
    pub(crate) lost_in_buffers: AtomicU64,
    /// Writes acknowledged by fewer replicas than `--wait-replicas` asked.
    pub(crate) wait_short: AtomicU64,
    /// Each kind of error seen, and how often.
    errors: Mutex<BTreeMap<String, u64>>,
}

impl Tally {
    /// Add `n` to `counter`.
    pub(crate) fn add(counter: &AtomicU64, n: u64) {
        counter.fetch_add(n, Ordering::Relaxed);
    }

    /// One more error of kind `kind` (a server error code such as
    /// `CLUSTERDOWN`, or `no reply`, `connection refused`).
    pub(crate) fn error(&self, kind: &str) {
        let mut errors = self.errors.lock().unwrap_or_else(|e| e.into_inner());
        *errors.entry(kind.to_string()).or_insert(0) += 1;
    }

    /// The errors seen, most frequent first.
    pub(crate) fn errors(&self) -> Vec<ErrorCount> {
        let errors = self.errors.lock().unwrap_or_else(|e| e.into_inner());
        let mut out: Vec<ErrorCount> = errors
            .iter()
            .map(|(error, &count)| ErrorCount {
                error: error.clone(),
                count,
            })
            .collect();
        out.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.error.cmp(&b.error)));
        out
    }

    /// The accounting against `counted`, the server's final count.
    pub(crate) fn against(&self, counted: i64) -> Durability {
        let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
        Durability::new(
            Outcomes {
                sent: get(&self.sent),
                acknowledged: get(&self.acknowledged),
                failed: get(&self.failed),
                unknown: get(&self.unknown),
                lost_in_buffers: get(&self.lost_in_buffers),
            },
            counted,
        )
    }
}

/// One kind of error and how often the run saw it.
#[derive(
    Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
pub struct ErrorCount {
    /// The server's error code (`CLUSTERDOWN`, `READONLY`, ...), or `no
    /// reply` (the connection died or timed out with the request in
    /// flight), or `connection refused`.
    pub error: String,
    /// Requests that met it.
    pub count: u64,
}

/// Where the likes ended, by the writers' own records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Outcomes {
    pub(crate) sent: u64,
    pub(crate) acknowledged: u64,
    pub(crate) failed: u64,
    pub(crate) unknown: u64,
    pub(crate) lost_in_buffers: u64,
}

/// Every like of a run accounted for, beside the server's count.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
pub struct Durability {
    /// Likes the writers created (sent directly, or added to a buffer).
    pub sent: u64,
    /// Likes a reply said were applied (for the buffered design, likes in
    /// an acknowledged INCRBY).
    pub acknowledged: u64,
    /// Likes a reply said were not applied, or that no node would take.
    pub failed: u64,
    /// Likes whose request was in flight when its connection died or timed
    /// out: applied or not, the writer cannot know.
    pub unknown: u64,
    /// The server's count after the run, read once every node answers
    /// again.
    pub counted: i64,
    /// Acknowledged likes the count lacks: max(0, acknowledged - counted),
    /// a lower bound (an unknown like that was applied can hide a lost
    /// one).
    pub lost_at_least: u64,
    /// Likes a killed writer held in memory and never sent: lost exactly.
    pub lost_in_buffers: u64,
    /// Whether the count can be reconciled: acknowledged - lost <= counted
    /// <= acknowledged + unknown always holds unless likes were applied
    /// twice or another client wrote the keys.
    pub reconciled: bool,
}

impl Durability {
    fn new(o: Outcomes, counted: i64) -> Durability {
        let counted_u = counted.max(0) as u64;
        Durability {
            sent: o.sent,
            acknowledged: o.acknowledged,
            failed: o.failed,
            unknown: o.unknown,
            counted,
            lost_at_least: o.acknowledged.saturating_sub(counted_u),
            lost_in_buffers: o.lost_in_buffers,
            reconciled: counted >= 0 && counted_u <= o.acknowledged + o.unknown,
        }
    }

    /// The accounting of a run that met no error: every like sent was
    /// acknowledged.
    pub fn clean(sent: u64, counted: i64) -> Durability {
        Durability::new(
            Outcomes {
                sent,
                acknowledged: sent,
                ..Outcomes::default()
            },
            counted,
        )
    }

    /// Whether any acknowledged like is missing from the count, or a
    /// killed writer lost likes.
    pub fn lost_any(&self) -> bool {
        self.lost_at_least > 0 || self.lost_in_buffers > 0
    }

    /// Likes the writers' records leave unplaced: sent minus every ending
    /// (0 when each like is in exactly one; held likes make it positive
    /// until they are flushed).
    pub fn unplaced(&self) -> i64 {
        self.sent as i64
            - (self.acknowledged + self.failed + self.unknown + self.lost_in_buffers) as i64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clean_run_loses_nothing() {
        let d = Durability::clean(500, 500);
        assert_eq!(
            (d.lost_at_least, d.reconciled, d.lost_any()),
            (0, true, false)
        );
        assert_eq!(d.unplaced(), 0);
    }

    #[test]
    fn a_count_below_the_acknowledged_is_a_loss_and_above_with_unknown_is_fine() {
        let o = Outcomes {
            sent: 100,
            acknowledged: 90,
            failed: 6,
            unknown: 4,
            lost_in_buffers: 0,
        };
        let lost = Durability::new(o, 85);
        assert_eq!((lost.lost_at_least, lost.reconciled), (5, true));
        // Up to the 4 unknown ones may have been applied.
        assert!(Durability::new(o, 94).reconciled);
        // More than acknowledged + unknown: applied twice, or another writer.
        let over = Durability::new(o, 95);
        assert!(!over.reconciled);
        assert_eq!(over.lost_at_least, 0);
    }

    #[test]
    fn a_killed_writer_loses_what_it_held() {
        let o = Outcomes {
            sent: 100,
            acknowledged: 70,
            failed: 0,
            unknown: 0,
            lost_in_buffers: 30,
        };
        let d = Durability::new(o, 70);
        assert_eq!(
            (d.lost_at_least, d.lost_in_buffers, d.lost_any()),
            (0, 30, true)
        );
        assert_eq!(d.unplaced(), 0);
    }

    #[test]
    fn errors_are_counted_by_kind_most_frequent_first() {
        let t = Tally::default();
        for e in ["no reply", "CLUSTERDOWN", "CLUSTERDOWN"] {
            t.error(e);
        }
        let e = t.errors();
        assert_eq!((e[0].error.as_str(), e[0].count), ("CLUSTERDOWN", 2));
        assert_eq!((e[1].error.as_str(), e[1].count), ("no reply", 1));
    }
}
