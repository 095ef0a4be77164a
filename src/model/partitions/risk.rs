//! The shared-partition risk over a hot spell: S shard keys hashed onto P
//! partitions stay where they land for the whole spell, and the risk is
//! P(some second of the T in which some partition is over its cap),
//! averaged over the placements.
//!
//! Given a placement with k_j shards on partition j:
//! - Poisson traffic splits into independent Poisson(rate k_j / S) loads,
//!   so the seconds and the partitions are independent and
//!   P(no partition ever over) = prod_j F(k_j)^T, F(k) = P(Poisson(rate k/S)
//!   <= cap). Its expectation over placements is [`bins_expectation`] with
//!   f(k) = F(k)^T: exact.
//! - Fixed traffic (exactly L likes a second) makes the loads of one second
//!   multinomial. Those are negatively associated, so treating them as
//!   independent would *under*state the risk; the union bound below holds.
//!
//! The union bound: with g(k) = 1 - (1 - q_k)^T the chance that a partition
//! holding k shards goes over in some second (q_k its chance in one second,
//! exact for either traffic law), U = P E[g(K)], K ~ Binomial(S, 1/P), and
//! risk <= U by the union bound over partitions. For Poisson traffic also
//! risk >= U - U^2 / 2: given the placement the partitions are independent,
//! so P(j and j' both over) = E[g(K_j) g(K_j')] <= E[g(K)]^2 (bin counts are
//! negatively associated and g grows with k), and Bonferroni's second
//! inequality gives the rest. So U is the risk to a relative error of U / 2
//! when it is small, finite in log space far below f64's range, and a search
//! only needs the exact expectation where U sits within U^2 / 2 of the target.

use serde::Serialize;

use super::busiest::bins_expectation_by;
use crate::error::ParamResult;
use crate::model::exact::ln_p_any_over;
use crate::model::exact::special::{ln_1m_exp, ln_add, ln_dbinom};
use crate::model::law::{Share, TrafficModel};
use crate::model::validate;
use screen::ShareGrid;

/// Below this union bound a Poisson risk is taken as the bound (relative
/// error at most half of it: 5e-7).
const UNION_EXACT_BELOW: f64 = 1e-6;
/// Binomial terms this far (in ln) below the largest cannot move the sum.
const LN_NEGLIGIBLE: f64 = -60.0;

/// How a partition risk was obtained.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RiskMethod {
    /// Exact: the expectation over placements in closed form (Poisson
    /// traffic), or the union bound where it is within 1e-6 relative.
    Exact,
    /// An upper bound that holds (fixed traffic: the union bound over
    /// partitions of exact per-partition chances).
    UpperBound,
}

/// The risk of one shard count.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub struct PartitionRiskAt {
    /// Shard keys.
    pub shards: u64,
    /// P(some partition over its cap in some second of the spell).
    pub p_any_over_cap: f64,
    /// Its natural log, finite where the probability underflows.
    pub ln_p_any_over_cap: f64,
    /// Exact, or an upper bound.
    pub method: RiskMethod,
}

/// A hot spell at `rate` likes/s on shard keys hashed onto `partitions`
/// partitions that each accept `cap` writes a second.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PartitionRisk {
    rate: f64,
    cap: u64,
    partitions: u64,
    seconds: f64,
    traffic: TrafficModel,
}

impl PartitionRisk {
    /// Errors name `rate`, `cap`, `partitions` and `duration_seconds`.
    /// "Over the cap" is more writes than the cap: over floor(cap).
    pub fn new(
        rate: f64,
        cap: f64,
        partitions: u64,
        seconds: f64,
        traffic: TrafficModel,
    ) -> ParamResult<Self> {
        let rate = traffic.check_rate("rate", rate)?;
        let cap = validate::non_negative("cap", cap)?;
        let partitions = validate::count(
            "partitions",
            partitions,
            crate::model::defaults::MAX_PARTITIONS,
        )?;
        if !seconds.is_finite() || seconds < 1.0 {
            return Err(crate::error::ParamError::new(
                "duration_seconds",
                crate::error::Problem::BelowOneSecond(seconds),
            ));
        }
        Ok(PartitionRisk {
            rate,
            cap: cap.floor().min(u64::MAX as f64) as u64,
            partitions,
            seconds,
            traffic,
        })
    }

    /// Partitions the keys hash onto.
    pub fn partitions(&self) -> u64 {
        self.partitions
    }

    /// `ln q_k`: a partition holding `k` of `shards` shards goes over in one second.
    fn ln_q(&self, k: u64, shards: u64) -> f64 {
        if k == 0 {
            return f64::NEG_INFINITY;
        }
        let share = Share::of(k, shards);
        self.traffic.law().ln_share_sf(self.rate, share, self.cap)
    }

