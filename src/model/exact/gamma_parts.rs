//! The busiest shard's tails under gamma-poisson traffic, integrated by
//! parts, so the trapezoidal rule can take them (issue 37).
//!
//! `P(max <= c) = E[F(c; Lambda / S)^S]`, with `Lambda` the second's Gamma
//! rate. As a function of `Lambda` the power `F^S` falls from 1 to 0 over
//! a width of about `sqrt(c)` likes/s a shard, which is often far
//! narrower than the Gamma density: the integrand is the density, cut
//! off by a step. The adaptive rule resolves the step with hundreds of
//! nodes. Integrated by parts, with `G` the Gamma CDF and `dF(c; x) / dx =
//! -p(c; x)` (the Poisson pmf):
//!
//! ```text
//! P(max <= c) = int G(lambda) w_c(lambda) dlambda,
//! P(max >  c) = int (1 - G(lambda)) w_c(lambda) dlambda,
//! w_c(lambda) = -d F^S / d lambda = F(c; lambda / S)^(S - 1) p(c; lambda / S),
//! ```
//!
//! (the boundary terms vanish: `G(0) = 0`, `F^S -> 0` as `lambda -> inf`).
//! `w_c` is a density (it integrates to 1), a smooth bump where the step
//! was, and `G` is smooth: the product is a bump with no step in it, which
//! the trapezoidal rule in `d = ln(Lambda / rate)` integrates to 1e-12 on
//! about ninety nodes, or to about 1e-4 on half as many (`trapezoid.rs`,
//! which checks itself). Where it cannot
//! vouch for its answer (the Gamma CDF itself the sharper step, with a
//! large dispersion `K`; a bump reaching `LAMBDA_FLOOR`; an incomplete
//! gamma past its steps) the caller integrates the first form adaptively.

use std::cell::Cell;

use super::gamma_mix::{GammaMix, LAMBDA_FLOOR};
use super::special::{
    ln_1m_small, ln_pois_cdf_quick, ln_pois_sf_quick, ln_sf_independent, tail_cuts,
};
use super::trapezoid::{fit_peak, ln_trapezoid_each, Accuracy, Peak};

/// One tail's relative error bound: a tenth of the `MIX_REL_ERROR` a
/// mixed probability claims.
const TAIL_REL_ERROR: f64 = 1e-11;

/// `ln P(max > c)` (`upper`) or `ln P(max <= c)` of `shards` shards at
/// the second's Gamma rate `mix`: by parts to `TAIL_REL_ERROR` where the
/// trapezoidal rule vouches for it, else the first form's adaptive
/// integral.
pub(super) fn ln_tail(mix: &GammaMix, shards: u64, c: u64, upper: bool) -> f64 {
    match ln_tails(
        mix,
        shards,
        (c, 1),
        upper,
        Accuracy::Bounded(TAIL_REL_ERROR),
    ) {
        Some((v, _)) => v[0],
        None => ln_tail_first_form(mix, shards, c, upper),
    }
}

/// [`ln_tail`] by the first form, `E[1 - F^S]` or `E[F^S]`, integrated
/// adaptively.
pub(super) fn ln_tail_first_form(mix: &GammaMix, shards: u64, c: u64, upper: bool) -> f64 {
    let s = shards as f64;
    if upper {
        mix.ln_expect(|l| ln_sf_independent(ln_pois_sf_quick(c, l / s), shards))
    } else {
        mix.ln_expect(|l| s * ln_pois_cdf_quick(c, l / s))
    }
}

/// `ln P(max > c)` (`upper`) or `ln P(max <= c)` of `shards` shards for
/// the `n` cuts from `from`, at the second's Gamma rate `mix`, by parts,
/// to the `accuracy` asked (with the relative error bound they carry);
/// `None` where the trapezoidal rule cannot vouch for them.
pub(super) fn ln_tails(
    mix: &GammaMix,
    shards: u64,
    (from, n): (u64, usize),
    upper: bool,
    accuracy: Accuracy,
) -> Option<(Vec<f64>, f64)> {
    let peak = tails_peak(mix, shards, from + n as u64 / 2, upper)?;
    ln_tails_at(mix, shards, (from, n), upper, (peak, accuracy))
}

/// The peak of the integrand by parts of the cut `lead` (fitted: about a
/// dozen of its values), or `None` where it has none to fit.
pub(super) fn tails_peak(mix: &GammaMix, shards: u64, lead: u64, upper: bool) -> Option<Peak> {
    let phi = integrand(mix, shards, upper);
    let lead_phi = |d: f64| {
        let mut one = [0.0];
        phi.at(lead, d, &mut one) + one[0].ln()
    };
    let floor = (LAMBDA_FLOOR / mix.rate()).ln();
    // The bump of `p(c; x)` is at x = c, about 1 / sqrt(c) wide in d.
    let start = (shards as f64 * (lead as f64).max(1.0) / mix.rate()).ln();
    let step = (1.0 / (lead as f64 + 1.0).sqrt()).min(1.0);
    let peak = fit_peak(&lead_phi, start, step, floor);
    (!phi.failed.get()).then_some(peak).flatten()
}

/// [`ln_tails`] on nodes through `peak`: the lead cut's fitted one, or one
/// carried over from a neighbouring block or row (`gamma_row.rs`). Any
/// centre and step near the peak's give the same sums to their accuracy:
/// the rule walks out to the tails from wherever it starts and checks its
/// own convergence.
pub(super) fn ln_tails_at(
    mix: &GammaMix,
    shards: u64,
    (from, n): (u64, usize),
    upper: bool,
    (peak, accuracy): (Peak, Accuracy),
) -> Option<(Vec<f64>, f64)> {
    let phi = integrand(mix, shards, upper);
    let floor = (LAMBDA_FLOOR / mix.rate()).ln();
    let each = |d: f64, out: &mut [f64]| phi.at(from, d, out);
    let values = ln_trapezoid_each(&each, n, (peak, floor), accuracy)?;
    (!phi.failed.get()).then_some(values)
}

