//! The busiest shard under sticky writers (`model::picker::sticky`): shard
//! `j` takes the likes of the servers mapped to it, so with `K = qS + a`
//! servers `a` shards each take a share `(q + 1)/K` of the likes and
//! `S - a` a share `q/K`: a multinomial with two unequal shares.
//!
//! - One share (`K` a multiple of `S`, or `K < S`, where `S - K` shards take
//!   nothing): the equal-share law over the shards that take likes, exactly
//!   the random picker's over that many shards.
//! - Poisson traffic: the shards are independent Poisson counts, so
//!   `P(max <= c) = F_1(c)^a F_2(c)^(S-a)` in closed form; gamma-poisson
//!   traffic integrates that over the second's Gamma rate.
//! - Fixed traffic (`n` likes): given the likes `n_1 ~ Binomial(n, a(q+1)/K)`
//!   that land on the fuller group, each group is an equal-share multinomial
//!   (today's exact engine), independent of the other; so
//!   `P(max > c) = sum_{n_1} P(n_1) (1 - (1 - s_1(n_1)) (1 - s_2(n - n_1)))`,
//!   summed outward from the mode until what is left of the binomial's
//!   mass is below 1e-17 of the sum.
//!
//! Empirical traffic would mix the fixed-count sum over every observed
//! count: no exact law here (the simulation gives it).

use super::gamma_mix::GammaMix;
use super::point::Point;
use super::special::{ln_1m_exp, ln_add, ln_binom_sf, ln_dbinom, ln_pois_sf};
use crate::error::ParamResult;
use crate::model::law::{Split, TrafficModel};
use crate::model::picker::sticky::{groups, Group};

/// `ln P(busiest > c)` in one second for `servers` sticky writers over
/// `shards` shards at `rate` likes/s; `None` where there is no exact law
/// (empirical traffic). Errors name `rate` and `shards`.
pub fn sticky_ln_sf(
    rate: f64,
    shards: u64,
    servers: u64,
    model: TrafficModel,
    c: u64,
) -> ParamResult<Option<f64>> {
    let rate = model.rate("rate", rate)?;
    crate::model::validate::count("shards", shards, crate::model::defaults::MAX_SHARDS)?;
    let loaded: Vec<Group> = groups(shards, servers)
        .into_iter()
        .filter(|g| g.servers_each > 0)
        .collect();
    if let [one] = loaded[..] {
        // One share: the random picker's law over the shards that take likes.
        return Ok(Some(Point::new(rate, one.shards, model)?.ln_sf(c)));
    }
    let [full, light] = loaded[..] else {
        unreachable!("sticky shards form at most two groups");
    };
    let k = servers as f64;
    let shares = [full, light].map(|g| (g.shards, g.servers_each as f64 / k));
    let ln_sf = match model.split(rate) {
        Split::Poisson(rate) => poisson_groups(rate, shares, c),
        Split::GammaRate { mean, shape } => {
            let mix = GammaMix::new(mean, shape);
            mix.ln_expect(|l| poisson_groups(l, shares, c))
        }
        Split::Count(likes) => fixed_groups(likes, [full, light], servers, c)?,
        Split::Counts(_) => return Ok(None),
    };
    Ok(Some(ln_sf.min(0.0)))
}

/// `ln P(max > c)` for groups of independent Poisson shards: `(shards,
/// share)` each, at `rate` likes/s in all.
fn poisson_groups(rate: f64, groups: [(u64, f64); 2], c: u64) -> f64 {
    let ln_q = groups.map(|(_, share)| ln_pois_sf(c, rate * share));
    let ln_union = groups
        .iter()
        .zip(ln_q)
        .map(|(&(n, _), ln_q)| (n as f64).ln() + ln_q)
        .fold(f64::NEG_INFINITY, ln_add);
    if ln_union < -40.0 {
        // The union's sum is below 4e-18: it is the probability to double
        // precision, and stays finite below f64's range.
        return ln_union;
    }
    let ln_none: f64 = groups
        .iter()
        .zip(ln_q)
        .map(|(&(n, _), ln_q)| n as f64 * ln_1m_exp(ln_q))
        .sum();
    ln_1m_exp(ln_none)
}

