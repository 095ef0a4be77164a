//! A block of eight neighbouring cuts of the busiest shard's law under
//! gamma-poisson traffic, one integral over the second's Gamma rate
//! (issue 37): by parts where the trapezoidal rule vouches for it
//! (`gamma_parts.rs`), else the first form adaptively, the eight cuts on
//! shared nodes (`gamma_each.rs`). A risk row's quantile searches read
//! blocks (`gamma_row.rs`); the whole table is read by the same blocks
//! ([`table_tails`]), and the quietest shard's by [`quietest_block`].

use rayon::prelude::*;

use super::gamma_mix::GammaMix;
use super::gamma_parts;
use super::special::{ln_1m_exp, ln_add, ln_dpois, ln_pois_cdf_quick, ln_pois_sf_quick, tail_cuts};
use super::trapezoid::Accuracy;

/// Cuts are integrated in aligned blocks of this many.
pub(super) const BLOCK: u64 = 8;

/// Which side of each cut a block integrates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Side {
    /// `ln P(max <= c)`.
    Cdf,
    /// `ln P(max > c)`.
    Sf,
}

/// A block's `ln P` for its eight cuts and the relative error bound they
/// carry (0 at full accuracy).
pub(super) type Block = (Vec<f64>, f64);

/// `ln P(max <= c)` or `ln P(max > c)` of `shards` shards for the cuts
/// `8k..8k + 7`, one integral over the second's Gamma rate `mix`, to full
/// accuracy: by parts where the trapezoidal rule vouches for it, else the
/// first form adaptively.
pub(super) fn block_tails(mix: &GammaMix, shards: u64, k: u64, side: Side) -> Vec<f64> {
    let cuts = (k * BLOCK, BLOCK as usize);
    match gamma_parts::ln_tails(mix, shards, cuts, side == Side::Sf, Accuracy::Full) {
        Some((values, _)) => values.into_iter().map(|v| v.min(0.0)).collect(),
        None => first_form_tails(mix, shards, k, side),
    }
}

/// [`block_tails`] in the first form, adaptively (where the rule by parts
/// cannot vouch for its sums; at full accuracy).
pub(super) fn first_form_tails(mix: &GammaMix, shards: u64, k: u64, side: Side) -> Vec<f64> {
    let s = shards as f64;
    integrate_block(mix, k, |from, l, out| match side {
        Side::Sf => sf_cuts(from, l / s, shards, out),
        Side::Cdf => power_cuts(from, l / s, (s, Side::Cdf), out),
    })
}

/// The block `8k..8k + 7`'s probabilities `E[g_c(Lambda)]`, one integral
/// over the second's Gamma rate `mix`, for `cuts(from, Lambda, out)` that
/// gives them as [`sf_cuts`] does (a log scale, each cut's ratio in `out`);
/// logs of probabilities, so at most 0.
fn integrate_block(mix: &GammaMix, k: u64, cuts: impl Fn(u64, f64, &mut [f64]) -> f64) -> Vec<f64> {
    let from = k * BLOCK;
    mix.ln_expect_each(BLOCK as usize, |l, out| cuts(from, l, out))
        .into_iter()
        .map(|v| v.min(0.0))
        .collect()
}

/// The quietest shard's tails under gamma-poisson traffic for the cuts
/// `c = 8k..8k + 7`: `ln P(N_1 <= c)` of one shard (`ln E[F(c)]`, its
/// union bound's term) and `ln P(min > c) = ln E[Q(c)^S]`, one integral
/// each for the block (`quietest.rs` reads them as `P(N_1 < c + 1)` and
/// `P(min >= c + 1)`).
pub(super) fn quietest_block(mix: &GammaMix, shards: u64, k: u64) -> (Vec<f64>, Vec<f64>) {
    let s = shards as f64;
    let one = integrate_block(mix, k, |from, l, out| {
        power_cuts(from, l / s, (1.0, Side::Cdf), out)
    });
    let all = integrate_block(mix, k, |from, l, out| {
        power_cuts(from, l / s, (s, Side::Sf), out)
    });
    (one, all)
}

