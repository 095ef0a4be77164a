//! Log-space pmfs and tails of the Poisson and binomial laws, accurate to a
//! few ulps in the logarithm even where the value itself is far below
//! f64's range (1e-300 and smaller).
//!
//! The pmfs use Loader's saddle-point form (C. Loader, "Fast and accurate
//! computation of binomial probabilities", 2000; the method behind R's
//! `dbinom`/`dpois`): `ln pmf = -stirlerr - bd0 - ln(2 pi x)/2`, which avoids
//! the cancellation of `ln Gamma(n+1)` terms of size `n ln n`.

use super::temme::{ln_gamma_p_temme, ln_gamma_q_temme};

/// `ln(2 pi)`.
pub(super) const LN_2PI: f64 = 1.837_877_066_409_345_5;

/// Terms below this fraction of the running sum no longer change a double.
const TAIL_EPS: f64 = 1e-18;

/// `ln(n!) - [(n + 1/2) ln n - n + ln sqrt(2 pi)]`, the Stirling remainder.
/// Series coefficients from Loader (2000) / R's `stirlerr.c`.
pub fn stirlerr(n: f64) -> f64 {
    const S0: f64 = 1.0 / 12.0;
    const S1: f64 = 1.0 / 360.0;
    const S2: f64 = 1.0 / 1260.0;
    const S3: f64 = 1.0 / 1680.0;
    const S4: f64 = 1.0 / 1188.0;
    if n <= 15.0 {
        if n == 0.0 {
            // Limit used by Loader for x = 0 (never needed by the pmfs).
            return 0.0;
        }
        return libm::lgamma(n + 1.0) - (n + 0.5) * n.ln() + n - 0.5 * LN_2PI;
    }
    let nn = n * n;
    if n > 500.0 {
        (S0 - S1 / nn) / n
    } else if n > 80.0 {
        (S0 - (S1 - S2 / nn) / nn) / n
    } else if n > 35.0 {
        (S0 - (S1 - (S2 - S3 / nn) / nn) / nn) / n
    } else {
        (S0 - (S1 - (S2 - (S3 - S4 / nn) / nn) / nn) / nn) / n
    }
}

/// The deviance term `x ln(x / np) + np - x`, computed without cancellation
/// when `x` is close to `np` (Loader 2000).
pub fn bd0(x: f64, np: f64) -> f64 {
    if (x - np).abs() < 0.1 * (x + np) {
        let mut v = (x - np) / (x + np);
        let mut s = (x - np) * v;
        let mut ej = 2.0 * x * v;
        v *= v;
        for j in 1..1000 {
            ej *= v;
            let s1 = s + ej / (2 * j + 1) as f64;
            if s1 == s {
                return s1;
            }
            s = s1;
        }
        s
    } else {
        x * (x / np).ln() + np - x
    }
}

/// `ln P(X = x)` for `X ~ Poisson(lambda)`, `lambda > 0`.
pub fn ln_dpois(x: u64, lambda: f64) -> f64 {
    if x == 0 {
        return -lambda;
    }
    ln_dpois_real(x as f64, lambda)
}

/// `ln(lambda^x e^-lambda / Gamma(x + 1))` for a real `x > 0` (the
/// Poisson pmf's form at a real count; the incomplete gamma's factor).
pub fn ln_dpois_real(x: f64, lambda: f64) -> f64 {
    -stirlerr(x) - bd0(x, lambda) - 0.5 * (LN_2PI + x.ln())
}

/// `ln P(X = x)` for `X ~ Binomial(n, p)` with `p = 1/shards`, `q = 1 - p`
/// passed separately so `q` keeps full precision.
pub fn ln_dbinom(x: u64, n: u64, p: f64, q: f64) -> f64 {
    if x > n {
        return f64::NEG_INFINITY;
    }
    if x == 0 {
        return if n == 0 { 0.0 } else { n as f64 * q.ln() };
    }
    if x == n {
        return n as f64 * p.ln();
    }
    let (xf, nf) = (x as f64, n as f64);
    let lc =
        stirlerr(nf) - stirlerr(xf) - stirlerr(nf - xf) - bd0(xf, nf * p) - bd0(nf - xf, nf * q);
    let lf = LN_2PI + xf.ln() + (-xf / nf).ln_1p();
    lc - 0.5 * lf
}

