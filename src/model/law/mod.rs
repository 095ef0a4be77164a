//! Traffic laws: how many likes arrive in one second, and how a share of
//! them (one shard's, one partition's) is counted.
//!
//! Each law is one file implementing [`TrafficLaw`]: `fixed`, `poisson`,
//! `gamma_poisson` and `empirical`. [`TrafficModel`] is the registry: the
//! one place that lists the laws and hands out the law behind a name
//! ([`TrafficModel::law`]) or builds one from its inputs
//! ([`TrafficModel::build`]). Everything else (the exact engine, the
//! samplers, sizing, sweeps, time lines, views) asks the law through the
//! trait and never matches on a law's name. The exact engine and the
//! samplers need one more thing than a formula: how a second's likes split
//! over the shards ([`Split`]): a fixed count, a Poisson count at a known
//! or a Gamma rate, or a mixture of counts. Every law is one of these, so
//! a new law of one of these structures needs no change outside its file
//! and the registry.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::error::ParamResult;
use crate::model::rng::ChunkRng;

pub mod empirical;
pub mod fixed;
pub mod gamma_poisson;
pub mod poisson;

pub use empirical::EmpiricalLaw;
pub use fixed::Fixed;
pub use gamma_poisson::Dispersion;
pub use poisson::Poisson;

pub use crate::error::LawProblem;

/// The law of one second's likes around a mean rate (the rate is an input
/// of every method: a time line changes it from second to second; the
/// law's own parameters, such as a Gamma shape, are the value's).
pub trait TrafficLaw: fmt::Debug + Send + Sync {
    /// The law's name, as `--traffic` and scenario files spell it.
    fn kind(&self) -> TrafficKind;

    /// The Gamma shape of a gamma-poisson law (a parameter views and JSON
    /// show), else `None`.
    fn dispersion(&self) -> Option<f64> {
        None
    }

    /// A mean rate this law can run at, checked: errors name `param`.
    fn check_rate(&self, param: &'static str, rate: f64) -> ParamResult<f64> {
        check_rate(param, rate)
    }

    /// The law's own mean rate where the law fixes it (observed traffic),
    /// else `None`: the rate is the plan's.
    fn own_mean(&self) -> Option<f64> {
        None
    }

    /// True where a second's likes are the rate itself, so a rate must be
    /// whole (a planned rate is rounded up to one).
    fn whole_rate(&self) -> bool {
        false
    }

    /// The variance of a second's count at mean `rate`.
    fn variance(&self, rate: f64) -> f64;

    /// How a second's likes at mean `rate` split over shards.
    fn split(&self, rate: f64) -> Split;

    /// The fewest likes a second at mean `rate` can have.
    fn fewest(&self, rate: f64) -> u64;

    /// `ln P(M > c)` for `M` the likes of a second at mean `rate` that land
    /// on a [`Share`] of the shards: one shard's tail, a partition's, a
    /// node's.
    fn ln_share_sf(&self, rate: f64, share: Share, c: u64) -> f64;

    /// `ln P(M = c)`, as [`TrafficLaw::ln_share_sf`].
    fn ln_share_pmf(&self, rate: f64, share: Share, c: u64) -> f64;

    /// `ln P(M <= c)`, as [`TrafficLaw::ln_share_sf`].
    fn ln_share_cdf(&self, rate: f64, share: Share, c: u64) -> f64;

    /// Likes in one second of a time line: `mean` is the second's mean,
    /// `likes_until` the curve's likes up to the second's end, and `given`
    /// the likes the earlier seconds had (a law that follows the curve
    /// exactly keeps it; random laws draw around `mean`).
    fn second_on_curve(
        &self,
        mean: f64,
        likes_until: f64,
        given: &mut u64,
        rng: &mut ChunkRng,
    ) -> u64;
}

/// `k` of `of` shards, as one group: a like lands on it with probability
/// `k / of`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Share {
    k: u64,
    of: u64,
    /// One shard's mean is `rate / of` (one division, as the exact engine
    /// has always taken it); a group's is `rate * (k / of)`.
    one: bool,
}

impl Share {
    /// One shard of `shards`.
    pub fn one(shards: u64) -> Self {
        Share {
            k: 1,
            of: shards,
            one: true,
        }
    }

    /// `k` of `shards` shards (`1 <= k <= shards`).
    pub fn of(k: u64, shards: u64) -> Self {
        debug_assert!(k >= 1 && k <= shards);
        Share {
            k,
            of: shards,
            one: false,
        }
    }

    /// The chance a like lands on the group.
    pub fn p(self) -> f64 {
        self.k as f64 / self.of as f64
    }

    /// The chance it lands elsewhere (from the whole numbers, not `1 - p`).
    pub fn q(self) -> f64 {
        (self.of - self.k) as f64 / self.of as f64
    }

    /// True where the group is every shard.
    pub fn whole(self) -> bool {
        self.k == self.of
    }

    /// The group's mean at mean rate `rate`.
    pub fn mean(self, rate: f64) -> f64 {
        if self.one {
            rate / self.of as f64
        } else {
            rate * self.p()
        }
    }
}

/// How a second's likes split over the shards: the structure the exact
/// engine and the samplers work with.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Split {
    /// Exactly `n` likes, each to a uniformly random shard: the shard
    /// counts are multinomial.
    Count(u64),
    /// A Poisson count at this mean: the shard counts are independent
    /// Poissons.
    Poisson(f64),
    /// A Poisson count at a Gamma-distributed rate (`mean`, `shape`):
    /// given the second's rate, independent Poissons.
    GammaRate {
        /// The rate's mean.
        mean: f64,
        /// The Gamma shape.
        shape: f64,
    },
    /// One of several counts, drawn with the observed seconds' weights;
    /// given the count, multinomial.
    Counts(&'static EmpiricalLaw),
}

