//! One simulated second: how many likes arrive and how they split over the
//! shards, every shard's count. Where one shard's mean is at most
//! [`poissonized::TABLE_MAX_MEAN`] the counts are independent Poisson draws
//! from a guide table (`poissonized`: the law itself for Poisson traffic,
//! conditioned on the total for a fixed count); otherwise the split is a
//! Multinomial(L; 1/S, ..., 1/S) drawn as S - 1 conditional binomials. A
//! second costs O(S) plus, for a fixed count, O(sqrt L) uniform picks.

mod poissonized;
mod table;

use rand::Rng;
use rand_distr::{Distribution, Gamma, Poisson};

use crate::error::{ParamError, ParamResult};
use crate::model::binomial;
use crate::model::cost::SecondDraws;
use crate::model::law::empirical::EmpiricalLaw;
use crate::model::law::gamma_poisson::second_rate;
use crate::model::law::poisson::poisson_at;
use crate::model::law::{LawProblem, Split, TrafficModel};
use crate::model::validate;

pub use crate::model::rng::chunk_rng;
pub use poissonized::{FixedCount, PoissonTable, TABLE_MAX_MEAN};
pub use table::TableSampler;

/// Splits `likes` uniformly at random over `counts.len()` shards: shard
/// `i` takes Binomial(left, 1 / (shards - i)) of the likes the shards
/// before it left, which is exactly Multinomial(likes; 1/S, ..., 1/S).
/// The binomials are [`binomial::sample`] (BTRD), set up afresh for each
/// `left` at the cost of one square root.
pub fn split_uniform<R: Rng + ?Sized>(rng: &mut R, likes: u64, counts: &mut [u64]) {
    counts.fill(0);
    add_split_uniform(rng, likes, counts);
}

/// [`split_uniform`], adding each shard's share to what `counts` holds.
pub fn add_split_uniform<R: Rng + ?Sized>(rng: &mut R, likes: u64, counts: &mut [u64]) {
    let shards = counts.len();
    let mut left = likes;
    for (i, slot) in counts.iter_mut().enumerate() {
        let remaining_shards = (shards - i) as f64;
        let share = if i + 1 == shards || left == 0 {
            left
        } else {
            binomial::sample(rng, left, 1.0 / remaining_shards)
        };
        *slot += share;
        left -= share;
    }
}

/// How a second's counts are drawn.
#[derive(Debug, Clone)]
enum Draw {
    /// Poisson traffic: every shard an independent Poisson(rate / S).
    PoissonCounts(PoissonTable),
    /// A fixed count, Poissonized.
    FixedCount(FixedCount),
    /// The binomial chain over a fixed count...
    Chain(u64),
    /// ...or over a Poisson(rate) count...
    PoissonChain(Poisson<f64>),
    /// ...or over a Poisson count at a Gamma rate (gamma-poisson traffic)...
    GammaChain(Gamma<f64>),
    /// ...or over one observed second's count, drawn uniformly (empirical
    /// traffic: given the count, the split is fixed traffic's).
    EmpiricalChain(&'static EmpiricalLaw),
}

/// Draws one second of likes over the shards.
#[derive(Debug, Clone)]
pub struct ShardSampler {
    shards: usize,
    draw: Draw,
}

impl ShardSampler {
    /// `rate` likes/s over `shards` shards. Fixed traffic needs a whole rate.
    pub fn new(rate: f64, shards: u64, model: TrafficModel) -> ParamResult<Self> {
        let rate = model.check_rate("rate", rate)?;
        let shards = validate::count("shards", shards, crate::model::defaults::MAX_SHARDS)?;
        let per_shard = rate / shards as f64;
        let draw = match model.split(rate) {
            Split::Count(likes) if shards == 1 => Draw::Chain(likes),
            Split::Count(likes) => match FixedCount::new(likes, shards) {
                Some(f) => Draw::FixedCount(f),
                None => Draw::Chain(likes),
            },
            Split::Poisson(_) if per_shard > 0.0 && per_shard <= TABLE_MAX_MEAN => {
                Draw::PoissonCounts(PoissonTable::new(per_shard))
            }
            Split::Poisson(rate) => Draw::PoissonChain(Poisson::new(rate).map_err(|why| {
                ParamError::new("rate", LawProblem::NoPoissonRate { rate, why }.into())
            })?),
            Split::GammaRate { mean, shape } => Draw::GammaChain(second_rate(mean, shape)?),
            Split::Counts(law) => Draw::EmpiricalChain(law),
        };
        Ok(ShardSampler {
            shards: shards as usize,
            draw,
        })
    }

