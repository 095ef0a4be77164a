//! Streaming statistics: a mergeable histogram of whole-number values and
//! binomial confidence intervals. Memory grows with the spread of the values
//! seen, never with how many were recorded.

use serde::Serialize;

/// Counts of whole-number values (e.g. the busiest shard's writes in each
/// second), kept densely between the smallest and largest value seen.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Histogram {
    lo: u64,
    counts: Vec<u64>,
    total: u64,
    sum: u128,
}

/// One non-empty bin, as exported in JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Bin {
    /// The value recorded (in `busiest_histogram`: the busiest shard's
    /// writes in a second, writes/s).
    pub value: u64,
    /// How many times it was recorded (in `busiest_histogram`: seconds).
    pub count: u64,
}

impl Histogram {
    /// An empty histogram.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records one value.
    #[inline]
    pub fn record(&mut self, value: u64) {
        // The common case first: a value inside the bins already held (the
        // wrapping difference is huge below `lo`, so one compare covers both
        // ends).
        let idx = value.wrapping_sub(self.lo);
        if idx < self.counts.len() as u64 {
            self.counts[idx as usize] += 1;
            self.total += 1;
            self.sum += value as u128;
        } else {
            self.record_n(value, 1);
        }
    }

    /// The histogram of dense counts: `counts[i]` values equal to `lo + i`.
    /// The same histogram as recording them one by one (empty end bins are
    /// trimmed, as recording never creates them).
    pub fn from_dense(lo: u64, counts: &[u64]) -> Self {
        let Some(first) = counts.iter().position(|&c| c > 0) else {
            return Self::default();
        };
        let last = counts
            .iter()
            .rposition(|&c| c > 0)
            .expect("a non-empty bin");
        let counts = counts[first..=last].to_vec();
        let lo = lo + first as u64;
        let total = counts.iter().sum();
        let sum = counts
            .iter()
            .enumerate()
            .map(|(i, &c)| (lo + i as u64) as u128 * c as u128)
            .sum();
        Histogram {
            lo,
            counts,
            total,
            sum,
        }
    }

    /// Records `value` `n` times.
    pub fn record_n(&mut self, value: u64, n: u64) {
        if n == 0 {
            return;
        }
        if self.counts.is_empty() {
            self.lo = value;
            self.counts.push(0);
        } else if value < self.lo {
            let grow = (self.lo - value) as usize;
            self.counts.splice(0..0, std::iter::repeat_n(0, grow));
            self.lo = value;
        }
        let idx = (value - self.lo) as usize;
        if idx >= self.counts.len() {
            self.counts.resize(idx + 1, 0);
        }
        self.counts[idx] += n;
        self.total += n;
        self.sum += value as u128 * n as u128;
    }

    /// Adds another histogram's counts; exact, so the merge order never
    /// changes the result.
    pub fn merge(&mut self, other: &Histogram) {
        for (i, &c) in other.counts.iter().enumerate() {
            self.record_n(other.lo + i as u64, c);
        }
    }

    /// How many values were recorded.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// The smallest value recorded; `None` when empty.
    pub fn min(&self) -> Option<u64> {
        self.counts
            .iter()
            .position(|&c| c > 0)
            .map(|i| self.lo + i as u64)
    }

    /// The largest value recorded; `None` when empty.
    pub fn max(&self) -> Option<u64> {
        self.counts
            .iter()
            .rposition(|&c| c > 0)
            .map(|i| self.lo + i as u64)
    }

    /// The mean of the values recorded; `None` when empty.
    pub fn mean(&self) -> Option<f64> {
        (self.total > 0).then(|| self.sum as f64 / self.total as f64)
    }

    /// The smallest value v with (count of values <= v) >= q x total: the
    /// same definition the exact math uses, so figures compare exactly.
    pub fn quantile(&self, q: f64) -> Option<u64> {
        if self.total == 0 {
            return None;
        }
        let need = (q * self.total as f64).ceil().max(1.0);
        let mut cum = 0u64;
        for (i, &c) in self.counts.iter().enumerate() {
            cum += c;
            if cum as f64 >= need {
                return Some(self.lo + i as u64);
            }
        }
        self.max()
    }

    /// How many recorded values are strictly greater than `threshold`.
    pub fn count_above(&self, threshold: u64) -> u64 {
        if self.counts.is_empty() {
            return 0;
        }
        if threshold < self.lo {
            return self.total;
        }
        let from = (threshold - self.lo + 1) as usize;
        self.counts.iter().skip(from).sum()
    }

    /// The non-empty bins in increasing value.
    pub fn bins(&self) -> Vec<Bin> {
        self.counts
            .iter()
            .enumerate()
            .filter(|(_, &c)| c > 0)
            .map(|(i, &c)| Bin {
                value: self.lo + i as u64,
                count: c,
            })
            .collect()
    }
}

