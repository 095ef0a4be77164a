//! A flat Monte Carlo run: rate, shards, seconds, traffic, seed and the
//! sampler, from flags over the scenario over the sizing and defaults.

use super::plan::{Plan, PlanFlags};
use super::sizing::Sizing;
use super::{Resolver, Source, Sourced};
use crate::cli::SimInputs;
use crate::error::InputResult;
use crate::model::read_cost::ReadPlan;
use crate::model::simulation::{SamplerKind, SimPlan};

/// A flat simulation, resolved and validated.
#[derive(Debug, Clone)]
pub struct FlatSimulation {
    /// What to simulate.
    pub plan: SimPlan,
    /// The likes/s behind the simulated writes/s.
    pub like_rate: f64,
    /// The sizing it was resolved against (its safe rate marks the chart).
    pub sizing: Sizing,
    /// The read path.
    pub reads: ReadPlan,
    /// The plan and its recommendation (the default shard count).
    pub recommended: Plan,
}

impl Resolver {
    /// A flat simulation. `per_second` runs need the joint counts of each
    /// second, so they take the multinomial sampler. Its default shard
    /// count is the recommendation `size` gives for the same inputs,
    /// weighing `--risk`, `--partitions` and the Redis Cluster flags over
    /// the hot spell `duration` (`simulate`, `report` and `chart` offer
    /// them, as `size` does).
    pub fn flat_simulation(
        &mut self,
        sim: &SimInputs,
        per_second: bool,
        plan: Option<&crate::cli::PlanArgs>,
        duration: Option<f64>,
    ) -> InputResult<FlatSimulation> {
        let flags = PlanFlags {
            plan,
            duration,
            traffic: sim.traffic.traffic,
            dispersion: sim.traffic.dispersion,
            ..Default::default()
        };
        let recommended = self.plan(&sim.sizing, &sim.reads, flags)?;
        let (sizing, reads) = (recommended.sizing.clone(), recommended.reads);
        let traffic = self.traffic(sim.traffic.traffic, sim.traffic.dispersion)?;
        let (like_rate, rate) = self.rate_in_likes(sim.rate.one()?, &sizing.peak, traffic)?;
        let sized = Sourced::derived(
            recommended.recommendation.shards,
            "the recommendation (shardplan size)",
        );
        let shards = self.shards(sim.shards.one()?, sized);
        let seconds = self.seconds(sim.seconds.seconds, None);
        let seed = self.seed(sim.seed.seed);
        let sampler = Sourced::flag("--sampler", sim.sampler)
            .unwrap_or(Sourced::new(SamplerKind::Auto, Source::Default));
        // Recorded as asked first, so a refusal names `--sampler`.
        self.inputs
            .record("sampler", &sampler.clone().map(SamplerKind::name));
        let plan = SimPlan::new(rate, shards, sizing.plan.cap, seconds, traffic, seed)
            .and_then(|p| p.with_writers(recommended.inputs.writers))
            .and_then(|p| p.with_sampler(sampler.value, per_second))
            .map_err(|e| self.blame(e))?;
        self.inputs.record(
            "sampler",
            &Sourced::new(plan.sampler_name(), sampler.source),
        );
        // A run the cost model puts over a day is refused before it starts.
        plan.cost(per_second)
            .within_limit("seconds")
            .map_err(|e| self.blame(e))?;
        Ok(FlatSimulation {
            plan,
            like_rate,
            sizing,
            reads,
            recommended,
        })
    }
}
