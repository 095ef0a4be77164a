//! Exact Binomial(n, p) variates, built for the multinomial split's
//! conditional binomials (a fresh `n` every draw, so the set-up must be
//! cheap too).
//!
//! - Mean `m = floor((n + 1) p) >= 11` (with `p <= 1/2`; `p > 1/2` draws
//!   `n - Bin(n, 1 - p)`): Hörmann's BTRD, "The generation of binomial
//!   random variates", J. Statist. Comput. Simul. 46 (1993), the
//!   transformed rejection with decomposition that Boost.Random also uses.
//!   About 80% of draws (for a shard's ~700 likes) are accepted by the
//!   first test on one uniform; the rest take a second uniform and a ratio
//!   or log test. The set-up is one square root and one division (the slow
//!   path's constants are computed only when it is reached), against
//!   BTPE's dozen transcendental set-up terms (rand_distr, numpy).
//! - Smaller means: inversion from 0 with the pmf's ratio recurrence,
//!   about `np + 1` steps.
//!
//! Both are exact algorithms: the law drawn is Binomial(n, p) up to the
//! double rounding of the uniforms and of the pmf ratios, as in every
//! floating-point sampler. `tests` checks them against the exact pmf by
//! chi-square.

use rand::{Rng, RngExt};

/// At or below this mode BTRD's hat is not valid (the paper needs
/// `np >= 10`); inversion is then short anyway.
const INVERSION_MAX_MODE: u64 = 10;

/// Stirling's series remainder `fc(k) = ln k! - ((k + 1/2) ln(k + 1) - (k + 1)
/// + ln(2 pi) / 2)`, tabulated below 10 (where the series is too short).
const FC_TABLE: [f64; 10] = [
    0.081_061_466_795_327_26,
    0.041_340_695_955_409_29,
    0.027_677_925_684_998_34,
    0.020_790_672_103_765_09,
    0.016_644_691_189_821_19,
    0.013_876_128_823_070_75,
    0.011_896_709_945_891_77,
    0.010_411_265_261_972_09,
    0.009_255_462_182_712_733,
    0.008_330_563_433_362_87,
];

/// `fc(k)`: the table, or Stirling's series in `k' = k + 1`,
/// `1/(12 k') - 1/(360 k'^3) + 1/(1260 k'^5) - 1/(1680 k'^7)`: its error is
/// below the next term, `1/(1188 k'^9)` (4e-13 at k = 10, falling fast).
/// Boost stops a term earlier (3e-11 at k = 10); the extra term is free.
fn fc(k: f64) -> f64 {
    if k < 10.0 {
        return FC_TABLE[k as usize];
    }
    let ik = 1.0 / (k + 1.0);
    let ik2 = ik * ik;
    (1.0 / 12.0 - (1.0 / 360.0 - (1.0 / 1260.0 - (1.0 / 1680.0) * ik2) * ik2) * ik2) * ik
}

/// One uniform in [0, 1): 53 random bits, as `rng.random::<f64>()`.
#[inline]
fn uniform<R: Rng + ?Sized>(rng: &mut R) -> f64 {
    rng.random::<f64>()
}

/// Draws one Binomial(n, p) variate (`0 <= p <= 1`).
#[inline]
pub fn sample<R: Rng + ?Sized>(rng: &mut R, n: u64, p: f64) -> u64 {
    debug_assert!((0.0..=1.0).contains(&p), "p = {p}");
    if n == 0 || p <= 0.0 {
        return 0;
    }
    if p >= 1.0 {
        return n;
    }
    // Draw with the smaller of p and 1 - p: both algorithms assume p <= 1/2.
    let (p, flip) = if p > 0.5 { (1.0 - p, true) } else { (p, false) };
    let mode = ((n + 1) as f64 * p) as u64;
    let k = if mode <= INVERSION_MAX_MODE {
        invert(rng, n, p)
    } else {
        btrd(rng, n, p, mode)
    };
    if flip {
        n - k
    } else {
        k
    }
}

/// Inversion for small means: walk the pmf from 0, subtracting each
/// `P(X = x)` from the uniform until it runs out. The mode is at most 10
/// here, so `P(X = 0) = q^n >= e^-16` never underflows.
fn invert<R: Rng + ?Sized>(rng: &mut R, n: u64, p: f64) -> u64 {
    let q = 1.0 - p;
    let s = p / q;
    let a = (n + 1) as f64 * s;
    let mut r = (n as f64 * (-p).ln_1p()).exp();
    let mut u = uniform(rng);
    let mut x = 0u64;
    while u > r && x < n {
        u -= r;
        x += 1;
        // P(X = x) / P(X = x - 1) = ((n + 1)/x - 1) p/q.
        let next = (a / x as f64 - s) * r;
        // Past the mode the pmf falls geometrically; once a term is below
        // the uniform's resolution what is left of u is rounding, not mass.
        if next < f64::EPSILON && next < r {
            break;
        }
        r = next;
    }
    x
}