/// Adds `x` to the compensated sum `(sum, compensation)` (Neumaier's
/// summation: the value is `sum + compensation`, its rounding a few ulps
/// however many terms).
pub fn neumaier((sum, comp): (f64, f64), x: f64) -> (f64, f64) {
    let t = sum + x;
    let comp = if sum.abs() >= x.abs() {
        comp + ((sum - t) + x)
    } else {
        comp + ((x - t) + sum)
    };
    (t, comp)
}

/// `ln(e^a + e^b)`.
pub fn ln_add(a: f64, b: f64) -> f64 {
    if a == f64::NEG_INFINITY {
        return b;
    }
    if b == f64::NEG_INFINITY {
        return a;
    }
    let (hi, lo) = if a > b { (a, b) } else { (b, a) };
    hi + (lo - hi).exp().ln_1p()
}

/// `ln(1 - e^a)` for `a <= 0`, accurate at both ends (Maechler's log1mexp).
pub fn ln_1m_exp(a: f64) -> f64 {
    if a > -std::f64::consts::LN_2 {
        (-a.exp_m1()).ln()
    } else {
        (-a.exp()).ln_1p()
    }
}

/// `ln(1 - q)`: for `q` up to 1/100 its series `-(q + q^2 / 2 + ... + q^8
/// / 8)` (the rest under 1e-17 of it) in place of the logarithm, else
/// `ln_1p`: no call on the hot paths (the mean busiest's terms, the
/// weights of a block's cuts), whose tails are mostly that small.
pub fn ln_1m_small(q: f64) -> f64 {
    if q > 0.01 {
        return (-q).ln_1p();
    }
    let tail = 1.0 / 7.0 + q * (1.0 / 8.0);
    let tail = 1.0 / 6.0 + q * tail;
    let tail = 1.0 / 5.0 + q * tail;
    let tail = 1.0 / 4.0 + q * tail;
    let tail = 1.0 / 3.0 + q * tail;
    let tail = 0.5 + q * tail;
    -q * (1.0 + q * tail)
}

/// `ln sum_k t_k` where `t_first = e^{ln_first}` and `t_{k+1} = t_k * ratio(k)`
/// for `k = first, first+1, ..., last-1` (or downwards when `down`).
/// Stops once the terms are falling and below `TAIL_EPS` of the sum.
fn ln_series(ln_first: f64, first: u64, last: u64, down: bool, ratio: impl Fn(u64) -> f64) -> f64 {
    if ln_first == f64::NEG_INFINITY {
        return ln_first;
    }
    // Terms are kept relative to `e^{ln_scale}`; rescale before overflow.
    let mut ln_scale = ln_first;
    let (mut t, mut sum) = (1.0_f64, 1.0_f64);
    let mut k = first;
    while k != last {
        let r = ratio(k);
        t *= r;
        sum += t;
        k = if down { k - 1 } else { k + 1 };
        if r < 1.0 && t < TAIL_EPS * sum {
            break;
        }
        if sum > 1e250 {
            ln_scale += sum.ln();
            t /= sum;
            sum = 1.0;
        }
    }
    ln_scale + sum.ln()
}

/// `ln P(max > c) = ln(1 - (1 - Q)^S)` for `S` independent shards each over
/// `c` with probability `Q = e^ln_q`.
pub fn ln_sf_independent(ln_q: f64, shards: u64) -> f64 {
    let s = shards as f64;
    if ln_q + s.ln() < -40.0 {
        // S Q < 4e-18: 1 - (1-Q)^S = S Q (1 - (S-1) Q / 2 + ...) to double
        // precision, and this stays finite below f64's range.
        return s.ln() + ln_q;
    }
    ln_1m_exp(s * ln_1m_exp(ln_q))
}

/// `ln P(X > c)` for `X ~ Poisson(lambda)`.
pub fn ln_pois_sf(c: u64, lambda: f64) -> f64 {
    if (c as f64) + 1.0 >= lambda {
        ln_series(ln_dpois(c + 1, lambda), c + 1, u64::MAX, false, |k| {
            lambda / (k + 1) as f64
        })
    } else {
        ln_1m_exp(ln_pois_cdf_lower(c, lambda))
    }
}

