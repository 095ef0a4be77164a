//! The mean busiest of `S` independent Poisson(`mu`) shards, `m_S(mu) =
//! sum_c (1 - F(c; mu)^S)`: what gamma-poisson traffic's mean busiest
//! shard integrates over the second's rate (`gamma_row.rs`), summed at
//! each of its nodes, so every term here is on that hot path.

use super::ripple::Staircase;
use super::special::{ln_1m_small, ln_dpois, ln_pois_cdf_quick, neumaier};

/// Past this many shards `F^S` is taken as `exp(S ln F)`: `powi`'s
/// rounding, about `S` ulps of 1 a cut, would reach 1e-12 of a small mean.
const POWI_MAX_SHARDS: u64 = 4096;

/// Past `S Q = 40` a term `1 - (1 - Q)^S` is 1 to double precision
/// (`(1 - Q)^S < e^{-S Q} = 4e-18`), and so is every one below it.
const ALL_ONES_SQ: f64 = 40.0;

/// From this many shards on, `F(c)^S < 1e-20` at the median (`F <=
/// 1/2`, and `0.5^70 = 8e-22`): the terms past it add 1 each.
const ALL_ONES_FROM_MEDIAN: u64 = 70;

/// `sum_k (-1)^(k+1) C(S, k) P_k` for `k` = 1 to 5, given the power sums
/// `P_k = sum Q^k` over cuts whose `S Q` is under 1e-2: their terms `1 -
/// (1 - Q)^S` to the binomial sum's first five (the rest under `(S Q)^6 /
/// 6! = 1.4e-15` of each). `C(S, k)` is 0 past `S`, as it should be.
fn binomial_sum(powers: &[f64; 5], s: f64) -> f64 {
    let mut choose = 1.0;
    let mut total = 0.0;
    // The smallest first: the highest power's term.
    let mut weights = [0.0; 5];
    for (k, weight) in weights.iter_mut().enumerate() {
        let k = k as f64;
        choose *= (s - k) / (k + 1.0);
        *weight = choose;
    }
    for k in (0..5).rev() {
        let signed = if k % 2 == 0 { weights[k] } else { -weights[k] };
        total += signed * powers[k];
    }
    total
}

/// The mean busiest of `shards` independent Poisson(`mu`) shards, `sum_c
/// (1 - F(c)^S)`, summed from a top cut (10 standard deviations and 10
/// above the mean, where `S P(N > c)` is below 1e-20 of the sum) down to
/// where `F(c)^S < 1e-20`: each cut below adds 1 to double precision.
///
/// The terms need their absolute error small next to the mean, not their
/// relative one. Above the median `Q = P(N > c)` is carried up from the
/// top cut's tail (positive terms), and `S Q` under 1e-2 takes the first
/// five terms of the binomial sum `1 - (1 - Q)^S = sum_k (-1)^(k+1) C(S,
/// k) Q^k` (the rest under `(S Q)^6 / 6! = 1.4e-15`, 1.4e-13 of the
/// term); above, `-expm1(S ln(1 - Q))`, or `powi` for a term over 0.63
/// (at most 4,096 shards). The top cut's tail is the bound
/// `p(c + 1) / (1 - mu / (c + 2))` (the tail's series, its ratios at most
/// the first): within a few percent of a tail already 1e-20 of the sum,
/// so the error it carries down is nothing next to the sum. Below the median, `F` is carried down
/// from an exact `P(N <= c)`, taken again each time `F` falls a
/// thousandfold, so its error stays about an ulp of itself and `F^S <
/// 1e-20` is seen where it happens; from `ALL_ONES_FROM_MEDIAN` shards on
/// that is at the median, and past `S Q = ALL_ONES_SQ` above it.
pub(super) fn mean_max(mu: f64, shards: u64) -> f64 {
    let s = shards as f64;
    let mut cut = Cut::top(mu);
    let mut sum = (small_terms(&mut cut, s), 0.0);
    while cut.q < 0.5 {
        let (c, q) = (cut.c, cut.q);
        let sq = s * q;
        if sq > ALL_ONES_SQ {
            // This cut and every one below add 1.
            sum = neumaier(sum, 1.0);
            return c as f64 + sum.0 + sum.1;
        }
        let term = if sq < 1e-2 {
            // Only at the bottom cut (c = 0), where `small_terms` stopped.
            binomial_sum(&[q, q * q, q * q * q, q * q * q * q, q.powi(5)], s)
        } else if sq < 1.0 || shards > POWI_MAX_SHARDS {
            -(s * ln_1m_small(q)).exp_m1()
        } else {
            // A term over 0.63: `powi`'s S ulps are nothing next to it.
            1.0 - (1.0 - q).powi(shards as i32)
        };
        sum = neumaier(sum, term);
        if c == 0 {
            return sum.0 + sum.1;
        }
        cut.down();
    }
    if shards >= ALL_ONES_FROM_MEDIAN {
        // This cut and every one below add 1.
        sum = neumaier(sum, 1.0);
        return cut.c as f64 + sum.0 + sum.1;
    }
    below_median(cut, mu, shards, sum)
}

