//! The plan the recommendation weighs: the sizing and read path, the
//! accepted risk over the hot spell, and the partitions of a hashed store.
//! Every command that shows the recommended shard count resolves it here,
//! so `size`, `report`, `simulate`, `risk`, `chart` and `compare` agree.

use super::sizing::Sizing;
use super::{Resolver, Sourced};
use crate::cli::{PlanArgs, ReadArgs, SizingArgs};
use crate::error::InputResult;
use crate::model::defaults::{DEFAULT_RISK, MAX_PARTITIONS};
use crate::model::read_cost::ReadPlan;
use crate::model::recommendation::{PlanInputs, Recommendation, RiskTarget, SharedPartitions};
use crate::model::store::Placement;
use crate::model::traffic::TrafficModel;
use crate::model::validate;

/// A resolved plan and its recommendation.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The sizing it was resolved from.
    pub sizing: Sizing,
    /// The read path.
    pub reads: ReadPlan,
    /// What the recommendation weighs.
    pub inputs: PlanInputs,
    /// The recommendation.
    pub recommendation: Recommendation,
}

/// The flags a command lets through to the plan: the risk and partitions,
/// the hot spell's duration and the traffic law (`None` where the command
/// has no such flag).
#[derive(Debug, Clone, Copy, Default)]
pub struct PlanFlags<'a> {
    /// `--risk` and `--partitions`.
    pub plan: Option<&'a PlanArgs>,
    /// `--duration`.
    pub duration: Option<f64>,
    /// `--traffic`.
    pub traffic: Option<TrafficModel>,
}

impl Resolver {
    /// The plan and its recommendation: flags over the scenario over store
    /// presets over defaults, as everywhere. Without `--risk` (or a
    /// scenario `risk`) the rule of thumb sets the floor; partitions (from
    /// `--partitions` or the scenario's `partitions`) are weighed at the
    /// accepted risk, or the default 1%, over the hot spell.
    pub fn plan(
        &mut self,
        sizing: &SizingArgs,
        reads: &ReadArgs,
        flags: PlanFlags,
    ) -> InputResult<Plan> {
        let (sizing, reads) = self.sizing_and_reads(sizing, reads)?;
        let risk = self.risk(flags.plan.and_then(|p| p.risk), None)?;
        let partitions = Sourced::flag("--partitions", flags.plan.and_then(|p| p.partitions))
            .or(self.field("partitions", &self.scenario.scenario.partitions));
        if let Some(p) = &partitions {
            p.check(|v| validate::count("partitions", *v, MAX_PARTITIONS))?;
            if let Some(store) = sizing.store.filter(|s| s.placement() != Placement::Hashed) {
                return Err(p.error(format!(
                    "applies to a hashed store; {} places keys by {} (see `shardplan keys`)",
                    store.name(),
                    match store.placement() {
                        Placement::Slots => "hash slot and node",
                        _ => "key order",
                    }
                )));
            }
        }
        let span = match risk.is_some() || partitions.is_some() {
            true => Some((self.duration(flags.duration)?, self.traffic(flags.traffic))),
            false => None,
        };
        let target = |risk: f64, (seconds, traffic): (f64, TrafficModel)| RiskTarget {
            risk,
            seconds,
            traffic,
        };
        let shared = match (&partitions, span) {
            (Some(p), Some(span)) => {
                let accepted = match risk {
                    Some(r) => r,
                    None => self
                        .inputs
                        .take("partition_risk", Sourced::default(DEFAULT_RISK)),
                };
                Some(SharedPartitions {
                    partitions: self.inputs.take("partitions", p.clone()),
                    cap: sizing.plan.cap,
                    target: target(accepted, span),
                })
            }
            _ => None,
        };
        let inputs = PlanInputs {
            sizing: sizing.plan,
            risk: risk.zip(span).map(|(r, span)| target(r, span)),
            partitions: shared,
            reads,
            store: sizing.store,
            write_cost: sizing.write_cost,
        };
        let recommendation = inputs.recommend().map_err(|e| self.blame(e))?;
        Ok(Plan {
            sizing,
            reads,
            inputs,
            recommendation,
        })
    }
}