/// `ln P(max > c)` for fixed traffic: the mixture over the likes on the
/// fuller group (module docs).
fn fixed_groups(likes: u64, [full, light]: [Group; 2], servers: u64, c: u64) -> ParamResult<f64> {
    let p = (full.shards * full.servers_each) as f64 / servers as f64;
    let q = (light.shards * light.servers_each) as f64 / servers as f64;
    let group_sf = |n: u64, shards: u64| -> ParamResult<f64> {
        if n <= c {
            return Ok(f64::NEG_INFINITY);
        }
        Point::new(n as f64, shards, TrafficModel::Fixed).map(|pt| pt.ln_sf(c))
    };
    let term = |n1: u64| -> ParamResult<f64> {
        let (a, b) = (
            group_sf(n1, full.shards)?,
            group_sf(likes - n1, light.shards)?,
        );
        // 1 - (1 - s_1)(1 - s_2): the plain sum where both are tiny.
        let either = if a.max(b) < -40.0 {
            ln_add(a, b)
        } else {
            ln_1m_exp(ln_1m_exp(a) + ln_1m_exp(b))
        };
        Ok(ln_dbinom(n1, likes, p, q) + either)
    };
    let mode = ((likes as f64 + 1.0) * p).floor().min(likes as f64) as u64;
    let mut ln_sum = term(mode)?;
    // Upwards, then downwards, while the binomial mass left could matter.
    let mut n1 = mode;
    while n1 < likes {
        n1 += 1;
        ln_sum = ln_add(ln_sum, term(n1)?);
        if ln_binom_sf(n1, likes, p, q) < ln_sum - 39.2 {
            break;
        }
    }
    let mut n1 = mode;
    while n1 > 0 {
        n1 -= 1;
        ln_sum = ln_add(ln_sum, term(n1)?);
        // The mass below n1 is the upper tail of the light group's count.
        if n1 == 0 || ln_binom_sf(likes - n1, likes, q, p) < ln_sum - 39.2 {
            break;
        }
    }
    Ok(ln_sum)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// P(max > c) by enumerating every split of `likes` over shards with
    /// the given shares.
    fn brute(likes: u64, shares: &[f64], c: u64) -> f64 {
        fn walk(left: u64, shares: &[f64], p: f64, busiest: u64, c: u64, ln_fact: &[f64]) -> f64 {
            if shares.len() == 1 {
                let x = left;
                let pr = p * shares[0].powi(x as i32) / ln_fact[x as usize].exp();
                return if busiest.max(x) > c { pr } else { 0.0 };
            }
            (0..=left)
                .map(|x| {
                    let pr = p * shares[0].powi(x as i32) / ln_fact[x as usize].exp();
                    walk(left - x, &shares[1..], pr, busiest.max(x), c, ln_fact)
                })
                .sum()
        }
        let ln_fact: Vec<f64> = (0..=likes)
            .scan(0.0, |acc, i| {
                if i > 0 {
                    *acc += (i as f64).ln();
                }
                Some(*acc)
            })
            .collect();
        ln_fact[likes as usize].exp() * walk(likes, shares, 1.0, 0, c, &ln_fact)
    }

    fn shares(shards: u64, servers: u64) -> Vec<f64> {
        (0..shards)
            .map(|j| (0..servers).filter(|k| k % shards == j).count() as f64 / servers as f64)
            .collect()
    }

    #[test]
    fn fixed_traffic_matches_brute_force() {
        for (shards, servers, likes) in [(3, 4, 9), (4, 6, 12), (3, 5, 10), (5, 3, 8), (4, 8, 10)] {
            for c in 0..=likes {
                let want = brute(likes, &shares(shards, servers), c);
                let got = sticky_ln_sf(likes as f64, shards, servers, TrafficModel::Fixed, c)
                    .unwrap()
                    .unwrap()
                    .exp();
                let tol = 1e-12 + 1e-9 * want;
                assert!(
                    (got - want).abs() <= tol,
                    "S {shards} K {servers} n {likes} c {c}: {got} vs {want}"
                );
            }
        }
    }

    #[test]
    fn poisson_traffic_is_the_product_of_its_shards() {
        // 30 servers on 20 shards at 14,000/s: 10 shards of mean 933.3 and
        // 10 of 466.7, independent Poisson counts.
        let c = 1000;
        let got = sticky_ln_sf(14_000.0, 20, 30, TrafficModel::Poisson, c)
            .unwrap()
            .unwrap();
        let f1 = 1.0 - ln_pois_sf(c, 14_000.0 * 2.0 / 30.0).exp();
        let f2 = 1.0 - ln_pois_sf(c, 14_000.0 / 30.0).exp();
        let want = 1.0 - f1.powi(10) * f2.powi(10);
        assert!(
            (got.exp() - want).abs() < 1e-12 * want,
            "{} vs {want}",
            got.exp()
        );
    }

    #[test]
    fn servers_a_multiple_of_shards_give_the_random_law() {
        for model in [TrafficModel::Fixed, TrafficModel::Poisson] {
            let sticky = sticky_ln_sf(14_000.0, 20, 40, model, 800).unwrap().unwrap();
            let random = Point::new(14_000.0, 20, model).unwrap().ln_sf(800);
            assert_eq!(sticky, random);
        }
    }

    #[test]
    fn the_issue_s_one_second_in_nine() {
        // 30 servers on 20 shards at 14,000 likes/s: about one second in
        // nine over a cap of 1,000.
        let p = sticky_ln_sf(14_000.0, 20, 30, TrafficModel::Fixed, 1000)
            .unwrap()
            .unwrap()
            .exp();
        assert!((0.09..0.13).contains(&p), "{p}");
    }
}