/// A cut `c` on the way down from the top, with its tail `q = P(N > c)`
/// and pmf `p = P(N = c)`.
struct Cut {
    c: u64,
    q: f64,
    p: f64,
    /// `1 / mu`: each step's ratio `c / mu` as a product, since a division
    /// a term was the loop's longest chain (its rounding, an ulp a step, is
    /// 1e-14 of `p` after a hundred steps, within the terms' own).
    per_mu: f64,
    /// `c` as a float, stepped down with it (an integer's conversion took
    /// more of a step than the step's own arithmetic).
    cf: f64,
}

impl Cut {
    /// The top cut, 10 standard deviations and 10 above the mean, its tail
    /// the bound `p(c + 1) / (1 - mu / (c + 2))`.
    fn top(mu: f64) -> Cut {
        let c = (mu + 10.0 * mu.sqrt() + 10.0).ceil() as u64;
        let p = ln_dpois(c, mu).exp();
        let cf = c as f64;
        Cut {
            c,
            q: p * (mu / (cf + 1.0)) / (1.0 - mu / (cf + 2.0)),
            p,
            per_mu: 1.0 / mu,
            cf,
        }
    }

    /// One cut down: its tail gains the pmf, the pmf steps by `c / mu`.
    fn down(&mut self) {
        self.q += self.p;
        self.p *= self.cf * self.per_mu;
        self.c -= 1;
        self.cf -= 1.0;
    }
}

/// Below this `S Q` a cut's term is `S Q - C(S, 2) Q^2` to 1.7e-19.
const DEEP_SQ: f64 = 1e-6;

/// The cuts with `S Q` under 1e-2, from `cut` down (left at the first cut
/// past them, or at 0): their terms as the binomial sum's first five,
/// gathered as power sums of `Q` (each positive and summed smallest first,
/// so each to a few ulps of a total under 1e-2 of the mean) and weighed
/// once at the end.
fn small_terms(cut: &mut Cut, s: f64) -> f64 {
    let mut powers = [0.0_f64; 5];
    // The deep cuts, `S Q` under `DEEP_SQ`, need only `Q` and `Q^2`: the
    // rest of each term's binomial sum is under `(S Q)^3 / 6`, at most
    // 1.7e-19, and all of theirs together under `DEEP_SQ^2 / 6` of the
    // deep cuts' own sum of `S Q`, nothing next to the mean.
    while s * cut.q < DEEP_SQ && cut.c != 0 {
        powers[0] += cut.q;
        powers[1] += cut.q * cut.q;
        cut.down();
    }
    while s * cut.q < 1e-2 && cut.c != 0 {
        let q = cut.q;
        let q2 = q * q;
        powers[0] += q;
        powers[1] += q2;
        powers[2] += q2 * q;
        powers[3] += q2 * q2;
        powers[4] += q2 * q2 * q;
        cut.down();
    }
    binomial_sum(&powers, s)
}

/// The terms from `cut` (at or below the median) down, added to `sum`:
/// `F` carried down from an exact `P(N <= c)`, taken again each time it
/// falls a thousandfold, until `F^S < 1e-20` (every cut below adds 1).
fn below_median(mut cut: Cut, mu: f64, shards: u64, mut sum: (f64, f64)) -> f64 {
    let s = shards as f64;
    let power = |f: f64| {
        if shards <= POWI_MAX_SHARDS {
            f.powi(shards as i32)
        } else {
            (s * f.ln()).exp()
        }
    };
    let mut anchor = ln_pois_cdf_quick(cut.c, mu).exp();
    let mut f = anchor;
    loop {
        let f_s = power(f);
        sum = neumaier(sum, 1.0 - f_s);
        if f_s < 1e-20 || cut.c == 0 {
            // Every cut below c adds 1.
            return cut.c as f64 + sum.0 + sum.1;
        }
        f -= cut.p;
        cut.down();
        if f < 1e-3 * anchor {
            anchor = ln_pois_cdf_quick(cut.c, mu).exp();
            f = anchor;
        }
    }
}

