//! Draws from a tabulated distribution by inversion with a guide table
//! (Chen & Asau 1974): the busiest and quietest shards' exact laws, and
//! one shard's Poisson count.

use rand::Rng;

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
    use crate::model::rng::chunk_rng;

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
}
