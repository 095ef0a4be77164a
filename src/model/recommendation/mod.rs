//! One recommendation that accounts for every constraint: the rule of
//! thumb, the per-key risk, shared partitions, the read path and the
//! store's documented limits. `size`, `report`, `simulate`, `risk`,
//! `chart` and `compare` all show this one answer.
//!
//! The shard count is the fewest that meets the binding constraints:
//! - the rule of thumb ceil(peak / safe) when no risk is accepted, raised
//!   where the per-key check (P(any second over the per-key cap during the
//!   hot spell) within the default 1%) needs more; or with a risk the
//!   fewest shards whose chance is within it (the rule of thumb shown
//!   beside);
//! - in a hashed store with a known partition count, from that count on the
//!   fewest whose shared-partition risk ([`PartitionRisk`]) is within the
//!   accepted risk. That risk is not monotone in the count, so the
//!   recommendation also carries the stable count and the failing band.
//!   Where the store moves busy items apart on its own (DynamoDB's adaptive
//!   capacity) it is the risk right after a grow: a warning, not binding.
//!
//! Reads and store limits cannot be fixed with more shards; they come back
//! as [`Warning`]s naming what would fix them. Every constraint at a count,
//! with its status, is the verdict's ([`crate::model::verdict`]).

mod capacity;
mod constraints;
mod evaluate;
mod infeasible;
mod nodes;
mod warnings;

use serde::Serialize;

pub use infeasible::Infeasible;
pub use nodes::{ClusterNodes, NodeRisk, ShardKeys};
pub use warnings::Warning;

use crate::error::ParamResult;
use crate::model::defaults::MAX_SHARDS;
use crate::model::law::TrafficModel;
use crate::model::partitions::PartitionRisk;
use crate::model::picker::risk::{ln_p_any_over_cap, shards_for_risk, KeyMethod};
use crate::model::picker::Writers;
use crate::model::read_cost::{ReadCost, ReadPlan};
use crate::model::sizing::SizingPlan;
use crate::model::store::Store;
use crate::model::verdict::{Check, Constraint, Verdict};

/// An accepted risk over a hot spell.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub struct RiskTarget {
    /// Accepted P(any second over the cap during the spell).
    pub risk: f64,
    /// The spell's length in seconds.
    pub seconds: f64,
    /// How the likes in a second are counted.
    pub traffic: TrafficModel,
}

/// Shard keys hashed onto partitions that each cap writes.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub struct SharedPartitions {
    /// Partitions the keys hash onto.
    pub partitions: u64,
    /// Likes a second one partition accepts (the per-key cap).
    pub cap: f64,
    /// The risk accepted for them (the plan's, or the default).
    pub target: RiskTarget,
}

/// Everything the recommendation weighs, validated.
#[derive(Debug, Clone, PartialEq)]
pub struct PlanInputs {
    /// Peak, per-key cap (in likes: already divided by a transactional
    /// write cost) and safe rate.
    pub sizing: SizingPlan,
    /// The accepted per-key risk, if any: the count is sized by it (the
    /// rule of thumb shown beside, not a floor).
    pub risk: Option<RiskTarget>,
    /// The per-key cap's check: P(any second over the per-key cap during
    /// the spell) within the accepted risk, or the default 1% when none is
    /// given (the rule of thumb alone does not see a burst).
    pub key_check: RiskTarget,
    /// Shared partitions, in a hashed store with a known partition count.
    pub partitions: Option<SharedPartitions>,
    /// Redis Cluster masters, with a key template and a node count.
    pub nodes: Option<ClusterNodes>,
    /// The read path.
    pub reads: ReadPlan,
    /// The store preset in force, if any.
    pub store: Option<Store>,
    /// Write units a transactional like costs (`None`: not transactional).
    pub write_cost: Option<f64>,
    /// How the app servers pick a shard, and how many write: the per-key
    /// risk is the picker's ([`crate::model::picker::risk`]).
    pub writers: Writers,
}

/// Which constraint sets the count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Binding {
    /// ceil(peak / safe rate per key).
    RuleOfThumb,
    /// The per-key risk over the hot spell.
    KeyRisk,
    /// Shards sharing partitions.
    SharedPartitions,
    /// Redis Cluster masters, each carrying the keys its slots hold.
    Nodes,
}

impl Binding {
    /// The name JSON and CSV print.
    pub fn name(self) -> &'static str {
        match self {
            Binding::RuleOfThumb => "rule_of_thumb",
            Binding::KeyRisk => "key_risk",
            Binding::SharedPartitions => "shared_partitions",
            Binding::Nodes => "nodes",
        }
    }
}

