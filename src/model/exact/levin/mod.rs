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

mod frequencies;
mod range;
mod truncated;
pub mod twiddles;

pub use range::{ln_cdf_fixed_range, ln_cdf_fixed_range_within, Blocks};
pub(in crate::model::exact) use truncated::{truncated_between, Truncated};

use super::special::{ln_dpois, ln_pois_cdf, stirlerr};
use truncated::{truncated, truncated_moments};
use twiddles::{TwiddleCache, Twiddles};

/// `|psi_j|^S` below this is negligible next to `P(W = L) M >= 1`...
const QUIET: f64 = 1e-20;
/// ... once this many frequencies in a row are. (`|psi_j|` falls with `j`
/// for W's bell; the run guards a flat stretch, and a range block also
/// ends where its last frequency stops being negligible, see `range.rs`.
/// Sixteen cost a risk row about 8 more frequencies of some 60.)
const QUIET_RUN: u32 = 8;

/// `|psi|^S`.
fn psi_pow(re: f64, im: f64, shards: u64) -> f64 {
    (shards as f64 * 0.5 * (re * re + im * im).ln()).exp()
}

/// The Poisson mean per shard that makes `E[Y] = L/S` for the cut at `c`
/// (needs `c > L/S`), with `Y` at that mean (the last truncation the search
/// made). Any mean is correct; this one makes `P(W = L)` the peak of `W`,
/// where the grid sum is most accurate.
fn tilt(likes: u64, shards: u64, c: u64) -> (f64, Truncated) {
    tilt_aimed(likes, shards, c, Aim::CENTRED)
}

/// Where a tilt's search starts and where it puts `E[W]`.
///
/// Which mean within the search's tolerance is found moves a value's last
/// digits (~1e-12 in the log on some of `tests/stats/exact_grid.rs`'s
/// pinned tables), so the full table keeps [`Aim::CENTRED`], the search's
/// path of earlier builds; a risk row's blocks (not pinned, checked
/// against the table) start from the last block's mean and lead.
#[derive(Debug, Clone, Copy)]
pub(super) struct Aim {
    /// The search's first mean (`L/S` when `None`).
    pub(super) from: Option<f64>,
    /// `E[W]` this many of its standard deviations below `L`.
    pub(super) below: f64,
}

impl Aim {
    /// From `L/S`, `E[W]` on `L`.
    pub(super) const CENTRED: Aim = Aim {
        from: None,
        below: 0.0,
    };
}

/// [`tilt`] as `aim` says.
fn tilt_aimed(likes: u64, shards: u64, c: u64, aim: Aim) -> (f64, Truncated) {
    let mut last = None;
    let (lambda, _) = tilt_search(likes, shards, aim, |lambda| {
        let y = truncated(lambda, c);
        let moments = (y.mean, y.var);
        last = Some((lambda, y));
        moments
    });
    match last {
        Some((at, y)) if at == lambda => (lambda, y),
        _ => (lambda, truncated(lambda, c)),
    }
}

/// The tilt's search (Newton on `ln lambda`, safeguarded by a bracket),
/// reading `(E[Y], Var Y)` at each trial mean from `moments`: from the pmf
/// where the caller wants it, or the moments alone (the estimate, which
/// needs only `Var Y`). Returns the mean found and `Var Y` there.
fn tilt_search(
    likes: u64,
    shards: u64,
    aim: Aim,
    mut moments: impl FnMut(f64) -> (f64, f64),
) -> (f64, f64) {
    let mu = likes as f64 / shards as f64;
    let root_s = (shards as f64).sqrt();
    // E[Y] for E[W] `below` standard deviations of W under L.
    let target = |var: f64| mu - aim.below * var.sqrt() / root_s;
    // Off target by under 0.05 standard deviations of W.
    let close_enough =
        |mean: f64, var: f64| (mean - target(var)).abs() * root_s <= 0.05 * var.sqrt().max(1e-300);
    // The bracket starts open; the first trial (from `L/S`, under the
    // centred answer as truncation only lowers the mean, or from the last
    // block's) closes one side.
    let (mut lo, mut hi) = (f64::NEG_INFINITY, f64::NAN);
    let mut x = aim.from.map_or(mu.ln(), f64::ln);
    for _ in 0..200 {
        let (mean, var) = moments(x.exp());
        if close_enough(mean, var) {
            return (x.exp(), var);
        }
        let goal = target(var);
        if mean < goal {
            lo = x;
        } else {
            hi = x;
        }
        // Newton on ln lambda (dE/d ln lambda = Var Y), safeguarded by the
        // bracket [lo, hi].
        let mut next = x + (goal - mean) / var.max(1e-12);
        if next.is_nan() || next <= lo || (hi.is_finite() && next >= hi) {
            next = match (lo.is_finite(), hi.is_finite()) {
                (true, true) => 0.5 * (lo + hi),
                (true, false) => lo + 1.0,
                _ => hi - 1.0,
            };
        }
        x = next;
    }
    (x.exp(), moments(x.exp()).1)
}

