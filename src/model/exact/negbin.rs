//! The negative binomial's pmf and tails, in logs. A Poisson count whose
//! rate is Gamma (mean `m`, shape `K`) is negative binomial: `P(N = k) =
//! Gamma(k + K) / (Gamma(K) k!) p^K q^k` with `p = K / (K + m)` and `q = m
//! / (K + m)`. So one group's count under gamma-poisson traffic (a shard,
//! a partition's shards) has its tails as sums, where the integral over
//! the second's rate (`GammaMix::ln_expect`) takes hundreds of Poisson
//! tails: the shared-partition union bounds ask for one a shard count.
//!
//! The pmf is Loader's form, as R's `dnbinom`: `K / (K + k)` times the
//! binomial pmf of `K` successes in `K + k` trials (`n` real), `-stirlerr -
//! bd0 - ln(2 pi x (n - x) / n) / 2`, with no `ln Gamma` of size `k ln k`
//! to cancel. A tail sums the pmf from the cut away from the mode, the
//! terms falling by the ratio of neighbours, on the small side only:
//!
//! - `P(N > c)` from `c + 1` up, where `c + 1 >= m` (each ratio `(k + K) q
//!   / (k + 1)` is then below 1, falling to `q`);
//! - `P(N <= c)` from `c` down, where `c + 1 < m`, `K >= 1` and `c + 1 <=
//!   m (1 - 1 / K)` (each ratio `k / ((k - 1 + K) q)` is then below 1,
//!   falling to 0);
//!
//! and the other side as `1 -` it. Elsewhere (a bursty law, `K < 1`, below
//! its mean), or where a sum would take more than [`MAX_TERMS`] terms (a
//! count spread over hundreds of thousands), the tail is `None`: the
//! caller integrates.

use super::special::{bd0, ln_1m_exp, ln_series4_within, stirlerr, LN_2PI};

/// The most terms a tail sums before it leaves the answer to the integral
/// (about what one integral costs: a few hundred nodes, a few dozen
/// Poisson terms each).
pub const MAX_TERMS: u64 = 20_000;

/// `ln P(N = k)` for `N` negative binomial with mean `mean > 0` and shape
/// `shape > 0`.
pub fn ln_pmf(k: u64, shape: f64, mean: f64) -> f64 {
    let (p, q) = (shape / (shape + mean), mean / (shape + mean));
    if k == 0 {
        // p^K, as K ln(1 + m / K) keeps its digits when m / K is tiny.
        return -shape * (mean / shape).ln_1p();
    }
    let kf = k as f64;
    let n = shape + kf;
    let lc = stirlerr(n) - stirlerr(shape) - stirlerr(kf) - bd0(shape, n * p) - bd0(kf, n * q);
    // ln(2 pi x (n - x) / n) with n - x = k: not ln(1 - K / n), whose
    // 1 - K / n loses its digits when K dwarfs k (K = 1e12: 4e-7 of it).
    let lf = LN_2PI + shape.ln() + kf.ln() - n.ln();
    (shape / n).ln() + lc - 0.5 * lf
}

/// `ln P(N > c)`, or `None` where the integral must answer.
pub fn ln_sf(c: u64, shape: f64, mean: f64) -> Option<f64> {
    if (c as f64) + 1.0 >= mean {
        upper(c, shape, mean)
    } else {
        lower(c, shape, mean).map(ln_1m_exp)
    }
}

/// `ln P(N <= c)`, or `None` where the integral must answer.
pub fn ln_cdf(c: u64, shape: f64, mean: f64) -> Option<f64> {
    if (c as f64) + 1.0 >= mean {
        upper(c, shape, mean).map(ln_1m_exp)
    } else {
        lower(c, shape, mean)
    }
}

/// `ln P(N > c)` for `c + 1 >= mean`: the pmf from `c + 1` up.
fn upper(c: u64, shape: f64, mean: f64) -> Option<f64> {
    let q = mean / (shape + mean);
    let first = (c + 1) as f64;
    // pmf(k + 1) / pmf(k) = (k + K) q / (k + 1), for k = c + 1, c + 2, ...
    let sum = series(|i| (first + i - 1.0 + shape) * q / (first + i))?;
    Some(ln_pmf(c + 1, shape, mean) + sum)
}