    /// `ln g(k)`: that partition goes over in some second of the spell.
    fn ln_g(&self, k: u64, shards: u64) -> f64 {
        ln_p_any_over(self.ln_q(k, shards).min(0.0), self.seconds)
    }

    /// `ln U`, U = P E[g(K)], K ~ Binomial(S, 1/P): the union bound.
    pub fn ln_union_bound(&self, shards: u64) -> f64 {
        self.ln_union_bound_until(shards, Early::NEVER)
    }

    /// [`PartitionRisk::ln_union_bound`], or, once the terms summed so far
    /// pass `early.past`, that partial sum (below `ln U`, above it), or
    /// once the sum and a bound on the terms left are within
    /// `early.within`, that bound (above `ln U`, within it): a search only
    /// needs to know that U is past where the count fails, or within the
    /// risk.
    fn ln_union_bound_until(&self, shards: u64, early: Early) -> f64 {
        if self.partitions == 1 {
            // One partition holds every shard: the risk is its own.
            return self.ln_g(shards, shards);
        }
        let ln_p = (self.partitions as f64).ln();
        let ln_h = |k: u64| self.ln_g(k, shards);
        let early = Early {
            past: early.past - ln_p,
            within: early.within - ln_p,
        };
        ln_p + ln_binomial_sum(shards, 1.0 / self.partitions as f64, ln_h, early)
    }

    /// `1 - E[prod_j F(K_j)^T]`, exact for Poisson traffic (the doubling
    /// of [`bins_expectation_by`], O(S log P) in its windows; a partition's
    /// weight, a Poisson tail, computed only where the windows read it).
    fn exact_poisson(&self, shards: u64) -> f64 {
        let f = |k: usize| ln_1m_exp(self.ln_g(k as u64, shards)).exp();
        (1.0 - bins_expectation_by(self.partitions, shards as usize, f)).clamp(0.0, 1.0)
    }

    /// The risk at `shards` shard keys.
    pub fn at(&self, shards: u64) -> PartitionRiskAt {
        let ln_u = self.ln_union_bound(shards);
        // Independent shards make the partitions' loads independent given
        // their keys: exact. Otherwise the union bound.
        let independent = self.traffic.split(self.rate).shards_independent();
        let (ln_p, method) = match independent {
            false => (ln_u.min(0.0), RiskMethod::UpperBound),
            true if ln_u < UNION_EXACT_BELOW.ln() => (ln_u, RiskMethod::Exact),
            true => (self.exact_poisson(shards).ln(), RiskMethod::Exact),
        };
        PartitionRiskAt {
            shards,
            p_any_over_cap: ln_p.exp(),
            ln_p_any_over_cap: ln_p,
            method,
        }
    }

    /// Does `shards` meet `risk`? Decided by the bounds where they suffice
    /// (U <= risk meets; for Poisson U - U^2 / 2 > risk fails), else exactly.
    pub fn meets(&self, shards: u64, risk: f64) -> bool {
        let independent = self.traffic.split(self.rate).shards_independent();
        let early = Early {
            past: self.ln_stop(risk),
            within: risk.ln(),
        };
        let u = self.ln_union_bound_until(shards, early).exp();
        if u <= risk {
            return true;
        }
        match independent {
            false => false,
            true if u.min(1.0) - u.min(1.0).powi(2) / 2.0 > risk => false,
            true => match self.bonferroni_decides(shards, u, risk) {
                Some(meets) => meets,
                None => self.exact_poisson(shards) <= risk,
            },
        }
    }

    /// Where U is past this (in ln), the count fails whatever the terms not
    /// yet summed add (U only grows): past the risk, or, for independent
    /// shards, past the u with u - u^2 / 2 = risk (none at risk >= 1/2).
    fn ln_stop(&self, risk: f64) -> f64 {
        match self.traffic.split(self.rate).shards_independent() {
            false => risk.ln(),
            true if risk < 0.5 => (1.0 - (1.0 - 2.0 * risk).sqrt()).ln(),
            true => f64::INFINITY,
        }
    }

    /// [`PartitionRisk::meets`], screened first by the union bound's
    /// bracket on `grid` (`screen.rs`): the same answer. Poisson traffic
    /// only: its partition tail is a short sum, so the grid's values come
    /// cheap; under gamma-poisson traffic one can be an integral, and the
    /// bracket, which sums every term at two points of the grid, cost five
    /// times what `meets`, which stops early, saves (measured).
    fn meets_screened(&self, grid: &ShareGrid, shards: u64, risk: f64) -> bool {
        let cheap = self.traffic.split(self.rate).shards_independent();
        if self.partitions > 1 && cheap {
            let (lower, upper) = grid.bracket(shards);
            if upper <= risk {
                return true;
            }
            if lower.ln() > self.ln_stop(risk) {
                return false;
            }
        }
        self.meets(shards, risk)
    }

