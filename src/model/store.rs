//! Store presets: the per-key limits of the stores a sharded counter lives
//! in, each with where the figure comes from. `size`, `simulate`, `keys` and
//! `partitions` start from a preset; any figure can be overridden by its flag.

use serde::{Deserialize, Serialize};

/// Single-key `INCR` rate measured with `redis-benchmark -t incr -n 200000 -q`
/// against redis-server 7.0.15 (Debian package) on 127.0.0.1, 50 clients, no
/// pipelining, on a 2-core AMD EPYC VM shared with builds: 37,439, 36,108 and
/// 32,857 requests/s over three runs (median 36,108), 2026-11-30. Rounded
/// down. With `-P 16` pipelining the same key took 383,142/s, so this is a
/// per-connection-latency figure, not the server's ceiling; a real cluster
/// node on its own core does more. Override it with your own measurement.
pub const REDIS_MEASURED_INCR_PER_SECOND: f64 = 36_000.0;

/// The stores shardplan knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Store {
    /// Amazon DynamoDB: hashed partitions with per-partition caps.
    Dynamodb,
    /// Google Cloud Firestore: about one sustained write a second per document.
    Firestore,
    /// PostgreSQL: counter rows in one table on one server; one row's
    /// writes serialise on its row lock.
    Postgres,
    /// Redis Cluster: 16,384 hash slots over the masters.
    RedisCluster,
    /// A sorted store (Bigtable-like): contiguous key ranges in tablets.
    Sorted,
}

impl Store {
    /// Every store, in the order `shardplan stores` lists them (see
    /// [`all_presets`]).
    pub const ALL: [Store; 5] = [
        Store::Dynamodb,
        Store::Firestore,
        Store::Postgres,
        Store::RedisCluster,
        Store::Sorted,
    ];

    /// The store's kebab-case name, as `--store`, scenario files and the
    /// serialized output spell it.
    pub fn name(self) -> &'static str {
        match self {
            Store::Dynamodb => "dynamodb",
            Store::Firestore => "firestore",
            Store::Postgres => "postgres",
            Store::RedisCluster => "redis-cluster",
            Store::Sorted => "sorted",
        }
    }

    /// How the store decides where a key lives.
    pub fn placement(self) -> Placement {
        match self {
            Store::Dynamodb | Store::Firestore => Placement::Hashed,
            Store::RedisCluster => Placement::Slots,
            Store::Sorted => Placement::Sorted,
            Store::Postgres => Placement::Rows,
        }
    }

    /// Write units one transactional write costs on `store`; with no store
    /// named, DynamoDB's (the built-in defaults are DynamoDB's: a
    /// `TransactWriteItems` item is written twice, prepare and commit).
    pub fn transactional_write_cost(store: Option<Store>) -> f64 {
        store
            .unwrap_or(Store::Dynamodb)
            .preset()
            .transactional_write_cost
    }

    /// Whether the store moves busy items onto partitions of their own
    /// (DynamoDB's adaptive capacity), so shards that share a partition are
    /// a risk right after a grow rather than for the whole spell.
    pub fn isolates_busy_items(self) -> bool {
        self == Store::Dynamodb
    }

    /// The store's documented limits beyond the per-key cap, each with its
    /// source; the recommendation names any the plan exceeds.
    pub fn limits(self) -> Vec<StoreLimit> {
        match self {
            Store::Dynamodb => vec![StoreLimit {
                quantity: LimitedQuantity::WriteUnitsPerSecond,
                limit: 40_000.0,
                source: LimitSource::DynamodbServiceQuotas,
            }],
            Store::Firestore => vec![StoreLimit {
                quantity: LimitedQuantity::DocumentsPerTransaction,
                limit: 500.0,
                source: LimitSource::FirestoreQuotas,
            }],
            Store::Postgres | Store::RedisCluster | Store::Sorted => Vec::new(),
        }
    }

    /// The store's per-key figures, each with where it comes from.
    pub fn preset(self) -> StorePreset {
        match self {
            Store::Dynamodb => StorePreset {
                store: self,
                placement: Placement::Hashed,
                write_cap_per_key: Some(1_000.0),
                read_cap_per_key: Some(3_000.0),
                burst_seconds: 300.0,
                batch_read_items: Some(100),
                transactional_write_cost: 2.0,
                slots: None,
                read_cost: ReadCostKind::ReadUnitPerItem { item_kb: 4 },
                source: PresetSource::DynamodbGuide { as_of: "Oct 2026" },
            },
            Store::Firestore => StorePreset {
                store: self,
                placement: Placement::Hashed,
                write_cap_per_key: Some(1.0),
                read_cap_per_key: None,
                burst_seconds: 0.0,
                batch_read_items: None,
                transactional_write_cost: 1.0,
                slots: None,
                read_cost: ReadCostKind::PerDocument,
                source: PresetSource::FirestoreDistributedCounters,
            },
            Store::Postgres => StorePreset {
                store: self,
                placement: Placement::Rows,
                // No documented figure to default to: the plan needs a
                // measured one (--cap-from-measure) or --cap.
                write_cap_per_key: None,
                read_cap_per_key: None,
                burst_seconds: 0.0,
                batch_read_items: None,
                transactional_write_cost: 1.0,
                slots: None,
                read_cost: ReadCostKind::OneSumQuery,
                source: PresetSource::PostgresRowLocks,
            },
            Store::RedisCluster => StorePreset {
                store: self,
                placement: Placement::Slots,
                write_cap_per_key: Some(REDIS_MEASURED_INCR_PER_SECOND),
                read_cap_per_key: None,
                burst_seconds: 0.0,
                batch_read_items: None,
                transactional_write_cost: 1.0,
                slots: Some(u32::from(crate::model::placement::REDIS_SLOTS)),
                read_cost: ReadCostKind::GetPerShard,
                source: PresetSource::RedisClusterSpec {
                    benchmark: RedisBenchmark {
                        server: "7.0.15",
                        runs: 3,
                        median_per_second: 36_108.0,
                    },
                },
            },
            Store::Sorted => StorePreset {
                store: self,
                placement: Placement::Sorted,
                write_cap_per_key: Some(10_000.0),
                read_cap_per_key: Some(10_000.0),
                burst_seconds: 0.0,
                batch_read_items: None,
                transactional_write_cost: 1.0,
                slots: None,
                read_cost: ReadCostKind::PointReadPerShard,
                source: PresetSource::BigtablePerformance { row_kb: 1 },
            },
        }
    }
}

