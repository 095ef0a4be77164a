//! One simulated second: how many likes arrive and how they split over the
//! shards. The split is a Multinomial(L; 1/S, ..., 1/S) drawn as S - 1
//! conditional binomials, so a second costs O(S) whatever the like count.

use rand::Rng;
use rand_distr::{Binomial, Distribution, Poisson};

use crate::error::{ParamError, ParamResult};
use crate::model::traffic::TrafficModel;
use crate::model::validate;

pub use crate::model::rng::chunk_rng;

/// Splits `likes` uniformly at random over `counts.len()` shards.
pub fn split_uniform<R: Rng + ?Sized>(rng: &mut R, likes: u64, counts: &mut [u64]) {
    let shards = counts.len();
    let mut left = likes;
    for (i, slot) in counts.iter_mut().enumerate() {
        let remaining_shards = (shards - i) as f64;
        *slot = if i + 1 == shards || left == 0 {
            left
        } else {
            // Binomial::new only fails for p outside [0, 1]; 1/k with k >= 2 is inside.
            Binomial::new(left, 1.0 / remaining_shards)
                .expect("1/k is a valid probability")
                .sample(rng)
        };
        left -= *slot;
    }
}

/// Draws one second of likes over the shards.
#[derive(Debug, Clone)]
pub struct ShardSampler {
    shards: usize,
    fixed_likes: u64,
    poisson: Option<Poisson<f64>>,
}

impl ShardSampler {
    /// `rate` likes/s over `shards` shards. Fixed traffic needs a whole rate.
    pub fn new(rate: f64, shards: u64, model: TrafficModel) -> ParamResult<Self> {
        let rate = validate::traffic_rate("rate", rate, model)?;
        let shards = validate::count("shards", shards, crate::model::defaults::MAX_SHARDS)?;
        let (fixed_likes, poisson) = match model {
            TrafficModel::Fixed => (rate as u64, None),
            TrafficModel::Poisson => {
                let p = Poisson::new(rate).map_err(|e| {
                    ParamError::other(
                        "rate",
                        format!("not a usable Poisson mean ({e}, got {rate})"),
                    )
                })?;
                (0, Some(p))
            }
        };
        Ok(ShardSampler {
            shards: shards as usize,
            fixed_likes,
            poisson,
        })
    }

    /// Fills `counts` (length = shards) with one second's writes per shard
    /// and returns the likes in that second.
    pub fn sample_second<R: Rng + ?Sized>(&self, rng: &mut R, counts: &mut [u64]) -> u64 {
        debug_assert_eq!(counts.len(), self.shards);
        let likes = match &self.poisson {
            // Poisson samples are whole numbers held in an f64.
            Some(p) => p.sample(rng) as u64,
            None => self.fixed_likes,
        };
        split_uniform(rng, likes, counts);
        likes
    }
}

/// Draws a whole value from a tabulated distribution by inversion: one
/// uniform and a binary search. Below 0.5 it searches the CDF, above it the
/// survival function, so both tails keep their digits down to 2^-53.
#[derive(Debug, Clone)]
pub struct TableSampler {
    lo: u64,
    cdf: Vec<f64>,
    sf: Vec<f64>,
}

impl TableSampler {
    /// `cdf[i] = P(X <= lo + i)`, `sf[i] = P(X > lo + i)`; the table must
    /// end where `sf` is below 2^-53 (nothing past it can be drawn).
    pub fn new(lo: u64, cdf: Vec<f64>, sf: Vec<f64>) -> Self {
        debug_assert_eq!(cdf.len(), sf.len());
        TableSampler { lo, cdf, sf }
    }

    /// The distribution of the busiest shard in one second.
    pub fn busiest(b: &crate::model::exact::BusiestShard) -> Self {
        let (lo, hi) = b.table_range();
        Self::new(
            lo,
            (lo..=hi).map(|c| b.cdf(c)).collect(),
            (lo..=hi).map(|c| b.sf(c)).collect(),
        )
    }

    /// The distribution of the quietest shard in one second.
    pub fn quietest(q: &crate::model::exact::QuietestShard) -> Self {
        let (lo, hi) = q.table_range();
        Self::new(
            lo,
            (lo..=hi).map(|c| q.cdf(c)).collect(),
            (lo..=hi).map(|c| q.sf(c)).collect(),
        )
    }

    /// Draws one value.
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> u64 {
        use rand::RngExt;
        // 53 random bits: u = k / 2^53, so 1 - u is exact too.
        let u: f64 = rng.random();
        let i = if u < 0.5 {
            // The first value whose CDF exceeds u.
            self.cdf.partition_point(|&f| f <= u)
        } else {
            // The same value, found from the upper tail: first sf < 1 - u.
            let v = 1.0 - u;
            self.sf.partition_point(|&g| g >= v)
        };
        self.lo + i.min(self.cdf.len() - 1) as u64
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