/// BTRD's hat for one `(n, p)` (`p <= 1/2`, mode `m >= 11`): the paper's
/// step 0, its set-up, and the constants its later steps share.
struct Hat {
    nf: f64,
    p: f64,
    q: f64,
    npq: f64,
    spq: f64,
    a: f64,
    b: f64,
    c: f64,
    v_r: f64,
    inv_v_r: f64,
    u_rv_r: f64,
    m: u64,
    mf: f64,
}

impl Hat {
    /// Step 0: the set-up.
    #[inline]
    fn new(n: u64, p: f64, m: u64) -> Hat {
        let nf = n as f64;
        let q = 1.0 - p;
        let npq = nf * p * q;
        let spq = npq.sqrt();
        // The hat's shape (the paper's set-up).
        let b = 1.15 + 2.53 * spq;
        let a = -0.0873 + 0.0248 * b + 0.01 * p;
        let c = nf * p + 0.5;
        let v_r = 0.92 - 4.2 / b;
        // 1 / v_r from b directly: the two divisions run side by side, and the
        // draws below multiply (the split's binomials form one chain, each `n`
        // waiting for the last draw, so latency is what costs).
        let inv_v_r = b / (0.92 * b - 4.2);
        let u_rv_r = 0.86 * v_r;
        let mf = m as f64;
        Hat {
            nf,
            p,
            q,
            npq,
            spq,
            a,
            b,
            c,
            v_r,
            inv_v_r,
            u_rv_r,
            m,
            mf,
        }
    }

    /// Step 3.1: accept `k` (within 15 of the mode) when `v <= f(k) / f(m)`.
    #[inline]
    fn step_3_1(&self, k: u64, v: f64) -> bool {
        let (nf, m) = (self.nf, self.m);
        // Step 3.1: f(k) / f(m) by the pmf's ratio recurrence,
        // f(i) / f(i - 1) = r (n + 1 - i) / i, as one numerator and one
        // denominator product (at most 15 factors below n + 1 each, so
        // no overflow) compared without dividing.
        let r = self.p / self.q;
        let (mut num, mut den) = (1.0, 1.0);
        let (from, to) = if m < k { (m, k) } else { (k, m) };
        for i in from + 1..=to {
            let i = i as f64;
            num *= r * (nf + 1.0 - i); // nr - r i, without cancelling
            den *= i;
        }
        // m < k: accept when v <= f(k)/f(m) = num/den; m >= k: when
        // v f(m)/f(k) <= 1, i.e. v num <= den.
        if m < k {
            v * den <= num
        } else {
            v * num <= den
        }
    }

    /// Steps 3.2-3.4: accept `k` (`km = k - m`, more than 15 from the mode)
    /// when `ln v <= ln f(k) / f(m)`, by a squeeze first, then exactly.
    #[inline]
    fn steps_3_2_to_3_4(&self, k: u64, km: f64, v: f64) -> bool {
        let (nf, mf, npq) = (self.nf, self.mf, self.npq);
        let kf = k as f64;
        // Step 3.2: squeeze on ln f(k) / f(m) around the normal's -km^2/2npq.
        let v = v.ln();
        let km = km.abs();
        let rho = (km / npq) * (((km / 3.0 + 0.625) * km + 1.0 / 6.0) / npq + 0.5);
        let t = -km * km / (2.0 * npq);
        if v < t - rho {
            return true;
        }
        if v > t + rho {
            return false;
        }
        // Steps 3.3-3.4: the exact log ratio by Stirling with its remainder.
        let r = self.p / self.q;
        let nm = nf - mf + 1.0;
        let h = (mf + 0.5) * ((mf + 1.0) / (r * nm)).ln() + fc(mf) + fc(nf - mf);
        let nk = nf - kf + 1.0;
        let bound = h + (nf + 1.0) * (nm / nk).ln() + (kf + 0.5) * (nk * r / (kf + 1.0)).ln()
            - fc(kf)
            - fc(nf - kf);
        v <= bound
    }
}

