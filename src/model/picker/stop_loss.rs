//! Two-choice's tight bound: one shard's load under two-choice is below
//! random's in the convex order, so random's stop-loss bounds its tail.
//!
//! 1. **Convex order, one server.** A server's two-choice counts are
//!    majorized by its one-choice (random) counts under a coupling (Azar,
//!    Broder, Karlin and Upfal, *Balanced allocations*, 1999, Theorem 3.5,
//!    any tie rule). For convex `f`, `sum_j f(x_j)` is Schur-convex, so
//!    `E sum_j f(X_kj) <= E sum_j f(Y_kj)`; the shards being exchangeable,
//!    `E f(X_k1) <= E f(Y_k1)`: one shard's count is below random's in the
//!    convex order (`X <=_cx Y`, the same mean `m / S`).
//! 2. **Over the servers and the traffic.** Given the servers' counts the
//!    servers are independent, and the convex order is kept by independent
//!    sums and by mixing both sides over the same law (the split of a
//!    fixed count, a Poisson count), so one shard's load `Z` under
//!    two-choice has `Z <=_cx W`, `W` random's: Binomial(`n`, 1/`S`) for a
//!    fixed count, Poisson(`rate / S`) for Poisson traffic.
//! 3. **The tail from the stop-loss.** `(z - a)+` is convex, so for every
//!    `a < k`, `P(Z >= k) <= E (Z - a)+ / (k - a) <= E (W - a)+ / (k - a)`,
//!    and `E (W - a)+ = sum_{j > a} P(W >= j)`. The union over the `S`
//!    shards bounds the busiest.
//!
//! Where random's tail falls by a ratio `r` a step, the best `a` leaves a
//! factor of about `e r ln(1/r) / (1 - r)` over `S P(W >= k)` (2.4 at
//! `r = 0.82`, the reference's 50,000 likes/s over 61 shards), where the
//! Chernoff bound leaves one growing with the deviation: in the rare-event
//! range sizing reads, a bound within a small factor of random's own
//! figure. Fixed and Poisson traffic only (the others keep Chernoff's).

use crate::model::exact::special::{ln_add, ln_binom_sf, ln_pois_sf};
use crate::model::law::{Split, TrafficModel};

/// Most steps `a` is taken below the cap (`k - a`): past it the factor
/// grows again for every tail this bound is read on.
const MOST_BELOW: u64 = 64;

/// Most tail terms summed above the first `a`; the rest is bounded by a
/// geometric series (the tails are log-concave: their ratio falls).
const MOST_TERMS: u64 = 20_000;

/// `ln` of the bound on `P(busiest > c)` for two-choice writers over
/// `shards` shards at `rate` under `traffic`; `None` where it does not
/// apply (bursty or empirical traffic, or `c` not above the mean).
pub fn two_choice_stop_loss(rate: f64, shards: u64, c: u64, traffic: TrafficModel) -> Option<f64> {
    let s = shards as f64;
    // ln P(W >= j) for one shard under random picks.
    let (mean, ln_tail): (f64, Box<dyn Fn(u64) -> f64>) = match traffic.split(rate) {
        Split::Count(n) => {
            let p = 1.0 / s;
            (
                n as f64 * p,
                Box::new(move |j| ln_binom_sf(j - 1, n, p, 1.0 - p)),
            )
        }
        Split::Poisson(rate) => {
            let mu = rate / s;
            (mu, Box::new(move |j| ln_pois_sf(j - 1, mu)))
        }
        Split::GammaRate { .. } | Split::Counts(_) => return None,
    };
    let k = c + 1;
    if (k as f64) <= mean + 1.0 {
        return None;
    }
    // a from the first integer above the mean (the tail's ratio below 1
    // there) to k - 1, at most MOST_BELOW steps below k.
    let first_a = (mean.floor() as u64 + 1).max(k.saturating_sub(MOST_BELOW));
    let sums = suffix_sums(&*ln_tail, first_a + 1, (k - first_a) as usize)?;
    let best = (first_a..k)
        .map(|a| sums[(a - first_a) as usize] - ((k - a) as f64).ln())
        .fold(f64::INFINITY, f64::min);
    Some((s.ln() + best).min(0.0))
}

