//! `ln P(max <= c)` for a fixed count of `L` likes over `S` shards
//! (Multinomial(L; 1/S, ..., 1/S)) by Levin's representation:
//!
//! B. Levin, "A representation for multinomial cumulative distribution
//! functions", Annals of Statistics 9(5), 1981. With `X_i ~ Poisson(lambda)`
//! independent (any `lambda > 0`), `Y_i` = `X_i` conditioned on `X_i <= c`,
//! and `W = Y_1 + ... + Y_S`:
//!
//! `P(max <= c) = L! / (s^L e^-s) * P(X <= c)^S * P(W = L)`,  `s = S lambda`,
//!
//! and `L! / (s^L e^-s) = 1 / P(Poisson(s) = L)`, which Loader's pmf gives
//! without the huge cancelling `ln L!` terms.
//!
//! `P(W = L)` is read off the characteristic function of `Y` on a circular
//! grid of `M` points (`W mod M`): `P(W = L) = 1/M sum_j psi_j^S` with
//! `psi_j = E exp(-i w_j (Y - L/S))`, `w_j = 2 pi j / M`. `lambda` is tilted
//! so that `E[W] = L`, which puts `L` at the centre of `W`'s bell: then a
//! grid of about 30 standard deviations of `W` holds all its mass (no
//! aliasing) and only the first ~100 frequencies are above 1e-18.

use super::special::{ln_dpois, ln_pois_cdf, stirlerr};

/// `|psi_j|^S` below this is negligible next to `P(W = L) M >= 1`...
const QUIET: f64 = 1e-20;
/// ... once this many frequencies in a row are.
const QUIET_RUN: u32 = 16;

/// `|psi|^S`.
fn psi_pow(re: f64, im: f64, shards: u64) -> f64 {
    (shards as f64 * 0.5 * (re * re + im * im).ln()).exp()
}

/// Pmf terms below this (relative to the mode) cannot move `P(W = L)`.
const PMF_FLOOR: f64 = 1e-30;

/// A truncated Poisson(lambda) on `0..=c`, kept on its significant support
/// `first..first + w.len()`, normalised to sum 1.
pub(super) struct Truncated {
    pub(super) first: u64,
    pub(super) w: Vec<f64>,
    pub(super) mean: f64,
    pub(super) var: f64,
}

fn truncated(lambda: f64, c: u64) -> Truncated {
    truncated_between(lambda, 0, Some(c))
}

/// A Poisson(lambda) conditioned on `lo <= X <= hi` (no upper end for
/// `None`), kept on its significant support and normalised to sum 1.
pub(super) fn truncated_between(lambda: f64, lo: u64, hi: Option<u64>) -> Truncated {
    let hi = hi.unwrap_or(u64::MAX);
    let mode = (lambda.floor() as u64).clamp(lo, hi);
    // Walk down and up from the mode by the pmf ratio k / lambda.
    let mut down = Vec::new();
    let (mut t, mut k) = (1.0_f64, mode);
    while k > lo {
        t *= k as f64 / lambda;
        if t < PMF_FLOOR {
            break;
        }
        down.push(t);
        k -= 1;
    }
    let first = mode - down.len() as u64;
    down.reverse();
    let mut w = down;
    w.push(1.0);
    let (mut t, mut k) = (1.0_f64, mode);
    while k < hi {
        t *= lambda / (k + 1) as f64;
        if t < PMF_FLOOR {
            break;
        }
        w.push(t);
        k += 1;
    }
    let z: f64 = w.iter().sum();
    let mut mean = 0.0;
    for (i, x) in w.iter_mut().enumerate() {
        *x /= z;
        mean += *x * (first + i as u64) as f64;
    }
    let var = w
        .iter()
        .enumerate()
        .map(|(i, x)| x * ((first + i as u64) as f64 - mean).powi(2))
        .sum::<f64>();
    Truncated {
        first,
        w,
        mean,
        var,
    }
}