/// The recommendation, or the evaluation of a deployed count.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Recommendation {
    /// The recommended (or evaluated) shard count.
    pub shards: u64,
    /// The constraint that sets it.
    pub binding: Binding,
    /// ceil(peak / safe).
    pub rule_of_thumb_shards: u64,
    /// The fewest meeting the per-key risk (the accepted one, else the
    /// default check's); `None` when no count up to the limit does.
    pub key_risk_shards: Option<u64>,
    /// The fewest meeting the shared-partition risk (from 1); `None`
    /// without partitions or when no count up to the limit meets it.
    pub partition_shards: Option<u64>,
    /// The fewest from which every count up to twice it meets it.
    pub partition_shards_stable: Option<u64>,
    /// Counts from the recommendation up to the stable count that fail the
    /// partition risk, as inclusive ranges.
    pub partition_failing: Vec<[u64; 2]>,
    /// Whether the partition risk binds (false where the store moves busy
    /// items apart on its own); `None` without partitions.
    pub partition_binds: Option<bool>,
    /// Which risk is the largest at `shards` among those that bind: the
    /// per-key risk (`key_risk`), shared partitions (when they bind) or
    /// the nodes; `None` when none applies.
    pub worst_risk: Option<Check>,
    /// That risk's figure: P(over its cap during the spell), the largest
    /// of `key_p_any_over_cap`, `partition_p_any_over_cap` (when it binds)
    /// and `node_p_any_over_cap`.
    pub worst_p_any_over_cap: Option<f64>,
    /// Its natural log (finite where the probability underflows).
    pub worst_ln_p_any_over_cap: Option<f64>,
    /// Whether that figure is exact or an upper bound.
    pub worst_p_any_over_cap_exact: Option<bool>,
    /// P(any second over the per-key cap) at `shards`, at the accepted risk's
    /// spell (or the default check's).
    pub key_p_any_over_cap: Option<f64>,
    /// Its natural log (finite where the probability underflows).
    pub key_ln_p_any_over_cap: Option<f64>,
    /// How the per-key figure is known: exact, exactly 0 (round-robin under
    /// its bound) or an upper bound.
    pub key_method: KeyMethod,
    /// The writers the per-key figures are for (their picker serialized;
    /// the servers are the read path's).
    #[serde(skip)]
    pub writers: Writers,
    /// How the app servers pick a shard.
    pub picker: crate::model::picker::Picker,
    /// P(any second over the per-key cap) at the rule-of-thumb count, shown
    /// beside the risk-based count; `None` without a risk.
    pub rule_of_thumb_p_any_over_cap: Option<f64>,
    /// Its natural log.
    pub rule_of_thumb_ln_p_any_over_cap: Option<f64>,
    /// The shared-partition risk at `shards`; `None` without partitions.
    pub partition_p_any_over_cap: Option<f64>,
    /// Its natural log.
    pub partition_ln_p_any_over_cap: Option<f64>,
    /// The highest likes/s at which `shards` still meets the risk over the
    /// spell; `None` without a risk.
    pub capacity_rate: Option<f64>,
    /// shards x the safe rate per key / (1 + unlike share): the likes/s
    /// the count carries by the rule of thumb.
    pub safe_capacity_rate: f64,
    /// The planned likes/s the capacity and the margin are measured
    /// against (the peak's writes / (1 + unlike share)), for the words.
    #[serde(skip)]
    pub like_peak: f64,
    /// Writes a like makes: 1 + the unlike share (1 without unlikes).
    #[serde(skip)]
    pub writes_per_like: f64,
    /// The rate the plan is judged at, writes/s: the peak, whole under
    /// fixed traffic (`PlanInputs::planned_rate`).
    #[serde(skip)]
    pub planned_rate: f64,
    /// How far the plan is from its limit: capacity / peak - 1 with a risk,
    /// shards x safe / peak - 1 by the rule of thumb.
    pub margin: f64,
    /// The accepted per-key risk, if any.
    pub risk: Option<f64>,
    /// The risk the per-key check is judged at: the accepted one, else the
    /// default 1%.
    pub key_risk: f64,
    /// The hot spell its risks cover, seconds (always given: the per-key
    /// cap is checked over it).
    pub duration_seconds: Option<f64>,
    /// How the likes in a second are counted (always given).
    pub traffic: Option<TrafficModel>,
    /// The risk accepted for shared partitions (the plan's, or the default).
    pub partition_risk: Option<f64>,
    /// Partitions, when they apply.
    pub partitions: Option<u64>,
    /// Redis Cluster masters, when they apply.
    pub nodes: Option<u32>,
    /// The fewest count whose node risk is within the target (from 1);
    /// `None` without nodes or when no count can (see the warnings).
    pub node_shards: Option<u64>,
    /// P(some node over its cap during the spell) at `shards`.
    pub node_p_any_over_cap: Option<f64>,
    /// Its natural log.
    pub node_ln_p_any_over_cap: Option<f64>,
    /// Shard keys on each master at `shards`.
    pub keys_per_node: Option<Vec<u64>>,
    /// Likes a second one key accepts (the store's cap / write cost).
    pub cap_per_key: f64,
    /// Write units one like costs, under `--transactional`.
    pub transactional_write_cost: Option<f64>,
    /// Shard reads a second without the cache, at `shards`.
    pub reads_uncached_per_second: f64,
    /// Shard reads a second with the cache, at `shards`.
    pub reads_cached_per_second: f64,
    /// The read cost at `shards` (its figures are serialized by the
    /// commands that show it, beside this).
    #[serde(skip)]
    pub reads: ReadCost,
    /// Every constraint at `shards`, with its status, figure and limit
    /// (the verdict's constraints: [`crate::model::verdict`]; serialised
    /// in the `verdict` beside the recommendation).
    #[serde(skip)]
    pub constraints: Vec<Constraint>,
    /// Constraints `shards` fails (empty for a count that holds).
    pub fails: Vec<Check>,
    /// Whether `shards` meets every constraint.
    pub holds: bool,
    /// What more shards cannot fix, and what would.
    pub warnings: Vec<Warning>,
    /// Why no shard count holds the plan (empty when one does): said
    /// first, the count above then fails its verdict.
    pub infeasible: Vec<Infeasible>,
}