/// `ln P(X > c)` for `X ~ Poisson(lambda)`, as [`ln_pois_sf`] but summed
/// four terms a step: the ratios of four terms are taken apart from the
/// running term, so the divisions overlap instead of each waiting for the
/// last (about three times faster for the hundreds of terms of a tail near
/// the mean, what gamma-poisson traffic's integrals spend their nodes on).
/// Each ratio is still its own division (a product by `1 / lambda` would
/// carry that reciprocal's rounding into every term, thousands of times
/// over). The same sums in another order: within a few ulps of
/// [`ln_pois_sf`] (tested).
///
/// Where the series would take more than [`temme_pays`]' 150 terms (near
/// the mean of a count past 272), it is `ln P(c + 1, lambda)` by Temme's
/// expansion instead (`temme.rs`: O(1), within 4.5e-16 of the log against
/// mpmath).
pub fn ln_pois_sf_quick(c: u64, lambda: f64) -> f64 {
    let a = (c + 1) as f64;
    if a >= lambda {
        if temme_pays(a, lambda) {
            if let Some(ln_p) = ln_gamma_p_temme(a, lambda) {
                return ln_p;
            }
        }
        // Terms p(c + 1) prod_{i <= j} lambda / (c + 1 + i).
        let ln_first = ln_dpois(c + 1, lambda);
        let k0 = (c + 1) as f64;
        ln_first + ln_series4(|k| lambda / (k0 + k))
    } else {
        ln_1m_exp(ln_pois_cdf_lower_quick(c, lambda))
    }
}

/// Whether Temme's expansion (`temme.rs`) is faster than the four-a-step
/// series for `P(c + 1, lambda)` or `Q(c + 1, lambda)`, `a = c + 1`. The
/// series' terms fall about as `e^(-d j - j^2 / (2 a))`, `d = |lambda - a|
/// / a`, so it needs `n` terms for `d n + n^2 / (2 a) = ln(1e18) = 41.4`.
/// The expansion costs what about 120 terms do (measured, LTO build: 110
/// ns a call against the series' 356 ns for `c = 2000`, `lambda` 1800 to
/// 2001, about 0.9 ns a term; but 141 ns against 112 for `c = 100`,
/// `lambda` 60 to 101): it is used past 150 (never below `a = 272`; at `c
/// = 2000` for `lambda` within 24% of `c + 1`).
fn temme_pays(a: f64, lambda: f64) -> bool {
    const TERMS: f64 = 150.0;
    let d = (lambda - a).abs() / a;
    d * TERMS + TERMS * TERMS / (2.0 * a) < 41.4
}

/// One cut's upper tail and pmf, as [`tail_cuts`] gives them.
#[derive(Debug, Clone, Copy)]
pub struct CutTail {
    /// `Q(c) = P(N > c)`.
    pub big_q: f64,
    /// `Q(c)` in units of the top cut's.
    pub q: f64,
    /// `p(c)` in units of the top cut's.
    pub pmf: f64,
}

/// The `n` cuts from `from` of one Poisson(`mu`) count, top cut first:
/// `visit(i, cut)` for the cut `from + i`. The top cut's tail is summed
/// once; the cuts below follow from `Q(c - 1) = Q(c) + p(c)` (positive
/// terms, a few ulps each) and `p(c - 1) = p(c) c / mu`, in units of the
/// top cut's tail (a block's steps of at most `c / mu` cannot overflow,
/// `mu` being at least 1e-12 / S). Returns `ln Q` and `ln p` of the top
/// cut.
pub fn tail_cuts(
    from: u64,
    n: usize,
    mu: f64,
    mut visit: impl FnMut(usize, CutTail),
) -> (f64, f64) {
    let top = from + n as u64 - 1;
    let (ln_unit, ln_p) = (ln_pois_sf_quick(top, mu), ln_dpois(top, mu));
    let unit = ln_unit.exp();
    let (mut q, mut p_in_q, mut pmf) = (1.0_f64, (ln_p - ln_unit).exp(), 1.0_f64);
    for i in (0..n).rev() {
        visit(
            i,
            CutTail {
                big_q: unit * q,
                q,
                pmf,
            },
        );
        if i > 0 {
            q += p_in_q;
            let step = (from + i as u64) as f64 / mu;
            p_in_q *= step;
            pmf *= step;
        }
    }
    (ln_unit, ln_p)
}

