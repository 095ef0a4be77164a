//! What a run reports: the result structs (JSON field names are stable) and
//! reading a report back as a cap for the planner.

use super::summary::{PhaseSpread, RunResult, Spread};

/// Latency percentiles of one phase, in milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, schemars::JsonSchema)]
pub struct Latency {
    /// Median.
    pub p50_ms: f64,
    /// 99th percentile.
    pub p99_ms: f64,
    /// 99.9th percentile.
    pub p999_ms: f64,
    /// The slowest INCR (its batch's round trip with pipelining).
    pub max_ms: f64,
}

/// What one master (or the standalone server) did in the measured runs
/// (the warm-up not counted), each phase's figures added over the runs.
#[derive(Debug, Clone, PartialEq, serde::Serialize, schemars::JsonSchema)]
pub struct NodeOps {
    /// `host:port` as CLUSTER SLOTS announces it.
    pub address: String,
    /// The same as `address` (the name before `--runs`; kept so older
    /// readers of the JSON keep working).
    pub node: String,
    /// Hash slots the node owns (16384 on a standalone server).
    pub slots: u64,
    /// How many of the S shard keys hash to this node.
    pub shard_keys: u64,
    /// One-key phases: INCRs acknowledged on this node's keys (the client's
    /// count, by the slot map).
    pub single_incr: u64,
    /// Sharded phases: INCRs acknowledged on this node's keys.
    pub sharded_incr: u64,
    /// One-key phases: INCR calls the node itself counted (`INFO
    /// commandstats` differences); other clients' INCRs would show here
    /// too; `null` if the node does not say.
    pub single_incr_served: Option<u64>,
    /// Sharded phases: INCR calls the node itself counted (`INFO
    /// commandstats` differences); `null` if the node does not say.
    pub sharded_incr_served: Option<u64>,
    /// The same as `sharded_incr_served` (the name before `--runs`; kept
    /// so older readers of the JSON keep working).
    pub server_incr: Option<u64>,
    /// One-key phases: CPU seconds (`INFO cpu` `used_cpu_sys` +
    /// `used_cpu_user` differences), the node's idle rate times the phase's
    /// seconds subtracted, clamped at 0; `null` if the node does not say.
    pub single_cpu_seconds: Option<f64>,
    /// Sharded phases: CPU seconds, measured as for the one-key phases;
    /// `null` if the node does not say.
    pub sharded_cpu_seconds: Option<f64>,
    /// One-key phases: this node's share of all nodes' CPU seconds.
    pub single_cpu_share: Option<f64>,
    /// Sharded phases: this node's share of all nodes' CPU seconds.
    pub sharded_cpu_share: Option<f64>,
    /// The idle CPU rate subtracted: CPU seconds per second, measured over
    /// a quiet interval before the load.
    pub idle_cpu_per_second: f64,
}

/// Something about the run that makes its figures not what they seem,
/// found before the load starts; the view words it.
#[derive(Debug, Clone, PartialEq, serde::Serialize, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum MeasureWarning {
    /// The shard keys do not reach every master, so the sharded phase
    /// does not load the whole cluster.
    NodesUnreached {
        /// Masters holding at least one shard key.
        reached: u64,
        /// Masters in the cluster.
        nodes: u64,
        /// S, the shard keys.
        shards: u64,
    },
    /// A placement problem `keys --check` reports for these shard keys.
    Placement {
        /// What `keys --check` finds.
        warning: crate::model::placement::PlacementWarning,
    },
}

/// The read path: the cost of reading the whole count once.
#[derive(Debug, Clone, PartialEq, serde::Serialize, schemars::JsonSchema)]
pub struct ReadPath {
    /// Reads timed for each figure.
    pub reads: u64,
    /// Distinct nodes one read touches (round trips of the pipelined GETs).
    pub nodes_per_read: u64,
    /// Median time of one read as S pipelined GETs grouped per node (the
    /// median, not the mean, so a stall of a shared machine does not
    /// dominate).
    pub pipelined_get_p50_ms: f64,
    /// Median time of one MGET of S keys in one slot; `None` if no such
    /// set could be built (a template whose braces defeat the copy's tag).
    pub mget_p50_ms: Option<f64>,
    /// Which keys the MGET read.
    pub mget_keys: MgetKeys,
    /// The server's reply to one MGET over the shard keys when they span
    /// several slots; `None` when they do not.
    pub crossslot_error: Option<String>,
}

/// Which keys the read path's MGET read; JSON and CSV carry the snake_case
/// name (`shard_keys`, `same_slot_copy`, `none`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MgetKeys {
    /// The shard keys themselves: they share a slot, or the server is
    /// standalone.
    ShardKeys,
    /// The S values copied under one hash tag for the timing, then deleted:
    /// the shard keys span several slots.
    SameSlotCopy,
    /// No same-slot set could be built (a template whose braces defeat the
    /// copy's tag), so no MGET was timed.
    #[serde(rename = "none")]
    Unavailable,
}

impl MgetKeys {
    /// The name JSON and CSV carry.
    pub fn name(self) -> &'static str {
        match self {
            MgetKeys::ShardKeys => "shard_keys",
            MgetKeys::SameSlotCopy => "same_slot_copy",
            MgetKeys::Unavailable => "none",
        }
    }
}