/// The planned rate of a risk: likes are whole, so under fixed traffic a
/// fractional planned rate is rounded up (planning errs on the busy side).
/// The one place every command rounds it.
pub fn planned_rate(rate: f64, traffic: TrafficModel) -> f64 {
    let law = traffic.law();
    match law.own_mean() {
        // The law fixes its own mean (the observed seconds x growth).
        Some(mean) => mean,
        None if law.whole_rate() => rate.ceil(),
        None => rate,
    }
}

impl PlanInputs {
    fn partition_risk(&self, rate: f64) -> ParamResult<Option<(PartitionRisk, f64)>> {
        self.partitions
            .map(|p| {
                let t = p.target;
                PartitionRisk::new(
                    planned_rate(rate, t.traffic),
                    p.cap,
                    p.partitions,
                    t.seconds,
                    t.traffic,
                )
                .map(|r| (r, t.risk))
            })
            .transpose()
    }

    /// The hot spell every risk covers (the per-key check's).
    fn spell(&self) -> RiskTarget {
        self.key_check
    }

    /// Whether the partition risk binds: a preset that isolates busy items
    /// makes it a warning.
    fn partitions_bind(&self) -> bool {
        self.partitions.is_some() && !self.store.is_some_and(Store::isolates_busy_items)
    }

    /// `ln P(any second over the per-key cap)` at `shards` and `rate`.
    fn ln_key_risk(&self, rate: f64, shards: u64, t: RiskTarget) -> ParamResult<f64> {
        Ok(self.key_risk(rate, shards, t)?.0)
    }

    /// Whether the per-key risk at `shards` and `rate` is within the
    /// target.
    fn key_meets(&self, rate: f64, shards: u64, t: RiskTarget) -> ParamResult<bool> {
        crate::model::picker::risk::meets_risk(
            planned_rate(rate, t.traffic),
            shards,
            self.sizing.cap,
            t.seconds,
            t.traffic,
            self.writers,
            t.risk,
        )
    }

    /// `ln P(any second over the per-key cap)` at `shards` and `rate`, by
    /// the plan's picker, and how it is known.
    fn key_risk(&self, rate: f64, shards: u64, t: RiskTarget) -> ParamResult<(f64, KeyMethod)> {
        ln_p_any_over_cap(
            planned_rate(rate, t.traffic),
            shards,
            self.sizing.cap,
            t.seconds,
            t.traffic,
            self.writers,
        )
    }

    /// The recommendation: the fewest shards meeting every binding constraint.
    pub fn recommend(&self) -> ParamResult<Recommendation> {
        self.recommend_with(true)
    }

    /// The recommended count alone, without the highest rate it carries
    /// (a search of its own, about 40 risks; `fleet` sizes its pinned
    /// reels with this).
    pub fn recommended_shards(&self) -> ParamResult<u64> {
        Ok(self.recommend_with(false)?.shards)
    }