/// The Poisson mean per shard that makes `E[Y] = L/S` for the cut at `c`
/// (needs `c > L/S`). Any value is correct; this one makes `P(W = L)` the
/// peak of `W`, where the grid sum is most accurate.
fn tilt(likes: u64, shards: u64, c: u64) -> f64 {
    let mu = likes as f64 / shards as f64;
    let close_enough = |t: &Truncated| {
        // Off-centre by under 0.05 standard deviations of W.
        (t.mean - mu).abs() * (shards as f64).sqrt() <= 0.05 * t.var.sqrt().max(1e-300)
    };
    let (mut lo, mut hi) = (mu.ln(), f64::NAN);
    let mut x = lo;
    for _ in 0..200 {
        let t = truncated(x.exp(), c);
        if close_enough(&t) {
            return x.exp();
        }
        if t.mean < mu {
            lo = x;
        } else {
            hi = x;
        }
        // Newton on ln lambda (dE/d ln lambda = Var Y), safeguarded by the
        // bracket [lo, hi].
        let mut next = x + (mu - t.mean) / t.var.max(1e-12);
        if next.is_nan() || next <= lo || (hi.is_finite() && next >= hi) {
            next = if hi.is_finite() {
                0.5 * (lo + hi)
            } else {
                lo + 1.0
            };
        }
        x = next;
    }
    x.exp()
}

/// `P(W = L)` by the grid sum over frequencies.
pub(super) fn prob_sum_is(likes: u64, shards: u64, y: &Truncated) -> f64 {
    let s = shards as i64;
    let l = likes as i64;
    let sd_w = (shards as f64 * y.var).sqrt();
    let width = shards * (y.w.len() as u64 - 1) + 1;
    let m = width.min(2 * (15.0 * sd_w).ceil() as u64 + 64).max(1);
    if m == 1 {
        return 1.0;
    }
    let mf = m as f64;
    // Twiddles e^{-2 pi i r / M} for r in 0..M.
    let tw: Vec<(f64, f64)> = (0..m)
        .map(|r| {
            let a = -std::f64::consts::TAU * r as f64 / mf;
            (a.cos(), a.sin())
        })
        .collect();
    // Integer shift near the mean; the fractional part L/S - k_r is applied
    // once per frequency as an exact rational angle.
    let k_r = (likes + shards / 2) / shards;
    let half = m / 2;
    let gauss_j = 9.1 * mf / (std::f64::consts::TAU * sd_w.max(1e-300));
    let term = |j: u64| -> f64 {
        // sum_k p_k e^{-i w_j (k - k_r)}, index (j (k - k_r)) mod M stepped by j.
        let start = (y.first as i64 - k_r as i64) * j as i64;
        let mut idx = start.rem_euclid(m as i64) as u64;
        let (mut re, mut im) = (0.0, 0.0);
        for &p in &y.w {
            let (c, sn) = tw[idx as usize];
            re += p * c;
            im += p * sn;
            idx += j;
            if idx >= m {
                idx -= m;
            }
        }
        // times e^{-i w_j (k_r - L/S)} = e^{-2 pi i j (S k_r - L) / (S M)}.
        let num = ((s * k_r as i64 - l) as i128 * j as i128).rem_euclid(s as i128 * m as i128);
        let a = -std::f64::consts::TAU * num as f64 / (s as f64 * mf);
        let (c, sn) = (a.cos(), a.sin());
        let (re, im) = (re * c - im * sn, re * sn + im * c);
        // psi^S = |psi|^S e^{i S arg psi}
        let ln_abs = 0.5 * (re * re + im * im).ln();
        let mag = (shards as f64 * ln_abs).exp();
        if mag == 0.0 {
            return 0.0;
        }
        mag * (shards as f64 * im.atan2(re)).cos()
    };
    let mut total = 1.0; // j = 0: psi = 1
    let mut quiet = 0;
    // Past the Gaussian cut-off, stop after a run of negligible terms: the
    // cut at c makes |psi| fall only like 1/w, so a fixed cut-off is unsafe.
    for j in 1..=half {
        let t = term(j);
        total += if 2 * j == m { t } else { 2.0 * t };
        quiet = if t.abs() < QUIET { quiet + 1 } else { 0 };
        if j as f64 >= gauss_j && quiet >= QUIET_RUN {
            break;
        }
    }
    total / mf
}

