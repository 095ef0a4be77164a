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
    for &(r, k) in &[(50.0_f64, 0.3_f64), (50.0, 20.0), (700.0, 300.0), (14.0, 1.0), (2.0, 5.0)] {
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