    /// Decides `risk(shards) <= risk` for independent shards by Bonferroni's
    /// inequalities of second and third order, `U - S2 <= risk(shards) <=
    /// U - S2 + S3`, where the union bound `U` is `u`, `S2 = C(P, 2)
    /// E[g(K1) g(K2)]` is summed here and `S3 = C(P, 3) E[g g g] <= U^3 / 6`
    /// (the counts are negatively associated and g grows). `None` where the
    /// risk sits between the two: a sliver of relative width `U^2 / 6`
    /// where `U - U^2 / 2` left one of `U / 2`, so a search needs the exact
    /// expectation (most of a shared-partition search's time before) at a
    /// few counts instead of at every count near its
    /// answer. A slack of 1e-9 U + 1e-12 on both sides covers the terms the
    /// sums leave out (at most `S e^-60` of each) and the exact
    /// figure's own rounding (it is 1 minus an expectation near 1: 1e-14
    /// off at a risk of 1e-6, measured), so where the bracket decides, the
    /// exact figure would have decided the same.
    fn bonferroni_decides(&self, shards: u64, u: f64, risk: f64) -> Option<bool> {
        let p = self.partitions as f64;
        let s2 = match self.partitions {
            // One partition: no pairs, and U is the risk.
            1 => 0.0,
            _ => (p * (p - 1.0) / 2.0 * self.ln_pair_expectation(shards).exp()).min(u),
        };
        let slack = 1e-9 * u + 1e-12;
        if u - s2 - slack > risk {
            return Some(false);
        }
        if u - s2 + u.powi(3) / 6.0 + slack <= risk {
            return Some(true);
        }
        None
    }

    /// `ln E[g(K1) g(K2)]` for two partitions' counts `(K1, K2)` of a
    /// multinomial placement: `K1 ~ Binomial(S, 1/P)`, then `K2 ~
    /// Binomial(S - K1, 1 / (P - 1))`; each sum walks out from its
    /// binomial's mode and stops where its terms cannot move it.
    fn ln_pair_expectation(&self, shards: u64) -> f64 {
        let p = self.partitions as f64;
        let mut ln_g = vec![f64::NAN; shards as usize + 1];
        let mut g = |k: u64| {
            let slot = &mut ln_g[k as usize];
            if slot.is_nan() {
                *slot = self.ln_g(k, shards);
            }
            *slot
        };
        let inner = |g: &mut dyn FnMut(u64) -> f64, n: u64| {
            ln_binomial_sum(n, 1.0 / (p - 1.0), &mut *g, Early::NEVER)
        };
        let outer = |k1| {
            let first = g(k1);
            match first {
                f64::NEG_INFINITY => first,
                _ => first + inner(&mut g, shards - k1),
            }
        };
        ln_binomial_sum(shards, 1.0 / p, outer, Early::NEVER)
    }

    /// The sizing for `risk`: the fewest count from `floor` on that meets
    /// it, the fewest from which every count up to twice it meets it too,
    /// and the counts in between that fail (the risk is not monotone in the
    /// shard count: more shards share more partitions, each with less load).
    /// `None` counts when nothing up to `max_shards` does.
    pub fn sizing(&self, risk: f64, floor: u64, max_shards: u64) -> PartitionSizing {
        let floor = floor.max(1);
        let grid = ShareGrid::new(self);
        let meets = |s: u64| self.meets_screened(&grid, s, risk);
        // However the keys land, some partition carries at least 1/P of the
        // likes; if even that share goes over too often, no count can do.
        let even = self.ln_g(1, self.partitions.min(max_shards.max(1)));
        let first = match even.exp() > risk {
            true => None,
            false => (floor..=max_shards).find(|&s| meets(s)),
        };
        let mut failing = Vec::new();
        let mut stable = first;
        // Walk up from the first count that meets: a failing count in
        // [candidate, 2 candidate] moves the candidate past it.
        if let Some(mut candidate) = first {
            let mut s = candidate;
            loop {
                let end = candidate.saturating_mul(2).min(max_shards);
                if s > end {
                    break;
                }
                if meets(s) {
                    s += 1;
                    continue;
                }
                failing.push(s);
                match (s + 1..=max_shards).find(|&t| meets(t)) {
                    Some(next) => {
                        failing.extend(s + 1..next);
                        candidate = next;
                        s = next;
                    }
                    None => {
                        stable = None;
                        break;
                    }
                }
                stable = Some(candidate);
            }
        }
        PartitionSizing {
            shards: first,
            stable,
            failing: ranges(&failing),
        }
    }
}

