//! How many likes arrive in one second.

use serde::{Deserialize, Serialize};

use super::empirical::EmpiricalLaw;

/// The count of likes in one second around a mean rate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum TrafficModel {
    /// Exactly `rate` likes every second (rate must be a whole number).
    #[default]
    Fixed,
    /// A Poisson count with mean `rate` each second: each shard's count is
    /// then an independent Poisson(rate / shards).
    Poisson,
    /// Burstier than Poisson: each second's rate is Gamma-distributed with
    /// mean `rate` and shape `K` (the dispersion), and the count is Poisson
    /// at that rate (a negative binomial count, variance `rate + rate^2 /
    /// K`). Given the second's rate the shard counts are independent
    /// Poissons.
    GammaPoisson(Dispersion),
    /// The observed per-second distribution itself (grown to the plan):
    /// each second's count is one observed second's, drawn uniformly, and
    /// given the count the shards split it as fixed traffic does. The law
    /// is built once per process (see [`EmpiricalLaw::leak`]).
    Empirical(&'static EmpiricalLaw),
}

/// The Gamma shape `K` of gamma-poisson traffic: finite, at least
/// [`Dispersion::MIN`] and at most [`Dispersion::MAX`] (checked by
/// `validate::dispersion`). Compared and hashed by its bits, so a traffic
/// law can key a cache.
#[derive(Debug, Clone, Copy)]
pub struct Dispersion(f64);

impl Dispersion {
    /// The smallest shape accepted: a second's rate with a coefficient of
    /// variation of 10.
    pub const MIN: f64 = 0.01;
    /// The largest: past it the law is Poisson to 1e-12 at any accepted
    /// rate's scale of interest; use `--traffic poisson`.
    pub const MAX: f64 = 1e12;

    /// A checked shape (see `validate::dispersion`).
    pub(crate) fn new_unchecked(k: f64) -> Self {
        Dispersion(k)
    }

    /// The shape `K`.
    pub fn shape(self) -> f64 {
        self.0
    }
}

impl PartialEq for Dispersion {
    fn eq(&self, other: &Self) -> bool {
        self.0.to_bits() == other.0.to_bits()
    }
}

impl Eq for Dispersion {}

impl std::hash::Hash for Dispersion {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.to_bits().hash(state);
    }
}

/// The law's name, as `--traffic` and scenario files spell it (the
/// dispersion is an input of its own).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum TrafficKind {
    /// Exactly the rate every second.
    #[default]
    Fixed,
    /// A Poisson count each second.
    Poisson,
    /// A Poisson count at a Gamma-distributed rate each second.
    GammaPoisson,
    /// The observed per-second counts themselves (a per-second trace).
    Empirical,
}

impl TrafficKind {
    /// The name `--traffic` and scenario files use.
    pub fn name(self) -> &'static str {
        match self {
            TrafficKind::Fixed => "fixed",
            TrafficKind::Poisson => "poisson",
            TrafficKind::GammaPoisson => "gamma-poisson",
            TrafficKind::Empirical => "empirical",
        }
    }
}

impl TrafficModel {
    /// The law's kind.
    pub fn kind(self) -> TrafficKind {
        match self {
            TrafficModel::Fixed => TrafficKind::Fixed,
            TrafficModel::Poisson => TrafficKind::Poisson,
            TrafficModel::GammaPoisson(_) => TrafficKind::GammaPoisson,
            TrafficModel::Empirical(_) => TrafficKind::Empirical,
        }
    }

    /// The observed law of empirical traffic.
    pub fn empirical(self) -> Option<&'static EmpiricalLaw> {
        match self {
            TrafficModel::Empirical(law) => Some(law),
            _ => None,
        }
    }

    /// The name `--traffic` and scenario files use.
    pub fn name(self) -> &'static str {
        self.kind().name()
    }

    /// The Gamma shape of gamma-poisson traffic.
    pub fn dispersion(self) -> Option<f64> {
        match self {
            TrafficModel::GammaPoisson(k) => Some(k.shape()),
            _ => None,
        }
    }

    /// True where shard counts are independent Poissons given the
    /// second's rate (Poisson and gamma-poisson traffic).
    pub fn is_poisson_given_rate(self) -> bool {
        matches!(self, TrafficModel::Poisson | TrafficModel::GammaPoisson(_))
    }
}

impl Serialize for TrafficModel {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.kind().serialize(s)
    }
}

impl schemars::JsonSchema for TrafficModel {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        TrafficKind::schema_name()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        TrafficKind::json_schema(generator)
    }
}
