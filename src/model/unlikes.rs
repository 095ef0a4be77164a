//! Unlikes: a fan who removes a like subtracts 1 from a random shard. An
//! unlike is a write, so it counts against the cap like a like does: with
//! `share` unlikes per like the write load is likes x (1 + share). Under
//! Poisson traffic the unlikes are a second Poisson stream, so each shard's
//! writes stay Poisson with the rate scaled by (1 + share): scaling the rate
//! is exact, not an approximation.
//!
//! A shard can go below zero (DECR on an empty key returns -1): only the sum
//! of the shards means anything. [`Unlikes::negative_shard`] gives the
//! chance that some shard reads below zero after a quiet stretch (the
//! cool-down) that starts from empty shards: a new reel, or the shards a
//! grow just added.

use serde::Serialize;

use super::exact::ln_p_any_over;
use super::exact::special::{ln_dpois, ln_pois_sf};
use super::probability::Probability;
use crate::error::{ParamError, ParamResult, Problem};
use crate::model::defaults::MAX_COOL_DOWN_LIKES_PER_SHARD;
use crate::model::validate;

/// Terms below this fraction of the largest no longer change a double.
const NEGLIGIBLE_LN: f64 = -46.0; // e^-46 = 1e-20

/// Unlikes per like, validated to `[0, 1]` (a fan can only remove a like
/// that was given, so over a counter's life there are at most as many).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Unlikes {
    /// Unlikes per like.
    pub share: f64,
}

/// The chance that a shard reads below zero after a cool-down.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub struct NegativeShards {
    /// Seconds of the cool-down, from empty shards.
    pub cool_down_seconds: f64,
    /// Likes per second during it (unlikes come on top, `share` of them).
    pub cool_down_rate: f64,
    /// Shards the likes and unlikes spread over.
    pub shards: u64,
    /// Mean likes one shard takes over the cool-down.
    pub likes_per_shard: f64,
    /// The chance that one given shard is below zero at the end.
    pub one_shard: Probability,
    /// The chance that at least one shard is below zero at the end.
    pub some_shard: Probability,
    /// Expected shards below zero at the end.
    pub expected_negative_shards: f64,
}

impl Unlikes {
    /// Checks the share: finite, in `[0, 1]`.
    pub fn new(share: f64) -> ParamResult<Self> {
        if !share.is_finite() || !(0.0..=1.0).contains(&share) {
            return Err(ParamError::new(
                "unlike_share",
                Problem::NotShareOfLikes(share),
            ));
        }
        Ok(Unlikes { share })
    }

    /// Writes per like: 1 + share.
    pub fn writes_per_like(&self) -> f64 {
        1.0 + self.share
    }

    /// The chance that some of `shards` shards is below zero after
    /// `seconds` at `rate` likes/s, the shards starting at zero.
    ///
    /// Exact under Poisson traffic: one shard's likes L ~ Poisson(a) and
    /// unlikes U ~ Poisson(share a), independent (thinning), a = rate
    /// seconds / shards, and P(U > L) = sum_k P(L = k) P(U > k), summed in
    /// logs outward from its largest term (the terms are log-concave in k,
    /// a product of two log-concave sequences) until they are 1e-20 of it.
    /// Shards are independent too, so some shard: 1 - (1 - p)^S.
    pub fn negative_shard(
        &self,
        seconds: f64,
        rate: f64,
        shards: u64,
    ) -> ParamResult<NegativeShards> {
        let seconds = validate::positive("cool_down_seconds", seconds)?;
        let rate = validate::positive("cool_down_rate", rate)?;
        let a = rate * seconds / shards.max(1) as f64;
        if a > MAX_COOL_DOWN_LIKES_PER_SHARD {
            return Err(ParamError::new(
                "cool_down_seconds",
                Problem::CoolDownTooLong {
                    likes_per_shard: a,
                    max: MAX_COOL_DOWN_LIKES_PER_SHARD,
                },
            ));
        }
        let ln_one = ln_u_above_l(a, self.share * a);
        let one_shard = Probability::from_ln(ln_one);
        let some_shard = Probability::from_ln(ln_p_any_over(ln_one, shards as f64));
        Ok(NegativeShards {
            cool_down_seconds: seconds,
            cool_down_rate: rate,
            shards,
            likes_per_shard: a,
            one_shard,
            some_shard,
            expected_negative_shards: shards as f64 * one_shard.p,
        })
    }
}

