//! The Gamma mixture's integrals against closed forms: the total mass, the
//! moments, the Laplace transform, and the negative binomial's tails (a
//! Poisson count whose rate is Gamma is negative binomial).

use super::*;
use crate::model::exact::special::ln_pois_sf;

const RATES: [f64; 4] = [0.5, 50.0, 14_000.0, 1e9];
const SHAPES: [f64; 7] = [0.01, 0.3, 1.0, 20.0, 300.0, 1e5, 1e11];

fn close(got: f64, want: f64, tol: f64) -> bool {
    (got - want).abs() <= tol * want.abs().max(1.0)
}

#[test]
fn the_mass_is_one_and_the_moments_are_the_gammas() {
    for &r in &RATES {
        for &k in &SHAPES {
            let m = GammaMix::new(r, k);
            let mass = m.ln_expect(|_| 0.0);
            assert!(mass.abs() < 1e-12, "rate {r} shape {k}: ln mass {mass}");
            // E[Lambda] = r; E[Lambda^2] = r^2 (1 + 1/K).
            let mean = m.ln_expect(|l| (l / r).ln());
            assert!(mean.abs() < 1e-12, "rate {r} shape {k}: ln E[L]/r {mean}");
            let second = m.ln_expect(|l| 2.0 * (l / r).ln());
            let want = (1.0 / k).ln_1p();
            assert!(
                close(second, want, 1e-12),
                "rate {r} shape {k}: {second} vs {want}"
            );
        }
    }
}

#[test]
fn laplace_transform_is_closed_form() {
    // E[e^{-s Lambda}] = (1 + s r / K)^-K: P(no like in a second) at s = 1.
    for &r in &RATES {
        for &k in &SHAPES {
            for &s in &[1e-6, 1e-3, 1.0] {
                let got = GammaMix::new(r, k).ln_expect(|l| -s * l);
                let want = -k * (s * r / k).ln_1p();
                assert!(
                    close(got, want, 1e-11),
                    "rate {r} shape {k} s {s}: {got} vs {want}"
                );
            }
        }
    }
}

/// `ln P(N > n)` for `N ~ NegBin(K, p = K / (K + r))` by summing the pmf
/// upward from `n + 1` in logs (the terms fall geometrically past the mode).
fn ln_negbin_sf(n: u64, r: f64, k: f64) -> f64 {
    let ln_p = (k / (k + r)).ln();
    let ln_q = (r / (k + r)).ln();
    let ln_pmf = |j: u64| {
        libm::lgamma(j as f64 + k) - libm::lgamma(j as f64 + 1.0) - libm::lgamma(k)
            + k * ln_p
            + j as f64 * ln_q
    };
    let first = ln_pmf(n + 1);
    let (mut sum, mut term, mut j) = (1.0_f64, 1.0_f64, n + 1);
    loop {
        // pmf(j+1) / pmf(j) = (j + K) / (j + 1) q
        term *= (j as f64 + k) / (j as f64 + 1.0) * (r / (k + r));
        sum += term;
        j += 1;
        if term < 1e-18 * sum && (j as f64 + k) / (j as f64 + 1.0) * (r / (k + r)) < 1.0 {
            return first + sum.ln();
        }
    }
}

#[test]
fn poisson_tails_mix_to_the_negative_binomials() {
    // Tails from the middle out to 1e-150; lgamma's own rounding at these
    // sizes is about 1e-13 relative in the probability.
    for &(r, k) in &[
        (50.0_f64, 0.3_f64),
        (50.0, 20.0),
        (700.0, 300.0),
        (14.0, 1.0),
        (2.0, 5.0),
    ] {
        let sd = (r + r * r / k).sqrt();
        for z in [0.0, 2.0, 5.0, 10.0, 30.0] {
            let n = (r + z * sd) as u64;
            let got = GammaMix::new(r, k).ln_expect(|l| ln_pois_sf(n, l));
            let want = ln_negbin_sf(n, r, k);
            assert!(
                (got - want).abs() < 1e-10 * want.abs().max(1.0),
                "rate {r} shape {k} n {n}: {got} vs {want}"
            );
        }
    }
}

