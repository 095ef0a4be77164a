//! `measure --reconcile`: the source article's write path and its nightly
//! job, on real servers. Like rows in PostgreSQL are the truth (a table
//! keyed by reel and user, `INSERT ... ON CONFLICT DO NOTHING`); the
//! counter's S shard keys live in a standalone Redis. Each writer does the
//! article's `add_like`: save the row, then INCR a random shard. Faults are
//! made on purpose: a share of increments is sent on a connection of its
//! own that the writer closes without reading the reply (`--lost-replies`:
//! the writer cannot know whether it was applied; the server keeps a
//! ledger, see [`LEDGER`]), retried once or not (`--retry`), and a share is
//! skipped after the row was saved (`--failed-increments`). A job counts
//! the rows, reads the shards and adds the difference to one shard with one
//! INCRBY, every `--reconcile-every` during the writes and once after they
//! stop. Nothing is sampled: every figure is counted on the servers.

use std::time::Duration;

use serde::Serialize;

use crate::error::{InputError, InputResult};
use crate::measure::postgres::PgConfig;
use crate::measure::MeasureConfig;
use crate::model::reconcile::{share, Retry};

#[cfg(all(feature = "redis", feature = "postgres"))]
mod job;
#[cfg(all(feature = "redis", feature = "postgres"))]
mod run;
#[cfg(all(feature = "redis", feature = "postgres"))]
mod writers;

#[cfg(all(feature = "redis", feature = "postgres"))]
pub use run::run;

/// The reel every like of a run is for: one hot reel.
pub const REEL: i64 = 1;

/// What the ledger key counts: each increment whose reply the writer
/// drops is sent as `MULTI; INCR shard; INCR ledger; EXEC`, so the server
/// applies both or neither, and the ledger's value is exactly how many of
/// those increments the server applied (the writer never learns which).
pub const LEDGER: &str = "lost-applied";

/// A `measure --reconcile` run, validated.
#[derive(Debug, Clone)]
pub struct ReconcileConfig {
    /// The Redis side: URL (password included), shards, writers
    /// (`--clients`), `--duration`, `--timeout`, `--keep`, the seed.
    pub redis: MeasureConfig,
    /// The PostgreSQL side: URL, password, `--synchronous-commit`.
    pub pg: PgConfig,
    /// `--rate`: likes a second over all writers.
    pub rate: f64,
    /// `--lost-replies`: the share of increments whose reply is dropped.
    pub lost_replies: f64,
    /// `--retry`: what a writer does after a dropped reply.
    pub retry: Retry,
    /// `--failed-increments`: the share of increments skipped after the
    /// row was saved.
    pub failed_increments: f64,
    /// `--reconcile-every`: the job's interval during the writes (`None`:
    /// only the job after them).
    pub every: Option<Duration>,
}

impl ReconcileConfig {
    /// Checks the shares (each in [0, 1], together at most 1: a dropped
    /// reply and a skipped increment are two outcomes of one write), the
    /// rate and the interval; each error names its flag.
    pub fn validate(&self) -> InputResult<()> {
        self.redis.validate()?;
        self.pg.validate()?;
        crate::measure::durability::check_rate(self.rate)?;
        let named = |flag: &'static str| {
            move |e: crate::error::ParamError| InputError::new(flag, e.problem)
        };
        share("lost_replies", self.lost_replies).map_err(named("--lost-replies"))?;
        share("failed_increments", self.failed_increments).map_err(named("--failed-increments"))?;
        if self.failed_increments > 1.0 - self.lost_replies {
            return Err(InputError::new(
                "--failed-increments",
                format!(
                    "must be at most 1 - --lost-replies ({}): a lost reply and a skipped increment \
                     are two outcomes of one write (got {})",
                    1.0 - self.lost_replies,
                    self.failed_increments
                ),
            ));
        }
        if let Some(every) = self.every {
            if every.is_zero() {
                return Err(InputError::new(
                    "--reconcile-every",
                    "must be greater than 0 (got 0)",
                ));
            }
        }
        Ok(())
    }
}

/// Where each like ended, counted by the writers, and the ledger's count
/// of the dropped replies the server applied.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, serde::Deserialize, schemars::JsonSchema,
)]
pub struct Writes {
    /// Like rows saved (each a new row: every like is a new user).
    pub likes: u64,
    /// Increments whose reply came back.
    pub acknowledged: u64,
    /// Increments whose reply the writer dropped (`--lost-replies`).
    pub lost_replies: u64,
    /// Of those, the ones the server applied: the ledger key's value.
    pub lost_applied: u64,
    /// Dropped replies sent again (`--retry once`), each acknowledged.
    pub retried: u64,
    /// Increments skipped after the row was saved (`--failed-increments`).
    pub failed_increments: u64,
    /// Likes over-counted: dropped replies the server had applied and the
    /// writer sent again.
    pub over: u64,
    /// Likes under-counted: skipped increments, and dropped replies the
    /// server had not applied and the writer did not send again.
    pub under: u64,
    /// `over - under`: the drift the faults made, before any job.
    pub fault_drift: i64,
}

impl Writes {
    /// `over`, `under` and `fault_drift` from the counts, under `retry`.
    pub fn settle(mut self, retry: Retry) -> Writes {
        let unapplied = self.lost_replies.saturating_sub(self.lost_applied);
        (self.over, self.under) = match retry {
            Retry::Once => (self.lost_applied, self.failed_increments),
            Retry::None => (0, self.failed_increments + unapplied),
        };
        self.fault_drift = self.over as i64 - self.under as i64;
        self
    }
}

