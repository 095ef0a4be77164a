//! Empirical traffic: the law of a second's count is an observed
//! distribution of per-second counts itself (`--traffic empirical` with a
//! per-second `--traffic-from` trace), grown to the plan.
//!
//! The law is the observed seconds' counts, grouped: each distinct count
//! `n` with the fraction `w_n` of the seconds that had it. A second of the
//! plan is one observed second drawn uniformly, so every exact figure is
//! the mixture over `n` of the fixed-count law's figure (`exact`), and the
//! simulator draws one observed second and spreads its count as fixed
//! traffic does (`sampler`).
//!
//! A [`TrafficModel`](super::TrafficModel) is `Copy` and keys
//! caches; the law is built once per process and leaked
//! ([`EmpiricalLaw::leak`]): a CLI run plans one law.

use std::hash::{Hash, Hasher};

use rand::{Rng, RngExt};

use super::fixed::Fixed;
use super::{LawProblem, Share, Split, TrafficKind, TrafficLaw};
use crate::error::{ParamError, ParamResult};
use crate::model::defaults::MAX_EMPIRICAL_COUNT;
use crate::model::exact::special::neumaier;
use crate::model::rng::ChunkRng;

/// `ln sum exp(terms)`: shifted by the largest term, summed compensated,
/// so a sum of positive terms given by their logs neither cancels nor
/// underflows; `-inf` for no terms (an empty sum is exactly 0).
pub fn ln_sum(terms: &[f64]) -> f64 {
    let max = terms.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if max == f64::NEG_INFINITY {
        return max;
    }
    let mut acc = (0.0, 0.0);
    for &t in terms {
        acc = neumaier(acc, (t - max).exp());
    }
    max + (acc.0 + acc.1).ln()
}

/// The observed per-second counts as a law.
#[derive(Clone)]
pub struct EmpiricalLaw {
    /// The distinct counts, ascending.
    counts: Vec<u64>,
    /// The seconds with each count.
    seconds: Vec<u64>,
    /// `seconds / total`, each: the weights sum to 1 (to rounding).
    weights: Vec<f64>,
    /// Seconds with a count at most `counts[i]`: a uniform second's count
    /// is found by bisection (integer arithmetic, exact).
    cumulative: Vec<u64>,
    /// Every second of the trace.
    total: u64,
    /// The mean count.
    mean: f64,
}

impl EmpiricalLaw {
    /// The most likes any observed second had.
    pub fn most(&self) -> Option<u64> {
        self.counts.last().copied()
    }

    /// The law of `(count, seconds with that count)` pairs, in any order
    /// (equal counts are grouped). Errors name `traffic`: no seconds, or a
    /// count past [`MAX_EMPIRICAL_COUNT`].
    pub fn new(table: &[(u64, u64)]) -> ParamResult<Self> {
        let mut pairs: Vec<(u64, u64)> = table.iter().copied().filter(|p| p.1 > 0).collect();
        if pairs.is_empty() {
            return Err(ParamError::new("traffic", LawProblem::NoSeconds.into()));
        }
        pairs.sort_unstable();
        let mut counts: Vec<u64> = Vec::with_capacity(pairs.len());
        let mut seconds: Vec<u64> = Vec::with_capacity(pairs.len());
        for (n, s) in pairs {
            if n > MAX_EMPIRICAL_COUNT {
                let too_many = LawProblem::CountAbove {
                    got: n,
                    max: MAX_EMPIRICAL_COUNT,
                };
                return Err(ParamError::new("traffic", too_many.into()));
            }
            match counts.last() {
                Some(&last) if last == n => *seconds.last_mut().expect("one per count") += s,
                _ => {
                    counts.push(n);
                    seconds.push(s);
                }
            }
        }
        let total: u64 = seconds.iter().sum();
        let cumulative = seconds
            .iter()
            .scan(0u64, |acc, &s| {
                *acc += s;
                Some(*acc)
            })
            .collect();
        let weights = seconds.iter().map(|&s| s as f64 / total as f64).collect();
        // The likes summed exactly (u128: 2^64 seconds of 1e9 likes fit),
        // then one division: the mean to rounding.
        let likes: u128 = counts
            .iter()
            .zip(&seconds)
            .map(|(&n, &s)| n as u128 * s as u128)
            .sum();
        Ok(EmpiricalLaw {
            mean: likes as f64 / total as f64,
            counts,
            seconds,
            weights,
            cumulative,
            total,
        })
    }