/// `ln P(U > L)` for independent `L ~ Poisson(a)`, `U ~ Poisson(b)`.
fn ln_u_above_l(a: f64, b: f64) -> f64 {
    if b <= 0.0 {
        return f64::NEG_INFINITY; // no unlikes: never below zero
    }
    let term = |k: u64| ln_dpois(k, a) + ln_pois_sf(k, b);
    // The largest term: the log-terms are concave in k, so their forward
    // difference falls; find where it turns negative by bisection.
    let (mut lo, mut hi) = (0_u64, (a.max(b) + 40.0 * a.max(b).sqrt() + 40.0) as u64);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if term(mid + 1) > term(mid) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    let top = term(lo);
    // Sum e^(term - top) outward from the top until the terms are negligible.
    let mut sum = 1.0;
    let mut k = lo;
    while k > 0 {
        k -= 1;
        let t = term(k) - top;
        sum += t.exp();
        if t < NEGLIGIBLE_LN {
            break;
        }
    }
    let mut k = lo;
    loop {
        k += 1;
        let t = term(k) - top;
        sum += t.exp();
        if t < NEGLIGIBLE_LN || t == f64::NEG_INFINITY {
            break;
        }
    }
    top + sum.ln()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// P(U > L) by brute force: the double sum over every pair, far past
    /// where the terms matter.
    fn brute(a: f64, b: f64) -> f64 {
        let pmf = |k: u64, m: f64| (-m + k as f64 * m.ln() - libm::lgamma(k as f64 + 1.0)).exp();
        let mut p = 0.0;
        for l in 0..200 {
            for u in (l + 1)..200 {
                p += pmf(l, a) * pmf(u, b);
            }
        }
        p
    }

    #[test]
    fn one_shard_matches_the_double_sum() {
        for (a, share) in [
            (0.5, 0.1),
            (2.0, 0.5),
            (5.0, 0.2),
            (10.0, 1.0),
            (30.0, 0.05),
        ] {
            let got = ln_u_above_l(a, share * a).exp();
            let want = brute(a, share * a);
            assert!(
                ((got - want) / want).abs() < 1e-12,
                "a = {a}, share = {share}: {got} vs {want}"
            );
        }
    }

    #[test]
    fn equal_streams_are_below_one_half_by_the_tie() {
        // U and L identically distributed: P(U > L) = (1 - P(U = L)) / 2.
        let a: f64 = 3.0;
        let tie: f64 = (0..200)
            .map(|k| (2.0 * (-a + k as f64 * a.ln() - libm::lgamma(k as f64 + 1.0))).exp())
            .sum();
        let got = ln_u_above_l(a, a).exp();
        assert!((got - (1.0 - tie) / 2.0).abs() < 1e-14);
    }

    #[test]
    fn many_likes_give_a_tiny_chance_in_logs_not_zero() {
        let u = Unlikes::new(0.1).unwrap();
        let n = u.negative_shard(3600.0, 5_000.0, 20).unwrap();
        assert_eq!(n.likes_per_shard, 900_000.0);
        assert!(n.some_shard.ln < -1e5 && n.some_shard.ln.is_finite());
        // Chernoff: P(U - L > 0) <= e^{-a (1 - sqrt(share))^2}, and the
        // exact value sits within a polynomial factor (here e^20) of it.
        let bound = -900_000.0 * (1.0 - 0.1_f64.sqrt()).powi(2);
        assert!(n.one_shard.ln <= bound);
        assert!(n.one_shard.ln > bound - 20.0);
    }

    #[test]
    fn some_shard_is_one_minus_the_product() {
        let u = Unlikes::new(0.2).unwrap();
        let n = u.negative_shard(60.0, 1.0, 20).unwrap();
        let want = 1.0 - (1.0 - n.one_shard.p).powi(20);
        assert!((n.some_shard.p - want).abs() < 1e-14);
        assert!((n.expected_negative_shards - 20.0 * n.one_shard.p).abs() < 1e-14);
    }

    #[test]
    fn shares_outside_zero_to_one_are_refused() {
        for bad in [-0.1, 1.5, f64::NAN, f64::INFINITY] {
            assert!(Unlikes::new(bad).is_err());
        }
        assert!(Unlikes::new(0.0).is_ok() && Unlikes::new(1.0).is_ok());
        let none = Unlikes::new(0.0)
            .unwrap()
            .negative_shard(60.0, 1.0, 20)
            .unwrap();
        assert_eq!(none.some_shard.p, 0.0);
        // Past the exact sum's reach: refused, not slow.
        let u = Unlikes::new(1.0).unwrap();
        assert!(u.negative_shard(3600.0, 14_000.0, 20).is_err());
        let edge = u.negative_shard(1.0, 1e6, 1).unwrap();
        assert!((edge.one_shard.p - 0.5).abs() < 1e-3); // a tie is rare at 1e6
    }
}
