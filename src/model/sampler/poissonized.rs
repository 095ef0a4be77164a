//! Every shard's count in one second from independent Poisson draws, each
//! one guide-table lookup, instead of S - 1 conditional binomials.
//!
//! - **Poisson traffic.** A second's likes are Poisson(rate) and each like
//!   picks a shard uniformly, so the shards' counts are independent
//!   Poisson(rate / S): S draws from one table, and the second's likes are
//!   their sum. This is the law, not an approximation of it.
//! - **Fixed traffic, `L` likes.** Independent Poisson(`lambda`) counts
//!   with sum `N` are, given `N = n`, Multinomial(n; 1/S, ..., 1/S) for
//!   any `lambda`. Draw them with `S lambda` a little under `L`; if `N > L`
//!   draw all of them again (whatever `n <= L` is accepted, the counts
//!   given it are still that multinomial); then add the `D = L - n`
//!   missing likes, each to a uniformly chosen shard (or, for a large `D`,
//!   as one more multinomial split). Multinomial(n) plus an independent
//!   Multinomial(D) is Multinomial(L): the same law as the binomial chain,
//!   drawn from a different stream.
//!
//! The cost is about `1.45 S` table draws (the redraws) and about one
//! standard deviation of `N`, `sqrt(L)`, uniform picks: 14,000 likes over
//! 20 shards take about 30 table draws and 120 picks, where the chain took
//! 19 binomials of about 60 ns each.

use rand::{Rng, RngExt};

use super::{add_split_uniform, TableSampler};
use crate::model::exact::special::ln_dpois;

/// The tables stay small (a few hundred KB, in cache) up to this mean per
/// shard; past it a shard's count is drawn by the binomial chain.
pub const TABLE_MAX_MEAN: f64 = 1e6;

/// Each pick is one bounded uniform; past this many missing likes a
/// shard, one more binomial chain over the deficit is cheaper.
pub(super) const PICKS_PER_SHARD_MAX: u64 = 16;

/// The fixed-count draw aims `S lambda` this many standard deviations of
/// `N` under `L`: about 31% of draws exceed `L` and are redrawn, and the
/// deficit averages about one standard deviation (0 would redraw half the
/// draws and add as much; 1 redraws 16% and adds 1.3 of them).
const AIM_BELOW_SD: f64 = 0.5;

/// Poisson(`lambda`) by guide-table inversion.
#[derive(Debug, Clone)]
pub struct PoissonTable {
    table: TableSampler,
}

impl PoissonTable {
    /// The table of Poisson(`lambda`), `0 < lambda <= TABLE_MAX_MEAN`,
    /// over the values whose probability is above 1e-25 (what lies outside
    /// sums to under 1e-21, far below the uniforms' 2^-53 resolution).
    pub fn new(lambda: f64) -> Self {
        debug_assert!(lambda > 0.0 && lambda <= TABLE_MAX_MEAN);
        const FLOOR: f64 = 1e-25;
        // The pmf by its ratio recurrence out from the mode, re-anchored on
        // Loader's `ln_dpois` every `ANCHOR` values so rounding cannot build
        // up (a table for a mean of 1e6 has about 20,000 values).
        const ANCHOR: u64 = 64;
        let mode = lambda.floor() as u64;
        let mut down = Vec::new();
        let (mut k, mut x) = (mode, ln_dpois(mode, lambda).exp());
        while k > 0 {
            x = if (mode - k + 1).is_multiple_of(ANCHOR) {
                ln_dpois(k - 1, lambda).exp()
            } else {
                x * k as f64 / lambda
            };
            if x < FLOOR {
                break;
            }
            down.push(x);
            k -= 1;
        }
        let lo = mode - down.len() as u64;
        let mut p: Vec<f64> = down.into_iter().rev().collect();
        let (mut k, mut x) = (mode, ln_dpois(mode, lambda).exp());
        p.push(x);
        loop {
            x = if (k + 1 - mode).is_multiple_of(ANCHOR) {
                ln_dpois(k + 1, lambda).exp()
            } else {
                x * lambda / (k + 1) as f64
            };
            if x < FLOOR {
                break;
            }
            p.push(x);
            k += 1;
        }
        // Each tail summed from its own end, so both keep their digits.
        let mut cdf = Vec::with_capacity(p.len());
        let mut acc = 0.0;
        for &x in &p {
            acc += x;
            cdf.push(acc);
        }
        let mut sf = vec![0.0; p.len()];
        let mut acc = 0.0;
        for i in (0..p.len()).rev() {
            sf[i] = acc;
            acc += p[i];
        }
        PoissonTable {
            table: TableSampler::new(lo, cdf, sf),
        }
    }