/// How a store maps a key to a place.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Placement {
    /// Hashed to one of P partitions (see `partitions`).
    Hashed,
    /// Redis Cluster hash slots (see `placement`).
    Slots,
    /// Byte order, ranges in tablets (see `placement::SortedReport`).
    Sorted,
    /// Rows of one table on one server: each row has its own lock, and no
    /// partitions are shared (PostgreSQL).
    Rows,
}

/// The figures one store sets. Field names are stable: they are printed.
// Serialized by `views::store_words`, which words `read_cost` and `source`.
#[derive(Debug, Clone, PartialEq, schemars::JsonSchema)]
pub struct StorePreset {
    /// The store these figures are for.
    pub store: Store,
    /// How the store decides where a key lives ([`Store::placement`]).
    pub placement: Placement,
    /// Sustained writes a second one key (its partition) accepts; `None`
    /// when the store documents none (PostgreSQL: measure it).
    pub write_cap_per_key: Option<f64>,
    /// Sustained reads a second one key accepts, when documented.
    pub read_cap_per_key: Option<f64>,
    /// Seconds of unused capacity a key can burst on (0: none).
    pub burst_seconds: f64,
    /// Items one batch read returns, when the store has batch reads.
    pub batch_read_items: Option<u32>,
    /// Write units one transactional write costs.
    pub transactional_write_cost: f64,
    /// Hash slots, for Redis Cluster.
    pub slots: Option<u32>,
    /// In words: what one read of a counter costs when it sums S shards.
    #[schemars(with = "String")]
    pub read_cost: ReadCostKind,
    /// Where the figures come from: the store's documentation, or for
    /// Redis the measurement behind [`REDIS_MEASURED_INCR_PER_SECOND`].
    #[schemars(with = "String")]
    pub source: PresetSource,
}

