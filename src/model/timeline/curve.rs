//! A like rate that changes over time: a piecewise-linear curve through
//! `(t_seconds, rate)` points, held flat before the first point and after
//! the last. Second k (1-based) covers the interval [k - 1, k); its mean
//! rate is the exact integral of the curve over that interval, so a point
//! in the middle of a second is honoured.

use serde::Deserialize;

use crate::error::{ParamError, ParamResult, Problem};
use crate::model::law::TrafficModel;
use crate::model::rng::ChunkRng;
use crate::model::validate;

/// The `[curve]` scenario section: `points = [[0, 50], [600, 9000], ...]`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CurveConfig {
    /// `(t_seconds, likes_per_second)` pairs, times strictly increasing.
    pub points: Vec<[f64; 2]>,
}

impl CurveConfig {
    /// Checks the points and builds the curve (see [`RateCurve::new`]); the
    /// error names `curve.points`.
    pub fn validate(&self) -> ParamResult<RateCurve> {
        RateCurve::new(self.points.iter().map(|p| (p[0], p[1])).collect())
    }
}

pub use crate::error::CurveProblem;

/// A validated rate curve.
#[derive(Debug, Clone, PartialEq)]
pub struct RateCurve {
    /// `(t, rate)` with t strictly increasing and t >= 0.
    points: Vec<(f64, f64)>,
    /// The integral of the rate from 0 to each point's time.
    area: Vec<f64>,
}

impl RateCurve {
    /// Checks: at least one point, times finite, >= 0 and strictly
    /// increasing, rates finite, >= 0 and at most [`crate::model::defaults::MAX_RATE`].
    pub fn new(points: Vec<(f64, f64)>) -> ParamResult<Self> {
        const WHAT: &str = "curve.points";
        if points.is_empty() {
            return Err(ParamError::new(WHAT, CurveProblem::NoPoints.into()));
        }
        for (i, &(t, r)) in points.iter().enumerate() {
            if !t.is_finite() || t < 0.0 {
                let bad = CurveProblem::Time { point: i + 1, t };
                return Err(ParamError::new(WHAT, bad.into()));
            }
            if !r.is_finite() || !(0.0..=crate::model::defaults::MAX_RATE).contains(&r) {
                let bad = CurveProblem::Rate { point: i + 1, r };
                return Err(ParamError::new(WHAT, bad.into()));
            }
            if i > 0 && t <= points[i - 1].0 {
                let bad = CurveProblem::NotIncreasing {
                    point: i + 1,
                    t,
                    before: points[i - 1].0,
                };
                return Err(ParamError::new(WHAT, bad.into()));
            }
        }
        let mut area = Vec::with_capacity(points.len());
        // Before the first point the first rate is held from t = 0.
        area.push(points[0].0 * points[0].1);
        for w in points.windows(2) {
            let ((t0, r0), (t1, r1)) = (w[0], w[1]);
            let prev = *area.last().unwrap_or(&0.0);
            area.push(prev + (t1 - t0) * (r0 + r1) / 2.0);
        }
        Ok(RateCurve { points, area })
    }

    /// A flat rate (what `--rate` means).
    pub fn flat(rate: f64) -> ParamResult<Self> {
        let rate = validate::non_negative("rate", rate)?;
        if rate > crate::model::defaults::MAX_RATE {
            let max = crate::model::defaults::MAX_RATE;
            return Err(ParamError::new(
                "rate",
                Problem::RateAbove { got: rate, max },
            ));
        }
        RateCurve::new(vec![(0.0, rate)])
    }

    /// The validated `(t_seconds, likes_per_second)` points, in the order
    /// given: times strictly increasing from 0 or later.
    pub fn points(&self) -> &[(f64, f64)] {
        &self.points
    }

    /// The highest rate on the curve, likes/s.
    pub fn peak_rate(&self) -> f64 {
        self.points.iter().map(|p| p.1).fold(0.0, f64::max)
    }

    /// The time of the last point, rounded up to whole seconds: a natural
    /// run length when a scenario gives none.
    pub fn end_seconds(&self) -> u64 {
        self.points.last().map_or(0, |p| p.0.ceil() as u64)
    }

    /// The rate at time `t` seconds (linear between points, held outside).
    pub fn rate_at(&self, t: f64) -> f64 {
        let p = &self.points;
        let i = p.partition_point(|&(pt, _)| pt <= t);
        if i == 0 {
            return p[0].1;
        }
        if i == p.len() {
            return p[p.len() - 1].1;
        }
        let ((t0, r0), (t1, r1)) = (p[i - 1], p[i]);
        r0 + (r1 - r0) * (t - t0) / (t1 - t0)
    }

    /// The expected likes from time 0 to `t` (the integral of the rate).
    pub fn likes_until(&self, t: f64) -> f64 {
        let p = &self.points;
        let i = p.partition_point(|&(pt, _)| pt <= t);
        if i == 0 {
            return p[0].1 * t;
        }
        let (t0, r0) = p[i - 1];
        // Trapezoid from the last point at or before t (exact for a line).
        self.area[i - 1] + (t - t0) * (r0 + self.rate_at(t)) / 2.0
    }

    /// The mean rate of second `k` (1-based): likes expected in [k-1, k).
    pub fn second_mean(&self, k: u64) -> f64 {
        self.second(k).0
    }

    /// Second `k`'s mean rate and the likes expected up to its end.
    pub fn second(&self, k: u64) -> (f64, f64) {
        let until = self.likes_until(k as f64);
        ((until - self.likes_until(k as f64 - 1.0)).max(0.0), until)
    }
}