/// Half a grid, in standard deviations of `W`: the mass `W` puts more
/// than this far from its peak is what the grid sum aliases onto it.
const GRID_HALF_SDS: f64 = 15.0;

/// The grid size `P(W = L)` needs: `W`'s whole support, or
/// `2 GRID_HALF_SDS` standard deviations of `W` (plus a margin) where that
/// is smaller.
fn grid_points(shards: u64, y: &Truncated) -> u64 {
    let sd_w = (shards as f64 * y.var).sqrt();
    let width = shards * (y.w.len() as u64 - 1) + 1;
    width
        .min(2 * (GRID_HALF_SDS * sd_w).ceil() as u64 + 64)
        .max(1)
}

/// `P(W = L)` by the grid sum over frequencies, on a grid of its own.
pub(super) fn prob_sum_is(likes: u64, shards: u64, y: &Truncated) -> f64 {
    let m = grid_points(shards, y);
    if m == 1 {
        return 1.0;
    }
    if range::rounds_grid(shards) {
        // The shared tables of the range form's blocks (see `range.rs`).
        let m = TwiddleCache::grid_size(m);
        return grid_sum(likes, shards, y, &twiddles::shared_full_table(m), false);
    }
    grid_sum(likes, shards, y, &Twiddles::new(m), false)
}

/// `P(W = L)` as [`prob_sum_is`], on a grid from `cache` (at most 1/8
/// larger than it needs, which only removes aliasing): for tables of many
/// `c`, which then build a few grids instead of one per `c`. Agrees with
/// [`prob_sum_is`] to 1e-12 relative (tested in `quietest.rs`).
pub(super) fn prob_sum_is_cached(
    likes: u64,
    shards: u64,
    y: &Truncated,
    cache: &mut TwiddleCache,
) -> f64 {
    let m = grid_points(shards, y);
    if m == 1 {
        return 1.0;
    }
    grid_sum(likes, shards, y, cache.for_at_least(m), true)
}

/// The grid sum `1/M sum_j psi_j^S` on the grid of `twiddles`.
/// `interleaved` sums each `psi_j` in four partial sums (about three times
/// faster, the same to rounding); without it the sum runs in order, as it
/// always has for the busiest shard, whose figures stay bit for bit.
fn grid_sum(likes: u64, shards: u64, y: &Truncated, twiddles: &Twiddles, interleaved: bool) -> f64 {
    let s = shards as i64;
    let l = likes as i64;
    let sd_w = (shards as f64 * y.var).sqrt();
    let m = twiddles.grid();
    let mf = m as f64;
    // Integer shift near the mean; the fractional part L/S - k_r is applied
    // once per frequency as an exact rational angle.
    let k_r = (likes + shards / 2) / shards;
    let half = m / 2;
    let gauss_j = 9.1 * mf / (std::f64::consts::TAU * sd_w.max(1e-300));
    let term = |j: u64| -> f64 {
        // sum_k p_k e^{-i w_j (k - k_r)}, index (j (k - k_r)) mod M stepped by j.
        let start = (y.first as i64 - k_r as i64) * j as i64;
        let idx = start.rem_euclid(m as i64) as u64;
        let (re, im) = if interleaved {
            twiddles.weighted_sum(&y.w, idx, j)
        } else {
            twiddles.weighted_sum_in_order(&y.w, idx, j)
        };
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
        // Every shard has exactly c: L! / (c!^S S^L), which is
        // `ln_pmf_ratio` at R = 0 (for any lambda): Stirling's form leaves
        // no cancellation of size L ln L.
        return ln_pmf_ratio(likes, shards, c, c as f64);
    }
    let (lambda, y) = tilt(likes, shards, c);
    let p_w = prob_sum_is(likes, shards, &y);
    let ln_f = ln_pois_cdf(c, lambda);
    let top = y.first + y.w.len() as u64 - 1;
    if ln_f < LN_F_SMALL && top == c {
        // F(c) / p(c) = 1 / (the truncated pmf at c).
        let ln_f_over_p = -y.w[y.w.len() - 1].ln();
        shards as f64 * ln_f_over_p + ln_pmf_ratio(likes, shards, c, lambda) + p_w.ln()
    } else {
        shards as f64 * ln_f + p_w.ln() - ln_dpois(likes, shards as f64 * lambda)
    }
}

/// A quick estimate of [`ln_cdf_fixed`] (for `S c > L`): the same
/// formula with `P(W = L)` replaced by its saddlepoint value
/// `1 / sqrt(2 pi S Var Y)` (the tilt centres `W` on `L`), so no grid and
/// no twiddles. Usually within a few hundredths in the log; only ever a
/// starting point for a search that then checks exact values.
pub fn ln_cdf_fixed_estimate(likes: u64, shards: u64, c: u64) -> f64 {
    let (lambda, var) = tilt_search(likes, shards, Aim::CENTRED, |lambda| {
        truncated_moments(lambda, c)
    });
    let s = shards as f64;
    let ln_p_w = -0.5 * (std::f64::consts::TAU * s * var.max(1e-300)).ln();
    s * ln_pois_cdf(c, lambda) + ln_p_w.min(0.0) - ln_dpois(likes, s * lambda)
}

