//! A measurement read back from the JSON `shardplan measure` wrote, either
//! store's, for `report --measure` and `compare --measure`: the PostgreSQL
//! report and a durability run's whole, the Redis comparison's headline
//! figures (read by name, so fields added later do not matter).

use std::path::Path;

use crate::error::InputError;

use super::machine::Machine;
use super::postgres::PgMeasureReport;

/// The figures of a Redis measurement a report shows.
#[derive(Debug, Clone, PartialEq, serde::Deserialize)]
pub struct RedisSummary {
    /// The server's URL, as the report wrote it (password `***`).
    pub redis: String,
    /// Whether it was a cluster.
    pub cluster: bool,
    /// S, the shard keys.
    pub shards: u64,
    /// C, the connections.
    pub clients: u64,
    /// The one key's INCRs a second.
    pub single_ops_per_second: f64,
    /// Its latency.
    pub single_latency: PhaseLatency,
    /// The shard keys' INCRs a second.
    pub sharded_ops_per_second: f64,
    /// Their latency.
    pub sharded_latency: PhaseLatency,
    /// Whether every count matched.
    pub counts_match: bool,
    /// Every INCR accounted for (absent from files written before it was
    /// recorded).
    #[serde(default)]
    pub durability: Option<super::durability::Durability>,
    /// Where it ran (absent from files written before it was recorded).
    #[serde(default)]
    pub machine: Option<Machine>,
}

/// A phase's latency percentiles, ms (the fields a report shows).
#[derive(Debug, Clone, Copy, PartialEq, serde::Deserialize)]
pub struct PhaseLatency {
    /// Median.
    pub p50_ms: f64,
    /// 99th percentile.
    pub p99_ms: f64,
}

/// A measurement of either store.
#[derive(Debug, Clone, PartialEq)]
pub enum Measurement {
    /// `measure --redis`.
    Redis(RedisSummary),
    /// `measure --postgres`.
    Postgres(PgMeasureReport),
    /// `measure --design` (either store).
    Durability(Box<super::durability::DurabilityReport>),
}

/// Read the JSON `shardplan measure` wrote (either store's) from `path`;
/// errors name `flag`.
pub fn read_measurement(flag: &str, path: &Path) -> Result<Measurement, InputError> {
    let bytes = crate::files::input::read_bounded(
        &crate::files::Claims::default(),
        flag,
        path,
        crate::model::defaults::MAX_SCENARIO_BYTES,
        "measure's JSON is a few kilobytes",
    )?;
    measurement_from_json(flag, path, &bytes)
}

/// [`read_measurement`] on the bytes already read from `path`.
pub fn measurement_from_json(
    flag: &str,
    path: &Path,
    bytes: &[u8],
) -> Result<Measurement, InputError> {
    let shown = path.display();
    let expected = "expected the JSON `shardplan measure --format json` wrote";
    let json: serde_json::Value = serde_json::from_slice(bytes)
        .map_err(|e| InputError::new(flag, format!("{shown} is not JSON ({e}); {expected}")))?;
    let bad = |e: serde_json::Error| {
        InputError::new(
            flag,
            format!("{shown} is not a measurement ({e}); {expected}"),
        )
    };
    if json.get("reconciliation").is_some() {
        return Err(InputError::new(
            flag,
            format!(
                "{shown} is a `measure --reconcile` run, not a load or durability measurement; \
                 report reads it with --reconcile-from"
            ),
        ));
    }
    if json.get("design").is_some() {
        return serde_json::from_value(json)
            .map(|d| Measurement::Durability(Box::new(d)))
            .map_err(bad);
    }
    if json.get("store").and_then(|s| s.as_str()) == Some("postgres") {
        return serde_json::from_value(json)
            .map(Measurement::Postgres)
            .map_err(bad);
    }
    serde_json::from_value(json)
        .map(Measurement::Redis)
        .map_err(bad)
}

/// What a measurement lost, for `compare --measure`: where it ran, the
/// design and fault, and every like accounted for.
#[derive(Debug, Clone, PartialEq, serde::Serialize, schemars::JsonSchema)]
pub struct MeasuredLoss {
    /// The measurement file, as given (without this machine's folders).
    pub file: String,
    /// `redis` or `postgres`.
    pub store: String,
    /// The server, any password redacted.
    pub server: String,
    /// The design a `measure --design` run drove; `None` for the comparison
    /// runs (Redis: its sharded phases; PostgreSQL: its sharded rows).
    pub design: Option<super::durability::Design>,
    /// The fault: its command, or `kill-writer`; `None` without one.
    pub fault: Option<String>,
    /// Every like (or write) accounted for.
    pub durability: super::durability::Durability,
}

impl Measurement {
    /// What the measurement in `file` lost; `None` for a file written
    /// before the accounting was recorded.
    pub fn loss(&self, file: &str) -> Option<MeasuredLoss> {
        let (store, server, design, fault, durability) = match self {
            Measurement::Durability(d) => (
                d.store.clone(),
                d.server.clone(),
                Some(d.design),
                d.fault
                    .as_ref()
                    .map(|f| f.command.clone().unwrap_or_else(|| f.kind.clone())),
                d.durability,
            ),
            Measurement::Redis(r) => ("redis".into(), r.redis.clone(), None, None, r.durability?),
            Measurement::Postgres(p) => {
                let sharded = p.design(super::postgres::Design::ShardedRows)?;
                (
                    "postgres".into(),
                    p.postgres.clone(),
                    None,
                    None,
                    sharded.durability?,
                )
            }
        };
        Some(MeasuredLoss {
            file: file.to_string(),
            store,
            server,
            design,
            fault,
            durability,
        })
    }
}