/// What one read of a counter costs when it sums S shards, by how the
/// store serves or bills reads (the words are `views::store_words`'s).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadCostKind {
    /// A read unit per item of up to `item_kb` KB; batch reads of the
    /// preset's `batch_read_items` (DynamoDB).
    ReadUnitPerItem {
        /// The item size one read unit covers, in KB.
        item_kb: u32,
    },
    /// Billed per document read: S shards cost S reads (Firestore).
    PerDocument,
    /// One query sums the S shard rows, an index scan, not S reads
    /// (PostgreSQL).
    OneSumQuery,
    /// A multi-key read only within one slot: one GET per shard, pipelined
    /// per node (Redis Cluster).
    GetPerShard,
    /// One point read per shard: shard-first keys are not one range
    /// (a sorted store).
    PointReadPerShard,
}

/// Where a preset's figures come from: the document (with the figures it
/// states beyond the preset's own), or the measurement. The words are
/// `views::store_words`'s.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PresetSource {
    /// Amazon DynamoDB's developer guide, as read in `as_of`.
    DynamodbGuide {
        /// When the figures were read.
        as_of: &'static str,
    },
    /// Google Cloud Firestore's "Distributed counters" page.
    FirestoreDistributedCounters,
    /// PostgreSQL's "Explicit Locking" (row-level locks): no per-row rate.
    PostgresRowLocks,
    /// The Redis Cluster specification, and the benchmark behind the cap.
    RedisClusterSpec {
        /// The single-key INCR measurement ([`REDIS_MEASURED_INCR_PER_SECOND`]).
        benchmark: RedisBenchmark,
    },
    /// Cloud Bigtable's performance page, for rows of `row_kb` KB.
    BigtablePerformance {
        /// The row size the per-node rate is quoted for, in KB.
        row_kb: u32,
    },
}

/// A single-key `redis-benchmark` INCR measurement.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RedisBenchmark {
    /// The redis-server version measured.
    pub server: &'static str,
    /// How many runs.
    pub runs: u32,
    /// The runs' median, INCRs a second.
    pub median_per_second: f64,
}

/// Where a store limit is documented. The words are `views::store_words`'s.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LimitSource {
    /// Amazon DynamoDB's service quotas: a table's default throughput.
    DynamodbServiceQuotas,
    /// Google Cloud Firestore's quotas and limits: documents a transaction
    /// or batched write takes.
    FirestoreQuotas,
}

/// A quantity of the plan that a store limits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LimitedQuantity {
    /// Write units a second on the whole table (peak x write cost).
    WriteUnitsPerSecond,
    /// Documents one transaction or batched write may touch (the shards).
    DocumentsPerTransaction,
}

/// A documented store limit beyond the per-key cap.
// Serialized by `views::store_words`, which words `source`.
#[derive(Debug, Clone, Copy, PartialEq, schemars::JsonSchema)]
pub struct StoreLimit {
    /// What it limits.
    pub quantity: LimitedQuantity,
    /// The limit, in its quantity's unit: write units/s on the whole
    /// table, or documents a transaction.
    pub limit: f64,
    /// Where it is documented.
    #[schemars(with = "String")]
    pub source: LimitSource,
}

/// One row of `shardplan stores`.
pub fn all_presets() -> Vec<StorePreset> {
    Store::ALL.iter().map(|s| s.preset()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dynamodb_figures() {
        let p = Store::Dynamodb.preset();
        assert_eq!(p.write_cap_per_key, Some(1_000.0));
        assert_eq!(p.read_cap_per_key, Some(3_000.0));
        assert_eq!(p.burst_seconds, 300.0);
        assert_eq!(p.batch_read_items, Some(100));
        assert_eq!(p.transactional_write_cost, 2.0);
    }

    #[test]
    fn other_presets() {
        assert_eq!(Store::Firestore.preset().write_cap_per_key, Some(1.0));
        assert_eq!(Store::Postgres.preset().write_cap_per_key, None);
        assert_eq!(Store::Postgres.placement(), Placement::Rows);
        assert_eq!(Store::Firestore.preset().batch_read_items, None);
        let r = Store::RedisCluster.preset();
        assert_eq!(r.slots, Some(16_384));
        assert_eq!(r.write_cap_per_key, Some(REDIS_MEASURED_INCR_PER_SECOND));
        assert_eq!(Store::Sorted.placement(), Placement::Sorted);
        assert_eq!(all_presets().len(), 5);
        assert_eq!(
            Store::Sorted.preset().source,
            PresetSource::BigtablePerformance { row_kb: 1 }
        );
    }

    #[test]
    fn names_round_trip() {
        for s in Store::ALL {
            assert_eq!(serde_json::to_value(s).unwrap(), s.name());
        }
    }
}