/// Below this `ln P(X <= c)` (the tilt far above the cut: the bottom of
/// the table), `S ln P(X <= c) - ln P(Poisson(S lambda) = L)` would cancel
/// two terms of size `S |ln P(X <= c)|` (thousands, so ~1e-11 lost in the
/// difference, four times Levin's error) and is split instead as
/// `S ln(P(X <= c) / P(X = c))`, of size `S`, plus [`ln_pmf_ratio`].
const LN_F_SMALL: f64 = -1.0;

/// `S ln P(Poisson(lambda) = c) - ln P(Poisson(S lambda) = L)` for
/// `S c >= L`, with `R = S c - L`: by Stirling's form
/// `ln n! = (n + 1/2) ln n - n + ln(2 pi) / 2 + stirlerr(n)` the terms of
/// size `L ln L` cancel exactly, leaving
///
/// `R ln(lambda / c) + L (ln(1 - x) + x) + R^2 / (S c) + ln(L) / 2
///  - S ln(c) / 2 + (1 - S) ln(2 pi) / 2 - S stirlerr(c) + stirlerr(L)`,
///
/// `x = R / (S c)`, each term of size `R`, `S` or less. (`R = 0` is the
/// closed form of [`ln_cdf_fixed`] where every shard has exactly `c`.)
fn ln_pmf_ratio(likes: u64, shards: u64, c: u64, lambda: f64) -> f64 {
    let (l, s, cf) = (likes as f64, shards as f64, c as f64);
    let r = (shards as u128 * c as u128 - likes as u128) as f64;
    let sc = s * cf;
    let x = r / sc;
    // ln(1 - x) + x = -(x^2/2 + x^3/3 + ...), summed where it would cancel.
    let log1m_plus_x = if x <= 0.5 {
        let (mut term, mut sum, mut k) = (x * x, 0.0_f64, 2.0);
        while term / k > 1e-17 * sum.max(f64::MIN_POSITIVE) {
            sum += term / k;
            term *= x;
            k += 1.0;
        }
        -sum
    } else {
        (-x).ln_1p() + x
    };
    let half_ln_2pi = 0.5 * (2.0 * std::f64::consts::PI).ln();
    r * (lambda / cf).ln() + l * log1m_plus_x + r * r / sc + 0.5 * l.ln() - 0.5 * s * cf.ln()
        + half_ln_2pi * (1.0 - s)
        - s * stirlerr(cf)
        + stirlerr(l)
}

#[cfg(test)]
mod tests {
    use super::*;

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

    /// The bottom of the table, where the tilt is far above the cut,
    /// against exact values: `ln(L! / (S^L c!^S) [x^R] g(x)^S)`, `R = S c -
    /// L`, with `g(x) = sum_{d <= R} x^d c! / (c - d)!` in integers and
    /// mpmath's `loggamma` at 40 digits. The builds before issue 18's
    /// second session were off by up to 3e-10 here (`S ln P(X <= c)` and
    /// `ln P(Poisson(S lambda) = L)` cancelled); both the point and the
    /// range form now agree to a few ulps of the value.
    pub(in crate::model::exact) const BOTTOM_EXACT: &[(u64, u64, u64, f64)] = &[
        (1_000_000, 10, 100_004, -37.48486844247697),
        (1_000_000, 10, 100_009, -30.751268853764508),
        (1_000_000, 4, 250_005, -13.228338321742546),
        (1_000_000, 4, 250_020, -9.281259425685263),
        (1_000_000, 3, 333_334, -12.213712888806358),
        (10_000_000, 20, 500_013, -73.60149175599186),
        (10_000_000, 20, 500_016, -69.78908285847042),
        (14_000, 20, 705, -28.631338906327166),
        (18_000, 20, 906, -27.8699790705017),
        (1_000, 7, 143, -17.48729586377418),
    ];

    #[test]
    fn bottom_of_the_table_is_exact() {
        for &(l, s, c, want) in BOTTOM_EXACT {
            let got = ln_cdf_fixed(l, s, c);
            assert!((got - want).abs() < 1e-13, "{l} {s} {c}: {got} vs {want}");
            let range = range::ln_cdf_fixed_range(l, s, c - 2, c + 2)[2];
            assert!(
                (range - want).abs() < 1e-13,
                "{l} {s} {c}: {range} vs {want}"
            );
        }
    }

    #[test]
    fn tilt_centres_the_sum() {
        for &(l, s, c) in &[
            (14_000u64, 20u64, 720u64),
            (14_000, 20, 701),
            (6, 3, 3),
            (200_000, 286, 705),
        ] {
            let (_, y) = tilt(l, s, c);
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
        let (_, y) = tilt(l, s, c);
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
