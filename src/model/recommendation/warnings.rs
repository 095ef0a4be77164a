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
            Warning::ReadCap { .. } => &["servers", "cache_seconds", "read_cap"],
            Warning::UncachedOverReadCap { .. } => &["views", "read_cap"],
            Warning::BatchesPerSum { .. } => &["batch_size"],
            Warning::TemplateOneSlot { .. } => &["key_template"],
            Warning::StoreLimit { .. } => &["store", "peak"],
        }
    }
}

/// Every warning for `rec` under `inputs`: the count's own (a partition
/// risk after a grow, reads, batches, store limits) around the plan's.
pub(super) fn collect(inputs: &PlanInputs, rec: &Recommendation) -> Vec<Warning> {
    assemble(inputs, rec, plan_warnings(inputs, rec))
}

/// As [`collect`] for a count judged against a recommendation whose
/// warnings are `of_plan`: the plan's warnings do not depend on the count
/// (the searches behind them run once, not once per count).
pub(super) fn collect_against(
    inputs: &PlanInputs,
    e: &Recommendation,
    of_plan: &[Warning],
) -> Vec<Warning> {
    let plan = of_plan.iter().filter(|w| w.of_plan()).cloned().collect();
    assemble(inputs, e, plan)
}

impl Warning {
    /// A warning about the plan, the same at every count: no count meets
    /// the partitions or the nodes, or the counts that fail them.
    fn of_plan(&self) -> bool {
        matches!(
            self,
            Warning::FailingBand { .. } | Warning::TemplateOneSlot { .. }
        )
    }
}

/// The warnings in their order: after a grow, the plan's, then reads,
/// batches and store limits.
fn assemble(inputs: &PlanInputs, rec: &Recommendation, plan: Vec<Warning>) -> Vec<Warning> {
    let mut out: Vec<Warning> = after_grow(inputs, rec).into_iter().collect();
    out.extend(plan);
    out.extend(read_warnings(rec));
    out.extend(store_limits(inputs, rec));
    out
}

/// The partition risk right after a grow, where the store moves busy items
/// apart on its own (not binding).
fn after_grow(inputs: &PlanInputs, rec: &Recommendation) -> Option<Warning> {
    let (Some(false), Some(p), Some(store)) = (
        rec.partition_binds,
        rec.partition_p_any_over_cap,
        inputs.store,
    ) else {
        return None;
    };
    (p > inputs.partitions.map_or(1.0, |x| x.target.risk)).then_some(
        Warning::PartitionRiskAfterGrow {
            store,
            p_any_over_cap: p,
            partition_shards: rec.partition_shards,
        },
    )
}

/// What no count changes: the failing band, and a template that puts
/// every key on one slot (with what would hold). Partitions and nodes no
/// count meets make the plan infeasible (`Recommendation::infeasible`).
fn plan_warnings(inputs: &PlanInputs, rec: &Recommendation) -> Vec<Warning> {
    let mut out = Vec::new();
    if rec.partition_binds == Some(true) && !rec.partition_failing.is_empty() {
        out.push(Warning::FailingBand {
            ranges: rec.partition_failing.clone(),
            stable: rec.partition_shards_stable,
        });
    }
    if let (Some(c), None) = (&inputs.nodes, rec.node_shards) {
        out.extend(template_one_slot(inputs, c));
    }
    out
}

/// No count keeps the nodes within their caps because every key is on one
/// slot: the template's fix and the count it would need.
fn template_one_slot(inputs: &PlanInputs, c: &super::ClusterNodes) -> Option<Warning> {
    let rate = super::planned_rate(inputs.sizing.peak, c.target.traffic);
    c.template()
        .filter(|_| c.one_slot())
        .map(|t| Warning::TemplateOneSlot {
            template: t.template().to_string(),
            suggested: t.without_tag(),
            suggested_shards: t.without_tag_template().and_then(|f| {
                c.with_template(f)
                    .fewest(rate, 1, crate::model::defaults::MAX_SHARDS)
            }),
        })
}

/// The read path at the count: the read cap, cached or not, and batches.
fn read_warnings(rec: &Recommendation) -> Vec<Warning> {
    let mut out = Vec::new();
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
    out
}

/// The store's documented limits the plan goes over.
fn store_limits(inputs: &PlanInputs, rec: &Recommendation) -> Vec<Warning> {
    let Some(store) = inputs.store else {
        return Vec::new();
    };
    store
        .limits()
        .into_iter()
        .filter_map(|limit| {
            let value = match limit.quantity {
                LimitedQuantity::WriteUnitsPerSecond => {
                    inputs.sizing.peak * inputs.write_cost.unwrap_or(1.0)
                }
                LimitedQuantity::DocumentsPerTransaction => rec.shards as f64,
            };
            (value > limit.limit).then_some(Warning::StoreLimit { limit, value })
        })
        .collect()
}
