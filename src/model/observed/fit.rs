//! What a trace says about the traffic: its mean, peak and quantiles of the
//! per-period rate and, for per-second data, how much more the seconds vary
//! than Poisson arrivals would.
//!
//! The per-second model is a Gamma-Poisson mixture: each second's rate is
//! Gamma with mean m and shape K, the count given the rate is Poisson. Its
//! variance is m + m^2 / K, so the variance-to-mean ratio is 1 + m / K (1
//! for pure Poisson arrivals) and the moment estimate of the shape is
//! K = mean^2 / (variance - mean). Coarser data cannot say this: a minute's
//! count sums 60 seconds, and their spread within it is lost.
//!
//! Cost: one pass for the sum and the peak, one for the variance, a
//! selection for the quantiles and a counting pass (or a sort when the
//! counts spread wide) for the histogram of counts.

use serde::Serialize;

use super::ObservedTrace;
use crate::model::exact::special::neumaier;

/// The quantile levels reported, in parts per thousand: 0.5, 0.99, 0.999.
/// Integer arithmetic keeps the index and the support rule exact (in
/// floating point, 10,000 x (1 - 0.999) is 9.99999999999998, under 10).
const LEVELS_PER_MILLE: [u64; 3] = [500, 990, 999];

pub use crate::model::defaults::MIN_PERIODS_ABOVE;

/// Counts up to 2^53 are whole numbers an f64 holds exactly.
const MAX_EXACT_COUNT: f64 = 9_007_199_254_740_992.0;

/// The fit of an [`ObservedTrace`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TraceFit {
    /// How many periods have a value.
    pub periods: usize,
    /// The trace's period, seconds.
    pub period_seconds: u64,
    /// `periods` x `period_seconds`: the seconds the values cover (gaps
    /// excluded).
    pub seconds_covered: u64,
    /// Missing periods between points, summed over the gaps.
    pub gap_periods: u64,
    /// The mean per-second rate over the periods with a value, likes/s.
    pub mean_rate: f64,
    /// The largest per-second rate of any period, likes/s.
    pub peak_rate: f64,
    /// The time of that period's point (the first, if several tie), Unix
    /// seconds.
    pub peak_time: i64,
    /// The per-period rate at 0.5, 0.99 and 0.999.
    pub quantile_rates: Vec<QuantileRate>,
    /// Per-second data only: the spread of the seconds.
    pub per_second: PerSecond,
}

/// One quantile of the per-period rate.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct QuantileRate {
    /// The level, e.g. 0.99.
    pub q: f64,
    /// The smallest rate at least a fraction q of the periods do not
    /// exceed (the inverse of the empirical distribution: the
    /// ceil(n q)-th smallest), likes/s.
    pub rate: f64,
    /// At least [`MIN_PERIODS_ABOVE`] periods are expected above it.
    pub supported: bool,
}

/// The spread of per-second counts, or why there is none.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PerSecond {
    /// Fitted from per-second counts.
    Fitted(SecondFit),
    /// The period is longer than a second: the spread within a period is
    /// not in the data (the per-period rates are in the trace).
    CoarserThanSecond,
    /// Every second's count is 0: no ratio to the mean exists.
    NoLikes,
}

/// Per-second counts: their variance and what it says.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SecondFit {
    /// The sample variance of the counts (n - 1 in the denominator).
    pub variance: f64,
    /// variance / mean: 1 for Poisson arrivals.
    pub variance_to_mean: f64,
    /// The Gamma-Poisson shape matching them, or why there is none.
    pub dispersion: Dispersion,
    /// How many seconds had each count, or why there is no such table.
    pub empirical: Empirical,
}

/// The Gamma shape of the seconds' rates.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Dispersion {
    /// K = mean^2 / (variance - mean), from variance > mean.
    GammaShape(f64),
    /// variance <= mean: Poisson-like or under-dispersed (steadier than
    /// Poisson arrivals); no Gamma mixture has that variance.
    NotOverdispersed,
}

/// The empirical distribution of per-second counts.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Empirical {
    /// `(count, seconds with that count)`, by count.
    Counts(Vec<(u64, u64)>),
    /// A count that is not a whole number (or is past 2^53): the first.
    NotWholeNumbers {
        /// Its time, Unix seconds.
        time: i64,
        /// The count.
        value: f64,
    },
}

impl TraceFit {
    /// Fits a trace. Panics on a trace without points, or with `times` and
    /// `per_second` of different lengths; [`parse`](super::parse) never
    /// returns such a trace (it needs two points).
    pub fn new(trace: &ObservedTrace) -> Self {
        let x = &trace.per_second;
        let n = x.len();
        assert!(n > 0, "a trace to fit holds at least one point");
        assert_eq!(trace.times.len(), n, "one time for each value");
        // Compensated: 50 million terms would otherwise lose up to 1e-8 of
        // the sum, more than the digits printed.
        let mut sum = (0.0, 0.0);
        let (mut peak, mut peak_at) = (x[0], 0);
        for (i, &v) in x.iter().enumerate() {
            sum = neumaier(sum, v);
            if v > peak {
                (peak, peak_at) = (v, i);
            }
        }
        let mean = (sum.0 + sum.1) / n as f64;
        let per_second = if trace.period_seconds != 1 {
            PerSecond::CoarserThanSecond
        } else if mean == 0.0 {
            PerSecond::NoLikes
        } else {
            PerSecond::Fitted(second_fit(x, &trace.times, mean))
        };
        TraceFit {
            periods: n,
            period_seconds: trace.period_seconds,
            seconds_covered: n as u64 * trace.period_seconds,
            gap_periods: trace.gaps.iter().map(|g| g.missing_periods).sum(),
            mean_rate: mean,
            peak_rate: peak,
            peak_time: trace.times[peak_at],
            quantile_rates: quantiles(x),
            per_second,
        }
    }

