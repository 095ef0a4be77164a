//! Shards in a hashed store with P partitions (DynamoDB-like): each shard key
//! hashes to a partition we cannot choose, so several shards may share one.
//!
//! Model: each of the S shard keys lands on a uniformly random partition,
//! independently (a good hash; the partition count P fixed). Each like picks a
//! shard uniformly, so a partition holding k shards gets k/S of the writes.
//!
//! Exact math (S balls in P bins):
//! - P(two or more shards share a partition) = 1 - prod_{i<S} (1 - i/P), the
//!   birthday bound, summed in log space;
//! - expected partitions with two or more shards
//!   = P * P(Bin(S, 1/P) >= 2) = P * (1 - (1-1/P)^S - S/P * (1-1/P)^(S-1)),
//!   by linearity of expectation (summed as a series when S/P is small, where
//!   the closed form cancels);
//! - the busiest partition's mean shard count `E[max] = sum_k P(max > k)`, where
//!   P(max <= k) and, for the cap, E[prod_partitions f(count)] come from
//!   [`bins_expectation`]: split the bins in two groups, the balls in a
//!   group are Binomial(n, share of bins), and double the group size
//!   (exponentiation by squaring over P, O(S * sqrt(S) * log P)).
//!
//! Past [`EXACT_MAX_SHARDS`] shards the busiest partition's mean is still
//! exact while there are at most [`crate::model::defaults::MAX_SHARDS`]
//! partitions: S keys over P partitions is Multinomial(S; 1/P, ...), the
//! busiest shard's law with S likes over P shards, so
//! [`crate::model::exact::BusiestShard`] gives it. Beyond that it is seeded
//! Monte Carlo over placements, with standard errors. (The cap chance is
//! exact, or a bound that holds, either way: [`PartitionRisk`].)

mod busiest;
mod monte_carlo;
mod risk;
mod shared;

pub use busiest::{bins_expectation, bins_expectation_by, busiest_mean_exact};
pub(crate) use risk::ln_binomial_expectation;
pub use risk::{PartitionRisk, PartitionRiskAt, PartitionSizing, RiskMethod};
pub use shared::{expected_occupied_partitions, expected_shared_partitions, p_shared_partition};

use serde::Serialize;

use crate::error::ParamResult;
use crate::model::law::{Split, TrafficModel};
use crate::model::validate;
use monte_carlo::monte_carlo;

/// Up to this many shards the busiest partition's mean comes from
/// [`bins_expectation`]; above it from the busiest-shard law (or Monte
/// Carlo past [`crate::model::defaults::MAX_SHARDS`] partitions).
pub const EXACT_MAX_SHARDS: u64 = 1_000;
/// Shard draws a default Monte Carlo run aims at: [`PartitionPlan::trials`]
/// is this over the shard count, clamped between [`MIN_TRIALS`] and the
/// default trial count.
pub const DRAW_BUDGET: u64 = 20_000_000;
pub use crate::model::defaults::MIN_TRIALS;

/// How the busiest-partition figures were computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    /// Exact sums over all placements.
    Exact,
    /// Seeded Monte Carlo over placements, with standard errors.
    MonteCarlo,
}

/// An assumption behind a [`PartitionReport`]'s figures; the view words it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PartitionAssumption {
    /// Each shard key hashes to a uniformly random partition, independently;
    /// adaptive capacity (not modelled) may later move busy items apart.
    UniformHashing,
    /// Poisson traffic: partition loads are independent Poisson(rate k / S),
    /// so the cap chance is exact for each placement.
    PoissonLoads,
    /// Fixed traffic: the cap chance is the union bound over partitions of
    /// exact Binomial(rate, k / S) tails, an upper bound (the multinomial
    /// loads are negatively associated: treating them as independent would
    /// understate it).
    BinomialLoadsUpperBound,
    /// Gamma-poisson traffic: one Gamma rate a second is shared by every
    /// partition, so their loads are not independent; the cap chance is
    /// the union bound over partitions of each one's exact negative
    /// binomial tail, an upper bound whatever the coupling.
    GammaPoissonLoadsUpperBound,
    /// Empirical traffic: one observed second's count is shared by every
    /// partition, so their loads are not independent; the cap chance is
    /// the union bound over partitions of each one's exact mixture (over
    /// the observed counts) of binomial tails, an upper bound whatever the
    /// coupling.
    EmpiricalLoadsUpperBound,
}