/// One run of the reconcile job.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct Job {
    /// When the job started, seconds from the start of the writes.
    pub at_seconds: f64,
    /// Whether it ran after the writes stopped (the final job).
    pub after_writes: bool,
    /// The reel's like rows it counted (`count(*)`).
    pub rows: u64,
    /// The shards' sum it read after the count (one MGET).
    pub counted: i64,
    /// `rows - counted`: what it added, with one INCRBY, to one shard.
    pub difference: i64,
    /// The shard that took the INCRBY (null when the difference was 0 and
    /// nothing was written).
    pub shard: Option<u64>,
    /// Increments that landed in the shards while the job counted the
    /// rows: the shards' sum read after the count minus the sum read just
    /// before it. A like whose row the count missed but whose increment
    /// the read saw is short in the difference: the gap the next job
    /// closes.
    pub landed: i64,
    /// How long the job took, seconds.
    pub seconds: f64,
}

/// The count against the rows, before and after the final job.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct Reconciliation {
    /// The like table (`schema.likes`), to count yourself with `--keep`.
    pub like_table: String,
    /// The reel's like rows after the writes (the truth).
    pub rows: u64,
    /// The shards' sum after the writes, before the final job.
    pub counted_before: i64,
    /// `counted_before - rows`: positive when the counter reads high.
    pub drift_before: i64,
    /// The jobs during the writes' corrections summed (their differences).
    pub corrected_during: i64,
    /// Whether `drift_before` equals the faults' drift plus the
    /// corrections during the writes: every like accounted for.
    pub explained: bool,
    /// Every job, in order; the last is the final one.
    pub jobs: Vec<Job>,
    /// The shards' sum after the final job.
    pub counted_after: i64,
    /// `counted_after - rows`: 0 when the job closed the drift.
    pub drift_after: i64,
}

/// What a `measure --reconcile` run found.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct ReconcileReport {
    /// `--redis`, any password shown as `***`.
    pub redis: String,
    /// `--postgres`, any password shown as `***`.
    pub postgres: String,
    /// Shard keys (`--shards`).
    pub shards: u64,
    /// Writers (`--clients`), each with one PostgreSQL and one Redis
    /// connection.
    pub clients: u64,
    /// `--rate`: likes a second asked of all writers together.
    pub rate: f64,
    /// Wall seconds of the writes, to the last writer's stop.
    pub seconds: f64,
    /// Likes a second saved.
    pub likes_per_second: f64,
    /// `--lost-replies`.
    pub lost_replies_share: f64,
    /// `--retry`.
    pub retry: Retry,
    /// `--failed-increments`.
    pub failed_increments_share: f64,
    /// `--reconcile-every` in seconds (null: only the final job).
    pub reconcile_every_seconds: Option<f64>,
    /// Where each like ended.
    pub writes: Writes,
    /// The count against the rows, and the jobs.
    pub reconciliation: Reconciliation,
    /// The random id in the keys' and the schema's names.
    pub run_id: String,
    /// The shard keys, then the ledger key.
    pub keys: Vec<String>,
    /// `--keep`: the keys and the schema were left in place.
    pub kept: bool,
    /// Keys deleted at the end.
    pub keys_deleted: u64,
    /// The PostgreSQL server's version.
    pub postgres_version: String,
    /// Where the run ran.
    pub machine: crate::measure::machine::Machine,
}

/// A reconciliation read back for `report --reconcile-from`: the model's
/// (`shardplan reconcile --format json`) or a measured run's
/// (`shardplan measure --reconcile --format json`).
#[derive(Debug, Clone, PartialEq)]
pub enum ReconcileFile {
    /// `shardplan reconcile`'s figures.
    Model(Box<crate::model::reconcile::Reconciliation>),
    /// `shardplan measure --reconcile`'s run.
    Measured(Box<ReconcileReport>),
}

/// `bytes` (the file `path`, given with `flag`) as a reconciliation;
/// anything else is refused with one line naming the flag.
pub fn reconcile_from_json(
    flag: &str,
    path: &std::path::Path,
    bytes: &[u8],
) -> InputResult<ReconcileFile> {
    let shown = path.display();
    let expected =
        "expected the JSON `shardplan reconcile` or `shardplan measure --reconcile` wrote";
    let json: serde_json::Value = serde_json::from_slice(bytes)
        .map_err(|e| InputError::new(flag, format!("{shown} is not JSON ({e}); {expected}")))?;
    let bad = |e: serde_json::Error| {
        InputError::new(
            flag,
            format!("{shown} is not a reconciliation ({e}); {expected}"),
        )
    };
    match json.get("command").and_then(|c| c.as_str()) {
        Some("reconcile") => serde_json::from_value(json)
            .map(|r| ReconcileFile::Model(Box::new(r)))
            .map_err(bad),
        Some("measure") if json.get("reconciliation").is_some() => serde_json::from_value(json)
            .map(|r| ReconcileFile::Measured(Box::new(r)))
            .map_err(bad),
        _ => Err(InputError::new(flag, format!("{shown}: {expected}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_faults_drift_is_the_ledger_against_the_policy() {
        let w = Writes {
            likes: 100,
            acknowledged: 80,
            lost_replies: 15,
            lost_applied: 9,
            failed_increments: 5,
            ..Writes::default()
        };
        let once = Writes { retried: 15, ..w }.settle(Retry::Once);
        assert_eq!((once.over, once.under, once.fault_drift), (9, 5, 4));
        let none = w.settle(Retry::None);
        assert_eq!((none.over, none.under, none.fault_drift), (0, 11, -11));
    }
}
