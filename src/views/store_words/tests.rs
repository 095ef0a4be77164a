//! The presets' words, word for word as the presets carried them.

use super::*;
use crate::model::store::Store;

#[test]
fn read_costs_read_as_before() {
    let words: Vec<String> = Store::ALL.iter().map(|s| read_cost(&s.preset())).collect();
    assert_eq!(
        words,
        [
            "one read unit per 4 KB item (strongly consistent); BatchGetItem reads up to 100 items per call",
            "billed per document read, so summing S shards costs S reads",
            "one query, SELECT sum(n) over the S shard rows (an index scan of S rows), not S reads",
            "MGET only within one slot (CROSSSLOT otherwise): a read is one GET per shard, pipelined per node",
            "one row read per shard; shard-first keys are not one range, so S point reads",
        ]
    );
}

#[test]
fn sources_quote_the_presets_figures() {
    let words: Vec<String> = Store::ALL.iter().map(|s| source(&s.preset())).collect();
    assert_eq!(
        words,
        [
            "Amazon DynamoDB developer guide (as of Oct 2026): a partition delivers at most 1,000 write \
             units and 3,000 read units a second; burst capacity keeps up to 300 s of unused capacity; \
             BatchGetItem returns up to 100 items; TransactWriteItems writes each item twice (prepare \
             and commit), so a transactional write costs 2 write units",
            "Google Cloud Firestore docs, 'Distributed counters': a single document can be updated \
             about once per second, sustained; reads are billed per document",
            "PostgreSQL documents no per-row write rate: concurrent UPDATEs of one row serialise on \
             its row lock, each waiting for the previous one to commit (docs, 'Explicit Locking', \
             row-level locks), so a hot row's rate is set by the machine's commit latency (fsync, \
             synchronous_commit), not by the database. No default: measure it with `shardplan measure \
             --postgres` and plan with --cap-from-measure, or give --cap",
            "Redis Cluster spec: 16,384 hash slots, CRC16(key) mod 16384, one master per slot; \
             per-key cap: redis-benchmark INCR on one key, redis-server 7.0.15 on a shared 2-core \
             VM, median 36,108/s of 3 runs, rounded down to 36,000 (set your own with --cap)",
            "Cloud Bigtable performance docs: roughly 10,000 rows a second of 1 KB reads or writes \
             per node; contiguous rows share a tablet on one node until Bigtable splits it, so the \
             per-node figure bounds keys in one range",
        ]
    );
}

#[test]
fn limit_sources_quote_the_limit() {
    let words: Vec<String> = Store::ALL
        .iter()
        .flat_map(|s| s.limits())
        .map(|l| limit_source(&l))
        .collect();
    assert_eq!(
        words,
        [
            "Amazon DynamoDB service quotas: a table's default throughput quota is \
             40,000 write units a second (adjustable on request)",
            "Google Cloud Firestore quotas and limits: a transaction or batched write \
             takes at most 500 documents, so resetting or folding more shards needs \
             several",
        ]
    );
}

#[test]
fn json_carries_the_words() {
    let p = Store::Firestore.preset();
    let v = serde_json::to_value(&p).unwrap();
    assert_eq!(v["read_cost"], read_cost(&p));
    assert_eq!(v["source"], source(&p));
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys.len(), 10);
}