/// Turns a curve into whole likes per second.
///
/// Fixed traffic: second k gets round(I(k)) - round(I(k-1)), where I is the
/// integral of the curve and round is half-up, so the fractional remainder
/// carries over and the first n seconds total round(I(n)). Poisson traffic:
/// second k gets an independent Poisson(I(k) - I(k-1)) count.
#[derive(Debug, Clone)]
pub struct CurveTraffic {
    curve: RateCurve,
    model: TrafficModel,
    /// round(I(k - 1)) for the next second k (fixed traffic).
    given: u64,
}

impl CurveTraffic {
    /// Whole likes per second along `curve`, fixed or Poisson as `model`
    /// says; the first call to [`CurveTraffic::likes`] is for second 1.
    pub fn new(curve: RateCurve, model: TrafficModel) -> Self {
        CurveTraffic {
            curve,
            model,
            given: 0,
        }
    }

    /// The rate curve the likes follow.
    pub fn curve(&self) -> &RateCurve {
        &self.curve
    }

    /// Likes in second `k`; call with k = 1, 2, 3, ... in order. The law
    /// draws them ([`crate::model::law::TrafficLaw::second_on_curve`]).
    pub fn likes(&mut self, rng: &mut ChunkRng, k: u64) -> u64 {
        let (mean, until) = self.curve.second(k);
        self.model
            .law()
            .second_on_curve(mean, until, &mut self.given, rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::sampler::chunk_rng;

    fn viral() -> RateCurve {
        // 50/s, a ramp to 9,000/s in 10 minutes, a 2-hour hold, a 30-minute decay.
        RateCurve::new(vec![
            (0.0, 50.0),
            (600.0, 9000.0),
            (7800.0, 9000.0),
            (9600.0, 0.0),
        ])
        .unwrap()
    }

    #[test]
    fn interpolates_and_holds() {
        let c = viral();
        assert_eq!(c.rate_at(0.0), 50.0);
        assert_eq!(c.rate_at(300.0), 4525.0);
        assert_eq!(c.rate_at(600.0), 9000.0);
        assert_eq!(c.rate_at(8700.0), 4500.0);
        assert_eq!(c.rate_at(20_000.0), 0.0);
        let late = RateCurve::new(vec![(10.0, 7.0), (20.0, 17.0)]).unwrap();
        assert_eq!(late.rate_at(3.0), 7.0);
        assert_eq!(late.likes_until(10.0), 70.0);
        assert_eq!(late.likes_until(20.0), 70.0 + 120.0);
        assert_eq!(late.end_seconds(), 20);
    }

    #[test]
    fn fixed_total_matches_the_integral() {
        // Ramp (50 + 9000) / 2 x 600 = 2,715,000; hold 9000 x 7200 =
        // 64,800,000; decay 9000 / 2 x 1800 = 8,100,000: 75,615,000 in all.
        let c = viral();
        assert_eq!(c.likes_until(9600.0), 75_615_000.0);
        let mut t = CurveTraffic::new(c, TrafficModel::Fixed);
        let mut rng = chunk_rng(1, 0);
        let total: u64 = (1..=9600).map(|k| t.likes(&mut rng, k)).sum();
        assert_eq!(total, 75_615_000);
        // Second 1 of the ramp: mean 50 + 14.9166../2 = 57.46 -> 57.
        let mut t = CurveTraffic::new(viral(), TrafficModel::Fixed);
        assert_eq!(t.likes(&mut rng, 1), 57);
    }

    #[test]
    fn fractional_rates_carry() {
        let mut t = CurveTraffic::new(RateCurve::flat(0.4).unwrap(), TrafficModel::Fixed);
        let mut rng = chunk_rng(1, 0);
        let got: Vec<u64> = (1..=5).map(|k| t.likes(&mut rng, k)).collect();
        // round(0.4 k) = 0, 1, 1, 2, 2 -> per second 0, 1, 0, 1, 0.
        assert_eq!(got, vec![0, 1, 0, 1, 0]);
    }

    #[test]
    fn poisson_mean_follows_the_curve() {
        // 3,600 seconds of a flat 9,000/s: the total is Poisson(32.4e6),
        // standard deviation 5,692; allow 5 sigma.
        let mut t = CurveTraffic::new(RateCurve::flat(9000.0).unwrap(), TrafficModel::Poisson);
        let mut rng = chunk_rng(5, 0);
        let total: u64 = (1..=3600).map(|k| t.likes(&mut rng, k)).sum();
        assert!(
            (total as f64 - 32.4e6).abs() < 5.0 * 5692.0,
            "total {total}"
        );
    }

    #[test]
    fn rejects_bad_points() {
        assert_eq!(RateCurve::new(vec![]).unwrap_err().param, "curve.points");
        let e = RateCurve::new(vec![(0.0, 1.0), (0.0, 2.0)]).unwrap_err();
        assert!(e.problem.to_string().contains("strictly increasing"), "{e}");
        assert!(RateCurve::new(vec![(0.0, -1.0)]).is_err());
        assert!(RateCurve::new(vec![(0.0, f64::NAN)]).is_err());
        assert!(RateCurve::new(vec![(-1.0, 1.0)]).is_err());
        assert!(RateCurve::new(vec![(f64::INFINITY, 1.0)]).is_err());
    }

    #[test]
    fn reads_toml_section() {
        let c: CurveConfig = toml::from_str("points = [[0, 50], [600, 9000.5]]").unwrap();
        assert_eq!(c.points, vec![[0.0, 50.0], [600.0, 9000.5]]);
        assert!(toml::from_str::<CurveConfig>("points = []\nextra = 1").is_err());
    }
}