    /// The variance of per-second counts; `None` for coarser data or no
    /// likes ([`TraceFit::per_second`] says which).
    pub fn variance(&self) -> Option<f64> {
        self.second_fit().map(|s| s.variance)
    }

    /// The variance-to-mean ratio of per-second counts (1 for Poisson).
    pub fn variance_to_mean(&self) -> Option<f64> {
        self.second_fit().map(|s| s.variance_to_mean)
    }

    /// The Gamma-Poisson shape K; `None` when the seconds vary no more than
    /// Poisson arrivals, or without per-second data.
    pub fn dispersion(&self) -> Option<f64> {
        match self.second_fit()?.dispersion {
            Dispersion::GammaShape(k) => Some(k),
            Dispersion::NotOverdispersed => None,
        }
    }

    /// `(count, seconds)` by count, when every per-second count is whole.
    pub fn empirical(&self) -> Option<&[(u64, u64)]> {
        match &self.second_fit()?.empirical {
            Empirical::Counts(c) => Some(c),
            Empirical::NotWholeNumbers { .. } => None,
        }
    }

    fn second_fit(&self) -> Option<&SecondFit> {
        match &self.per_second {
            PerSecond::Fitted(s) => Some(s),
            _ => None,
        }
    }
}

/// The per-second statistics, given the mean (> 0).
fn second_fit(x: &[f64], times: &[i64], mean: f64) -> SecondFit {
    let n = x.len();
    // The corrected two-pass algorithm (Chan, Golub and LeVeque 1983): the
    // squares are of deviations from the mean, so no cancellation between
    // two large sums; the second term removes the rounding left in the
    // mean. One point has no sample variance: 0 is reported.
    let (mut squares, mut deviations) = (0.0, 0.0);
    for &v in x {
        let d = v - mean;
        squares += d * d;
        deviations += d;
    }
    let variance = if n > 1 {
        ((squares - deviations * deviations / n as f64) / (n - 1) as f64).max(0.0)
    } else {
        0.0
    };
    let dispersion = if variance > mean {
        Dispersion::GammaShape(mean * mean / (variance - mean))
    } else {
        Dispersion::NotOverdispersed
    };
    SecondFit {
        variance,
        variance_to_mean: variance / mean,
        dispersion,
        empirical: empirical(x, times),
    }
}

/// The table of counts: by counting into a dense array when the counts
/// span a range not much wider than the number of seconds, else by sorting.
fn empirical(x: &[f64], times: &[i64]) -> Empirical {
    let fractional = x
        .iter()
        .position(|&v| v.fract() != 0.0 || v > MAX_EXACT_COUNT);
    if let Some(i) = fractional {
        return Empirical::NotWholeNumbers {
            time: times[i],
            value: x[i],
        };
    }
    let (lo, hi) = x.iter().fold((u64::MAX, 0), |(lo, hi), &v| {
        let c = v as u64;
        (lo.min(c), hi.max(c))
    });
    let span = hi - lo;
    if span <= 4 * x.len() as u64 + 1024 {
        let mut bins = vec![0u64; span as usize + 1];
        for &v in x {
            bins[(v as u64 - lo) as usize] += 1;
        }
        let counts = bins
            .iter()
            .enumerate()
            .filter(|&(_, &s)| s > 0)
            .map(|(i, &s)| (lo + i as u64, s))
            .collect();
        return Empirical::Counts(counts);
    }
    let mut sorted: Vec<u64> = x.iter().map(|&v| v as u64).collect();
    sorted.sort_unstable();
    let counts = sorted
        .chunk_by(|a, b| a == b)
        .map(|run| (run[0], run.len() as u64))
        .collect();
    Empirical::Counts(counts)
}

/// The quantiles at [`LEVELS_PER_MILLE`], by selection (linear time), the
/// highest first: after it, everything below its index is at most its
/// value, so the next selection only looks there.
fn quantiles(x: &[f64]) -> Vec<QuantileRate> {
    let n = x.len() as u64;
    let mut v = x.to_vec();
    let mut below = v.len();
    let mut out: Vec<QuantileRate> = LEVELS_PER_MILLE
        .iter()
        .rev()
        .map(|&k| {
            // The ceil(n q)-th smallest, 0-based.
            let i = ((n * k).div_ceil(1000).max(1) - 1) as usize;
            if i < below {
                v[..below].select_nth_unstable_by(i, f64::total_cmp);
                below = i;
            }
            QuantileRate {
                q: k as f64 / 1000.0,
                rate: v[i],
                supported: n * (1000 - k) >= MIN_PERIODS_ABOVE * 1000,
            }
        })
        .collect();
    out.reverse();
    out
}