/// BTRD for `p <= 1/2` and mode `m >= 11`, step numbers as in the paper.
fn btrd<R: Rng + ?Sized>(rng: &mut R, n: u64, p: f64, m: u64) -> u64 {
    let hat = Hat::new(n, p, m);
    let Hat {
        nf,
        a,
        b,
        c,
        v_r,
        inv_v_r,
        u_rv_r,
        spq,
        mf,
        ..
    } = hat;
    loop {
        // Step 1: the central box, accepted at once (one uniform).
        let mut v = uniform(rng);
        if v <= u_rv_r {
            // The box lies within about 3 sd of the mean, so with a mode of
            // at least 11 (and p <= 1/2) its k is always in 0..=n.
            let u = v * inv_v_r - 0.43;
            // The cast truncates, which is floor for x >= 0 (and, unlike
            // `floor`, is no libm call on baseline x86-64).
            return ((2.0 * a / (0.5 - u.abs()) + b) * u + c) as u64;
        }
        // Step 2: a point under the hat outside the box. The part of v above
        // u_r v_r is itself uniform and is reused for u.
        let u = if v >= v_r {
            uniform(rng) - 0.5
        } else {
            let u = v * inv_v_r - 0.93;
            v = uniform(rng) * v_r;
            (if u < 0.0 { -0.5 } else { 0.5 }) - u
        };
        // Step 3.0: the candidate and its height under the hat.
        let us = 0.5 - u.abs();
        let x = (2.0 * a / us + b) * u + c;
        // floor(x) outside 0..=n: x < 0 or x >= n + 1.
        if !(0.0..nf + 1.0).contains(&x) {
            continue;
        }
        let k = x as u64; // floor, as x >= 0
        let kf = k as f64;
        let alpha = (2.83 + 5.1 / b) * spq;
        v *= alpha / (a / (us * us) + b);
        let km = kf - mf;
        let accept = if km.abs() <= 15.0 {
            hat.step_3_1(k, v)
        } else {
            hat.steps_3_2_to_3_4(k, km, v)
        };
        if accept {
            return k;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::rng::chunk_rng;

    /// `ln P(X = k)` for X ~ Binomial(n, p), by `ln_gamma` (exact enough to
    /// test against: relative error ~1e-13).
    fn ln_pmf(n: u64, p: f64, k: u64) -> f64 {
        let lg = |x: f64| libm::lgamma(x);
        lg(n as f64 + 1.0) - lg(k as f64 + 1.0) - lg((n - k) as f64 + 1.0)
            + k as f64 * p.ln()
            + (n - k) as f64 * (-p).ln_1p()
    }

    /// Pearson's chi-square of `draws` samples against the exact pmf, over
    /// cells with expected count >= 20 (the tails pooled into the end
    /// cells). Returns (statistic, degrees of freedom).
    fn chi2(n: u64, p: f64, draws: u64, seed: u64) -> (f64, usize) {
        let mut rng = chunk_rng(seed, 0);
        let mut seen = vec![0u64; n as usize + 1];
        for _ in 0..draws {
            let k = sample(&mut rng, n, p);
            assert!(k <= n);
            seen[k as usize] += 1;
        }
        let want: Vec<f64> = (0..=n)
            .map(|k| draws as f64 * ln_pmf(n, p, k).exp())
            .collect();
        // Pool from each end until a cell expects at least 20.
        let (mut cells, mut e, mut o) = (Vec::new(), 0.0, 0u64);
        for k in 0..=n as usize {
            e += want[k];
            o += seen[k];
            if e >= 20.0 {
                cells.push((o as f64, e));
                e = 0.0;
                o = 0;
            }
        }
        if let Some(last) = cells.last_mut() {
            last.0 += o as f64;
            last.1 += e;
        }
        let stat = cells.iter().map(|(o, e)| (o - e) * (o - e) / e).sum();
        (stat, cells.len() - 1)
    }

    /// The chi-square's 0.999 quantile, by Wilson-Hilferty (within 1% for
    /// df >= 5, the margin is far wider than that).
    fn chi2_999(df: usize) -> f64 {
        let k = df as f64;
        let z = 3.090_232;
        k * (1.0 - 2.0 / (9.0 * k) + z * (2.0 / (9.0 * k)).sqrt()).powi(3)
    }

    #[test]
    fn matches_the_exact_pmf() {
        // BTRD at the split's first and last steps (14,000 over 20 shards),
        // near its threshold, both sides of p = 1/2, and inversion at small
        // and tiny means. alpha = 0.001 each, fixed seeds.
        for (i, &(n, p)) in [
            (14_000u64, 0.05),
            (1_400, 0.5),
            (200, 0.07),
            (40, 0.3),
            (1_000, 0.9),
            (30, 0.2),
            (5_000, 0.001),
            (12, 0.5),
            (100_000, 1.0 / 286.0),
        ]
        .iter()
        .enumerate()
        {
            let (stat, df) = chi2(n, p, 400_000, 100 + i as u64);
            assert!(
                stat < chi2_999(df),
                "Bin({n}, {p}): chi2 {stat:.1} over {df} df"
            );
        }
    }

    #[test]
    fn edges() {
        let mut rng = chunk_rng(3, 0);
        assert_eq!(sample(&mut rng, 0, 0.3), 0);
        assert_eq!(sample(&mut rng, 10, 0.0), 0);
        assert_eq!(sample(&mut rng, 10, 1.0), 10);
        for _ in 0..1000 {
            assert!(sample(&mut rng, 1, 0.5) <= 1);
            assert!(sample(&mut rng, 25, 0.5) <= 25);
        }
    }

    #[test]
    fn stirling_remainder_matches_ln_factorial() {
        // fc(k) = ln k! - ((k + 1/2) ln(k + 1) - (k + 1) + ln(2 pi) / 2),
        // for the table (k < 10) and the series (k >= 10).
        for k in [0.0, 3.0, 9.0, 10.0, 11.0, 40.0, 700.0] {
            let f: f64 = k;
            let exact = libm::lgamma(f + 1.0)
                - ((f + 0.5) * (f + 1.0).ln() - (f + 1.0) + 0.5 * std::f64::consts::TAU.ln());
            // lgamma's own rounding grows with ln k!: allow 1e-15 of it.
            let tol = 1e-12_f64.max(1e-15 * libm::lgamma(f + 1.0));
            assert!((fc(k) - exact).abs() < tol, "k = {k}: {} vs {exact}", fc(k));
        }
    }
}