    /// Fills `counts` with independent draws; returns their sum.
    #[inline]
    pub fn fill<R: Rng + ?Sized>(&self, rng: &mut R, counts: &mut [u64]) -> u64 {
        let mut sum = 0;
        for slot in counts.iter_mut() {
            *slot = self.table.sample(rng);
            sum += *slot;
        }
        sum
    }
}

/// Exactly `likes` likes a second over `shards` shards, Poissonized.
#[derive(Debug, Clone)]
pub struct FixedCount {
    likes: u64,
    poisson: PoissonTable,
}

impl FixedCount {
    /// `None` where the table would be empty or too large: a mean per
    /// shard under about 1 (`S lambda` aimed at or below 0) or over
    /// [`TABLE_MAX_MEAN`].
    pub fn new(likes: u64, shards: u64) -> Option<Self> {
        let l = likes as f64;
        let lambda = (l - AIM_BELOW_SD * l.sqrt()) / shards as f64;
        (1.0..=TABLE_MAX_MEAN)
            .contains(&lambda)
            .then(|| FixedCount {
                likes,
                poisson: PoissonTable::new(lambda),
            })
    }

    /// The expected draws of all shards a second (about 1.45, the
    /// redraws) and the expected missing likes (about one standard
    /// deviation of the total, `sqrt L`), for the cost model.
    pub fn expected_work(&self) -> (f64, f64) {
        // P(N <= L) is about Phi(AIM_BELOW_SD) = 0.69; the deficit given
        // it about sqrt(L) (AIM_BELOW_SD + phi(0.5) / Phi(0.5)) = 1.01 sqrt(L).
        (1.0 / 0.69, 1.01 * (self.likes as f64).sqrt())
    }