/// `ln P(max <= c)` for exactly `likes` likes over `shards` shards.
pub fn ln_cdf_fixed(likes: u64, shards: u64, c: u64) -> f64 {
    if c >= likes {
        return 0.0;
    }
    if shards == 1 {
        return f64::NEG_INFINITY;
    }
    let sc = shards as u128 * c as u128;
    if sc < likes as u128 {
        return f64::NEG_INFINITY;
    }
    if sc == likes as u128 {
        // Every shard has exactly c: L! / (c!^S S^L). With Stirling's
        // form ln n! = (n + 1/2) ln n - n + ln(2 pi)/2 + stirlerr(n) and
        // L = S c, the n ln n and n terms cancel exactly, leaving no
        // cancellation of size L ln L.
        let (l, s, cf) = (likes as f64, shards as f64, c as f64);
        let half_ln_2pi = 0.5 * (2.0 * std::f64::consts::PI).ln();
        return 0.5 * l.ln() - 0.5 * s * cf.ln() + half_ln_2pi * (1.0 - s) + stirlerr(l)
            - s * stirlerr(cf);
    }
    let lambda = tilt(likes, shards, c);
    let y = truncated(lambda, c);
    let p_w = prob_sum_is(likes, shards, &y);
    let ln_f = ln_pois_cdf(c, lambda);
    shards as f64 * ln_f + p_w.ln() - ln_dpois(likes, shards as f64 * lambda)
}

/// `ln P(max <= c)` for every `c` in `from..=to`: the same values as
/// [`ln_cdf_fixed`], much faster for long ranges.
///
/// Consecutive `c` share one tilt `lambda` while it keeps `E[W]` within one
/// standard deviation of `L` (a block), so the truncated pmf only gains the
/// term `k = c` and each frequency's sum is updated in O(1): a block costs
/// O(K J) once and then O(J) per `c` instead of O(K J) per `c`.
pub fn ln_cdf_fixed_range(likes: u64, shards: u64, from: u64, to: u64) -> Vec<f64> {
    let mut out = Vec::with_capacity(to.saturating_sub(from) as usize + 1);
    let mut c = from;
    while c <= to {
        let sc = shards as u128 * c as u128;
        if c >= likes || shards == 1 || sc <= likes as u128 {
            out.push(ln_cdf_fixed(likes, shards, c));
            c += 1;
            continue;
        }
        let mut block = Block::start(likes, shards, c);
        out.push(block.ln_cdf());
        c += 1;
        while c <= to && c < likes && block.extend(c) {
            out.push(block.ln_cdf());
            c += 1;
        }
    }
    out
}

/// The running sums for one tilt (see [`ln_cdf_fixed_range`]).
struct Block {
    likes: u64,
    shards: u64,
    lambda: f64,
    c: u64,
    /// Sums of the unnormalised weights `w_k` over `k <= c`: `w`, `w k`, `w k^2`.
    z: f64,
    zk: f64,
    zk2: f64,
    /// The last weight, for the ratio step `w_{c+1} = w_c lambda / (c+1)`.
    w_last: f64,
    sd_w_start: f64,
    m: u64,
    tw: Vec<(f64, f64)>,
    /// Per frequency j = 1..=J: running sum `sum_k w_k e^{-i w_j (k - k_r)}`,
    /// the index `(j (c - k_r)) mod M`, and the phase `e^{-i w_j (k_r - L/S)}`.
    phi: Vec<(f64, f64)>,
    idx: Vec<u64>,
    frac: Vec<(f64, f64)>,
}

