//! A probability that keeps its natural log. Tail chances of the busiest
//! shard go far below f64's smallest number (1e-308) while their logs stay
//! finite; carrying both lets every view print such a chance from its log
//! (`1.347e-377`) instead of `0`, and lets sums over seconds be done in log
//! space.

use serde::Serialize;

/// A probability and its natural log.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Probability {
    /// The probability, 0..1; 0 when it underflows f64.
    pub p: f64,
    /// Its natural log, finite wherever the chance is positive.
    pub ln: f64,
}

impl Probability {
    /// From a value and its log, as the exact code computes both.
    pub fn new(p: f64, ln: f64) -> Self {
        Probability { p, ln }
    }

    /// From its log alone.
    pub fn from_ln(ln: f64) -> Self {
        Probability { p: ln.exp(), ln }
    }

    /// From a value alone (a Monte Carlo estimate, which never underflows).
    pub fn from_p(p: f64) -> Self {
        Probability { p, ln: p.ln() }
    }

    /// True when the value underflowed f64 but the chance is positive.
    pub fn underflows(&self) -> bool {
        self.p == 0.0 && self.ln.is_finite()
    }

    /// The chance as mantissa and base-10 exponent, from the log: exact to
    /// the log's precision whatever the size.
    pub fn scientific(&self) -> (f64, f64) {
        let log10 = self.ln / std::f64::consts::LN_10;
        let exponent = log10.floor();
        (10f64.powf(log10 - exponent), exponent)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_underflowed_chance_keeps_its_digits() {
        // 1.347e-377: 14,000 likes over 20 shards against a cap of 2,000.
        let ln = 1.347f64.ln() - 377.0 * std::f64::consts::LN_10;
        let p = Probability::from_ln(ln);
        assert!(p.underflows());
        let (m, e) = p.scientific();
        assert_eq!(e, -377.0);
        assert!((m - 1.347).abs() < 1e-9, "{m}");
        assert!(!Probability::from_p(0.25).underflows());
    }
}