/// `ln sum_{j >= from + i} P(W >= j)` for `i = 0 .. needed`: the tail
/// terms from `from` on, summed from the top, with what lies past the last
/// term bounded by a geometric series of the last ratio (log-concave
/// tails: the ratio only falls); a sum past a tail that ends (a binomial's
/// `n`) is 0 (`-inf`). `None` where the terms do not fall off in
/// [`MOST_TERMS`] (a tail too flat for the bound to help).
fn suffix_sums(ln_tail: &dyn Fn(u64) -> f64, from: u64, needed: usize) -> Option<Vec<f64>> {
    let mut terms = vec![ln_tail(from)];
    // Every term an `a` reads, then on until 46 e-folds below the last
    // of them (what is left past that is bounded, not dropped).
    loop {
        let floor = terms[terms.len().min(needed) - 1] - 46.0;
        if terms.len() >= needed && *terms.last()? <= floor {
            break;
        }
        if terms.len() as u64 >= MOST_TERMS {
            return None;
        }
        let next = ln_tail(from + terms.len() as u64);
        if next == f64::NEG_INFINITY {
            break;
        }
        terms.push(next);
    }
    // The rest: at most the last term times r / (1 - r), r its ratio to
    // the one before (the ratios only fall past it).
    let n = terms.len();
    let rest = match n {
        1 => f64::NEG_INFINITY,
        _ => {
            let ln_r = (terms[n - 1] - terms[n - 2]).min(-1e-12);
            terms[n - 1] + ln_r - (-ln_r.exp_m1()).ln()
        }
    };
    let mut sums = vec![f64::NEG_INFINITY; n.max(needed)];
    let mut acc = rest;
    for i in (0..n).rev() {
        acc = ln_add(acc, terms[i]);
        sums[i] = acc;
    }
    Some(sums)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::exact::OverCap;
    use TrafficModel::{Fixed, Poisson};

    #[test]
    fn it_bounds_randoms_own_figure_within_a_small_factor() {
        // Random picks are two-choice's upper end: the bound must stand
        // above random's exact busiest (S P(W > c) is above it), within a
        // small factor of it in the rare range.
        for (rate, shards, c, traffic) in [
            (50_000.0, 61, 1000, Fixed),
            (50_000.0, 61, 1000, Poisson),
            (14_000.0, 20, 1000, Fixed),
            (14_000.0, 17, 1000, Poisson),
        ] {
            let exact = OverCap::compute(rate, shards, c as f64, 1.0, traffic)
                .unwrap()
                .ln_p_per_second;
            let bound = two_choice_stop_loss(rate, shards, c, traffic).unwrap();
            assert!(bound >= exact, "{rate} {shards}: {bound} < {exact}");
            assert!(
                bound - exact < 5f64.ln(),
                "{rate} {shards}: {bound} vs {exact}"
            );
        }
    }

    #[test]
    fn the_stop_loss_is_the_tail_sum_by_hand() {
        // Poisson(2) over 1 shard, c = 5 (k = 6): a from 3 to 5,
        // E (W - a)+ = sum_{j > a} P(W >= j); the best a by hand.
        let mu: f64 = 2.0;
        let pmf =
            |j: u64| (-mu).exp() * mu.powi(j as i32) / (1..=j).map(|i| i as f64).product::<f64>();
        let tail = |j: u64| 1.0 - (0..j).map(pmf).sum::<f64>();
        let stop = |a: u64| (a + 1..80).map(tail).sum::<f64>();
        let want = (3..6)
            .map(|a| stop(a) / (6 - a) as f64)
            .fold(f64::INFINITY, f64::min);
        let got = two_choice_stop_loss(2.0, 1, 5, Poisson).unwrap().exp();
        assert!((got - want).abs() < 1e-9 * want, "{got} vs {want}");
    }

    #[test]
    fn bursty_traffic_and_a_cap_at_the_mean_have_no_such_bound() {
        let k = crate::model::law::gamma_poisson::Dispersion::new("dispersion", 100.0).unwrap();
        let g = TrafficModel::GammaPoisson(k);
        assert_eq!(two_choice_stop_loss(14_000.0, 20, 1000, g), None);
        assert_eq!(two_choice_stop_loss(14_000.0, 20, 700, Fixed), None);
    }
}