    /// Fills `counts` with one second's Multinomial(L; 1/S, ..., 1/S);
    /// returns `L`.
    #[inline]
    pub fn fill<R: Rng + ?Sized>(&self, rng: &mut R, counts: &mut [u64]) -> u64 {
        let n = loop {
            let n = self.poisson.fill(rng, counts);
            if n <= self.likes {
                break n;
            }
        };
        let missing = self.likes - n;
        let shards = counts.len();
        if missing <= PICKS_PER_SHARD_MAX * shards as u64 {
            for _ in 0..missing {
                counts[rng.random_range(0..shards)] += 1;
            }
        } else {
            add_split_uniform(rng, missing, counts);
        }
        self.likes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::rng::chunk_rng;

    /// The chi-square's 0.999 quantile (Wilson-Hilferty; ample here).
    fn chi2_999(df: usize) -> f64 {
        let k = df as f64;
        k * (1.0 - 2.0 / (9.0 * k) + 3.090_232 * (2.0 / (9.0 * k)).sqrt()).powi(3)
    }

    /// Every count vector of `likes` likes over `shards` shards with its
    /// multinomial probability `L! / (prod n_i! S^L)`.
    fn multinomial_law(likes: u64, shards: usize) -> Vec<(Vec<u64>, f64)> {
        fn go(left: u64, slots: usize, prefix: &mut Vec<u64>, out: &mut Vec<Vec<u64>>) {
            if slots == 1 {
                prefix.push(left);
                out.push(prefix.clone());
                prefix.pop();
                return;
            }
            for n in 0..=left {
                prefix.push(n);
                go(left - n, slots - 1, prefix, out);
                prefix.pop();
            }
        }
        let mut vectors = Vec::new();
        go(likes, shards, &mut Vec::new(), &mut vectors);
        let fact = |n: u64| (1..=n).map(|x| x as f64).product::<f64>();
        vectors
            .into_iter()
            .map(|v| {
                let p = fact(likes)
                    / v.iter().map(|&n| fact(n)).product::<f64>()
                    / (shards as f64).powi(likes as i32);
                (v, p)
            })
            .collect()
    }

    #[test]
    fn fixed_count_is_the_multinomial() {
        // The joint law of the whole count vector, against the exact
        // multinomial pmf, by Pearson's chi-square (cells with expected
        // counts of 5 or more; alpha = 0.001, fixed seed). 9 likes over 3
        // shards: the picks and the redraws both happen often.
        for (likes, shards, draws) in [(9u64, 3usize, 200_000u64), (12, 4, 200_000)] {
            let law = multinomial_law(likes, shards);
            let f = FixedCount::new(likes, shards as u64).expect("a table");
            let mut seen = std::collections::HashMap::new();
            let mut rng = chunk_rng(5, likes);
            let mut counts = vec![0u64; shards];
            for _ in 0..draws {
                assert_eq!(f.fill(&mut rng, &mut counts), likes);
                assert_eq!(counts.iter().sum::<u64>(), likes);
                *seen.entry(counts.clone()).or_insert(0u64) += 1;
            }
            let (mut stat, mut cells) = (0.0, 0);
            for (v, p) in &law {
                let e = p * draws as f64;
                if e >= 5.0 {
                    let o = *seen.get(v).unwrap_or(&0) as f64;
                    stat += (o - e) * (o - e) / e;
                    cells += 1;
                }
            }
            assert!(
                stat < chi2_999(cells - 1),
                "L={likes} S={shards}: {stat:.1} over {cells} cells"
            );
        }
    }

    #[test]
    fn a_large_deficit_split_is_the_multinomial() {
        // 10,000 likes over 2 shards: the deficit (about 100) is past 16
        // picks a shard, so it is split by the binomial chain. The first
        // shard's count is Binomial(10,000, 1/2): chi-square over cells of
        // expected count >= 5 (alpha = 0.001, fixed seed).
        let f = FixedCount::new(10_000, 2).expect("a table");
        let mut rng = chunk_rng(3, 0);
        let draws = 200_000u64;
        let mut seen = vec![0u64; 10_001];
        let mut counts = [0u64; 2];
        for _ in 0..draws {
            f.fill(&mut rng, &mut counts);
            seen[counts[0] as usize] += 1;
        }
        let ln_pmf = |k: u64| {
            let lg = |x: f64| libm::lgamma(x);
            lg(10_001.0)
                - lg(k as f64 + 1.0)
                - lg((10_000 - k) as f64 + 1.0)
                - 10_000.0 * std::f64::consts::LN_2
        };
        let (mut stat, mut cells) = (0.0, 0);
        for k in 0..=10_000u64 {
            let e = ln_pmf(k).exp() * draws as f64;
            if e >= 5.0 {
                let o = seen[k as usize] as f64;
                stat += (o - e) * (o - e) / e;
                cells += 1;
            }
        }
        assert!(stat < chi2_999(cells - 1), "{stat:.1} over {cells} cells");
    }

    #[test]
    fn poisson_table_is_the_poisson_law() {
        // Mean and variance both lambda; 400,000 draws give the mean an SE
        // of sqrt(lambda / n) and the variance about lambda sqrt(2 / n):
        // 5 SE each. The table's ends hold all but 1e-21 of the mass.
        for lambda in [0.3, 4.5, 700.0, 250_000.0] {
            let t = PoissonTable::new(lambda);
            let mut rng = chunk_rng(9, lambda as u64);
            let n = 400_000;
            let mut one = [0u64];
            let xs: Vec<f64> = (0..n).map(|_| t.fill(&mut rng, &mut one) as f64).collect();
            let mean = xs.iter().sum::<f64>() / n as f64;
            let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
            let nf = n as f64;
            assert!(
                (mean - lambda).abs() < 5.0 * (lambda / nf).sqrt(),
                "{lambda}: {mean}"
            );
            assert!(
                (var - lambda).abs() < 5.0 * lambda * (2.0 / nf).sqrt(),
                "{lambda}: {var}"
            );
        }
    }
}