impl Block {
    fn start(likes: u64, shards: u64, c: u64) -> Block {
        let lambda = tilt(likes, shards, c);
        let y = truncated(lambda, c);
        let sd_w = (shards as f64 * y.var).sqrt();
        // Room for W's sd to grow by half before the block must end.
        let m = 2 * (22.5 * sd_w).ceil() as u64 + 64;
        let mf = m as f64;
        let tw: Vec<(f64, f64)> = (0..m)
            .map(|r| {
                let a = -std::f64::consts::TAU * r as f64 / mf;
                (a.cos(), a.sin())
            })
            .collect();
        let k_r = (likes + shards / 2) / shards;
        let gauss_j = 9.1 * mf / (std::f64::consts::TAU * sd_w.max(1e-300));
        let (s, l) = (shards as i128, likes as i128);
        let (mut phi, mut idx, mut frac) = (Vec::new(), Vec::new(), Vec::new());
        let mut quiet = 0;
        for j in 1..=m / 2 {
            let mut i = ((y.first as i64 - k_r as i64) * j as i64).rem_euclid(m as i64) as u64;
            let (mut re, mut im) = (0.0, 0.0);
            for &p in &y.w {
                let (co, si) = tw[i as usize];
                re += p * co;
                im += p * si;
                i += j;
                if i >= m {
                    i -= m;
                }
            }
            phi.push((re, im));
            // i is now the index for k = c + 1; keep the one for k = c.
            idx.push((i + m - j % m) % m);
            let num = ((s * k_r as i128 - l) * j as i128).rem_euclid(s * m as i128);
            let a = -std::f64::consts::TAU * num as f64 / (s as f64 * mf);
            frac.push((a.cos(), a.sin()));
            quiet = if psi_pow(re, im, shards) < QUIET {
                quiet + 1
            } else {
                0
            };
            if j as f64 >= gauss_j && quiet >= QUIET_RUN {
                break;
            }
        }
        let (mut zk, mut zk2) = (0.0, 0.0);
        for (i, p) in y.w.iter().enumerate() {
            let k = (y.first + i as u64) as f64;
            zk += p * k;
            zk2 += p * k * k;
        }
        // truncated() stops early once terms fall below the floor; carry on
        // the ratio from the top term it kept.
        let top = y.first + y.w.len() as u64 - 1;
        let mut w_last = *y.w.last().unwrap_or(&1.0);
        for k in top..c {
            w_last *= lambda / (k + 1) as f64;
        }
        Block {
            likes,
            shards,
            lambda,
            c,
            z: 1.0,
            zk,
            zk2,
            w_last,
            sd_w_start: sd_w,
            m,
            tw,
            phi,
            idx,
            frac,
        }
    }

    /// Adds `k = c` (the next cut); false when this tilt is no longer
    /// centred enough, or W has widened beyond the grid's margin.
    fn extend(&mut self, c: u64) -> bool {
        debug_assert_eq!(c, self.c + 1);
        let w = self.w_last * self.lambda / c as f64;
        let (z, zk, zk2) = (
            self.z + w,
            self.zk + w * c as f64,
            self.zk2 + w * (c as f64).powi(2),
        );
        let mean = zk / z;
        let var = (zk2 / z - mean * mean).max(0.0);
        let mu = self.likes as f64 / self.shards as f64;
        let sf = self.shards as f64;
        if (mean - mu).abs() * sf.sqrt() > var.sqrt() || (sf * var).sqrt() > 1.5 * self.sd_w_start {
            return false;
        }
        self.c = c;
        self.w_last = w;
        self.z = z;
        self.zk = zk;
        self.zk2 = zk2;
        for (i, ((re, im), ix)) in self.phi.iter_mut().zip(self.idx.iter_mut()).enumerate() {
            let j = (i + 1) as u64;
            *ix += j % self.m;
            if *ix >= self.m {
                *ix -= self.m;
            }
            let (co, si) = self.tw[*ix as usize];
            *re += w * co;
            *im += w * si;
        }
        if let Some(&(re, im)) = self.phi.last() {
            let j = self.phi.len() as u64;
            if 2 * j < self.m && psi_pow(re / self.z, im / self.z, self.shards) >= QUIET {
                // The last frequency kept is no longer negligible: new block.
                return false;
            }
        }
        if self.z > 1e200 {
            let r = 1.0 / self.z;
            self.z = 1.0;
            self.zk *= r;
            self.zk2 *= r;
            self.w_last *= r;
            for p in &mut self.phi {
                p.0 *= r;
                p.1 *= r;
            }
        }
        true
    }