/// `P(max <= c)` for gamma-poisson traffic a second way: the count is
/// NegBin(K, K / (K + r)), and given `n` likes the busiest of `s` shards
/// is at most `c` with probability `n! / s^n [x^n] (sum_{k <= c} x^k /
/// k!)^s` (every term positive: no cancellation). Counts past `n_max`
/// must carry under 1e-20 of the mass for the law used (150 does here).
/// `gamma_row_tests.rs` checks the table-free rows against it too.
pub(in crate::model::exact) fn brute_cdf(r: f64, k: f64, s: usize, c: usize, n_max: usize) -> f64 {
    let ln_p = (k / (k + r)).ln();
    let ln_q = (r / (k + r)).ln();
    let base: Vec<f64> = (0..=n_max)
        .map(|j| match j <= c {
            true => (-libm::lgamma(j as f64 + 1.0)).exp(),
            false => 0.0,
        })
        .collect();
    let mut power = vec![0.0; n_max + 1];
    power[0] = 1.0;
    for _ in 0..s {
        let mut next = vec![0.0; n_max + 1];
        for (i, a) in power.iter().enumerate() {
            for (j, b) in base.iter().enumerate().take(n_max + 1 - i) {
                next[i + j] += a * b;
            }
        }
        power = next;
    }
    (0..=n_max)
        .map(|n| {
            let nf = n as f64;
            let ln_nb = libm::lgamma(nf + k) - libm::lgamma(nf + 1.0) - libm::lgamma(k)
                + k * ln_p
                + nf * ln_q;
            let ln_given = libm::lgamma(nf + 1.0) - nf * (s as f64).ln();
            (ln_nb + ln_given).exp() * power[n]
        })
        .sum()
}

#[test]
fn busiest_shard_matches_the_negative_binomial_mixture_of_fixed_counts() {
    use crate::model::exact::BusiestShard;
    use crate::model::law::{Dispersion, TrafficModel};
    // 20 likes/s, K = 10 (variance 60), over 3 shards; every c with
    // P(max <= c) from 1e-12 to 1 - 1e-12. Tolerance 1e-9: the mixture
    // claims 1e-10, the brute force sums 150 positive terms.
    let model = TrafficModel::GammaPoisson(Dispersion::new_unchecked(10.0));
    let table = BusiestShard::new(20.0, 3, model).unwrap();
    let mut checked = 0;
    for c in 0..60 {
        let want = brute_cdf(20.0, 10.0, 3, c, 150);
        if !(1e-12..1.0 - 1e-12).contains(&want) {
            continue;
        }
        let got = table.ln_cdf(c as u64).exp();
        assert!((got / want - 1.0).abs() < 1e-9, "c {c}: {got} vs {want}");
        if want < 0.99 {
            let (got_sf, want_sf) = (table.ln_sf(c as u64).exp(), 1.0 - want);
            assert!(
                (got_sf / want_sf - 1.0).abs() < 1e-9,
                "c {c}: sf {got_sf} vs {want_sf}"
            );
        }
        checked += 1;
    }
    assert!(checked > 20, "{checked}");
}

#[test]
fn large_dispersion_tends_to_poisson() {
    use crate::model::exact::BusiestShard;
    use crate::model::law::{Dispersion, TrafficModel};
    // The rate's relative spread is 1/sqrt(K): the gap to Poisson's tail
    // at c = 1,000 (14,000/s over 20) shrinks with K, to under 1e-6 at 1e12.
    // (K = 1e6, 3.6 s of the suite on its own, is left out.)
    let poisson = BusiestShard::new(14_000.0, 20, TrafficModel::Poisson).unwrap();
    let want = poisson.ln_sf(1_000);
    let mut last_gap = f64::INFINITY;
    for k in [1e4, 1e8, 1e12] {
        let model = TrafficModel::GammaPoisson(Dispersion::new_unchecked(k));
        let got = BusiestShard::new(14_000.0, 20, model).unwrap().ln_sf(1_000);
        let gap = (got - want).abs();
        assert!(got >= want, "K {k}: burstier traffic has the larger tail");
        assert!(gap < last_gap, "K {k}: {gap} after {last_gap}");
        last_gap = gap;
    }
    assert!(last_gap < 1e-6, "{last_gap}");
}
