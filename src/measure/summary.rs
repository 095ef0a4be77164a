//! The repeated runs' figures: one run's numbers, and the mean, standard
//! deviation and 95% Student-t interval of a figure over the runs. JSON
//! field names are stable.

use statrs::distribution::{ContinuousCDF, StudentsT};

/// One run: a one-key phase and the sharded phase after it.
#[derive(Debug, Clone, PartialEq, serde::Serialize, schemars::JsonSchema)]
pub struct RunResult {
    /// The run's number, from 1.
    pub run: u64,
    /// One-key phase: INCRs acknowledged.
    pub single_incr: u64,
    /// One-key phase: wall seconds.
    pub single_seconds: f64,
    /// One-key phase: INCRs per second.
    pub single_ops_per_second: f64,
    /// One-key phase: median latency, ms.
    pub single_p50_ms: f64,
    /// One-key phase: 99th percentile latency, ms.
    pub single_p99_ms: f64,
    /// Sharded phase: INCRs acknowledged.
    pub sharded_incr: u64,
    /// Sharded phase: wall seconds.
    pub sharded_seconds: f64,
    /// Sharded phase: INCRs per second.
    pub sharded_ops_per_second: f64,
    /// Sharded phase: median latency, ms.
    pub sharded_p50_ms: f64,
    /// Sharded phase: 99th percentile latency, ms.
    pub sharded_p99_ms: f64,
    /// `sharded_ops_per_second / single_ops_per_second` (0 if the one-key
    /// phase acknowledged no INCR).
    pub ratio: f64,
    /// One-key phase: CPU seconds of all nodes, idle baseline subtracted;
    /// `null` if a node's INFO does not say.
    pub single_cpu_seconds: Option<f64>,
    /// Sharded phase: CPU seconds of all nodes, idle baseline subtracted;
    /// `null` if a node's INFO does not say.
    pub sharded_cpu_seconds: Option<f64>,
    /// One-key phase: the busiest node's share of the CPU (0 to 1).
    pub single_max_cpu_share: Option<f64>,
    /// Sharded phase: the busiest node's share of the CPU (0 to 1).
    pub sharded_max_cpu_share: Option<f64>,
}

/// A figure over the runs.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, schemars::JsonSchema)]
pub struct Spread {
    /// The mean over the runs.
    pub mean: f64,
    /// The sample standard deviation; `null` with one run.
    pub std_dev: Option<f64>,
    /// The 95% interval of the mean (Student t, runs - 1 degrees of
    /// freedom), `[low, high]`, the low end clamped at 0 (every figure
    /// here, a rate, a latency, a share or a ratio, is >= 0); `null` with
    /// one run.
    pub ci95: Option<[f64; 2]>,
}

impl Spread {
    /// The spread of `values` (at least one).
    pub fn of(values: &[f64]) -> Spread {
        let n = values.len();
        let mean = values.iter().sum::<f64>() / n.max(1) as f64;
        if n < 2 {
            return Spread {
                mean,
                std_dev: None,
                ci95: None,
            };
        }
        let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
        let sd = var.sqrt();
        let t = StudentsT::new(0.0, 1.0, (n - 1) as f64)
            .map(|d| d.inverse_cdf(0.975))
            .unwrap_or(f64::NAN);
        let half = t * sd / (n as f64).sqrt();
        Spread {
            mean,
            std_dev: Some(sd),
            ci95: Some([(mean - half).max(0.0), mean + half]),
        }
    }

    /// Whether the interval holds `x` (`None` without an interval).
    pub fn includes(&self, x: f64) -> Option<bool> {
        self.ci95.map(|[lo, hi]| lo <= x && x <= hi)
    }
}

/// One phase's figures over the runs.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, schemars::JsonSchema)]
pub struct PhaseSpread {
    /// INCRs per second.
    pub ops_per_second: Spread,
    /// Median latency, ms.
    pub p50_ms: Spread,
    /// 99th percentile latency, ms.
    pub p99_ms: Spread,
    /// The busiest node's share of the phase's CPU; `null` if a node's
    /// INFO does not say.
    pub max_cpu_share: Option<Spread>,
}

impl PhaseSpread {
    /// The one-key phases' figures of `runs`.
    pub fn single(runs: &[RunResult]) -> PhaseSpread {
        let of = |f: fn(&RunResult) -> f64| Spread::of(&runs.iter().map(f).collect::<Vec<_>>());
        PhaseSpread {
            ops_per_second: of(|r| r.single_ops_per_second),
            p50_ms: of(|r| r.single_p50_ms),
            p99_ms: of(|r| r.single_p99_ms),
            max_cpu_share: optional(runs, |r| r.single_max_cpu_share),
        }
    }

    /// The sharded phases' figures of `runs`.
    pub fn sharded(runs: &[RunResult]) -> PhaseSpread {
        let of = |f: fn(&RunResult) -> f64| Spread::of(&runs.iter().map(f).collect::<Vec<_>>());
        PhaseSpread {
            ops_per_second: of(|r| r.sharded_ops_per_second),
            p50_ms: of(|r| r.sharded_p50_ms),
            p99_ms: of(|r| r.sharded_p99_ms),
            max_cpu_share: optional(runs, |r| r.sharded_max_cpu_share),
        }
    }
}

/// The spread of a figure every run has, else `None`.
fn optional(runs: &[RunResult], f: fn(&RunResult) -> Option<f64>) -> Option<Spread> {
    let values: Option<Vec<f64>> = runs.iter().map(f).collect();
    values.filter(|v| !v.is_empty()).map(|v| Spread::of(&v))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spread_of_known_values() {
        // mean 5, sd 2.138..., t(0.975, 7) = 2.3646
        let s = Spread::of(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]);
        assert_eq!(s.mean, 5.0);
        let sd = s.std_dev.unwrap();
        assert!((sd - 2.13809).abs() < 1e-4, "{sd}");
        let [lo, hi] = s.ci95.unwrap();
        let half = 2.364624 * sd / 8f64.sqrt();
        assert!((lo - (5.0 - half)).abs() < 1e-4 && (hi - (5.0 + half)).abs() < 1e-4);
        assert_eq!(s.includes(5.0), Some(true));
        assert_eq!(s.includes(9.0), Some(false));
    }

    #[test]
    fn a_wide_interval_stops_at_zero() {
        // mean 2, sd 2.828: the t interval's low end, 2 - 25.4, is below 0;
        // a rate, a latency or a ratio cannot be.
        let s = Spread::of(&[0.0, 4.0]);
        let [lo, hi] = s.ci95.unwrap();
        assert_eq!(lo, 0.0);
        assert!((hi - (2.0 + 12.706205 * 2.0)).abs() < 1e-4, "{hi}");
    }

    #[test]
    fn one_run_has_no_interval() {
        let s = Spread::of(&[3.0]);
        assert_eq!((s.mean, s.std_dev, s.ci95), (3.0, None, None));
        assert_eq!(s.includes(3.0), None);
    }
}