    /// What a second draws, for the cost model.
    pub fn draws(&self) -> SecondDraws {
        let s = self.shards as f64;
        let (table_draws, picks, binomials) = match &self.draw {
            Draw::PoissonCounts(_) => (s, 0.0, 0.0),
            Draw::FixedCount(f) => {
                const PICKS: f64 = poissonized::PICKS_PER_SHARD_MAX as f64;
                let (redrawn, missing) = f.expected_work();
                let (picks, binomials) = if missing <= PICKS * s {
                    (missing, 0.0)
                } else {
                    (0.0, s) // one more chain over the deficit
                };
                (redrawn * s, picks, binomials)
            }
            Draw::Chain(_)
            | Draw::PoissonChain(_)
            | Draw::GammaChain(_)
            | Draw::EmpiricalChain(_) => (0.0, 0.0, s - 1.0),
        };
        SecondDraws::EveryShard {
            table_draws,
            picks,
            binomials,
        }
    }

    /// Fills `counts` (length = shards) with one second's writes per shard
    /// and returns the likes in that second.
    #[inline]
    pub fn sample_second<R: Rng + ?Sized>(&self, rng: &mut R, counts: &mut [u64]) -> u64 {
        debug_assert_eq!(counts.len(), self.shards);
        match &self.draw {
            Draw::PoissonCounts(t) => t.fill(rng, counts),
            Draw::FixedCount(f) => f.fill(rng, counts),
            Draw::Chain(likes) => {
                split_uniform(rng, *likes, counts);
                *likes
            }
            Draw::PoissonChain(p) => {
                // Poisson samples are whole numbers held in an f64.
                let likes = p.sample(rng) as u64;
                split_uniform(rng, likes, counts);
                likes
            }
            Draw::GammaChain(g) => {
                let rate = g.sample(rng);
                let likes = poisson_at(rng, rate);
                split_uniform(rng, likes, counts);
                likes
            }
            Draw::EmpiricalChain(law) => {
                let likes = law.draw(rng);
                split_uniform(rng, likes, counts);
                likes
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_conserves_likes() {
        let mut rng = chunk_rng(7, 0);
        let mut counts = vec![0u64; 20];
        for likes in [0u64, 1, 5, 14_000, 200_000] {
            split_uniform(&mut rng, likes, &mut counts);
            assert_eq!(counts.iter().sum::<u64>(), likes);
        }
    }

    #[test]
    fn one_shard_takes_everything() {
        let mut rng = chunk_rng(1, 0);
        let mut counts = [0u64; 1];
        split_uniform(&mut rng, 9_000, &mut counts);
        assert_eq!(counts, [9_000]);
    }

    #[test]
    fn chunk_streams_differ_and_repeat() {
        use rand::RngExt;
        let a: u64 = chunk_rng(42, 0).random();
        let b: u64 = chunk_rng(42, 1).random();
        let a2: u64 = chunk_rng(42, 0).random();
        assert_ne!(a, b);
        assert_eq!(a, a2);
    }

    #[test]
    fn fixed_rate_must_be_whole() {
        let err = ShardSampler::new(10.5, 2, TrafficModel::Fixed).unwrap_err();
        assert_eq!(err.param, "rate");
        assert!(ShardSampler::new(10.5, 2, TrafficModel::Poisson).is_ok());
    }
}