/// The staircase the mean busiest of `shards` Poisson shards climbs in `d
/// = ln(mu / mean)` (`ripple.rs`), or `None` where its ripple is under
/// 1e-17 of the mean busiest at `mean` a shard and the trapezoidal rule's
/// gaps are to be trusted as they are.
///
/// The ripple's amplitude is about `|phi(2 pi)| / pi` of the busiest
/// count's spread, for a Gumbel law of scale `beta = sqrt(mu / (2 ln S))`
/// `sqrt(x / sinh x) / pi`, `x = 2 pi^2 beta`: at 22,231.5 likes/s 1e-21
/// of the mean over 57 shards, 3e-10 over 497 (whose sums on the first
/// steps were 5e-12 off), 1e-7 over 875 (2e-9 off). Where it is over 1e-9
/// a check is tried only on steps under `TRY_STRONG` periods at the mean
/// (at 1.4 periods the sums were still 1e-11 off, at 1.1 within 4e-15),
/// from 1e-13 under `TRY_MILD`: where a check is worth its nodes, and
/// where one aliased ripple dominates what it sees (`ripple.rs`).
pub(super) fn staircase(mean: f64, shards: u64) -> Option<Staircase> {
    if shards < 2 {
        // One shard's mean is mu itself: no staircase.
        return None;
    }
    let ln_s = (shards as f64).ln();
    let x = 2.0 * std::f64::consts::PI.powi(2) * (mean / (2.0 * ln_s)).sqrt();
    // ln sinh x, for any x > 0 without overflow.
    let ln_sinh = x + (-(-2.0 * x).exp()).ln_1p() - std::f64::consts::LN_2;
    let ln_amplitude = 0.5 * (x.ln() - ln_sinh) - std::f64::consts::PI.ln();
    let ln_busiest = (mean + (2.0 * mean * ln_s).sqrt()).ln();
    let ln_relative = ln_amplitude - ln_busiest;
    if ln_relative < (1e-17_f64).ln() {
        return None;
    }
    let mut stairs = Staircase {
        a: mean,
        b: 0.5 * ln_s,
        first_try: f64::INFINITY,
    };
    if ln_relative >= (1e-9_f64).ln() {
        stairs.first_try = TRY_STRONG * stairs.period(0.0);
    } else if ln_relative >= (1e-13_f64).ln() {
        stairs.first_try = TRY_MILD * stairs.period(0.0);
    }
    Some(stairs)
}

/// Checks on steps under this many of the staircase's periods at the mean
/// are worth their nodes where the ripple is over 1e-9 of the mean
/// (`staircase`).
const TRY_STRONG: f64 = 1.2;
/// The same where it is from 1e-13 to 1e-9 (at 22,231.5 likes/s from
/// about 280 to 520 shards, whose sums passed the check on steps of 1.3
/// to 1.6 periods and failed it on 2.5 to 3.1). Tried on every step
/// instead, the checks there cost more (the sweep's means 404,000
/// integrand values, not about 380,000) and passed sums up to 1.6e-12
/// off.
const TRY_MILD: f64 = 2.0;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::exact::special::ln_pois_cdf;

    /// `mean_max` against `sum_c (1 - F(c)^S)` with every `F(c)` summed on
    /// its own (the tail formula one cut at a time), to 1e-12 relative: tiny
    /// and large means, one to 100,000 shards.
    #[test]
    fn mean_max_is_the_sum_it_stands_for() {
        for &mu in &[1e-9_f64, 0.02, 0.7, 5.0, 390.0, 2_223.0, 50_000.0] {
            for &shards in &[1u64, 3, 57, 1_000, 100_000] {
                let s = shards as f64;
                let top = (mu + 12.0 * mu.sqrt() + 20.0) as u64;
                let want: f64 = (0..=top).map(|c| -(s * ln_pois_cdf(c, mu)).exp_m1()).sum();
                let got = mean_max(mu, shards);
                assert!(
                    (got / want - 1.0).abs() < 1e-12,
                    "mu {mu} S {shards}: {got} vs {want}"
                );
            }
        }
    }
}