/// Writes a second against a per-partition cap.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PartitionLoad {
    /// Total likes a second for the counter.
    pub rate: f64,
    /// Writes a second one partition accepts.
    pub cap: f64,
    /// How the likes in a second are counted.
    pub traffic: TrafficModel,
}

/// S shards over P partitions, optionally with a load to check against a cap.
#[derive(Debug, Clone, PartialEq)]
pub struct PartitionPlan {
    shards: u64,
    partitions: u64,
    load: Option<PartitionLoad>,
    seed: u64,
    trials: Option<u64>,
}

impl PartitionPlan {
    /// `shards` shard keys over `partitions` partitions, without a load, seed 1.
    /// Errors name the parameters `shards` and `partitions`.
    pub fn new(shards: u64, partitions: u64) -> ParamResult<Self> {
        Ok(PartitionPlan {
            shards: validate::count("shards", shards, crate::model::defaults::MAX_SHARDS)?,
            partitions: validate::count(
                "partitions",
                partitions,
                crate::model::defaults::MAX_PARTITIONS,
            )?,
            load: None,
            seed: 1,
            trials: None,
        })
    }

    /// Add a like rate and a per-partition cap. Fixed traffic needs a whole
    /// number of likes a second.
    pub fn with_load(mut self, rate: f64, cap: f64, traffic: TrafficModel) -> ParamResult<Self> {
        let rate = traffic.check_rate("rate", rate)?;
        let cap = validate::positive("cap", cap)?;
        self.load = Some(PartitionLoad { rate, cap, traffic });
        Ok(self)
    }

    /// The seed of the Monte Carlo placements (1 unless set).
    pub fn with_seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// Placements Monte Carlo samples, instead of the default of
    /// [`PartitionPlan::trials`]. Errors name the parameters `trials`.
    pub fn with_trials(mut self, trials: u64) -> ParamResult<Self> {
        self.trials = Some(validate::count(
            "trials",
            trials,
            crate::model::defaults::MAX_PARTITION_TRIALS,
        )?);
        Ok(self)
    }

    /// Placements sampled if Monte Carlo is used.
    pub fn trials(&self) -> u64 {
        self.trials.unwrap_or_else(|| {
            (DRAW_BUDGET / self.shards)
                .clamp(MIN_TRIALS, crate::model::defaults::DEFAULT_PARTITION_TRIALS)
        })
    }

    /// The figures: exact up to [`EXACT_MAX_SHARDS`] shards, else Monte Carlo
    /// over [`PartitionPlan::trials`] placements drawn from the seed.
    pub fn evaluate(&self) -> PartitionReport {
        self.evaluate_by(self.method())
    }

    /// How [`PartitionPlan::evaluate`] computes the figures: exact up to
    /// [`EXACT_MAX_SHARDS`] shards or up to
    /// [`crate::model::defaults::MAX_SHARDS`] partitions, else Monte Carlo
    /// (the only method a seed and a trial count feed).
    pub fn method(&self) -> Method {
        let exact = self.shards <= EXACT_MAX_SHARDS
            || self.partitions <= crate::model::defaults::MAX_SHARDS;
        match exact {
            true => Method::Exact,
            false => Method::MonteCarlo,
        }
    }