impl Split {
    /// True where the shard counts are independent of each other: a
    /// Poisson count at a known mean. (A random rate or count couples
    /// them; a fixed count makes them negatively associated.)
    pub fn shards_independent(self) -> bool {
        matches!(self, Split::Poisson(_))
    }

    /// True where the shard counts are independent Poissons given the
    /// second's rate.
    pub fn is_poisson_given_rate(self) -> bool {
        matches!(self, Split::Poisson(_) | Split::GammaRate { .. })
    }
}

/// A mean like rate: finite, positive, at most
/// [`crate::model::defaults::MAX_RATE`] (see `validate::rate`).
fn check_rate(param: &'static str, rate: f64) -> ParamResult<f64> {
    crate::model::validate::rate(param, rate)
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

/// Every law, in `--traffic`'s order: its kind, its name (as `--traffic`
/// and scenario files spell it) and one line on it.
pub const LAWS: &[(TrafficKind, &str, &str)] = &[
    (
        TrafficKind::Fixed,
        "fixed",
        "Exactly the rate every second (a whole number)",
    ),
    (
        TrafficKind::Poisson,
        "poisson",
        "A Poisson count with the rate as its mean each second",
    ),
    (
        TrafficKind::GammaPoisson,
        "gamma-poisson",
        "A Poisson count at a Gamma-distributed rate each second (needs --dispersion)",
    ),
    (
        TrafficKind::Empirical,
        "empirical",
        "One observed second's count, grown to the peak (needs a per-second --traffic-from)",
    ),
];

impl TrafficKind {
    /// The name `--traffic` and scenario files use.
    pub fn name(self) -> &'static str {
        LAWS.iter()
            .find(|law| law.0 == self)
            .map_or("", |law| law.1)
    }
}

/// The registry: one value per law, `Copy`, comparable and hashable, so
/// it keys caches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum TrafficModel {
    /// Exactly `rate` likes every second ([`fixed`]).
    #[default]
    Fixed,
    /// A Poisson count with mean `rate` each second ([`poisson`]).
    Poisson,
    /// A Poisson count at a Gamma rate of shape `K` ([`gamma_poisson`]).
    GammaPoisson(Dispersion),
    /// The observed per-second counts, grown to the plan ([`empirical`]);
    /// built once per process (see [`EmpiricalLaw::leak`]).
    Empirical(&'static EmpiricalLaw),
}

/// What a law needs besides its name: where the registry cannot build one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LawNeeds {
    /// gamma-poisson without a dispersion.
    Dispersion,
    /// A dispersion under a law that has none.
    NoDispersion(TrafficKind),
    /// empirical without a per-second trace.
    Trace,
}

impl TrafficModel {
    /// The law behind the name.
    pub fn law(&self) -> &dyn TrafficLaw {
        match self {
            TrafficModel::Fixed => &Fixed,
            TrafficModel::Poisson => &Poisson,
            TrafficModel::GammaPoisson(k) => k,
            TrafficModel::Empirical(law) => law,
        }
    }

    /// The law named `kind` with its inputs: a dispersion (checked, errors
    /// name `dispersion`) and an observed law. What is missing or has no
    /// effect comes back as [`LawNeeds`] for the caller to attribute.
    pub fn build(
        kind: TrafficKind,
        dispersion: Option<f64>,
        observed: Option<&'static EmpiricalLaw>,
    ) -> Result<ParamResult<TrafficModel>, LawNeeds> {
        match (kind, dispersion) {
            (TrafficKind::GammaPoisson, Some(d)) => {
                Ok(Dispersion::new("dispersion", d).map(TrafficModel::GammaPoisson))
            }
            (TrafficKind::GammaPoisson, None) => Err(LawNeeds::Dispersion),
            (kind, Some(_)) => Err(LawNeeds::NoDispersion(kind)),
            (TrafficKind::Empirical, None) => match observed {
                Some(law) => Ok(Ok(TrafficModel::Empirical(law))),
                None => Err(LawNeeds::Trace),
            },
            (TrafficKind::Fixed, None) => Ok(Ok(TrafficModel::Fixed)),
            (TrafficKind::Poisson, None) => Ok(Ok(TrafficModel::Poisson)),
        }
    }

    /// The law's kind.
    pub fn kind(self) -> TrafficKind {
        self.law().kind()
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
        self.law().dispersion()
    }

    /// The mean rate a second runs at: the law's own, else `given`;
    /// checked, errors name `param`.
    pub fn rate(self, param: &'static str, given: f64) -> ParamResult<f64> {
        let law = self.law();
        law.check_rate(param, law.own_mean().unwrap_or(given))
    }

    /// `rate` checked for this law (see [`TrafficLaw::check_rate`]).
    pub fn check_rate(self, param: &'static str, rate: f64) -> ParamResult<f64> {
        self.law().check_rate(param, rate)
    }

    /// How a second's likes at mean `rate` split over shards.
    pub fn split(self, rate: f64) -> Split {
        self.law().split(rate)
    }

    /// True where shard counts are independent Poissons given the
    /// second's rate.
    pub fn is_poisson_given_rate(self) -> bool {
        self.split(1.0).is_poisson_given_rate()
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

#[cfg(test)]
mod tests;
