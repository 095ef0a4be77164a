//! A measurement read back from the JSON `shardplan measure` wrote, either
//! store's, for `report --measure`: the PostgreSQL report whole, the Redis
//! one's headline figures (read by name, so fields added later do not
//! matter).

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
    if json.get("store").and_then(|s| s.as_str()) == Some("postgres") {
        return serde_json::from_value(json)
            .map(Measurement::Postgres)
            .map_err(bad);
    }
    serde_json::from_value(json)
        .map(Measurement::Redis)
        .map_err(bad)
}
