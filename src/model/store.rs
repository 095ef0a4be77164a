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
                source: "Amazon DynamoDB service quotas: a table's default throughput quota is \
                         40,000 write units a second (adjustable on request)",
            }],
            Store::Firestore => vec![StoreLimit {
                quantity: LimitedQuantity::DocumentsPerTransaction,
                limit: 500.0,
                source: "Google Cloud Firestore quotas and limits: a transaction or batched write \
                         takes at most 500 documents, so resetting or folding more shards needs \
                         several",
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
                read_cost: "one read unit per 4 KB item (strongly consistent); BatchGetItem reads up to 100 items per call",
                source: "Amazon DynamoDB developer guide (as of Oct 2026): a partition delivers at most 1,000 write \
                         units and 3,000 read units a second; burst capacity keeps up to 300 s of unused capacity; \
                         BatchGetItem returns up to 100 items; TransactWriteItems writes each item twice (prepare \
                         and commit), so a transactional write costs 2 write units",
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
                read_cost: "billed per document read, so summing S shards costs S reads",
                source: "Google Cloud Firestore docs, 'Distributed counters': a single document can be updated \
                         about once per second, sustained; reads are billed per document",
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
                read_cost: "one query, SELECT sum(n) over the S shard rows (an index scan of S rows), not S reads",
                source: "PostgreSQL documents no per-row write rate: concurrent UPDATEs of one row serialise on \
                         its row lock, each waiting for the previous one to commit (docs, 'Explicit Locking', \
                         row-level locks), so a hot row's rate is set by the machine's commit latency (fsync, \
                         synchronous_commit), not by the database. No default: measure it with `shardplan measure \
                         --postgres` and plan with --cap-from-measure, or give --cap",
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
                read_cost: "MGET only within one slot (CROSSSLOT otherwise): a read is one GET per shard, \
                            pipelined per node",
                source: "Redis Cluster spec: 16,384 hash slots, CRC16(key) mod 16384, one master per slot; \
                         per-key cap: redis-benchmark INCR on one key, redis-server 7.0.15 on a shared 2-core \
                         VM, median 36,108/s of 3 runs, rounded down to 36,000 (set your own with --cap)",
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
                read_cost: "one row read per shard; shard-first keys are not one range, so S point reads",
                source: "Cloud Bigtable performance docs: roughly 10,000 rows a second of 1 KB reads or writes \
                         per node; contiguous rows share a tablet on one node until Bigtable splits it, so the \
                         per-node figure bounds keys in one range",
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
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
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
    pub read_cost: &'static str,
    /// Where the figures come from: the store's documentation, or for
    /// Redis the measurement behind [`REDIS_MEASURED_INCR_PER_SECOND`].
    pub source: &'static str,
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
#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub struct StoreLimit {
    /// What it limits.
    pub quantity: LimitedQuantity,
    /// The limit.
    pub limit: f64,
    /// Where it is documented.
    pub source: &'static str,
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
        assert!(all_presets().iter().all(|p| !p.source.is_empty()));
    }

    #[test]
    fn names_round_trip() {
        for s in Store::ALL {
            assert_eq!(serde_json::to_value(s).unwrap(), s.name());
        }
    }
}
