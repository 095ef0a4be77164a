//! `measure --design`: what a counter design loses when something fails.
//!
//! One design is driven for `--duration` at `--rate` likes a second by
//! `--clients` writers (each one app instance), while a fault may strike at
//! `--fault-at`: the user's command (kill a master, restart a server), or
//! one buffered writer killed with its buffer. The writers talk to the
//! nodes themselves (`node.rs`) so that nothing is re-sent behind their
//! back, keep going through the fault, and account for every like
//! (`accounting.rs`): acknowledged, failed, unknown (in flight when a
//! connection died) or lost in a killed writer's buffer. After the run,
//! once every slot answers again, the server's count is read and set
//! against them.
//!
//! The designs ([`Design`]): `single` (INCR one key), `sharded` (INCR one
//! of S keys), `buffered` (each writer adds in memory and sends one INCRBY
//! per key every `--flush`) and `log` (XADD to one stream per shard; one
//! consumer group aggregates into the counter keys in a MULTI with its
//! XACK).

pub(crate) mod accounting;
#[cfg(feature = "redis")]
mod consumer;
pub(crate) mod fault;
#[cfg(feature = "redis")]
mod node;
pub(crate) mod pace;
#[cfg(feature = "redis")]
mod run;
#[cfg(feature = "redis")]
mod writers;

use std::time::Duration;

use serde::Serialize;

use crate::error::{InputError, InputResult};
use crate::measure::config::MeasureConfig;
use crate::model::validate;

pub use accounting::{Durability, ErrorCount};
pub use fault::{FaultAction, FaultReport};

/// How the counter is written.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Design {
    /// INCR of one key.
    Single,
    /// INCR of one of S shard keys, drawn uniformly.
    Sharded,
    /// Likes added in each writer's memory; one INCRBY per shard key every
    /// `--flush`.
    Buffered,
    /// XADD of each like to its shard's stream; a consumer group adds them
    /// to the counter keys.
    Log,
}

/// `--design`'s values: the design, its name, what it does.
pub const DESIGNS: &[(Design, &str, &str)] = &[
    (Design::Single, "single", "INCR of one key"),
    (
        Design::Sharded,
        "sharded",
        "INCR of one of the S shard keys, drawn uniformly",
    ),
    (
        Design::Buffered,
        "buffered",
        "Each writer adds likes in memory and sends one INCRBY per shard key every --flush",
    ),
    (
        Design::Log,
        "log",
        "XADD of each like to its shard's stream; one consumer group adds them to the counter keys",
    ),
];

impl Design {
    /// The name `--design` takes.
    pub fn name(self) -> &'static str {
        DESIGNS.iter().find(|d| d.0 == self).map_or("", |d| d.1)
    }
}

/// `--fault`'s values: the faults shardplan itself causes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FaultKind {
    /// Kill one buffered writer with what it holds.
    KillWriter,
}

/// `--fault`'s values, their names and what each does.
pub const FAULTS: &[(FaultKind, &str, &str)] = &[(
    FaultKind::KillWriter,
    "kill-writer",
    "Kill buffered writer 0 at --fault-at, without flushing what it holds",
)];

/// What a buffered run's flush defaults to.
pub const DEFAULT_FLUSH: Duration = Duration::from_secs(1);
/// The rate a durability run writes at without `--rate`.
pub const DEFAULT_DURABILITY_RATE: f64 = 2_000.0;
/// The most likes a second `--rate` takes.
pub const MAX_DURABILITY_RATE: f64 = 1_000_000.0;
/// The most replicas `--wait-replicas` may ask for.
pub const MAX_WAIT_REPLICAS: u64 = 64;