    /// The recommendation, its capacity searched for when `capacity`.
    fn recommend_with(&self, capacity: bool) -> ParamResult<Recommendation> {
        let rule = self.sizing.size().shards;
        let t = self.key_check;
        let key = shards_for_risk(
            planned_rate(self.sizing.peak, t.traffic),
            self.sizing.cap,
            t.seconds,
            t.risk,
            t.traffic,
            self.writers,
            MAX_SHARDS,
        );
        // An accepted risk sizes the count; the default check only raises
        // the rule of thumb's count where it must. Where no count up to
        // the limit meets it, the plan is infeasible: the rule of thumb's
        // count is shown, and fails (any other error names its input).
        let key_unmet = matches!(&key, Err(e) if e.is_risk_unmet());
        let (floor, mut binding, key) = match (self.risk, key) {
            (Some(_), Err(_)) if key_unmet => (rule, Binding::KeyRisk, None),
            (Some(_), key) => {
                let k = key?;
                (k, Binding::KeyRisk, Some(k))
            }
            (None, Ok(k)) if k > rule => (k, Binding::KeyRisk, Some(k)),
            (None, key) => (rule, Binding::RuleOfThumb, key.ok()),
        };
        let mut shards = floor;
        let mut partition = None;
        if let Some((pr, risk)) = self.partition_risk(self.sizing.peak)? {
            let alone = pr.sizing(risk, 1, MAX_SHARDS);
            // From the floor the search finds what it finds from 1 unless
            // that count is below the floor: the same scan, the same walk.
            let from_floor = match alone.shards {
                Some(first) if first < floor => pr.sizing(risk, floor, MAX_SHARDS),
                _ => alone.clone(),
            };
            if self.partitions_bind() {
                match from_floor.shards {
                    Some(s) if s > floor => {
                        shards = s;
                        binding = Binding::SharedPartitions;
                    }
                    Some(_) => {}
                    // No count can keep the partitions within the risk:
                    // the count stays, its verdict fails, and a warning
                    // says what would help (`PartitionsCannotHold`).
                    None => {}
                }
            }
            partition = Some((alone, from_floor));
        }
        let mut node_alone = None;
        if let Some(c) = &self.nodes {
            let rate = planned_rate(self.sizing.peak, c.target.traffic);
            node_alone = c.fewest(rate, 1, MAX_SHARDS);
            if let Some(s) = c.fewest(rate, shards, MAX_SHARDS) {
                if s > shards {
                    shards = s;
                    binding = Binding::Nodes;
                }
            }
        }
        let mut rec = self.evaluate_with(shards, binding, rule, key, (None, None))?;
        rec.node_shards = node_alone;
        if let Some((alone, from_floor)) = partition {
            rec.partition_shards = alone.shards;
            rec.partition_shards_stable = from_floor.stable;
            rec.partition_failing = from_floor.failing;
        }
        if capacity {
            self.add_capacity(&mut rec)?;
        }
        rec.warnings = warnings::collect(self, &rec);
        rec.infeasible = self.infeasible(&rec, key_unmet);
        Ok(rec)
    }
}

impl PlanInputs {
    /// The rate the plan is judged at: the peak, whole under fixed traffic
    /// ([`planned_rate`] under the per-key check's law).
    pub fn planned_rate(&self) -> f64 {
        planned_rate(self.sizing.peak, self.key_check.traffic)
    }

    /// Whether `rate` is the plan's own (a run there is judged; any other
    /// is a stress rate, reported).
    pub fn is_planned_rate(&self, rate: f64) -> bool {
        let planned = self.planned_rate();
        (rate - planned).abs() <= 1e-9 * planned.max(1.0)
    }

    /// The verdict on `shards` for this plan, whose recommendation is
    /// `rec`.
    pub fn verdict(&self, shards: u64, rec: &Recommendation) -> ParamResult<Verdict> {
        Ok(self
            .evaluate(shards, rec)?
            .verdict(rec.shards, self.planned_rate()))
    }

    /// The same plan at another peak (`sweep`'s rates): the per-key cap
    /// and safe rate kept.
    pub fn at_peak(&self, peak: f64) -> ParamResult<PlanInputs> {
        let safe = crate::model::sizing::SafeRate::PerKey(self.sizing.safe_per_shard());
        Ok(PlanInputs {
            sizing: SizingPlan::new(peak, self.sizing.cap, safe)?
                .with_writes_per_like(self.sizing.writes_per_like),
            ..self.clone()
        })
    }
}

impl Recommendation {
    /// The verdict on this count for a plan whose recommendation is
    /// `recommended_shards` at `planned_rate` writes/s.
    pub fn verdict(&self, recommended_shards: u64, planned_rate: f64) -> Verdict {
        Verdict {
            infeasible: self.infeasible.clone(),
            ..Verdict::new(
                self.shards,
                recommended_shards,
                planned_rate,
                self.constraints.clone(),
            )
            .in_likes(self.writes_per_like)
        }
    }
}

#[cfg(test)]
mod tests;
