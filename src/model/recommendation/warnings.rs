//! What more shards cannot fix (or what the recommendation alone does not
//! show), as data; the views word it.

use serde::Serialize;

use super::{PlanInputs, Recommendation};
use crate::model::store::{LimitedQuantity, Store, StoreLimit};

/// A finding beside the recommendation.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Warning {
    /// The store moves busy items apart on its own (DynamoDB's adaptive
    /// capacity, at a speed its docs do not give), so the shared-partition
    /// risk is the risk right after a grow, not the plan's.
    PartitionRiskAfterGrow {
        /// The store whose preset isolates busy items.
        store: Store,
        /// P(some partition over its cap during the spell) at the count.
        p_any_over_cap: f64,
        /// The fewest count meeting that risk on its own, if any.
        partition_shards: Option<u64>,
    },
    /// No shard count up to the limit keeps the shared partitions within
    /// the risk: raise the cap or the partitions, or accept more risk.
    PartitionsCannotHold {
        /// Partitions the keys hash onto.
        partitions: u64,
        /// Writes a second one partition accepts.
        cap: f64,
        /// The risk accepted for them.
        risk: f64,
        /// The most shards tried.
        max_shards: u64,
    },
    /// Counts above the recommendation fail the partition risk: a team that
    /// later adds shards must skip them.
    FailingBand {
        /// Inclusive ranges of failing counts.
        ranges: Vec<[u64; 2]>,
        /// The fewest count from which every count up to twice it meets the risk.
        stable: Option<u64>,
    },
    /// Each shard takes more cached reads a second than the store's read cap;
    /// more shards cannot help (every sum reads every shard).
    ReadCap {
        /// Reads a second each shard key takes with the cache.
        reads_per_shard: f64,
        /// The read cap per key.
        read_cap: f64,
        /// The shortest cache period that fits: servers / read cap.
        cache_seconds_needed: f64,
    },
    /// Without the cache, one view's reads put each shard key over the read
    /// cap (the cache is what keeps the plan within it).
    UncachedOverReadCap {
        /// Reads a second each shard key takes without the cache (the views).
        reads_per_shard: f64,
        /// The read cap per key.
        read_cap: f64,
    },
    /// A sum needs more than one batch read.
    BatchesPerSum {
        /// Batch reads per sum: ceil(shards / batch size).
        batches: u64,
        /// Items one batch read fetches.
        batch_size: u64,
    },
    /// Every shard key hashes one tag to one slot, so one node takes all the
    /// writes: more shards cannot fix it, the template must change.
    TemplateOneSlot {
        /// The template.
        template: String,
        /// The same template without the hash tag braces.
        suggested: Option<String>,
        /// The fewest shards that hold the nodes' risk with the suggested
        /// template (`None` without one, or when none up to the limit does).
        suggested_shards: Option<u64>,
    },
    /// Even spread evenly, the masters' caps cannot hold the load within
    /// the risk: add nodes or raise the node cap.
    NodesCannotHold {
        /// Masters.
        nodes: u32,
        /// Likes a second one master accepts.
        node_cap: f64,
        /// The fewest masters on which an even spread holds (`None` when
        /// none up to the limit does).
        nodes_needed: Option<u32>,
    },
    /// The plan exceeds a documented store limit.
    StoreLimit {
        /// The limit and its source.
        limit: StoreLimit,
        /// The plan's value of the limited quantity.
        value: f64,
    },
}

impl Warning {
    /// The inputs (as `inputs` records them) the warning follows from: a
    /// view says when they were assumed rather than given.
    pub fn inputs(&self) -> &'static [&'static str] {
        match self {
            Warning::PartitionRiskAfterGrow { .. } | Warning::FailingBand { .. } => {
                &["partitions", "store"]
            }
            Warning::PartitionsCannotHold { .. } => &["partitions", "cap", "partition_risk"],
            Warning::ReadCap { .. } => &["servers", "cache_seconds", "read_cap"],
            Warning::UncachedOverReadCap { .. } => &["views", "read_cap"],
            Warning::BatchesPerSum { .. } => &["batch_size"],
            Warning::TemplateOneSlot { .. } => &["key_template"],
            Warning::NodesCannotHold { .. } => &["nodes", "node_cap"],
            Warning::StoreLimit { .. } => &["store", "peak"],
        }
    }
}

/// Every warning for `rec` under `inputs`.
pub(super) fn collect(inputs: &PlanInputs, rec: &Recommendation) -> Vec<Warning> {
    let mut out = Vec::new();
    if let (Some(false), Some(p), Some(store)) = (
        rec.partition_binds,
        rec.partition_p_any_over_cap,
        inputs.store,
    ) {
        if p > inputs.partitions.map_or(1.0, |x| x.target.risk) {
            out.push(Warning::PartitionRiskAfterGrow {
                store,
                p_any_over_cap: p,
                partition_shards: rec.partition_shards,
            });
        }
    }
    if let (Some(true), None, Some(p)) =
        (rec.partition_binds, rec.partition_shards, inputs.partitions)
    {
        out.push(Warning::PartitionsCannotHold {
            partitions: p.partitions,
            cap: p.cap,
            risk: p.target.risk,
            max_shards: crate::model::defaults::MAX_SHARDS,
        });
    }
    if rec.partition_binds == Some(true) && !rec.partition_failing.is_empty() {
        out.push(Warning::FailingBand {
            ranges: rec.partition_failing.clone(),
            stable: rec.partition_shards_stable,
        });
    }
    if let (Some(c), None) = (&inputs.nodes, rec.node_shards) {
        let rate = super::planned_rate(inputs.sizing.peak, c.target.traffic);
        out.push(match c.template().filter(|_| c.one_slot()) {
            Some(t) => {
                let fixed = t.without_tag_template();
                Warning::TemplateOneSlot {
                    template: t.template().to_string(),
                    suggested: t.without_tag(),
                    suggested_shards: fixed.and_then(|f| {
                        c.with_template(f)
                            .fewest(rate, 1, crate::model::defaults::MAX_SHARDS)
                    }),
                }
            }
            None => Warning::NodesCannotHold {
                nodes: c.nodes,
                node_cap: c.node_cap,
                nodes_needed: c.nodes_needed(rate, crate::model::defaults::MAX_NODES),
            },
        });
    }
    let r = &rec.reads;
    if let (Some(cap), Some(need)) = (r.read_cap, r.cache_seconds_for_read_cap) {
        out.push(Warning::ReadCap {
            reads_per_shard: r.reads_per_shard_cached,
            read_cap: cap,
            cache_seconds_needed: need,
        });
    }
    if let Some(cap) = r.read_cap.filter(|c| r.reads_per_shard_uncached > *c) {
        // Said only when the cached reads are within the cap (else ReadCap).
        if r.cache_seconds_for_read_cap.is_none() {
            out.push(Warning::UncachedOverReadCap {
                reads_per_shard: r.reads_per_shard_uncached,
                read_cap: cap,
            });
        }
    }
    if let (Some(b), Some(size)) = (r.batches_per_sum, r.batch_size) {
        if b > 1 {
            out.push(Warning::BatchesPerSum {
                batches: b,
                batch_size: size,
            });
        }
    }
    if let Some(store) = inputs.store {
        for limit in store.limits() {
            let value = match limit.quantity {
                LimitedQuantity::WriteUnitsPerSecond => {
                    inputs.sizing.peak * inputs.write_cost.unwrap_or(1.0)
                }
                LimitedQuantity::DocumentsPerTransaction => rec.shards as f64,
            };
            if value > limit.limit {
                out.push(Warning::StoreLimit { limit, value });
            }
        }
    }
    out
}
