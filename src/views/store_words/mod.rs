//! The store presets in words: what a read costs, where the figures come
//! from, where a limit is documented. The model's presets hold typed data
//! ([`ReadCostKind`], [`PresetSource`], [`LimitSource`]); this module words
//! them from the preset's own figures, and serializes [`StorePreset`] and
//! [`StoreLimit`] with those words (the `read_cost` and `source` strings of
//! `stores --format json` and of a `store_limit` warning).

use serde::ser::{Serialize, SerializeStruct, Serializer};

use crate::model::store::{LimitSource, PresetSource, ReadCostKind, StoreLimit, StorePreset};
use crate::output::fmt;

/// What one read of a counter costs when it sums S shards.
pub fn read_cost(p: &StorePreset) -> String {
    match p.read_cost {
        ReadCostKind::ReadUnitPerItem { item_kb } => {
            let batch = match p.batch_read_items {
                Some(n) => format!("; BatchGetItem reads up to {n} items per call"),
                None => String::new(),
            };
            format!("one read unit per {item_kb} KB item (strongly consistent){batch}")
        }
        ReadCostKind::PerDocument => {
            "billed per document read, so summing S shards costs S reads".into()
        }
        ReadCostKind::OneSumQuery => {
            "one query, SELECT sum(n) over the S shard rows (an index scan of S rows), not S reads"
                .into()
        }
        ReadCostKind::GetPerShard => {
            "MGET only within one slot (CROSSSLOT otherwise): a read is one GET per shard, \
             pipelined per node"
                .into()
        }
        ReadCostKind::PointReadPerShard => {
            "one row read per shard; shard-first keys are not one range, so S point reads".into()
        }
    }
}

/// A figure of the preset, `-` where it has none.
fn figure(x: Option<f64>) -> String {
    x.map(fmt::num).unwrap_or_else(|| "-".into())
}

/// Where the preset's figures come from, quoting them.
pub fn source(p: &StorePreset) -> String {
    match p.source {
        PresetSource::DynamodbGuide { as_of } => format!(
            "Amazon DynamoDB developer guide (as of {as_of}): a partition delivers at most {} \
             write units and {} read units a second; burst capacity keeps up to {} s of unused \
             capacity; BatchGetItem returns up to {} items; TransactWriteItems writes each item \
             twice (prepare and commit), so a transactional write costs {} write units",
            figure(p.write_cap_per_key),
            figure(p.read_cap_per_key),
            fmt::num(p.burst_seconds),
            figure(p.batch_read_items.map(f64::from)),
            fmt::num(p.transactional_write_cost),
        ),
        PresetSource::FirestoreDistributedCounters => {
            "Google Cloud Firestore docs, 'Distributed counters': a single document can be \
             updated about once per second, sustained; reads are billed per document"
                .into()
        }
        PresetSource::PostgresRowLocks => {
            "PostgreSQL documents no per-row write rate: concurrent UPDATEs of one row serialise \
             on its row lock, each waiting for the previous one to commit (docs, 'Explicit \
             Locking', row-level locks), so a hot row's rate is set by the machine's commit \
             latency (fsync, synchronous_commit), not by the database. No default: measure it \
             with `shardplan measure --postgres` and plan with --cap-from-measure, or give --cap"
                .into()
        }
        PresetSource::RedisClusterSpec { benchmark: b } => {
            let slots = p.slots.unwrap_or_default();
            format!(
                "Redis Cluster spec: {} hash slots, CRC16(key) mod {slots}, one master per slot; \
                 per-key cap: redis-benchmark INCR on one key, redis-server {} on a shared \
                 2-core VM, median {}/s of {} runs, rounded down to {} (set your own with --cap)",
                fmt::num(f64::from(slots)),
                b.server,
                fmt::num(b.median_per_second),
                b.runs,
                figure(p.write_cap_per_key),
            )
        }
        PresetSource::BigtablePerformance { row_kb } => format!(
            "Cloud Bigtable performance docs: roughly {} rows a second of {row_kb} KB reads or \
             writes per node; contiguous rows share a tablet on one node until Bigtable splits \
             it, so the per-node figure bounds keys in one range",
            figure(p.write_cap_per_key),
        ),
    }
}

/// Where a store limit is documented, quoting it.
pub fn limit_source(l: &StoreLimit) -> String {
    let limit = fmt::num(l.limit);
    match l.source {
        LimitSource::DynamodbServiceQuotas => format!(
            "Amazon DynamoDB service quotas: a table's default throughput quota is {limit} write \
             units a second (adjustable on request)"
        ),
        LimitSource::FirestoreQuotas => format!(
            "Google Cloud Firestore quotas and limits: a transaction or batched write takes at \
             most {limit} documents, so resetting or folding more shards needs several"
        ),
    }
}

impl Serialize for StorePreset {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("StorePreset", 10)?;
        s.serialize_field("store", &self.store)?;
        s.serialize_field("placement", &self.placement)?;
        s.serialize_field("write_cap_per_key", &self.write_cap_per_key)?;
        s.serialize_field("read_cap_per_key", &self.read_cap_per_key)?;
        s.serialize_field("burst_seconds", &self.burst_seconds)?;
        s.serialize_field("batch_read_items", &self.batch_read_items)?;
        s.serialize_field("transactional_write_cost", &self.transactional_write_cost)?;
        s.serialize_field("slots", &self.slots)?;
        s.serialize_field("read_cost", &read_cost(self))?;
        s.serialize_field("source", &source(self))?;
        s.end()
    }
}

impl Serialize for StoreLimit {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("StoreLimit", 3)?;
        s.serialize_field("quantity", &self.quantity)?;
        s.serialize_field("limit", &self.limit)?;
        s.serialize_field("source", &limit_source(self))?;
        s.end()
    }
}

#[cfg(test)]
mod tests;
