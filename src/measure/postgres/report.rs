//! What a `measure --postgres` run reports. JSON field names are stable;
//! `--cap-from-measure` reads the `single-row` design's
//! `ops_per_second_mean`.

use crate::measure::machine::Machine;

/// One of the three counter designs measured.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Design {
    /// Every like is `UPDATE counters SET n = n + 1 WHERE id = $1` on one row.
    SingleRow,
    /// Every like updates one of S rows picked at random; the count is
    /// `SELECT sum(n)` over them.
    ShardedRows,
    /// Every like `INSERT`s a row (unique on user and post); the count is
    /// `SELECT count(*)`.
    LikeRows,
}

impl Design {
    /// The designs in the order a run measures them.
    pub const ALL: [Design; 3] = [Design::SingleRow, Design::ShardedRows, Design::LikeRows];

    /// The name JSON and CSV carry.
    pub fn name(self) -> &'static str {
        match self {
            Design::SingleRow => "single-row",
            Design::ShardedRows => "sharded-rows",
            Design::LikeRows => "like-rows",
        }
    }
}

/// One design's figures.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct DesignResult {
    /// Which design.
    pub design: Design,
    /// Writes the server acknowledged (committed).
    pub writes_acknowledged: u64,
    /// Wall seconds from the start barrier to the last client's finish.
    pub seconds: f64,
    /// `writes_acknowledged / seconds`: the mean rate over the phase.
    pub ops_per_second_mean: f64,
    /// Median latency of one write (one autocommitted statement), ms.
    pub latency_p50_ms: f64,
    /// 99th percentile latency of one write, ms.
    pub latency_p99_ms: f64,
    /// The slowest write, ms.
    pub latency_max_ms: f64,
    /// Backend-samples waiting on a lock: the sum over the samples of this
    /// run's load connections whose `pg_stat_activity.wait_event_type` was
    /// `Lock`.
    pub lock_waits: u64,
    /// Samples of `pg_stat_activity` taken during the phase.
    pub lock_wait_samples: u64,
    /// The longest gap between two samples (or the phase's start and the
    /// first), ms: samples are meant at least every 10 ms.
    pub lock_sample_max_gap_ms: f64,
    /// The count read back after the phase: the row's `n`, `sum(n)` over
    /// the shard rows, or `count(*)` of the like rows.
    pub count_read: i64,
    /// How long that one read took, ms.
    pub read_ms: f64,
    /// `count_read == writes_acknowledged`.
    pub counts_match: bool,
    /// Every write accounted for: all acknowledged (the run stops at the
    /// first error), set against the count read back (`None` in a file
    /// written before it was reported).
    #[serde(default)]
    pub durability: Option<crate::measure::durability::Durability>,
}

/// The result of [`run`](super::run). JSON field names are stable.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct PgMeasureReport {
    /// Always `postgres`: which store was measured.
    pub store: String,
    /// The server's URL, any password shown as `***`.
    pub postgres: String,
    /// The random id naming this run's connections (`shardplan-<run_id>`)
    /// and, without `--schema`, its schema.
    pub run_id: String,
    /// The schema the run created and dropped.
    pub schema: String,
    /// Whether the schema was dropped at the end (always, on success).
    pub schema_dropped: bool,
    /// S, the rows of the `sharded-rows` design.
    pub shards: u64,
    /// C, the concurrent connections.
    pub clients: u64,
    /// Each design, in the order measured.
    pub designs: Vec<DesignResult>,
    /// Every design's `counts_match`.
    pub counts_match: bool,
    /// The writers' `synchronous_commit`, as the server reported it
    /// (`--synchronous-commit`, else the server's setting; `None` in a file
    /// written before it was reported).
    #[serde(default)]
    pub synchronous_commit: Option<String>,
    /// Where it ran.
    pub machine: Machine,
    /// How each client, as one app server, picked the row of each
    /// `sharded-rows` write (`--picker`; `random` in files written before
    /// it was recorded).
    #[serde(default)]
    pub picker: crate::model::picker::Picker,
    /// How the `sharded-rows` writes fell on the rows, by the server's own
    /// counts; `null` when that design was not measured (a run stopped
    /// before it, or a file written before it was recorded).
    #[serde(default)]
    pub shard_load: Option<crate::measure::ShardLoad>,
}

impl PgMeasureReport {
    /// The figures of `design`, if it was measured.
    pub fn design(&self, design: Design) -> Option<&DesignResult> {
        self.designs.iter().find(|d| d.design == design)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn designs_serialise_as_their_names() {
        for d in Design::ALL {
            assert_eq!(serde_json::to_value(d).unwrap(), d.name());
        }
    }
}