/// The result of [`run`](super::run). JSON field names are stable.
#[derive(Debug, Clone, PartialEq, serde::Serialize, schemars::JsonSchema)]
pub struct MeasureReport {
    /// The server's URL, any password shown as `***`.
    pub redis: String,
    /// Whether the run talked Redis Cluster (`--cluster`).
    pub cluster: bool,
    /// S, the number of shard keys.
    pub shards: u64,
    /// C, the concurrent connections.
    pub clients: u64,
    /// INCRs sent per round trip.
    pub pipeline: u64,
    /// The shard key template: `--template` as given, or the run's own
    /// (`shardplan:<run_id>:<shard>`).
    pub template: String,
    /// The random id naming this run's keys when no `--template` was given
    /// (eight hex digits; not from any seed).
    pub run_id: Option<String>,
    /// The one key of the single-key phase.
    pub single_key: String,
    /// How many times each phase was measured (`--runs`).
    pub runs: u64,
    /// Each run's figures, in order.
    pub run_results: Vec<RunResult>,
    /// The one-key phases' mean INCRs per second over the runs.
    pub single_ops_per_second_mean: f64,
    /// The sharded phases' mean INCRs per second over the runs.
    pub sharded_ops_per_second_mean: f64,
    /// The 95% interval of the mean per-run ratio sharded / one key
    /// (`ratio.ci95`); `null` with one run.
    pub ratio_ci95: Option<[f64; 2]>,
    /// The per-run ratio sharded / one key over the runs.
    pub ratio: Spread,
    /// The one-key phases over the runs: ops/s, latency percentiles, the
    /// busiest node's CPU share.
    pub single: PhaseSpread,
    /// The sharded phases over the runs.
    pub sharded: PhaseSpread,
    /// One-key phases: all nodes' CPU seconds (idle baseline subtracted),
    /// all runs; `null` if a node does not say.
    pub single_cpu_seconds: Option<f64>,
    /// Sharded phases: all nodes' CPU seconds (idle baseline subtracted),
    /// all runs; `null` if a node does not say.
    pub sharded_cpu_seconds: Option<f64>,
    /// One-key phases: the busiest node's share of the CPU, all runs
    /// together (the headline: near 1 when one node does all the work).
    pub single_max_cpu_share: Option<f64>,
    /// Sharded phases: the busiest node's share of the CPU, all runs
    /// together (near 1 / nodes when the shards spread the work).
    pub sharded_max_cpu_share: Option<f64>,
    /// Single-key phase: INCRs acknowledged, all runs.
    pub single_incr_sent: u64,
    /// Single-key phase: wall seconds, all runs (each from the barrier to
    /// the last client).
    pub single_seconds: f64,
    /// The one-key phases' mean INCRs per second (the same as
    /// `single_ops_per_second_mean`; `--cap-from-measure` reads it).
    pub single_ops_per_second: f64,
    /// The single key's final value (equals `single_incr_sent` if nothing was lost).
    pub single_value: i64,
    /// Single-key phase: per-INCR latency, all runs pooled.
    pub single_latency: Latency,
    /// Sharded phase: INCRs acknowledged, all runs (not the warm-up's).
    pub incr_sent: u64,
    /// INCRs the warm-up wrote to the shard keys before the runs.
    pub warmup_incr_sent: u64,
    /// Sharded phase: wall seconds, all runs.
    pub sharded_seconds: f64,
    /// The sharded phases' mean INCRs per second (the same as
    /// `sharded_ops_per_second_mean`).
    pub sharded_ops_per_second: f64,
    /// Sharded phase: per-INCR latency, all runs pooled.
    pub sharded_latency: Latency,
    /// `sharded_latency.p99_ms`, flat for scripts.
    pub latency_p99_ms: f64,
    /// Sum of the S shard values read back after the last sharded phase.
    pub shard_sum: i64,
    /// `shard_sum == incr_sent + warmup_incr_sent && single_value ==
    /// single_incr_sent`.
    pub counts_match: bool,
    /// The mean per-run ratio sharded / one key (`ratio.mean`).
    pub speedup: f64,
    /// Nodes holding at least one shard key (known from the slot map
    /// before the load starts).
    pub nodes_reached: u64,
    /// The most nodes the S shard keys could reach: min(S, nodes). Fewer
    /// reached means a hash tag, or an unlucky template, put keys together.
    pub nodes_possible: u64,
    /// Every master node (the one server if standalone), by address.
    pub nodes: Vec<NodeOps>,
    /// What makes the figures not what they seem, found before the load.
    pub warnings: Vec<MeasureWarning>,
    /// The cost of reading the whole count.
    pub read: ReadPath,
    /// Whether the keys were left in Redis (`--keep`).
    pub keys_kept: bool,
    /// Keys deleted at the end: those that still held exactly what this
    /// run wrote (with `--keep`, only the same-slot copies).
    pub keys_deleted: u64,
    /// Keys this run wrote that held something else at the end (another
    /// client changed them, or a client re-sent an INCR): left as they are.
    pub keys_left: Vec<String>,
    /// Keys `--overwrite` set aside before the run and put back after.
    pub keys_restored: u64,
    /// Where it ran (the client's machine; no server version).
    pub machine: crate::measure::machine::Machine,
    /// How each client, as one app server, picked the shard key of each
    /// INCR in the warm-up and the sharded phases (`--picker`).
    pub picker: crate::model::picker::Picker,
    /// How the sharded phases' INCRs fell on the shard keys, by the
    /// server's own counts.
    pub shard_load: super::ShardLoad,
    /// Every INCR accounted for: all acknowledged (the comparison stops at
    /// the first error), set against the keys' values read back.
    pub durability: super::durability::Durability,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mget_keys_serialise_as_their_names() {
        for k in [
            MgetKeys::ShardKeys,
            MgetKeys::SameSlotCopy,
            MgetKeys::Unavailable,
        ] {
            assert_eq!(serde_json::to_value(k).unwrap(), k.name());
        }
        assert_eq!(MgetKeys::Unavailable.name(), "none");
    }
}
