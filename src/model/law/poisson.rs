//! Poisson traffic: a Poisson count with mean `rate` each second, so each
//! shard's count (and each group's) is an independent Poisson.

use rand_distr::Distribution;

use super::{Share, Split, TrafficKind, TrafficLaw};
use crate::model::exact::special::{ln_dpois, ln_pois_cdf, ln_pois_sf_quick};
use crate::model::rng::ChunkRng;

/// A Poisson count each second.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Poisson;

impl TrafficLaw for Poisson {
    fn kind(&self) -> TrafficKind {
        TrafficKind::Poisson
    }

    fn variance(&self, rate: f64) -> f64 {
        rate
    }

    fn split(&self, rate: f64) -> Split {
        Split::Poisson(rate)
    }

    fn fewest(&self, _rate: f64) -> u64 {
        0
    }

    /// Four terms a step (`ln_pois_sf_quick`, a few ulps from the plain
    /// sum): a shared-partition search asks for tens of thousands.
    fn ln_share_sf(&self, rate: f64, share: Share, c: u64) -> f64 {
        ln_pois_sf_quick(c, share.mean(rate))
    }

    fn ln_share_pmf(&self, rate: f64, share: Share, c: u64) -> f64 {
        ln_dpois(c, share.mean(rate))
    }

    fn ln_share_cdf(&self, rate: f64, share: Share, c: u64) -> f64 {
        ln_pois_cdf(c, share.mean(rate))
    }

    fn second_on_curve(&self, mean: f64, _: f64, _: &mut u64, rng: &mut ChunkRng) -> u64 {
        poisson_at(rng, mean)
    }
}

/// One Poisson count at `mean` (0 where the mean is 0 or too small for the
/// Poisson sampler).
pub fn poisson_at<R: rand::Rng + ?Sized>(rng: &mut R, mean: f64) -> u64 {
    match rand_distr::Poisson::new(mean) {
        // Poisson samples are whole numbers held in an f64.
        Ok(p) if mean > 0.0 => p.sample(rng) as u64,
        _ => 0,
    }
}
