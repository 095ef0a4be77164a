//! The background reels: Zipf ranks or a list of per-reel rates, with the
//! counts and sums over rank ranges the policies and the partition model
//! need (closed forms for Zipf, from [`crate::model::zipf`]).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use serde::Serialize;

use crate::error::{ParamError, ParamResult, Problem};
use crate::model::validate;
use crate::model::zipf::Zipf;

/// Where the background reels' rates come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum PopularityLaw {
    /// Zipf over the ranks.
    Zipf,
    /// A list of per-reel rates (a CSV).
    Rates,
}

/// The background reels, ranked from the most liked.
#[derive(Debug, Clone)]
pub struct Background {
    /// Background reels.
    pub(super) reels: u64,
    /// Their likes/s at the peak, all together.
    pub(super) total_rate: f64,
    kind: Kind,
    /// Tail sums already computed, by (first rank, last rank, power). The
    /// plan search asks for the same few tails at every step: summing a
    /// 2,000,000-reel list, or Zipf's first 10,000 terms, each time was
    /// most of its time (`fleet --scenario interview`: 12 s of CPU). Each
    /// is still computed once, the same way, so the values are the same
    /// bits.
    sums: Arc<Mutex<TailSums>>,
    /// The rates of the first ranks asked for so far, rank 1 first: the
    /// plan search lays out the same explicit ranks at every step (a
    /// thousand `powf`s each for Zipf); the same values, computed once.
    head: Arc<Mutex<Arc<Vec<f64>>>>,
}

#[derive(Debug, Clone)]
enum Kind {
    Zipf(Zipf),
    Rates(Rates),
}

/// Per-reel rates (`--rates-csv`).
#[derive(Debug, Clone)]
struct Rates {
    /// Sorted descending.
    rates: Vec<f64>,
}

/// Sums of rate^power over ranks a..=b, by (a, b, power).
type TailSums = HashMap<(u64, u64, i32), f64>;

impl Background {
    /// `reels` Zipf reels sharing `total_rate` likes/s.
    pub fn zipf(reels: u64, total_rate: f64, exponent: f64) -> ParamResult<Self> {
        let reels = validate::count("reels", reels, crate::model::defaults::MAX_REELS)?;
        let total_rate = validate::rate("likes_per_day", total_rate)?;
        if !exponent.is_finite() || !(0.0..=10.0).contains(&exponent) {
            return Err(ParamError::new(
                "zipf",
                Problem::NumberOutside {
                    got: exponent,
                    lo: 0.0,
                    hi: 10.0,
                },
            ));
        }
        Ok(Background {
            reels,
            total_rate,
            kind: Kind::Zipf(Zipf::new(reels, exponent)),
            sums: Arc::default(),
            head: Arc::default(),
        })
    }

    /// Reels with the given rates (any order); errors name the parameter `rates`.
    pub fn rates(mut rates: Vec<f64>) -> ParamResult<Self> {
        let what = "rates";
        if rates.is_empty() {
            return Err(ParamError::new(what, Problem::NoReels));
        }
        validate::count(what, rates.len() as u64, crate::model::defaults::MAX_REELS)?;
        if let Some(bad) = rates.iter().find(|r| !r.is_finite() || **r < 0.0) {
            return Err(ParamError::new(what, Problem::BadReelRate(*bad)));
        }
        rates.sort_unstable_by(|a, b| b.total_cmp(a));
        let total_rate: f64 = rates.iter().rev().sum();
        validate::rate(what, total_rate)?;
        Ok(Background {
            reels: rates.len() as u64,
            total_rate,
            kind: Kind::Rates(Rates { rates }),
            sums: Arc::default(),
            head: Arc::default(),
        })
    }

    /// Zipf or per-reel rates.
    pub fn law(&self) -> PopularityLaw {
        match self.kind {
            Kind::Zipf(_) => PopularityLaw::Zipf,
            Kind::Rates(_) => PopularityLaw::Rates,
        }
    }

    /// The Zipf exponent s (None for per-reel rates).
    pub fn zipf_exponent(&self) -> Option<f64> {
        match self.kind {
            Kind::Zipf(z) => Some(z.exponent()),
            Kind::Rates(_) => None,
        }
    }

    /// The like rate of rank `i` (1-based).
    pub fn rate(&self, i: u64) -> f64 {
        match &self.kind {
            Kind::Zipf(z) => z.rate(i, self.total_rate),
            Kind::Rates(r) => r.rates.get((i - 1) as usize).copied().unwrap_or(0.0),
        }
    }

    /// The rates of ranks 1 to `e` (at most every reel), each [`Background::rate`].
    pub fn head_rates(&self, e: u64) -> Arc<Vec<f64>> {
        let e = e.min(self.reels) as usize;
        let mut head = self.head.lock().unwrap_or_else(|p| p.into_inner());
        if head.len() < e {
            let from = head.len() as u64 + 1;
            let mut longer = head.as_ref().clone();
            longer.extend((from..=e as u64).map(|i| self.rate(i)));
            *head = Arc::new(longer);
        }
        Arc::clone(&head)
    }

