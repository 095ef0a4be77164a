//! `E[g(Lambda)]` over the second's Gamma rate for a `g` that is smooth on
//! the density's own scale (the mean busiest shard given the rate, not a
//! tail with a step in it): the trapezoidal rule in `d = ln(Lambda /
//! rate)`, which converges geometrically for an integrand analytic in a
//! strip around the real line and negligible at both ends, on a step
//! fitted to the peak's curvature, about 60 nodes where the adaptive rule
//! of [`GammaMix::ln_expect`] takes about 400.
//!
//! The rule and its self-check are `trapezoid.rs`'s (each sum checked
//! against the sum through nodes shifted along the step as well, which
//! sees a ripple the coarser sums alias alike); where it cannot
//! vouch for its sum, or the integrand's span reaches `LAMBDA_FLOOR` or
//! has no peak to fit, the adaptive rule answers instead.

use super::gamma_mix::{GammaMix, LAMBDA_FLOOR};
use super::ripple::Staircase;
use super::trapezoid::{fit_peak, ln_trapezoid_each, Accuracy};

impl GammaMix {
    /// `ln E[g(Lambda)]` for a smooth increasing or decreasing positive
    /// `g`, by the trapezoidal rule where it checks, else
    /// [`GammaMix::ln_expect`]; `g` may carry the ripple of a staircase in
    /// `d` (`ripple.rs`), which the rule's checks then look for. The rule
    /// takes `g` itself at its nodes, as the factor on the density's
    /// exponential (no logarithm of `g` a node, only where it fits the
    /// peak).
    pub(super) fn ln_expect_smooth(
        &self,
        g: impl Fn(f64) -> f64,
        ripple: Option<Staircase>,
    ) -> f64 {
        match self.trapezoid(&g, ripple) {
            Some(ln_total) => ln_total + self.ln_const(),
            None => self.ln_expect(|l| g(l).ln()),
        }
    }

    /// `ln` of the integral of `g(rate e^d)` times the density over `d`
    /// by the trapezoidal rule, or `None` where the rule cannot vouch for
    /// it.
    fn trapezoid(&self, g: &impl Fn(f64) -> f64, ripple: Option<Staircase>) -> Option<f64> {
        let floor = (LAMBDA_FLOOR / self.rate()).ln();
        let step = (1.0 / self.shape().sqrt()).min(1.0);
        let phi = |d: f64| self.phi(d, g(self.rate() * d.exp()).ln());
        let peak = fit_peak(&phi, 0.0_f64.max(floor + step), step, floor)?;
        let each = |d: f64, out: &mut [f64]| {
            out[0] = g(self.rate() * d.exp());
            self.ln_density(d)
        };
        let accuracy = ripple.map_or(Accuracy::Full, Accuracy::Rippled);
        Some(ln_trapezoid_each(&each, 1, (peak, floor), accuracy)?.0[0])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The mass, the moments and the Laplace transform (closed forms),
    /// as `gamma_mix_tests.rs` checks the adaptive rule, to 1e-12.
    #[test]
    fn closed_forms_hold() {
        for &r in &[0.5, 50.0, 14_000.0, 1e9] {
            for &k in &[0.01, 0.3, 1.0, 6.9, 20.0, 300.0, 1e5, 1e11] {
                let m = GammaMix::new(r, k);
                let close = |got: f64, want: f64, what: &str| {
                    assert!(
                        (got - want).abs() <= 1e-12 * want.abs().max(1.0),
                        "rate {r} K {k} {what}: {got} vs {want}"
                    );
                };
                close(m.ln_expect_smooth(|l| l / r, None), 0.0, "E[L]/r");
                close(
                    m.ln_expect_smooth(|l| (l / r).powi(2), None),
                    (1.0 / k).ln_1p(),
                    "E[L^2]/r^2",
                );
                close(
                    m.ln_expect_smooth(|l| 1.0 + (l / r).sqrt(), None),
                    m.ln_expect(|l| (l / r).sqrt().ln_1p()),
                    "E[1 + sqrt(L/r)]",
                );
            }
        }
    }
}