    /// The observed `(count, seconds)` table with every count scaled by
    /// `growth` and rounded to the nearest whole like (halves away from 0):
    /// the plan's seconds. Errors name `traffic`.
    pub fn grown(table: &[(u64, u64)], growth: f64) -> ParamResult<Self> {
        if !growth.is_finite() || growth <= 0.0 {
            return Err(ParamError::new(
                "traffic",
                LawProblem::Growth(growth).into(),
            ));
        }
        let scaled: Vec<(u64, u64)> = table
            .iter()
            .map(|&(n, s)| {
                // Saturating: a count past u64 is refused by `new` anyway.
                let planned = (n as f64 * growth).round();
                (planned.min(u64::MAX as f64) as u64, s)
            })
            .collect();
        Self::new(&scaled)
    }

    /// The law for the rest of the process (a traffic law is `Copy`).
    pub fn leak(self) -> &'static EmpiricalLaw {
        Box::leak(Box::new(self))
    }

    /// The distinct counts, ascending.
    pub fn counts(&self) -> &[u64] {
        &self.counts
    }

    /// Their weights (fractions of the seconds), summing to 1.
    pub fn weights(&self) -> &[f64] {
        &self.weights
    }

    /// `(count, weight)` pairs, ascending by count.
    pub fn iter(&self) -> impl Iterator<Item = (u64, f64)> + '_ {
        self.counts
            .iter()
            .copied()
            .zip(self.weights.iter().copied())
    }

    /// How many distinct counts.
    pub fn distinct(&self) -> usize {
        self.counts.len()
    }

    /// How many seconds the law was built from.
    pub fn seconds(&self) -> u64 {
        self.total
    }

    /// The mean count: the law's rate, likes/s.
    pub fn mean(&self) -> f64 {
        self.mean
    }

    /// The smallest count.
    pub fn min(&self) -> u64 {
        self.counts[0]
    }

    /// The largest count: the busiest second.
    pub fn max(&self) -> u64 {
        *self.counts.last().expect("a law has a count")
    }

    /// `ln sum_{n > above} w_n e^{ln_p(n)}`: the chance of an event that
    /// needs more than `above` likes in the second, given its log
    /// `ln_p(n)` for each count (a tail, summed as one: never `1 -` a CDF).
    pub fn ln_expect_above(&self, above: u64, ln_p: impl Fn(u64) -> f64) -> f64 {
        let from = self.counts.partition_point(|&n| n <= above);
        let terms: Vec<f64> = self.counts[from..]
            .iter()
            .zip(&self.weights[from..])
            .map(|(&n, &w)| w.ln() + ln_p(n))
            .collect();
        ln_sum(&terms).min(0.0)
    }

    /// One second's count: an observed second drawn uniformly (one
    /// uniform integer below the number of seconds, so every second is
    /// equally likely, exactly).
    #[inline]
    pub fn draw<R: Rng + ?Sized>(&self, rng: &mut R) -> u64 {
        let u = rng.random_range(0..self.total);
        self.counts[self.cumulative.partition_point(|&c| c <= u)]
    }
}

/// A second of the plan is one observed second drawn uniformly: every
/// figure is the mixture over the observed counts of fixed traffic's.
impl TrafficLaw for &'static EmpiricalLaw {
    fn kind(&self) -> TrafficKind {
        TrafficKind::Empirical
    }

    /// The observed mean, whatever the plan's rate.
    fn own_mean(&self) -> Option<f64> {
        Some(self.mean)
    }

    /// `E[n^2] - mean^2` over the observed seconds.
    fn variance(&self, _rate: f64) -> f64 {
        let square: f64 = self.iter().map(|(n, w)| w * n as f64 * n as f64).sum();
        (square - self.mean * self.mean).max(0.0)
    }

    fn split(&self, _rate: f64) -> Split {
        Split::Counts(self)
    }

    fn fewest(&self, _rate: f64) -> u64 {
        self.min()
    }

    /// The mixture of the fixed counts' tails (a count at most `c` adds
    /// nothing).
    fn ln_share_sf(&self, _rate: f64, share: Share, c: u64) -> f64 {
        self.ln_expect_above(c, |n| Fixed.ln_share_sf(n as f64, share, c))
    }

    fn ln_share_pmf(&self, _rate: f64, share: Share, c: u64) -> f64 {
        let terms: Vec<f64> = self
            .iter()
            .map(|(n, w)| w.ln() + Fixed.ln_share_pmf(n as f64, share, c))
            .collect();
        ln_sum(&terms).min(0.0)
    }

    fn ln_share_cdf(&self, _rate: f64, share: Share, c: u64) -> f64 {
        crate::model::exact::special::ln_1m_exp(self.ln_share_sf(0.0, share, c))
    }

    /// An observed second, whatever the curve says (time lines refuse
    /// empirical traffic: `config/timeline.rs`).
    fn second_on_curve(&self, _: f64, _: f64, _: &mut u64, rng: &mut ChunkRng) -> u64 {
        self.draw(rng)
    }
}