/// The busiest shard's table under gamma-poisson traffic, `(ln P(max <=
/// c), ln P(max > c))` for `c = lo..=hi`, of `shards` shards at a Gamma
/// rate of mean `rate` and shape `shape`: two integrals a block of eight
/// aligned cuts (each cut's value the integral `Point::mixed_cdf` or
/// `Point::mixed_sf` takes alone, to the same tolerance), the blocks in
/// parallel. Eight cuts cost
/// about what one does (`gamma_each.rs`).
pub(super) fn table_tails(
    (rate, shape): (f64, f64),
    shards: u64,
    (lo, hi): (u64, u64),
) -> Vec<(f64, f64)> {
    let mix = GammaMix::new(rate, shape);
    let blocks: Vec<(Vec<f64>, Vec<f64>)> = (lo / BLOCK..=hi / BLOCK)
        .into_par_iter()
        .map(|k| {
            (
                block_tails(&mix, shards, k, Side::Cdf),
                block_tails(&mix, shards, k, Side::Sf),
            )
        })
        .collect();
    let first = lo / BLOCK * BLOCK;
    blocks
        .iter()
        .flat_map(|(cdf, sf)| cdf.iter().copied().zip(sf.iter().copied()))
        .skip((lo - first) as usize)
        .take((hi - lo + 1) as usize)
        .collect()
}

/// `P(max > c)` of `shards` independent Poisson(`mu`) shards for the
/// `out.len()` cuts from `from`, as a log scale returned (`ln(S Q)` of the
/// top cut, `Q = P(N > c)`) and each cut's ratio to it in `out`, the
/// tails from [`tail_cuts`] (summed once at the top cut, carried down).
/// Then `P(max > c) = 1 - (1 - Q)^S = S Q r(Q)`, with `r` its expansion
/// `1 - (S - 1) Q / 2 + (S - 1)(S - 2) Q^2 / 6` (1e-13 of itself) where
/// `S Q` is under 1e-4, which is most nodes: no logarithm a cut there.
fn sf_cuts(from: u64, mu: f64, shards: u64, out: &mut [f64]) -> f64 {
    let s = shards as f64;
    let (ln_unit, _) = tail_cuts(from, out.len(), mu, |i, cut| {
        // Rounding can take Q a hair past 1 where it is 1 - 1e-17.
        let big_q = cut.big_q.min(1.0);
        let r = if s * big_q < 1e-4 {
            1.0 - (s - 1.0) * big_q / 2.0 + (s - 1.0) * (s - 2.0) * big_q * big_q / 6.0
        } else {
            -(s * (-big_q).ln_1p()).exp_m1() / (s * big_q)
        };
        out[i] = cut.q * r;
    });
    s.ln() + ln_unit
}

/// `F(c)^s` (`Side::Cdf`: `P(max <= c)` of `s` shards) or `Q(c)^s =
/// P(N > c)^s` (`Side::Sf`: `P(min > c)`) of one Poisson(`mu`) count for
/// the `out.len()` cuts from `from`, as a log scale returned and each
/// cut's ratio to it in `out` (as [`sf_cuts`]): each log from the side
/// below 1/2 (`ln(1 - x)` of the other keeps its digits), `ln Q` from the
/// upper tail summed once at the top cut, `ln F` from the CDF summed up
/// from the bottom cut.
fn power_cuts(from: u64, mu: f64, (s, side): (f64, Side), out: &mut [f64]) -> f64 {
    let n = out.len();
    let top = from + n as u64 - 1;
    let (mut ln_q, mut ln_p) = (ln_pois_sf_quick(top, mu), ln_dpois(top, mu));
    for i in (0..n).rev() {
        out[i] = ln_q;
        if i > 0 {
            ln_q = ln_add(ln_q, ln_p);
            ln_p += ((from + i as u64) as f64 / mu).ln();
        }
    }
    let mut ln_f = ln_pois_cdf_quick(from, mu);
    for (i, v) in out.iter_mut().enumerate() {
        if i > 0 {
            ln_f = ln_add(ln_f, ln_dpois(from + i as u64, mu));
        }
        let from_q = *v < -std::f64::consts::LN_2;
        *v = s * match (side, from_q) {
            (Side::Cdf, true) => ln_1m_exp(*v),
            (Side::Cdf, false) => ln_f,
            (Side::Sf, true) => *v,
            (Side::Sf, false) => ln_1m_exp(ln_f),
        };
    }
    // The top cut has the largest CDF, the bottom one the largest tail.
    let scale = match side {
        Side::Cdf => out[n - 1],
        Side::Sf => out[0],
    };
    for v in out.iter_mut() {
        *v = (*v - scale).exp();
    }
    scale
}