/// Wilson score interval for a binomial proportion k / n at normal quantile
/// `z` (1.959964 for 95%). Unlike the normal interval it stays inside [0, 1]
/// and is informative when k = 0 (Wilson 1927; Brown, Cai & DasGupta 2001).
pub fn wilson_interval(k: u64, n: u64, z: f64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let n_f = n as f64;
    let p = k as f64 / n_f;
    let z2 = z * z;
    let denom = 1.0 + z2 / n_f;
    let centre = (p + z2 / (2.0 * n_f)) / denom;
    let half = z * (p * (1.0 - p) / n_f + z2 / (4.0 * n_f * n_f)).sqrt() / denom;
    let lo = if k == 0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let hi = if k == n {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    (lo, hi)
}

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The 97.5% quantile of Student's t with `df` degrees of freedom (a 95%
/// two-sided interval of a mean of `df + 1` batches): 2.093 at 19.
pub fn t95(df: u64) -> f64 {
    use statrs::distribution::{ContinuousCDF, StudentsT};
    StudentsT::new(0.0, 1.0, df.max(1) as f64)
        .map(|t| t.inverse_cdf(0.975))
        .unwrap_or(f64::INFINITY)
}

/// P(at least one of `seconds` independent seconds goes over) when one
/// second goes over with probability `p`: 1 - (1 - p)^T, computed with
/// ln_1p / exp_m1 so a tiny p does not round to 0.
pub fn p_any(p: f64, seconds: f64) -> f64 {
    if p >= 1.0 {
        return 1.0;
    }
    if p <= 0.0 {
        return 0.0;
    }
    -(seconds * (-p).ln_1p()).exp_m1()
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    #[test]
    fn t95_is_students_quantile() {
        // Tables: 12.706 at 1 degree of freedom, 2.093 at 19, 1.962 at
        // 1,000 (1.960 in the limit).
        assert!((t95(1) - 12.706).abs() < 1e-3);
        assert!((t95(19) - 2.093).abs() < 1e-3);
        assert!((t95(1_000) - 1.962).abs() < 1e-3 && t95(1_000) > Z95);
    }

    #[test]
    fn histogram_basics() {
        let mut h = Histogram::new();
        for v in [5, 3, 9, 5, 5] {
            h.record(v);
        }
        assert_eq!(h.total(), 5);
        assert_eq!(h.min(), Some(3));
        assert_eq!(h.max(), Some(9));
        assert_eq!(h.mean(), Some(27.0 / 5.0));
        assert_eq!(h.quantile(0.5), Some(5));
        assert_eq!(h.quantile(0.2), Some(3));
        assert_eq!(h.quantile(0.21), Some(5));
        assert_eq!(h.quantile(1.0), Some(9));
        assert_eq!(h.count_above(5), 1);
        assert_eq!(h.count_above(2), 5);
        assert_eq!(h.count_above(9), 0);
    }

    #[test]
    fn dense_counts_make_the_recorded_histogram() {
        let mut h = Histogram::new();
        for v in [7, 9, 9, 12] {
            h.record(v);
        }
        assert_eq!(Histogram::from_dense(5, &[0, 0, 1, 0, 2, 0, 0, 1, 0]), h);
        assert_eq!(Histogram::from_dense(5, &[0, 0]), Histogram::new());
    }

    #[test]
    fn merge_is_order_free() {
        let mut a = Histogram::new();
        let mut b = Histogram::new();
        for v in [10, 12, 11] {
            a.record(v);
        }
        for v in [2, 30] {
            b.record(v);
        }
        let mut ab = a.clone();
        ab.merge(&b);
        let mut ba = b.clone();
        ba.merge(&a);
        assert_eq!(ab.bins(), ba.bins());
        assert_eq!(ab.total(), 5);
        assert_eq!(ab.mean(), ba.mean());
    }

    #[test]
    fn wilson_known_values() {
        // k = 0, n = 2000: upper bound z^2 / (n + z^2) exactly.
        let (lo, hi) = wilson_interval(0, 2000, Z95);
        assert_eq!(lo, 0.0);
        assert_relative_eq!(hi, Z95 * Z95 / (2000.0 + Z95 * Z95), max_relative = 1e-12);
        // 50 / 100: the textbook Wilson interval is [0.4038, 0.5962].
        let (lo, hi) = wilson_interval(50, 100, Z95);
        assert_relative_eq!(lo + hi, 1.0, max_relative = 1e-12);
        assert_relative_eq!(lo, 0.4038, epsilon = 1e-4);
        assert_relative_eq!(hi, 0.5962, epsilon = 1e-4);
    }

    #[test]
    fn p_any_is_stable_for_tiny_p() {
        assert_relative_eq!(p_any(1e-12, 14_400.0), 1.44e-8, max_relative = 1e-6);
        assert_relative_eq!(p_any(0.25, 1.0), 0.25, max_relative = 1e-15);
        assert_relative_eq!(p_any(0.5, 2.0), 0.75, max_relative = 1e-15);
        assert!(p_any(1e-300, 10.0) > 0.0);
    }
}