/// `ln P(X <= c)` for `X ~ Poisson(lambda)`, as [`ln_pois_cdf`], four
/// terms a step (see [`ln_pois_sf_quick`]).
pub fn ln_pois_cdf_quick(c: u64, lambda: f64) -> f64 {
    if (c as f64) + 1.0 >= lambda {
        ln_1m_exp(ln_pois_sf_quick(c, lambda))
    } else {
        ln_pois_cdf_lower_quick(c, lambda)
    }
}

/// The lower tail's sum: terms `p(c) prod_{i < j} (c - i) / lambda`, down
/// to `k = 0`; `ln Q(c + 1, lambda)` by Temme's expansion where that is
/// faster (see [`ln_pois_sf_quick`]).
fn ln_pois_cdf_lower_quick(c: u64, lambda: f64) -> f64 {
    let a = (c + 1) as f64;
    if temme_pays(a, lambda) {
        if let Some(ln_q) = ln_gamma_q_temme(a, lambda) {
            return ln_q;
        }
    }
    let top = c as f64;
    ln_dpois(c, lambda)
        + ln_series4(|k| {
            if k > top {
                0.0
            } else {
                (top + 1.0 - k) / lambda
            }
        })
}

/// `ln sum_{j >= 0} prod_{i = 1..=j} r(i)` for ratios `r(i)` that fall
/// below 1 and stay there, four terms a step, stopping once the terms fall
/// below `TAIL_EPS` of the sum (a ratio of 0 ends the series).
fn ln_series4(r: impl Fn(f64) -> f64) -> f64 {
    ln_series4_within(r, f64::INFINITY).expect("no limit on the terms")
}

/// [`ln_series4`], or `None` once `max_terms` terms have not ended it.
pub(super) fn ln_series4_within(r: impl Fn(f64) -> f64, max_terms: f64) -> Option<f64> {
    let (mut t, mut sum, mut ln_scale) = (1.0_f64, 1.0_f64, 0.0_f64);
    let mut k = 0.0;
    while k < max_terms {
        let (r1, r2, r3, r4) = (r(k + 1.0), r(k + 2.0), r(k + 3.0), r(k + 4.0));
        let p1 = r1;
        let p2 = p1 * r2;
        let p3 = p2 * r3;
        let p4 = p3 * r4;
        sum += t * ((p1 + p2) + (p3 + p4));
        t *= p4;
        k += 4.0;
        if (r4 < 1.0 && t < TAIL_EPS * sum) || t == 0.0 {
            return Some(ln_scale + sum.ln());
        }
        if sum > 1e250 {
            ln_scale += sum.ln();
            t /= sum;
            sum = 1.0;
        }
    }
    None
}

/// `ln P(X <= c)` for `X ~ Poisson(lambda)`.
pub fn ln_pois_cdf(c: u64, lambda: f64) -> f64 {
    if (c as f64) + 1.0 >= lambda {
        // Upper tail is the small side: ln(1 - Q) keeps full precision.
        ln_1m_exp(ln_pois_sf(c, lambda))
    } else {
        ln_pois_cdf_lower(c, lambda)
    }
}

fn ln_pois_cdf_lower(c: u64, lambda: f64) -> f64 {
    ln_series(ln_dpois(c, lambda), c, 0, true, |k| k as f64 / lambda)
}