    /// Reels with rate >= `threshold`: the first k ranks. Zipf:
    /// k = floor((R / (H threshold))^(1/s)), nudged by one where rounding
    /// put it on the wrong side.
    pub fn count_at_least(&self, threshold: f64) -> u64 {
        match &self.kind {
            Kind::Zipf(z) => z.count_at_least(self.total_rate, threshold),
            Kind::Rates(r) => r.rates.partition_point(|&x| x >= threshold) as u64,
        }
    }

    /// sum of rate_i^power over ranks a..=b (power 1 or 2).
    pub fn sum_pow(&self, a: u64, b: u64, power: i32) -> f64 {
        let b = b.min(self.reels);
        if b < a {
            return 0.0;
        }
        let mut sums = self.sums.lock().unwrap_or_else(|e| e.into_inner());
        *sums
            .entry((a, b, power))
            .or_insert_with(|| match &self.kind {
                Kind::Zipf(z) => z.sum_rate_pow(a, b, self.total_rate, power),
                Kind::Rates(r) => {
                    let tail = r.rates[(a - 1) as usize..b as usize].iter();
                    // x * x is what powi(2) computes, bit for bit, without
                    // the call.
                    match power {
                        1 => tail.sum(),
                        2 => tail.map(|x| x * x).sum(),
                        _ => tail.map(|x| x.powi(power)).sum(),
                    }
                }
            })
    }

    /// sum of min(scale x rate_i, limit) over ranks a..=b: the ranks whose
    /// scaled rate is at least the limit are the first j = count_at_least
    /// (limit / scale), each giving `limit`; the rest is scale x the rate sum.
    pub fn sum_min(&self, a: u64, b: u64, scale: f64, limit: f64) -> f64 {
        let b = b.min(self.reels);
        if b < a {
            return 0.0;
        }
        if !limit.is_finite() {
            return scale * self.sum_pow(a, b, 1);
        }
        let j = self.count_at_least(limit / scale);
        let capped = j.min(b).saturating_sub(a - 1);
        capped as f64 * limit + scale * self.sum_pow(a.max(j + 1), b, 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zipf_rates_sum_to_the_total() {
        let bg = Background::zipf(100_000, 2_314.8, 1.0).unwrap();
        let direct: f64 = (1..=100_000).rev().map(|i| bg.rate(i)).sum();
        assert!((direct - 2_314.8).abs() < 1e-9, "{direct}");
        assert!((bg.sum_pow(1, 100_000, 1) - 2_314.8).abs() < 1e-9);
        // s = 0: every reel the same.
        let flat = Background::zipf(1000, 50.0, 0.0).unwrap();
        assert!((flat.rate(1) - 0.05).abs() < 1e-15);
        assert!((flat.rate(1000) - 0.05).abs() < 1e-15);
    }

    #[test]
    fn threshold_count_matches_brute_force() {
        for s in [0.7, 1.0, 1.5] {
            let bg = Background::zipf(10_000, 5_000.0, s).unwrap();
            for t in [0.01, 0.5, 1.0, 7.3, 100.0, 1e4] {
                let brute = (1..=10_000).filter(|&i| bg.rate(i) >= t).count() as u64;
                assert_eq!(bg.count_at_least(t), brute, "s {s} t {t}");
            }
            // Exactly on a rate: that reel counts.
            let r7 = bg.rate(7);
            assert_eq!(bg.count_at_least(r7), 7);
        }
        let csv = Background::rates(vec![1.0, 5.0, 3.0]).unwrap();
        assert_eq!(csv.count_at_least(3.0), 2);
        assert_eq!(csv.count_at_least(0.5), 3);
    }

    #[test]
    fn capped_view_sums_match_brute_force() {
        let bg = Background::zipf(20_000, 3_000.0, 1.1).unwrap();
        for (a, b, limit) in [(1, 20_000, 20.0), (5, 15_000, 3.0), (1, 100, f64::INFINITY)] {
            let brute: f64 = (a..=b).map(|i| (7.0 * bg.rate(i)).min(limit)).sum();
            let closed = bg.sum_min(a, b, 7.0, limit);
            assert!(
                (closed - brute).abs() < 1e-9 * brute,
                "{a}..{b}: {closed} vs {brute}"
            );
        }
    }

    #[test]
    fn bad_inputs_name_the_flag() {
        assert_eq!(Background::zipf(0, 1.0, 1.0).unwrap_err().param, "reels");
        assert_eq!(
            Background::zipf(crate::model::defaults::MAX_REELS + 1, 1.0, 1.0)
                .unwrap_err()
                .param,
            "reels"
        );
        assert_eq!(Background::zipf(10, 1.0, -1.0).unwrap_err().param, "zipf");
        assert_eq!(
            Background::zipf(10, 1.0, f64::NAN).unwrap_err().param,
            "zipf"
        );
        assert_eq!(Background::rates(vec![]).unwrap_err().param, "rates");
        assert_eq!(
            Background::rates(vec![1.0, -2.0]).unwrap_err().param,
            "rates"
        );
    }
}
