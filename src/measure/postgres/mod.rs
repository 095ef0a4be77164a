//! Drive a real PostgreSQL with three counter designs.
//!
//! In a schema of its own (`shardplan_<run id>`, or `--schema`), created
//! only if no schema of that name exists and dropped at the end (also after
//! a failure or Ctrl-C), three bounded write phases run back to back from C
//! concurrent connections: `single-row` (every write updates one row: they
//! queue on its row lock), `sharded-rows` (each write updates one of S rows
//! at random, or as `--picker` picks it; read with `sum(n)`) and
//! `like-rows` (each like inserts a row unique on user and post; read with
//! `count(*)`). A separate connection samples `pg_stat_activity` every few
//! milliseconds for this run's backends waiting on a lock; another reads
//! the shard rows' counts each second of `sharded-rows`, for the busiest
//! row a second, and each row's total is read after it. Each design's
//! count read back must equal the writes the server acknowledged. Nothing
//! outside the schema is touched.

mod config;
#[cfg(feature = "postgres")]
pub(crate) mod conn;
#[cfg(feature = "postgres")]
mod designs;
#[cfg(feature = "postgres")]
mod drive;
#[cfg(feature = "postgres")]
pub mod durability;
#[cfg(feature = "postgres")]
mod lock_waits;
mod report;
mod schema;

pub use config::{redact, url_password, PgConfig, PgDurabilityConfig, SyncCommit, SYNC_COMMITS};
#[cfg(feature = "postgres")]
pub use drive::{run, show};
pub use report::{Design, DesignResult, PgMeasureReport};