/// The log integrand by parts of a block of cuts, and whether an
/// incomplete gamma gave up on a node (`failed`: the caller then
/// integrates the first form).
struct Integrand<'a> {
    mix: &'a GammaMix,
    ln_rate: f64,
    s: f64,
    upper: bool,
    failed: Cell<bool>,
}

fn integrand(mix: &GammaMix, shards: u64, upper: bool) -> Integrand<'_> {
    Integrand {
        mix,
        ln_rate: mix.rate().ln(),
        s: shards as f64,
        upper,
        failed: Cell::new(false),
    }
}

impl Integrand<'_> {
    /// The log integrand of the cuts from `from` (as many as `out` holds)
    /// at `d`: a log scale returned, each cut's ratio to it in `out`.
    fn at(&self, from: u64, d: f64, out: &mut [f64]) -> f64 {
        let (rate, shape) = (self.mix.rate(), self.mix.shape());
        let e = d.exp();
        // The Gamma(K, rate / K) law at lambda is Gamma(K, 1) at K e^d.
        let y = shape * e;
        let tails = self.mix.tails();
        let ln_g = if self.upper {
            tails.ln_q(y)
        } else {
            tails.ln_p(y)
        };
        let Some(ln_g) = ln_g else {
            self.failed.set(true);
            out.fill(0.0);
            return 0.0;
        };
        // dlambda = lambda dd.
        let v = ln_g + (self.ln_rate + d) + weights(from, rate * e / self.s, self.s, out);
        if v.is_nan() {
            f64::NEG_INFINITY
        } else {
            v
        }
    }
}

/// `w_c(lambda) = F(c; x)^(S - 1) p(c; x)` for the cuts `from..from +
/// out.len()` at the shard rate `x = lambda / S`, as `sf_cuts` gives its
/// tails: a log scale returned (`ln p` of the top cut) and each cut's
/// ratio to it in `out`. The tails and pmfs are `special::tail_cuts`'
/// (summed once at the top cut, carried down), and `F^(S - 1) = e^{(S - 1)
/// ln(1 - Q)}` where `Q < 1/2`; above, `ln F` is the CDF summed on its own
/// (nodes far past the bump, few).
fn weights(from: u64, x: f64, s: f64, out: &mut [f64]) -> f64 {
    let (_, ln_p) = tail_cuts(from, out.len(), x, |i, cut| {
        let ln_f = if cut.big_q < 0.5 {
            ln_1m_small(cut.big_q)
        } else {
            ln_pois_cdf_quick(from + i as u64, x)
        };
        out[i] = cut.pmf * ((s - 1.0) * ln_f).exp();
    });
    ln_p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::exact::special::{ln_pois_cdf, ln_pois_sf};

    /// Each tail by parts is the first form's adaptive integral (1e-12 of
    /// itself, `gamma_mix.rs`) to 1e-11 of the probability (that much on
    /// its log; the largest difference was 3e-12 when written), on both sides, for
    /// dispersions from 0.3 to 1e4, one shard to a thousand, and cuts from
    /// the median of the busiest shard to where its tail is 1e-40.
    #[test]
    fn tails_are_the_first_forms_integrals() {
        let (mut asked, mut answered) = (0, 0);
        for &(rate, k) in &[
            (22_231.5, 6.9),
            (14_000.0, 0.3),
            (9902.0, 21.0),
            (500.0, 2.0),
            (1e5, 1e4),
            (14_000.0, 300.0),
        ] {
            let mix = GammaMix::new(rate, k);
            for &shards in &[1_u64, 3, 20, 57, 400, 1000] {
                let s = shards as f64;
                let mean = rate / s;
                for &z in &[0.0, 1.0, 3.0, 6.0, 12.0] {
                    let from = (mean * (1.0 + z / k.sqrt()) + z * mean.sqrt()).round() as u64;
                    for upper in [true, false] {
                        asked += 1;
                        let Some((got, _)) =
                            ln_tails(&mix, shards, (from, 8), upper, Accuracy::Full)
                        else {
                            continue;
                        };
                        answered += 1;
                        // The sums a search reads first hold their bound.
                        for most in [1e-3, 1e-6, TAIL_REL_ERROR] {
                            let accuracy = Accuracy::Bounded(most);
                            let Some((first, bound)) =
                                ln_tails(&mix, shards, (from, 8), upper, accuracy)
                            else {
                                continue;
                            };
                            for (f, g) in first.iter().zip(&got) {
                                // A relative error e moves the log by
                                // under 2e (e <= 1e-3).
                                assert!(
                                    (f - g).abs() <= 2.0 * bound + 1e-12,
                                    "rate {rate} K {k} S {shards} from {from}: {f} vs {g}, bound {bound}"
                                );
                            }
                        }
                        for (i, &g) in got.iter().enumerate() {
                            let c = from + i as u64;
                            let want = if upper {
                                mix.ln_expect(|l| ln_sf_independent(ln_pois_sf(c, l / s), shards))
                            } else {
                                mix.ln_expect(|l| s * ln_pois_cdf(c, l / s))
                            };
                            assert!(
                                (g - want).abs() <= 1e-11,
                                "rate {rate} K {k} S {shards} c {c} upper {upper}: {g} vs {want}"
                            );
                        }
                    }
                }
            }
        }
        // The trapezoidal rule refuses only a few (3 of 360 when written).
        assert!(answered >= asked * 9 / 10, "answered {answered} of {asked}");
    }
}
