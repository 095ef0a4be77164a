//! Gamma-poisson traffic, burstier than Poisson: each second's rate is
//! Gamma-distributed with mean `rate` and shape `K` (the dispersion), and
//! the count is Poisson at that rate (a negative binomial count, variance
//! `rate + rate^2 / K`). Given the second's rate the shard counts are
//! independent Poissons, so every figure is a Poisson figure integrated
//! over the rate (`exact::gamma_mix`).

use rand_distr::{Distribution, Gamma};

use super::poisson::poisson_at;
use super::{LawProblem, Share, Split, TrafficKind, TrafficLaw};
use crate::error::{ParamError, ParamResult, Problem};
use crate::model::defaults::{MAX_DISPERSION, MIN_DISPERSION};
use crate::model::exact::gamma_mix::GammaMix;
use crate::model::exact::negbin;
use crate::model::exact::special::{ln_pois_cdf_quick, ln_pois_sf_quick};
use crate::model::rng::ChunkRng;

/// The Gamma shape `K` of gamma-poisson traffic, which names the law:
/// finite, at least [`Dispersion::MIN`] and at most [`Dispersion::MAX`].
/// Compared and hashed by its bits, so a traffic law can key a cache.
#[derive(Debug, Clone, Copy)]
pub struct Dispersion(f64);

impl Dispersion {
    /// The smallest shape accepted ([`MIN_DISPERSION`]).
    pub const MIN: f64 = MIN_DISPERSION;
    /// The largest ([`MAX_DISPERSION`]).
    pub const MAX: f64 = MAX_DISPERSION;

    /// The shape `k`, checked; errors name `param`.
    pub fn new(param: &'static str, k: f64) -> ParamResult<Self> {
        if !k.is_finite() || !(Dispersion::MIN..=Dispersion::MAX).contains(&k) {
            return Err(ParamError::new(
                param,
                Problem::Law(LawProblem::DispersionOutside(k)),
            ));
        }
        Ok(Dispersion(k))
    }

    /// A shape known to be in range (tests).
    #[cfg(test)]
    pub(crate) fn new_unchecked(k: f64) -> Self {
        Dispersion(k)
    }

    /// The shape `K`.
    pub fn shape(self) -> f64 {
        self.0
    }

    /// The rate integral of a second at mean `rate`.
    fn mix(self, rate: f64) -> GammaMix {
        GammaMix::new(rate, self.0)
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

impl TrafficLaw for Dispersion {
    fn kind(&self) -> TrafficKind {
        TrafficKind::GammaPoisson
    }

    fn dispersion(&self) -> Option<f64> {
        Some(self.0)
    }

    fn variance(&self, rate: f64) -> f64 {
        rate + rate * rate / self.0
    }

    fn split(&self, rate: f64) -> Split {
        Split::GammaRate {
            mean: rate,
            shape: self.0,
        }
    }

    fn fewest(&self, _rate: f64) -> u64 {
        0
    }

    /// The group's count is negative binomial: its tail summed in closed
    /// form (`exact::negbin`), or where that would take too many terms
    /// (or lies on the side it does not sum), the Poisson tail integrated
    /// over the second's rate (four terms a step, `ln_pois_sf_quick`: the
    /// integral evaluates hundreds of them).
    fn ln_share_sf(&self, rate: f64, share: Share, c: u64) -> f64 {
        negbin::ln_sf(c, self.0, share.mean(rate)).unwrap_or_else(|| {
            self.mix(rate)
                .ln_expect(|l| ln_pois_sf_quick(c, share.mean(l)))
        })
    }

    fn ln_share_pmf(&self, rate: f64, share: Share, c: u64) -> f64 {
        negbin::ln_pmf(c, self.0, share.mean(rate))
    }

    fn ln_share_cdf(&self, rate: f64, share: Share, c: u64) -> f64 {
        negbin::ln_cdf(c, self.0, share.mean(rate)).unwrap_or_else(|| {
            self.mix(rate)
                .ln_expect(|l| ln_pois_cdf_quick(c, share.mean(l)))
        })
    }

    fn second_on_curve(&self, mean: f64, _: f64, _: &mut u64, rng: &mut ChunkRng) -> u64 {
        match second_rate(mean, self.0) {
            Ok(g) if mean > 0.0 => {
                let rate = g.sample(rng);
                poisson_at(rng, rate)
            }
            _ => 0,
        }
    }
}

/// The Gamma law of one second's rate: mean `rate`, shape `shape`.
pub fn second_rate(rate: f64, shape: f64) -> ParamResult<Gamma<f64>> {
    Gamma::new(shape, rate / shape)
        .map_err(|why| ParamError::new("rate", Problem::Law(LawProblem::NoGammaRate { rate, why })))
}
