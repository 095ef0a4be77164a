//! Statistical helpers shared by the tests that compare a Monte Carlo
//! estimate with an exact value: a running mean with its standard error,
//! and Pearson's chi-square. Tolerances derive from the standard error, and
//! each test states its level in a comment.
#![allow(dead_code)] // each test file uses its own subset

/// Mean and standard error of a sample (n - 1 in the variance).
pub fn mean_se(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let m = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (n - 1.0);
    (m, (var / n).sqrt())
}

/// A running mean and standard error, for estimates too many to keep.
#[derive(Debug, Clone, Copy, Default)]
pub struct Moments {
    sum: f64,
    sq: f64,
    n: f64,
}

impl Moments {
    /// Adds one observation.
    pub fn add(&mut self, x: f64) {
        self.sum += x;
        self.sq += x * x;
        self.n += 1.0;
    }

    /// The mean so far.
    pub fn mean(&self) -> f64 {
        self.sum / self.n
    }

    /// The standard error of the mean.
    pub fn se(&self) -> f64 {
        let m = self.mean();
        ((self.sq / self.n - m * m).max(0.0) / (self.n - 1.0)).sqrt()
    }

    /// Asserts the mean is within `z` standard errors of `exact` (plus a
    /// rounding floor for estimates with no spread).
    pub fn assert_near(&self, exact: f64, z: f64, what: &str) {
        let tol = z * self.se() + 1e-12;
        assert!(
            (self.mean() - exact).abs() <= tol,
            "{what}: simulated {} +- {} vs exact {exact}",
            self.mean(),
            self.se()
        );
    }
}

/// Pearson's chi-square of observed counts against expected counts.
pub fn pearson_chi2(observed: &[f64], expected: &[f64]) -> f64 {
    observed
        .iter()
        .zip(expected)
        .map(|(o, e)| (o - e).powi(2) / e)
        .sum()
}

/// Two-sample chi-square over 10 quantile bins of `b` (9 df).
pub fn two_sample_chi2(
    a: &shardplan::model::stats::Histogram,
    b: &shardplan::model::stats::Histogram,
) -> f64 {
    let edges: Vec<u64> = (1..10)
        .map(|i| b.quantile(i as f64 / 10.0).unwrap())
        .collect();
    let bin_counts = |h: &shardplan::model::stats::Histogram| {
        let mut c = [0f64; 10];
        for bin in h.bins() {
            let i = edges.iter().filter(|&&e| bin.value > e).count();
            c[i] += bin.count as f64;
        }
        c
    };
    let (ca, cb) = (bin_counts(a), bin_counts(b));
    let (na, nb) = (a.total() as f64, b.total() as f64);
    (0..10)
        .filter(|&i| ca[i] + cb[i] > 0.0)
        .map(|i| {
            let pooled = (ca[i] + cb[i]) / (na + nb);
            (ca[i] - na * pooled).powi(2) / (na * pooled)
                + (cb[i] - nb * pooled).powi(2) / (nb * pooled)
        })
        .sum()
}