/// `ln P(N <= c)` for `c + 1 < mean`: the pmf from `c` down to 0, where the
/// ratios fall from the start (`K >= 1`, `c <= m - m / K - 1`).
fn lower(c: u64, shape: f64, mean: f64) -> Option<f64> {
    if shape < 1.0 || c as f64 > mean - mean / shape - 1.0 {
        return None;
    }
    let q = mean / (shape + mean);
    let top = c as f64;
    // pmf(k - 1) / pmf(k) = k / ((k - 1 + K) q), for k = c, c - 1, ..., 1.
    let sum = series(|i| {
        let k = top + 1.0 - i;
        if k < 1.0 {
            0.0
        } else {
            k / ((k - 1.0 + shape) * q)
        }
    })?;
    Some(ln_pmf(c, shape, mean) + sum)
}

/// The sum of the terms' ratios `r` (`special::ln_series4`, four terms a
/// step), `None` past [`MAX_TERMS`] terms.
fn series(r: impl Fn(f64) -> f64) -> Option<f64> {
    ln_series4_within(r, MAX_TERMS as f64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::exact::gamma_mix::GammaMix;
    use crate::model::exact::special::{ln_dpois, ln_pois_cdf_quick, ln_pois_sf_quick};

    /// The laws checked: near-Poisson to bursty, small to large means.
    const LAWS: [(f64, f64); 9] = [
        (0.7, 0.3),
        (5.0, 1.0),
        (20.0, 10.0),
        (111.0 / 4.14, 11.9),
        (390.0, 6.9),
        (2_223.0, 6.9),
        (50_000.0, 1e5),
        (300.0, 1e9),
        (300.0, 1e12),
    ];

    /// Cuts from the bottom of a law to far in its upper tail.
    fn cuts(mean: f64, shape: f64) -> Vec<u64> {
        let sd = (mean + mean * mean / shape).sqrt();
        [-3.0, -1.5, -0.5, 0.0, 0.5, 1.0, 3.0, 8.0, 20.0, 60.0]
            .iter()
            .map(|z| (mean + z * sd).max(0.0) as u64)
            .collect()
    }

    /// Every closed form against the integral of the Poisson formula over
    /// the Gamma rate (itself checked against the negative binomial in
    /// `gamma_mix_tests.rs`), to 1e-10 of the probability (that much on
    /// its log), where the closed form answers; and it answers for every
    /// cut of the near-Poisson and mild laws.
    #[test]
    fn closed_forms_are_the_integrals() {
        for &(mean, shape) in &LAWS {
            let mix = GammaMix::new(mean, shape);
            for c in cuts(mean, shape) {
                let what = format!("m {mean} K {shape} c {c}");
                let pmf = mix.ln_expect(|l| ln_dpois(c, l));
                let got = ln_pmf(c, shape, mean);
                assert!((got - pmf).abs() <= 1e-10, "{what}: pmf {got} vs {pmf}");
                let sf = mix.ln_expect(|l| ln_pois_sf_quick(c, l));
                let cdf = mix.ln_expect(|l| ln_pois_cdf_quick(c, l));
                if let Some(got) = ln_sf(c, shape, mean) {
                    assert!((got - sf).abs() <= 1e-10, "{what}: sf {got} vs {sf}");
                }
                if let Some(got) = ln_cdf(c, shape, mean) {
                    assert!((got - cdf).abs() <= 1e-10, "{what}: cdf {got} vs {cdf}");
                }
                let mild = shape >= 1.0 && mean / shape < 100.0;
                let upper = (c as f64) + 1.0 >= mean;
                assert!(!mild || !upper || ln_sf(c, shape, mean).is_some(), "{what}");
            }
        }
    }

    /// Tiny cases against the pmf summed from its definition with
    /// `ln Gamma` (exact enough for counts this small), to 1e-12.
    #[test]
    fn small_counts_are_the_definition() {
        for &(mean, shape) in &[(0.5, 2.0), (3.0, 1.0), (4.0, 7.5), (9.0, 30.0)] {
            let (p, q) = (shape / (shape + mean), mean / (shape + mean));
            let pmf = |k: u64| {
                (libm::lgamma(k as f64 + shape)
                    - libm::lgamma(shape)
                    - libm::lgamma(k as f64 + 1.0)
                    + shape * p.ln()
                    + k as f64 * q.ln())
                .exp()
            };
            for c in 0..12u64 {
                let cdf: f64 = (0..=c).map(pmf).sum();
                let sf: f64 = (c + 1..400).map(pmf).sum();
                let close = |got: Option<f64>, want: f64| {
                    got.is_none_or(|g| (g.exp() / want - 1.0).abs() < 1e-12)
                };
                assert!((ln_pmf(c, shape, mean).exp() / pmf(c) - 1.0).abs() < 1e-12);
                assert!(
                    close(ln_cdf(c, shape, mean), cdf),
                    "m {mean} K {shape} c {c}"
                );
                assert!(close(ln_sf(c, shape, mean), sf), "m {mean} K {shape} c {c}");
            }
        }
    }
}