#[path = "screen.rs"]
mod screen;

/// Where [`ln_binomial_sum`] may end before its last term (in ln).
#[derive(Debug, Clone, Copy)]
struct Early {
    /// Once the sum passes this, the sum so far.
    past: f64,
    /// Once the sum plus a bound on the terms left is at most this, that
    /// bound.
    within: f64,
}

impl Early {
    /// The whole sum.
    const NEVER: Early = Early {
        past: f64::INFINITY,
        within: f64::NEG_INFINITY,
    };
}

/// `ln E[h(K)]`, `K ~ Binomial(n, w)`, for `h` (given as `ln h`) that
/// grows with `k` and is at most 1: from the mode down while the terms
/// (falling, as both factors do) are not below e^-60 of the sum, then up
/// while the pmf alone is not (`h <= 1`). What is left out is at most
/// `n e^-60` of the sum. The terms near the mode come first, where they
/// are largest, and none of the hundreds far below it that a walk up from
/// 0 would evaluate (a Poisson tail, or an integral of them, each).
///
/// It may end early (`early`): once the sum passes `early.past`, with the
/// sum so far; once the sum, the terms the walk down left out (at most
/// `mode e^-60` of it) and a bound on `P(K > k)` (which bounds the terms
/// above `k`, as `h <= 1`) are within `early.within`, with that bound.
fn ln_binomial_sum(n: u64, w: f64, mut ln_h: impl FnMut(u64) -> f64, early: Early) -> f64 {
    if w >= 1.0 {
        // The last of two partitions takes every shard left.
        return ln_h(n);
    }
    let v = 1.0 - w;
    let mode = (((n + 1) as f64 * w).floor() as u64).min(n);
    let mut sum = f64::NEG_INFINITY;
    for k in (0..=mode).rev() {
        let term = ln_dbinom(k, n, w, v) + ln_h(k);
        if term == f64::NEG_INFINITY || (sum.is_finite() && term < sum + LN_NEGLIGIBLE) {
            break;
        }
        sum = ln_add(sum, term);
        if sum > early.past {
            return sum;
        }
    }
    let below = (mode as f64 * LN_NEGLIGIBLE.exp()).ln_1p();
    for k in mode + 1..=n {
        let ln_pmf = ln_dbinom(k, n, w, v);
        if sum.is_finite() && ln_pmf < sum + LN_NEGLIGIBLE {
            break;
        }
        sum = ln_add(sum, ln_pmf + ln_h(k));
        if sum > early.past {
            return sum;
        }
        // P(K > k) <= pmf(k + 1) / (1 - r), r = pmf(k + 2) / pmf(k + 1):
        // past the mode the pmf's ratios fall, so the tail is below that
        // geometric series.
        if sum < early.within && ln_pmf < early.within {
            let ratio = |j: u64| (n - j) as f64 / (j + 1) as f64 * (w / v);
            let r = if k + 1 < n { ratio(k + 1) } else { 0.0 };
            if k < n && r < 1.0 {
                let ln_tail = ln_pmf + ratio(k).ln() - (-r).ln_1p();
                let bound = ln_add(sum + below, ln_tail);
                if bound <= early.within {
                    return bound;
                }
            }
        }
    }
    sum
}

/// `ln E[h(K)]`, `K ~ Binomial(n, w)`, for `h` (given as `ln h`) that
/// grows with `k` and is at most 1, summed whole ([`ln_binomial_sum`]:
/// what it leaves out is at most `n e^-60` of the sum). `fleet`'s
/// over-cap figures sum their biggest run's keys on one partition with it.
pub(crate) fn ln_binomial_expectation(n: u64, w: f64, ln_h: impl FnMut(u64) -> f64) -> f64 {
    ln_binomial_sum(n, w, ln_h, Early::NEVER)
}

/// What [`PartitionRisk::sizing`] finds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct PartitionSizing {
    /// The fewest shards (from the floor) that meet the risk.
    pub shards: Option<u64>,
    /// The fewest from which every count up to twice it meets it.
    pub stable: Option<u64>,
    /// Counts from `shards` up that fail, as inclusive ranges.
    pub failing: Vec<[u64; 2]>,
}

/// Sorted counts as inclusive ranges: 3, 4, 5, 9 -> [3, 5], [9, 9].
fn ranges(counts: &[u64]) -> Vec<[u64; 2]> {
    let mut out: Vec<[u64; 2]> = Vec::new();
    for &c in counts {
        match out.last_mut() {
            Some(r) if r[1] + 1 == c => r[1] = c,
            _ => out.push([c, c]),
        }
    }
    out
}

#[cfg(test)]
#[path = "risk_tests.rs"]
mod tests;
