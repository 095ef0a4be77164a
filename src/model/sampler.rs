//! One simulated second: how many likes arrive and how they split over the
//! shards. The split is a Multinomial(L; 1/S, ..., 1/S) drawn as S - 1
//! conditional binomials, so a second costs O(S) whatever the like count.

use rand::Rng;
use rand_distr::{Distribution, Poisson};

use crate::error::{ParamError, ParamResult};
use crate::model::binomial;
use crate::model::traffic::TrafficModel;
use crate::model::validate;

pub use crate::model::rng::chunk_rng;

/// Splits `likes` uniformly at random over `counts.len()` shards: shard
/// `i` takes Binomial(left, 1 / (shards - i)) of the likes the shards
/// before it left, which is exactly Multinomial(likes; 1/S, ..., 1/S).
/// The binomials are [`binomial::sample`] (BTRD), set up afresh for each
/// `left` at the cost of one square root.
pub fn split_uniform<R: Rng + ?Sized>(rng: &mut R, likes: u64, counts: &mut [u64]) {
    let shards = counts.len();
    let mut left = likes;
    for (i, slot) in counts.iter_mut().enumerate() {
        let remaining_shards = (shards - i) as f64;
        *slot = if i + 1 == shards || left == 0 {
            left
        } else {
            binomial::sample(rng, left, 1.0 / remaining_shards)
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

/// The uniforms' grid: `u = k / 2^53` with `k` the top 53 bits of a `u64`
/// (the same `u` as `rng.random::<f64>()`).
const GRID_BITS: u32 = 53;
const GRID: u64 = 1 << GRID_BITS;

/// Draws a whole value from a tabulated distribution by inversion, with a
/// guide table (Chen & Asau 1974): one uniform, one guide lookup and a
/// short forward scan, about one comparison on average.
///
/// The uniform is `u = k / 2^53`. Value `i` is drawn when `k` first falls
/// below threshold `T_i`, and the thresholds are the old two-sided search's
/// in integer form: below `u = 1/2`, `T_i = ceil(cdf_i 2^53)` (the first
/// value whose CDF exceeds u); above it, `T_i = 2^53 - floor(sf_i 2^53)`
/// (the first whose survival function is below 1 - u, which keeps the upper
/// tail's digits down to 2^-53). As `u` is on the grid, `u < cdf_i` exactly
/// when `k < T_i`, so every `k` gives the value the binary searches on
/// `cdf` and `sf` gave (they differed only where `cdf + sf` rounds away
/// from 1 at the median, a 2^-53 sliver).
#[derive(Debug, Clone)]
pub struct TableSampler {
    lo: u64,
    /// Nondecreasing; the last is 2^53, above every `k`, so the scan stops.
    thresholds: Vec<u64>,
    /// `guide[g]`: the first `i` with `T_i > g 2^(53 - guide_bits)`, where
    /// every `k` of bucket `g = k >> (53 - guide_bits)` starts its scan.
    guide: Vec<u32>,
    guide_shift: u32,
}

impl TableSampler {
    /// `cdf[i] = P(X <= lo + i)`, `sf[i] = P(X > lo + i)`; the table must
    /// end where `sf` is below 2^-53 (nothing past it can be drawn).
    pub fn new(lo: u64, cdf: Vec<f64>, sf: Vec<f64>) -> Self {
        debug_assert_eq!(cdf.len(), sf.len());
        assert!(!cdf.is_empty() && cdf.len() < u32::MAX as usize);
        let scale = GRID as f64; // exact: scaling by 2^53 rounds nothing
        let half = GRID / 2;
        let mut thresholds: Vec<u64> = cdf
            .iter()
            .zip(&sf)
            .map(|(&f, &g)| {
                let below = (f.clamp(0.0, 1.0) * scale).ceil() as u64;
                if below <= half {
                    below
                } else {
                    // From the upper tail; never below 2^52, so the
                    // thresholds stay sorted across the switch.
                    (GRID - (g.clamp(0.0, 1.0) * scale).floor() as u64).max(half)
                }
            })
            .collect();
        // Monotone by construction up to rounding in the inputs; make sure.
        for i in 1..thresholds.len() {
            thresholds[i] = thresholds[i].max(thresholds[i - 1]);
        }
        *thresholds.last_mut().expect("non-empty") = GRID;
        // About two buckets per value: the scan then passes one threshold
        // on average (Chen-Asau's bound is 1 + values / buckets).
        let guide_bits = (2 * thresholds.len()).next_power_of_two().trailing_zeros();
        let guide_shift = GRID_BITS - guide_bits;
        let mut guide = Vec::with_capacity(1 << guide_bits);
        let mut i = 0usize;
        for g in 0..1u64 << guide_bits {
            let k0 = g << guide_shift;
            while thresholds[i] <= k0 {
                i += 1;
            }
            guide.push(i as u32);
        }
        TableSampler {
            lo,
            thresholds,
            guide,
            guide_shift,
        }
    }

    /// The distribution of the busiest shard in one second.
    pub fn busiest(b: &crate::model::exact::BusiestShard) -> Self {
        let (cdf, sf) = b.tabulated();
        Self::new(b.table_range().0, cdf, sf)
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

    /// The smallest value in the table (index 0).
    pub fn lo(&self) -> u64 {
        self.lo
    }

    /// How many values the table holds.
    pub fn len(&self) -> usize {
        self.thresholds.len()
    }

    /// Never: a table holds at least one value.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Draws one value's index (the value is `lo + index`).
    #[inline]
    pub fn sample_index<R: Rng + ?Sized>(&self, rng: &mut R) -> usize {
        self.index_for(rng.next_u64() >> (64 - GRID_BITS))
    }

    /// The index drawn for `u = k / 2^53`.
    #[inline]
    fn index_for(&self, k: u64) -> usize {
        let mut i = self.guide[(k >> self.guide_shift) as usize] as usize;
        // Terminates: the last threshold is 2^53 > k.
        while self.thresholds[i] <= k {
            i += 1;
        }
        i
    }

    /// Draws one value.
    #[inline]
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> u64 {
        self.lo + self.sample_index(rng) as u64
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

    /// The two binary searches the guide table replaced: the CDF below
    /// u = 1/2, the survival function above.
    fn searched(cdf: &[f64], sf: &[f64], k: u64) -> usize {
        let u = k as f64 / GRID as f64;
        let i = if u < 0.5 {
            cdf.partition_point(|&f| f <= u)
        } else {
            sf.partition_point(|&g| g >= 1.0 - u)
        };
        i.min(cdf.len() - 1)
    }

    #[test]
    fn guide_table_draws_what_the_searches_drew() {
        use rand::RngExt;
        // A binomial-shaped table with tails far below 2^-53 at both ends
        // (computed in logs, so cdf and sf each keep their tail's digits).
        let n = 300u64;
        let ln_pmf = |k: u64| {
            let lg = |x: f64| libm::lgamma(x);
            lg(n as f64 + 1.0) - lg(k as f64 + 1.0) - lg((n - k) as f64 + 1.0)
                + n as f64 * 0.5f64.ln()
        };
        let pmf: Vec<f64> = (0..=n).map(|k| ln_pmf(k).exp()).collect();
        let cdf: Vec<f64> = (0..=n as usize).map(|i| pmf[..=i].iter().sum()).collect();
        let sf: Vec<f64> = (0..=n as usize)
            .map(|i| pmf[i + 1..].iter().sum())
            .collect();
        let t = TableSampler::new(0, cdf.clone(), sf.clone());
        // Every threshold's neighbours, the median's, and random k.
        let mut ks: Vec<u64> = t
            .thresholds
            .iter()
            .flat_map(|&x| [x.saturating_sub(1), x, x + 1])
            .filter(|&k| k < GRID)
            .collect();
        ks.extend([0, 1, GRID / 2 - 1, GRID / 2, GRID / 2 + 1, GRID - 1]);
        let mut rng = chunk_rng(11, 0);
        ks.extend((0..100_000).map(|_| rng.random::<u64>() >> 11));
        for k in ks {
            assert_eq!(t.index_for(k), searched(&cdf, &sf, k), "k = {k}");
        }
        // The extreme tails are still drawable: k = 0 gives the first value
        // whose CDF is positive, the last k the last value kept.
        assert_eq!(t.index_for(0), 0);
        assert_eq!(t.index_for(GRID - 1), searched(&cdf, &sf, GRID - 1));
    }

    #[test]
    fn fixed_rate_must_be_whole() {
        let err = ShardSampler::new(10.5, 2, TrafficModel::Fixed).unwrap_err();
        assert_eq!(err.param, "rate");
        assert!(ShardSampler::new(10.5, 2, TrafficModel::Poisson).is_ok());
    }
}
