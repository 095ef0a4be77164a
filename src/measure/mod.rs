//! Drive a real Redis (standalone or cluster) with the shard keys.
//!
//! Two bounded write phases run from C concurrent connections: INCRs on one
//! key, then INCRs on S shard keys chosen uniformly at random (or, with
//! `--picker`, each client as one app server with its picker); after a short
//! warm-up they alternate `--runs` times (`runs.rs`). Each phase stops by
//! itself at the deadline or after `--max-ops` INCRs. The report gives each
//! phase's ops/s and latency percentiles over the runs (mean, standard
//! deviation, 95% interval; `summary.rs`), per master node the INCRs and the
//! CPU seconds of each phase with the node's idle CPU subtracted (`cpu.rs`),
//! the shard sum against the INCRs sent, how the load fell on the shard keys
//! (each one's total, the busiest a second, sampled each second:
//! `shard_load.rs`), and the read path: S pipelined GETs
//! (grouped per node by the cluster client) against one MGET of S keys
//! sharing a slot. Shard keys that do not reach every node are found before
//! the load starts (with the placement check `keys --check` uses).
//!
//! Without `--template` the keys are named by a fresh random run id. Every
//! key the run writes is checked to be absent first (`--overwrite` sets
//! string keys aside and restores them after), and at the end each key that
//! still holds what this run wrote is deleted unless `--keep`.

#![warn(missing_docs)]

#[cfg(feature = "redis")]
mod cluster;
mod config;
#[cfg(feature = "redis")]
mod conn;
#[cfg(feature = "redis")]
mod cpu;
#[cfg(feature = "redis")]
mod drive;
pub mod durability;
#[cfg(feature = "redis")]
mod errors;
#[cfg(feature = "redis")]
mod keys;
#[cfg(feature = "redis")]
mod load;
pub mod machine;
mod measurement;
mod pickers;
pub mod postgres;
#[cfg(feature = "redis")]
mod reads;
pub mod reconcile;
mod report;
#[cfg(feature = "redis")]
mod runs;
mod shard_load;
mod summary;
mod url;

pub use config::{parse_duration, MeasureConfig};
#[cfg(feature = "redis")]
pub use drive::{run, run_with, Watch};
pub use measurement::{
    measurement_from_json, read_measurement, MeasuredLoss, Measurement, RedisSummary,
};
pub use report::{Latency, MeasureReport, MeasureWarning, MgetKeys, NodeOps, ReadPath};
#[cfg(feature = "redis")]
pub use runs::{Progress, Stage};
pub use shard_load::{BusiestPerSecond, ShardLoad};
pub use summary::{PhaseSpread, RunResult, Spread};
pub use url::{redact, with_password};

/// The placeholder a `--template` must contain (the same one `keys` uses);
/// replaced by 0..S-1.
pub use crate::model::placement::SHARD_PLACEHOLDER;

/// What a client returns when another client's connection failed first: an
/// echo of that failure, not a cause.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("another client failed to connect")]
pub(crate) struct AnotherClientFailed;

/// The first real error of a phase's clients, not the echoes of another
/// client's failure ([`AnotherClientFailed`]); `None` when every client
/// finished.
pub(crate) fn first_real_error(mut errors: Vec<anyhow::Error>) -> Option<anyhow::Error> {
    if errors.is_empty() {
        return None;
    }
    let pos = errors
        .iter()
        .position(|e| !e.is::<AnotherClientFailed>())
        .unwrap_or(0);
    Some(errors.swap_remove(pos))
}
