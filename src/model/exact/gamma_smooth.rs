//! `E[g(Lambda)]` over the second's Gamma rate for a `g` that is smooth on
//! the density's own scale (the mean busiest shard given the rate, not a
//! tail with a step in it): the trapezoidal rule in `d = ln(Lambda /
//! rate)`, which converges geometrically for an integrand analytic in a
//! strip around the real line and negligible at both ends, on a step
//! fitted to the peak's curvature, about 60 nodes where the adaptive rule
//! of [`GammaMix::ln_expect`] takes about 400.
//!
//! It checks itself: the sum on every other node (twice the step) must
//! agree with the full sum to 1e-13 relative (the error of the coarser sum
//! bounds the finer one's, which converges at least quadratically faster),
//! else the step is halved once; failing that, or where the integrand's
//! span reaches `LAMBDA_FLOOR` or has no peak to fit, the adaptive rule
//! answers instead.

use super::gamma_mix::{GammaMix, LAMBDA_FLOOR};

/// The sums on steps `h` and `2h` agree to this, relative.
const AGREE: f64 = 1e-13;
/// Nodes are added on each side until the integrand is this far below its
/// peak (`e^-41.4 = 1e-18`).
const TAIL_NATS: f64 = 41.5;
/// The step is the peak's curvature radius over this.
const STEPS_PER_SIGMA: f64 = 2.0;
/// At most this many nodes on a side (a wider span is the adaptive rule's).
const MAX_SIDE: usize = 400;

impl GammaMix {
    /// `ln E[g(Lambda)]` for a smooth increasing or decreasing `g` (given
    /// as `ln g`), by the trapezoidal rule where it checks, else
    /// [`GammaMix::ln_expect`].
    pub(crate) fn ln_expect_smooth(&self, ln_g: impl Fn(f64) -> f64) -> f64 {
        let phi = |d: f64| self.phi(d, ln_g(self.rate() * d.exp()));
        match self.trapezoid(&phi) {
            Some(ln_total) => ln_total + self.ln_const(),
            None => self.ln_expect(ln_g),
        }
    }

    /// `ln` of the integral of `e^phi` over `d` by the trapezoidal rule,
    /// or `None` where the rule cannot vouch for 1e-13.
    fn trapezoid(&self, phi: &impl Fn(f64) -> f64) -> Option<f64> {
        let floor = (LAMBDA_FLOOR / self.rate()).ln();
        let step = (1.0 / self.shape().sqrt()).min(1.0);
        let (peak, ln_peak, sigma) = fit_peak(phi, step, floor)?;
        let mut h = sigma / STEPS_PER_SIGMA;
        // Nodes peak + i h, i from -left to right: e^{phi - ln_peak}.
        let mut nodes = Vec::new();
        for dir in [-1.0, 1.0] {
            let mut side = Vec::new();
            for i in 1..=MAX_SIDE {
                let d = peak + dir * i as f64 * h;
                if d <= floor {
                    return None;
                }
                let v = phi(d) - ln_peak;
                side.push(v.exp());
                if v < -TAIL_NATS {
                    break;
                }
                if i == MAX_SIDE {
                    return None;
                }
            }
            nodes.push(side);
        }
        let (left, right) = (&nodes[0], &nodes[1]);
        // Every node, and every other node (those at even i, with the peak).
        let full = 1.0 + left.iter().sum::<f64>() + right.iter().sum::<f64>();
        let even = |s: &[f64]| s.iter().skip(1).step_by(2).sum::<f64>();
        let coarse = 2.0 * (1.0 + even(left) + even(right));
        if (full - coarse).abs() <= AGREE * full {
            return Some(ln_peak + (full * h).ln());
        }
        // Once more on half the step: the midpoints, against `full`.
        h /= 2.0;
        let mut mids = 0.0;
        for (dir, side) in [(-1.0, left), (1.0, right)] {
            for i in 0..side.len() {
                mids += (phi(peak + dir * (2 * i + 1) as f64 * h) - ln_peak).exp();
            }
        }
        let finer = full + mids;
        ((finer - 2.0 * full).abs() <= AGREE * finer).then(|| ln_peak + (finer * h).ln())
    }
}

/// The peak of `phi` (bracketed by steps from `max(0, floor)`, then three
/// parabolas) and the radius of curvature there, `(-phi'')^-1/2`; `None`
/// when it cannot be bracketed above `floor` or `phi` is not curved down.
fn fit_peak(phi: &impl Fn(f64) -> f64, step: f64, floor: f64) -> Option<(f64, f64, f64)> {
    let mid = 0.0_f64.max(floor + step);
    let (mut a, mut b, mut c) = (mid - step, mid, mid + step);
    let (mut fa, mut fb, mut fc) = (phi(a), phi(b), phi(c));
    let mut width = step;
    for _ in 0..64 {
        if fb >= fa && fb >= fc {
            break;
        }
        width *= 2.0;
        if fc > fb {
            (a, fa, b, fb) = (b, fb, c, fc);
            c = b + width;
            fc = phi(c);
        } else {
            (c, fc, b, fb) = (b, fb, a, fa);
            a = b - width;
            if a <= floor {
                return None;
            }
            fa = phi(a);
        }
    }
    if !(fb >= fa && fb >= fc && fb.is_finite()) {
        return None;
    }
    for _ in 0..3 {
        let den = (b - a) * (fb - fc) - (b - c) * (fb - fa);
        let x = b - 0.5 * ((b - a).powi(2) * (fb - fc) - (b - c).powi(2) * (fb - fa)) / den;
        if !(x > a && x < c) || (x - b).abs() < 1e-3 * (c - a) {
            break;
        }
        let fx = phi(x);
        match (fx > fb, x > b) {
            (true, true) => (a, fa, b, fb) = (b, fb, x, fx),
            (true, false) => (c, fc, b, fb) = (b, fb, x, fx),
            (false, true) => (c, fc) = (x, fx),
            (false, false) => (a, fa) = (x, fx),
        }
    }
    // The curvature on a step of about the radius itself.
    let mut r = (c - a) / 4.0;
    for _ in 0..4 {
        let second = (phi(b - r) + phi(b + r) - 2.0 * fb) / (r * r);
        if !(second < 0.0 && second.is_finite()) {
            return None;
        }
        let sigma = (-1.0 / second).sqrt();
        if (0.5 * sigma..=2.0 * sigma).contains(&r) {
            return Some((b, fb, sigma));
        }
        r = sigma;
    }
    None
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
                close(m.ln_expect_smooth(|l| (l / r).ln()), 0.0, "E[L]/r");
                close(
                    m.ln_expect_smooth(|l| 2.0 * (l / r).ln()),
                    (1.0 / k).ln_1p(),
                    "E[L^2]/r^2",
                );
                close(
                    m.ln_expect_smooth(|l| (l / r).sqrt().ln_1p()),
                    m.ln_expect(|l| (l / r).sqrt().ln_1p()),
                    "E[1 + sqrt(L/r)]",
                );
            }
        }
    }
}