/// Equal laws have equal tables (the weights follow from the seconds).
impl PartialEq for EmpiricalLaw {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other) || (self.counts == other.counts && self.seconds == other.seconds)
    }
}

impl Eq for EmpiricalLaw {}

/// A summary that equal laws share (hashing the whole table would cost
/// O(distinct) each time a law keys a cache).
impl Hash for EmpiricalLaw {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.total.hash(state);
        self.counts.len().hash(state);
        self.counts[0].hash(state);
        self.max().hash(state);
    }
}

/// The summary, never the whole table.
impl std::fmt::Debug for EmpiricalLaw {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EmpiricalLaw")
            .field("distinct", &self.distinct())
            .field("seconds", &self.total)
            .field("mean", &self.mean)
            .field("min", &self.min())
            .field("max", &self.max())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::rng::chunk_rng;

    #[test]
    fn groups_sorts_and_weighs() {
        let law = EmpiricalLaw::new(&[(7, 1), (3, 2), (5, 1), (3, 1), (9, 0)]).unwrap();
        assert_eq!(law.counts(), &[3, 5, 7]);
        assert_eq!(law.weights(), &[0.6, 0.2, 0.2]);
        assert_eq!(law.seconds(), 5);
        assert_eq!(law.mean(), (3.0 * 3.0 + 5.0 + 7.0) / 5.0);
        assert_eq!((law.min(), law.max(), law.distinct()), (3, 7, 3));
    }

    #[test]
    fn refuses_no_seconds() {
        let e = EmpiricalLaw::new(&[]).unwrap_err();
        assert_eq!(e.param, "traffic");
        assert!(EmpiricalLaw::new(&[(4, 0)]).is_err());
        assert!(EmpiricalLaw::grown(&[(4, 1)], 0.0).is_err());
    }

    #[test]
    fn grows_by_rounding_each_count() {
        // 10 x 1.25 = 12.5 rounds away from zero; 3 x 1.25 = 3.75 to 4.
        let law = EmpiricalLaw::grown(&[(10, 1), (3, 3), (4, 1)], 1.25).unwrap();
        assert_eq!(law.counts(), &[4, 5, 13]);
        assert_eq!(law.weights(), &[0.6, 0.2, 0.2]);
    }

    /// Each second is drawn with probability 1/total: 60,000 draws of
    /// {3: 3 s, 5: 1 s, 7: 1 s} land within 5 standard errors of 0.6,
    /// 0.2, 0.2 (se = sqrt(p (1 - p) / n) <= 0.002).
    #[test]
    fn draws_seconds_uniformly() {
        let law = EmpiricalLaw::new(&[(3, 3), (5, 1), (7, 1)]).unwrap();
        let mut rng = chunk_rng(11, 0);
        let n = 60_000;
        let mut hits = [0u64; 3];
        for _ in 0..n {
            let c = law.draw(&mut rng);
            hits[law.counts().iter().position(|&x| x == c).unwrap()] += 1;
        }
        for (h, p) in hits.iter().zip([0.6, 0.2, 0.2]) {
            let se = (p * (1.0 - p) / n as f64).sqrt();
            assert!((*h as f64 / n as f64 - p).abs() < 5.0 * se, "{hits:?}");
        }
    }

    #[test]
    fn equal_by_content() {
        let a = EmpiricalLaw::new(&[(3, 1), (5, 2)]).unwrap().leak();
        let b = EmpiricalLaw::new(&[(5, 2), (3, 1)]).unwrap().leak();
        let c = EmpiricalLaw::new(&[(5, 1), (3, 1)]).unwrap().leak();
        assert_eq!(a, b);
        assert_ne!(a, c);
    }
}