/// `ln P(X > c)` for `X ~ Binomial(n, p)`, `q = 1 - p`.
pub fn ln_binom_sf(c: u64, n: u64, p: f64, q: f64) -> f64 {
    if c >= n {
        return f64::NEG_INFINITY;
    }
    if (c as f64) + 1.0 >= n as f64 * p {
        let odds = p / q;
        ln_series(ln_dbinom(c + 1, n, p, q), c + 1, n, false, |k| {
            (n - k) as f64 / (k + 1) as f64 * odds
        })
    } else {
        let inv_odds = q / p;
        let lower = ln_series(ln_dbinom(c, n, p, q), c, 0, true, |k| {
            k as f64 / (n - k + 1) as f64 * inv_odds
        });
        ln_1m_exp(lower)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `ln_1m_small` is `ln_1p(-q)` to a few ulps, on both sides of its
    /// switch.
    #[test]
    fn ln_1m_small_is_the_logarithm() {
        for &q in &[
            1e-12, 3e-9, 1e-7, 2.5e-5, 1e-4, 1e-3, 4e-3, 0.0099, 0.01, 0.02, 0.3,
        ] {
            let (got, want) = (ln_1m_small(q), (-q).ln_1p());
            assert!(
                (got / want - 1.0).abs() < 4.0 * f64::EPSILON,
                "{q}: {got} vs {want}"
            );
        }
    }

    fn ln_fact(n: u64) -> f64 {
        (1..=n).map(|k| (k as f64).ln()).sum()
    }

    #[test]
    fn pmfs_match_direct_formulas() {
        for &(x, lam) in &[
            (0u64, 3.5),
            (1, 0.2),
            (7, 7.0),
            (40, 12.0),
            (700, 700.0),
            (900, 700.0),
        ] {
            let direct = x as f64 * f64::ln(lam) - lam - ln_fact(x);
            let got = ln_dpois(x, lam);
            assert!(
                (got - direct).abs() < 1e-11 * (1.0 + direct.abs()),
                "{x} {lam}: {got} vs {direct}"
            );
        }
        let (p, q): (f64, f64) = (1.0 / 3.0, 2.0 / 3.0);
        for x in 0..=6u64 {
            let direct = ln_fact(6) - ln_fact(x) - ln_fact(6 - x)
                + x as f64 * p.ln()
                + (6 - x) as f64 * q.ln();
            assert!((ln_dbinom(x, 6, p, q) - direct).abs() < 1e-13, "x = {x}");
        }
    }

    /// The four-a-step tail against the one-a-step tail, from the far
    /// lower side to 1e-300 above, small and large means.
    #[test]
    fn quick_tail_is_the_tail() {
        for &lambda in &[1e-9_f64, 0.3, 7.0, 390.0, 2_223.0, 1e6] {
            let sd = lambda.sqrt().max(1.0);
            for z in [
                -30.0_f64, -8.0, -2.0, -0.5, 0.0, 0.7, 3.0, 10.0, 40.0, 200.0,
            ] {
                let c = (lambda + z * sd).max(0.0) as u64;
                // The smaller side's log: its rounding is relative to it,
                // and grows with the terms summed (about 10 sd of them, a
                // rounding each: as the square root of their count for
                // either order, up to their count).
                let small = |x: f64| if x < -0.5 { x } else { ln_1m_exp(x) };
                let tol = 1e-15 * lambda.sqrt().max(10.0);
                let (want, got) = (ln_pois_sf(c, lambda), ln_pois_sf_quick(c, lambda));
                let (want, got) = (small(want), small(got));
                assert!(
                    got == want || (got - want).abs() <= tol * want.abs().max(1.0),
                    "lambda {lambda} c {c}: {got} vs {want}"
                );
                let (want, got) = (ln_pois_cdf(c, lambda), ln_pois_cdf_quick(c, lambda));
                let (want, got) = (small(want), small(got));
                assert!(
                    got == want || (got - want).abs() <= tol * want.abs().max(1.0),
                    "lambda {lambda} c {c}: cdf {got} vs {want}"
                );
            }
        }
    }

    #[test]
    fn tails_sum_to_one_and_reach_far() {
        let (p, q) = (0.05, 0.95);
        for c in [0u64, 5, 20, 50, 99] {
            let lo = (1.0 - ln_binom_sf(c, 400, p, q).exp()).ln();
            let direct: f64 = (0..=c).map(|x| ln_dbinom(x, 400, p, q).exp()).sum::<f64>();
            assert!((lo.exp() - direct).abs() < 1e-14, "c = {c}");
        }
        // ln P(Poisson(1) > 200), far below 1e-300; mpmath at 50 digits:
        // log(nsum(e^-1/k!, [201, inf])).
        let want = -869.530_329_433_040_8;
        assert!((ln_pois_sf(200, 1.0) / want - 1.0).abs() < 1e-15);
        assert!(ln_pois_sf(200, 1.0) < -800.0);
        // All of Binomial(10, 1/2) beyond 9 is the single point 10.
        assert!((ln_binom_sf(9, 10, 0.5, 0.5) - 10.0 * 0.5f64.ln()).abs() < 1e-14);
        assert_eq!(ln_binom_sf(10, 10, 0.5, 0.5), f64::NEG_INFINITY);
    }
}