    /// [`PartitionPlan::evaluate`] with the method given (the unit tests
    /// compare the two on one plan).
    fn evaluate_by(&self, method: Method) -> PartitionReport {
        let (s, p) = (self.shards, self.partitions);
        let trials = self.trials();
        let (mean_max, mean_max_se) = match method {
            Method::Exact if s <= EXACT_MAX_SHARDS => (busiest_mean_exact(s, p), 0.0),
            Method::Exact => (busiest_mean_multinomial(s, p), 0.0),
            Method::MonteCarlo => {
                let mc = monte_carlo(s, p, trials, self.seed);
                (mc.mean_max, mc.mean_max_se)
            }
        };
        // One second of the hot spell: the one shared-partition risk model.
        let over = self.load.and_then(|l| {
            PartitionRisk::new(l.rate, l.cap, p, 1.0, l.traffic)
                .ok()
                .map(|r| r.at(s))
        });

        let mut assumptions = vec![PartitionAssumption::UniformHashing];
        if let Some(l) = &self.load {
            assumptions.push(match l.traffic.split(l.rate) {
                Split::Poisson(_) => PartitionAssumption::PoissonLoads,
                Split::Count(_) => PartitionAssumption::BinomialLoadsUpperBound,
                Split::GammaRate { .. } => PartitionAssumption::GammaPoissonLoadsUpperBound,
                Split::Counts(_) => PartitionAssumption::EmpiricalLoadsUpperBound,
            });
        }
        let mc = method == Method::MonteCarlo;
        PartitionReport {
            shards: s,
            partitions: p,
            p_shared_partition: p_shared_partition(s, p),
            expected_shared_partitions: expected_shared_partitions(s, p),
            expected_occupied_partitions: expected_occupied_partitions(s, p),
            busiest_partition_mean_shards: mean_max,
            busiest_partition_mean_shards_se: mean_max_se,
            busiest_partition_mean_share: mean_max / s as f64,
            method,
            trials: mc.then_some(trials),
            seed: mc.then_some(self.seed),
            rate: self.load.map(|l| l.rate),
            cap: self.load.map(|l| l.cap),
            traffic: self.load.map(|l| l.traffic),
            shard_rate: self.load.map(|l| l.rate / s as f64),
            busiest_partition_mean_rate: self.load.map(|l| l.rate * mean_max / s as f64),
            partition_p_over_cap_per_second: over.map(|o| o.p_any_over_cap),
            partition_ln_p_over_cap_per_second: over.map(|o| o.ln_p_any_over_cap),
            partition_method: over.map(|o| o.method),
            assumptions,
        }
    }
}

/// E[max keys on one partition] for `s` keys over `p` partitions: the mean
/// busiest shard of `s` likes over `p` shards (fixed traffic), which is the
/// same multinomial maximum. `p` is at most MAX_SHARDS (checked by the
/// caller).
fn busiest_mean_multinomial(s: u64, p: u64) -> f64 {
    crate::model::exact::BusiestShard::new(s as f64, p, TrafficModel::Fixed)
        .expect("keys and partitions are within the busiest-shard limits")
        .mean()
}

/// What `shardplan partitions` prints.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct PartitionReport {
    /// Shard keys of the counter (S).
    pub shards: u64,
    /// Partitions the store hashes keys onto (P).
    pub partitions: u64,
    /// Chance two or more shards share a partition (birthday bound).
    pub p_shared_partition: f64,
    /// Expected partitions holding two or more shards.
    pub expected_shared_partitions: f64,
    /// Expected partitions holding at least one shard: P (1 - (1-1/P)^S).
    pub expected_occupied_partitions: f64,
    /// Expected shard count on the busiest partition, `E[max]`.
    pub busiest_partition_mean_shards: f64,
    /// Standard error of that mean (0 when exact).
    pub busiest_partition_mean_shards_se: f64,
    /// Expected share of the writes on the busiest partition: `E[max] / S`.
    pub busiest_partition_mean_share: f64,
    /// How the busiest-partition figures were computed.
    pub method: Method,
    /// Placements sampled; `null` when exact.
    pub trials: Option<u64>,
    /// The seed they were drawn from; `null` when exact.
    pub seed: Option<u64>,
    /// Likes a second on the counter, when a load was given.
    pub rate: Option<f64>,
    /// Writes a second one partition accepts, when a load was given.
    pub cap: Option<f64>,
    /// How the likes in a second are counted, when a load was given.
    pub traffic: Option<TrafficModel>,
    /// Mean writes a second per shard: rate / S.
    pub shard_rate: Option<f64>,
    /// Expected mean writes a second on the busiest partition: `rate E[max] / S`.
    pub busiest_partition_mean_rate: Option<f64>,
    /// Chance that in a given second some partition gets more writes than the cap.
    pub partition_p_over_cap_per_second: Option<f64>,
    /// Its natural log (finite where the chance underflows).
    pub partition_ln_p_over_cap_per_second: Option<f64>,
    /// Exact (Poisson traffic), or an upper bound that holds (fixed).
    pub partition_method: Option<RiskMethod>,
    /// The model's assumptions, printed under the figures.
    pub assumptions: Vec<PartitionAssumption>,
}

#[cfg(test)]
mod tests;