/// A validated `measure --design` run.
#[derive(Debug, Clone, PartialEq)]
pub struct DurabilityConfig {
    /// The server, the keys, the writers (`--clients`), `--duration`,
    /// `--timeout`, `--keep`, `--template`, the seed.
    pub base: MeasureConfig,
    /// `--design`.
    pub design: Design,
    /// `--rate`: likes a second over all writers.
    pub rate: f64,
    /// `--flush`: how often a buffered writer sends its buffer.
    pub flush: Duration,
    /// `--fault-at` with `--fault-command` or `--fault kill-writer`.
    pub fault: Option<Fault>,
    /// `--wait-replicas`: WAIT for this many replicas after each write.
    pub wait_replicas: Option<u64>,
    /// `--rebuild`: rebuild the count from the streams after a log run.
    pub rebuild: bool,
}

/// A fault and when it strikes.
#[derive(Debug, Clone, PartialEq)]
pub struct Fault {
    /// Time from the start of the writes.
    pub at: Duration,
    /// What happens.
    pub action: FaultAction,
}

impl DurabilityConfig {
    /// A run of `design` on `base`'s server at the default rate, flush, no
    /// fault.
    pub fn new(base: MeasureConfig, design: Design) -> InputResult<Self> {
        let config = DurabilityConfig {
            flush: DEFAULT_FLUSH.min(base.duration),
            base,
            design,
            rate: DEFAULT_DURABILITY_RATE,
            fault: None,
            wait_replicas: None,
            rebuild: false,
        };
        config.validate()?;
        Ok(config)
    }

    /// Check every field; each error names the flag that sets it.
    pub fn validate(&self) -> InputResult<()> {
        self.base.validate()?;
        check_rate(self.rate)?;
        let duration = self.base.duration;
        let buffered = self.design == Design::Buffered;
        if buffered && (self.flush < Duration::from_millis(10) || self.flush > duration) {
            return Err(InputError::new(
                "--flush",
                format!(
                    "must be from 10ms to --duration ({} s)",
                    duration.as_secs_f64()
                ),
            ));
        }
        if let Some(n) = self.wait_replicas {
            validate::count("wait_replicas", n, MAX_WAIT_REPLICAS)
                .map_err(|e| InputError::new("--wait-replicas", InputError::from(e).message))?;
        }
        if let Some(f) = &self.fault {
            check_fault(f, duration, self.design)?;
        }
        if self.rebuild && self.design != Design::Log {
            return Err(InputError::new(
                "--rebuild",
                "rebuilds the count from the log design's streams; add --design log",
            ));
        }
        Ok(())
    }
}

/// `--rate`: more than 0, at most [`MAX_DURABILITY_RATE`].
pub fn check_rate(rate: f64) -> InputResult<()> {
    validate::positive("rate", rate)
        .map_err(|e| InputError::new("--rate", InputError::from(e).message))?;
    if rate > MAX_DURABILITY_RATE {
        return Err(InputError::new(
            "--rate",
            format!("must be at most {MAX_DURABILITY_RATE} likes a second"),
        ));
    }
    Ok(())
}

/// A fault strikes before the end of the writes; `kill-writer` needs the
/// buffered design; a command is not empty.
pub fn check_fault(f: &Fault, duration: Duration, design: Design) -> InputResult<()> {
    if f.at >= duration {
        return Err(InputError::new(
            "--fault-at",
            format!(
                "must be before the end of the writes (--duration {} s)",
                duration.as_secs_f64()
            ),
        ));
    }
    match &f.action {
        FaultAction::KillWriter if design != Design::Buffered => Err(InputError::new(
            "--fault",
            "kill-writer kills a buffered writer with what it holds; add --design buffered",
        )),
        FaultAction::Command(c) if c.trim().is_empty() => Err(InputError::new(
            "--fault-command",
            "is empty; give the command to run, e.g. 'kill -9 PID'",
        )),
        _ => Ok(()),
    }
}

/// Lag percentiles in milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct Lag {
    /// The median lag, ms.
    pub p50_ms: f64,
    /// The 99th percentile lag, ms.
    pub p99_ms: f64,
    /// The longest lag, ms.
    pub max_ms: f64,
}