    fn ln_cdf(&self) -> f64 {
        let sf = self.shards as f64;
        let mut total = 1.0;
        for (j, (&(re, im), &(co, si))) in self.phi.iter().zip(&self.frac).enumerate() {
            let (re, im) = (re / self.z, im / self.z);
            let (re, im) = (re * co - im * si, re * si + im * co);
            let mag = (sf * 0.5 * (re * re + im * im).ln()).exp();
            if mag == 0.0 {
                continue;
            }
            let weight = if 2 * (j as u64 + 1) == self.m {
                1.0
            } else {
                2.0
            };
            total += weight * mag * (sf * im.atan2(re)).cos();
        }
        let p_w = total / self.m as f64;
        let ln_f = ln_pois_cdf(self.c, self.lambda);
        sf * ln_f + p_w.ln() - ln_dpois(self.likes, sf * self.lambda)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn range_matches_point_by_point() {
        for &(l, s, from, to) in &[
            (14_000u64, 20u64, 700u64, 900u64),
            (6, 3, 0, 7),
            (1000, 2, 490, 700),
            (200_000, 286, 700, 760),
            (1_000_000, 10, 100_000, 100_060),
        ] {
            let range = ln_cdf_fixed_range(l, s, from, to);
            assert_eq!(range.len() as u64, to - from + 1);
            for (i, got) in range.iter().enumerate() {
                let c = from + i as u64;
                let want = ln_cdf_fixed(l, s, c);
                let err = if want == *got {
                    0.0
                } else {
                    (got - want).abs()
                };
                assert!(
                    err < 1e-12 * want.abs().max(1.0),
                    "L={l} S={s} c={c}: {got} vs {want}"
                );
            }
        }
    }

    #[test]
    fn long_ranges_stay_finite_and_monotone() {
        // 3,001 cuts over 10 shards of 100,000 likes each (mean + 9.5 sd);
        // its speed is shown by `cargo bench --bench exact`, not timed here.
        let v = ln_cdf_fixed_range(1_000_000, 10, 100_000, 103_000);
        // ln P(max <= c) near 0 in the far tail: a probability, up to
        // rounding (Levin's terms are each good to ~1e-13 relative).
        assert!(
            v.iter().all(|x| x.is_finite() && *x <= 1e-12),
            "{:?}",
            v.iter().cloned().fold(f64::MIN, f64::max)
        );
        assert!(v.windows(2).all(|w| w[1] >= w[0] - 1e-12));
    }

    #[test]
    fn all_shards_equal_is_exact() {
        // P(max <= 100) for 1000 likes over 10 shards = 1000! / (100!^10 10^1000);
        // exact rational (scripts/check_exact.py): 8.0280057518333943e-13.
        let got = ln_cdf_fixed(1000, 10, 100).exp();
        assert!(
            (got / 8.028_005_751_833_394e-13 - 1.0).abs() < 1e-14,
            "{got:e}"
        );
        // L = 6, S = 3, c = 2: 90/729.
        assert!((ln_cdf_fixed(6, 3, 2).exp() / (90.0 / 729.0) - 1.0).abs() < 1e-15);
    }

    #[test]
    fn tilt_centres_the_sum() {
        for &(l, s, c) in &[
            (14_000u64, 20u64, 720u64),
            (14_000, 20, 701),
            (6, 3, 3),
            (200_000, 286, 705),
        ] {
            let lam = tilt(l, s, c);
            let y = truncated(lam, c);
            let mu = l as f64 / s as f64;
            assert!(
                (y.mean - mu).abs() * (s as f64).sqrt() <= 0.05 * y.var.sqrt() + 1e-12,
                "{l} {s} {c}"
            );
        }
    }

    #[test]
    fn truncated_frequency_sum_matches_full_sum() {
        // Force every frequency by comparing against a grid-free direct
        // convolution on a small case.
        let (l, s, c) = (60u64, 4u64, 20u64);
        let lam = tilt(l, s, c);
        let y = truncated(lam, c);
        let mut dist = vec![1.0];
        for _ in 0..s {
            let mut next = vec![0.0; dist.len() + y.w.len() - 1];
            for (a, pa) in dist.iter().enumerate() {
                for (b, pb) in y.w.iter().enumerate() {
                    next[a + b] += pa * pb;
                }
            }
            dist = next;
        }
        let direct = dist[(l - s * y.first) as usize];
        let grid = prob_sum_is(l, s, &y);
        assert!((grid / direct - 1.0).abs() < 1e-12, "{grid} vs {direct}");
    }
}