impl Lag {
    /// The percentiles of `h`, a histogram in microseconds.
    pub fn of(h: &hdrhistogram::Histogram<u64>) -> Lag {
        let ms = |us: u64| us as f64 / 1e3;
        Lag {
            p50_ms: ms(h.value_at_quantile(0.5)),
            p99_ms: ms(h.value_at_quantile(0.99)),
            max_ms: ms(h.max()),
        }
    }
}

/// How long keys could not be written.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct Unavailable {
    /// Counter keys (or streams) that saw a failed or unanswered write.
    pub keys: u64,
    /// The longest time, in seconds, from a key's first failed write to its
    /// first success after it (to the end of the writes if none came).
    pub longest_seconds: f64,
    /// Keys no write succeeded on after their failure, before the end.
    pub unrecovered: u64,
}

/// The log design's count rebuilt from its streams.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize, schemars::JsonSchema,
)]
pub struct Rebuild {
    /// Likes in the streams after the run (each entry one like).
    pub rebuilt: i64,
    /// The counter keys' sum, as `durability.counted`.
    pub counted: i64,
    /// Whether the two agree.
    pub matches: bool,
}

/// What a `measure --design` run found.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct DurabilityReport {
    /// `redis` or `postgres`.
    pub store: String,
    /// `--redis` or `--postgres`, any password redacted.
    pub server: String,
    /// `--cluster` (Redis).
    pub cluster: bool,
    /// PostgreSQL: the writers' `synchronous_commit`, as the server
    /// reported it (`--synchronous-commit`, else the server's setting).
    pub synchronous_commit: Option<String>,
    /// `--design`.
    pub design: Design,
    /// Counter keys written (1 for `single`).
    pub shards: u64,
    /// Writers (`--clients`), each one app instance with its connections.
    pub clients: u64,
    /// `--rate`: likes a second asked of all writers together.
    pub rate: f64,
    /// Wall seconds of the writes, to the last writer's stop: past
    /// `--duration` when the server could not keep up with `--rate`.
    pub seconds: f64,
    /// Likes a second the writers created and sent (below `--rate` when the
    /// server could not keep up).
    pub likes_per_second: f64,
    /// Write requests a second per counter key (INCR, INCRBY or XADD).
    pub writes_per_second_per_key: f64,
    /// `--flush` in seconds (buffered only).
    pub flush_seconds: Option<f64>,
    /// `--wait-replicas`.
    pub wait_replicas: Option<u64>,
    /// Writes acknowledged by fewer replicas than `--wait-replicas` asked
    /// for within `--timeout`.
    pub wait_short: Option<u64>,
    /// From a like's creation to its place in the counter keys' sum.
    pub lag: Lag,
    /// Buffered: likes in the writers' memory when the writes ended (then
    /// flushed).
    pub held_at_end: Option<u64>,
    /// Log: stream entries not yet in the counter when the writes ended.
    pub backlog_at_end: Option<u64>,
    /// Log with `--rebuild`: the count rebuilt from the streams.
    pub rebuild: Option<Rebuild>,
    /// The fault, if any, and how it went.
    pub fault: Option<FaultReport>,
    /// How long keys could not be written.
    pub unavailable: Unavailable,
    /// Each kind of error the writers met.
    pub errors: Vec<ErrorCount>,
    /// Every like accounted for.
    pub durability: Durability,
    /// The random id in the keys' names (`None` with `--template`).
    pub run_id: Option<String>,
    /// The counter keys (and streams for `log`); PostgreSQL: the table.
    pub keys: Vec<String>,
    /// `--keep`.
    pub keys_kept: bool,
    /// Keys deleted at the end.
    pub keys_deleted: u64,
    /// Where the run ran.
    pub machine: crate::measure::machine::Machine,
}

#[cfg(feature = "redis")]
pub use run::run;
