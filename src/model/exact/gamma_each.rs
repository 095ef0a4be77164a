//! Several expectations over the second's Gamma rate on one set of nodes:
//! `ln E[g_i(Lambda)]` for `i = 0..n`, where the `g_i` are neighbouring
//! cuts of one figure (`P(max > c)` for eight consecutive `c`, say), whose
//! integrands peak close together. Computing them together costs about
//! what one costs: the nodes (`Lambda` values) are shared, and at each
//! node the `n` values come from one Poisson tail and `n - 1` pmf steps
//! (`gamma_row.rs`), where separate integrals would sum a tail of
//! `O(sqrt(lambda))` terms for each.
//!
//! The integral is [`GammaMix::ln_expect`]'s (the same variable `d =
//! ln(Lambda / rate)`, peak search, span and Gauss-Kronrod 7-15 rule with
//! QUADPACK's error estimate), with the refinement run until every
//! component's error estimate is below `REL_TOL` of its own value.

use std::cell::RefCell;

use super::gamma_mix::{
    find_peak, kronrod_error, span_end, GammaMix, LAMBDA_FLOOR, MAX_INTERVALS, PIECES, REL_TOL, WG,
    WGK, XGK,
};

/// One piece of the span: its ends, and each component's Kronrod value
/// and error estimate on it.
struct Piece {
    a: f64,
    b: f64,
    value: Vec<f64>,
    error: Vec<f64>,
}

impl GammaMix {
    /// `ln E[g_i(Lambda)]` for `i = 0..n`, where `g(lambda, out)` returns
    /// a log scale `ln b` and writes each `g_i(lambda) / b` into `out`
    /// (length `n`, finite and non-negative): the components share one
    /// exponential a node, and a caller can form them by ratios, without a
    /// logarithm each. Every `g_i` must be monotone in `Lambda`, with
    /// integrands that peak close together (the span and the peak are the
    /// middle component's, widened to where all of them are `SPAN_NATS`
    /// below it). A component that is 0 everywhere gives `-inf`.
    pub(crate) fn ln_expect_each(&self, n: usize, g: impl Fn(f64, &mut [f64]) -> f64) -> Vec<f64> {
        assert!(n >= 1, "at least one integrand");
        let scratch = RefCell::new(vec![0.0; n]);
        // The density's log plus the scale at d; the ratios in `out`.
        let base = |d: f64, out: &mut [f64]| self.phi(d, g(self.rate() * d.exp(), out));
        let log_of = |d: f64, pick: fn(&[f64]) -> f64| {
            let mut out = scratch.borrow_mut();
            let b = base(d, &mut out);
            let v = b + pick(&out).ln();
            if v.is_nan() {
                f64::NEG_INFINITY
            } else {
                v
            }
        };
        let lead = n / 2;
        let phi_lead = |d: f64| log_of(d, |out| out[out.len() / 2]);
        let phi_max = |d: f64| log_of(d, |out| out.iter().copied().fold(0.0, f64::max));
        let floor = (LAMBDA_FLOOR / self.rate()).ln();
        let step = (1.0 / self.shape().sqrt()).min(1.0);
        let (peak, ln_lead) = find_peak(&phi_lead, 0.0_f64.max(floor), step, floor);
        if ln_lead == f64::NEG_INFINITY {
            // The middle one is 0: no common peak to build on (never the
            // case for the windows of a row); each on its own.
            return (0..n)
                .map(|i| {
                    self.ln_expect(|l| {
                        let mut out = vec![0.0; n];
                        g(l, &mut out) + out[i].ln()
                    })
                })
                .collect();
        }
        debug_assert!(lead < n);
        // Scaled by the largest component at the middle one's peak, so no
        // component underflows or overflows (they differ by a few nats).
        let ln_peak = phi_max(peak);
        let lo = span_end(&phi_max, peak, ln_peak, -step, floor);
        let hi = span_end(&phi_max, peak, ln_peak, step, f64::INFINITY);
        let f = |d: f64, out: &mut [f64]| {
            let scale = (base(d, out) - ln_peak).exp();
            for v in out.iter_mut() {
                *v *= scale;
            }
        };
        let mut total = integrate_each(&f, n, (lo, peak, hi));
        if lo <= floor {
            self.add_below_floor(&g, &f, floor, &mut total);
        }
        total
            .iter()
            .map(|&t| ln_peak + t.ln() + self.ln_const())
            .collect()
    }

    /// The piece below `LAMBDA_FLOOR` likes/s, each component's in closed
    /// form as in [`GammaMix::ln_expect`]: `ln g_i` linear in `d` with slope
    /// `b_i` there, the density's log `K d`, so `e^{phi_i(floor)} / (K + b_i)`.
    fn add_below_floor(
        &self,
        g: &impl Fn(f64, &mut [f64]) -> f64,
        f: &impl Fn(f64, &mut [f64]),
        floor: f64,
        total: &mut [f64],
    ) {
        let n = total.len();
        let (mut at, mut below, mut scaled) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
        let ln_at = g(self.rate() * floor.exp(), &mut at);
        let ln_below = g(self.rate() * (floor - 1.0).exp(), &mut below);
        f(floor, &mut scaled);
        for i in 0..n {
            let b = (ln_at + at[i].ln()) - (ln_below + below[i].ln());
            let slope = self.shape() + if b.is_finite() { b.max(0.0) } else { 0.0 };
            total[i] += scaled[i] / slope;
        }
    }
}

/// Each component's Kronrod estimate on `[a, b]` and its error estimate
/// (QUADPACK's, as `gamma_mix::kronrod`).
fn kronrod_each(f: &impl Fn(f64, &mut [f64]), n: usize, a: f64, b: f64) -> Piece {
    let (mid, half) = (0.5 * (a + b), 0.5 * (b - a));
    let (mut lo, mut hi) = (vec![0.0; n], vec![0.0; n]);
    f(mid, &mut lo);
    let mut k: Vec<f64> = lo.iter().map(|v| WGK[7] * v).collect();
    let mut g: Vec<f64> = lo.iter().map(|v| WG[3] * v).collect();
    for i in 0..7 {
        f(mid - half * XGK[i], &mut lo);
        f(mid + half * XGK[i], &mut hi);
        for c in 0..n {
            let pair = lo[c] + hi[c];
            k[c] += WGK[i] * pair;
            if i % 2 == 1 {
                g[c] += WG[i / 2] * pair;
            }
        }
    }
    let mut error = vec![0.0; n];
    for c in 0..n {
        let (value, gap) = (k[c] * half, ((k[c] - g[c]) * half).abs());
        k[c] = value;
        error[c] = kronrod_error(value, gap);
    }
    Piece {
        a,
        b,
        value: k,
        error,
    }
}

/// Each component's integral over `[lo, hi]` split at `mid` (the
/// integrands non-negative, at most about 1): each side in `PIECES`
/// pieces, then the piece with the largest error relative to its
/// component's total halved until every component's errors sum below
/// `REL_TOL` of its total.
fn integrate_each(
    f: &impl Fn(f64, &mut [f64]),
    n: usize,
    (lo, mid, hi): (f64, f64, f64),
) -> Vec<f64> {
    let mut pieces: Vec<Piece> = Vec::new();
    for (a, b) in [(lo, mid), (mid, hi)] {
        if b <= a {
            continue;
        }
        let w = (b - a) / PIECES as f64;
        for i in 0..PIECES {
            let end = if i + 1 == PIECES {
                b
            } else {
                a + w * (i + 1) as f64
            };
            pieces.push(kronrod_each(f, n, a + w * i as f64, end));
        }
    }
    loop {
        let sums = |pick: fn(&Piece) -> &Vec<f64>| -> Vec<f64> {
            (0..n)
                .map(|c| pieces.iter().map(|p| pick(p)[c]).sum())
                .collect()
        };
        let (total, error) = (sums(|p| &p.value), sums(|p| &p.error));
        let done = (0..n).all(|c| error[c] <= REL_TOL * total[c]);
        if done || pieces.len() >= MAX_INTERVALS {
            return (0..n)
                .map(|c| {
                    let (sum, comp) = pieces.iter().fold((0.0, 0.0), |acc, p| {
                        super::special::neumaier(acc, p.value[c])
                    });
                    sum + comp
                })
                .collect();
        }
        // The piece whose error weighs most against its component's total.
        let weight = |p: &Piece| {
            (0..n)
                .map(|c| p.error[c] / total[c].max(f64::MIN_POSITIVE))
                .fold(0.0, f64::max)
        };
        let worst = (0..pieces.len())
            .max_by(|&i, &j| weight(&pieces[i]).total_cmp(&weight(&pieces[j])))
            .expect("at least one piece");
        let p = pieces.swap_remove(worst);
        let m = 0.5 * (p.a + p.b);
        pieces.push(kronrod_each(f, n, p.a, m));
        pieces.push(kronrod_each(f, n, m, p.b));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::exact::special::ln_pois_sf;

    /// Each component agrees with its own scalar integral to the
    /// quadrature's tolerance (1e-12 relative, the scalar's own).
    #[test]
    fn each_component_is_its_own_integral() {
        for &(rate, k) in &[(50.0, 0.3), (14_000.0, 300.0), (22_231.5, 6.9), (1e6, 1e5)] {
            let mix = GammaMix::new(rate, k);
            let base = (rate * 1.5) as u64;
            let many = mix.ln_expect_each(5, |l, out| {
                let top = ln_pois_sf(base + 4, l);
                for (i, v) in out.iter_mut().enumerate() {
                    *v = (ln_pois_sf(base + i as u64, l) - top).exp();
                }
                top
            });
            for (i, got) in many.iter().enumerate() {
                let want = mix.ln_expect(|l| ln_pois_sf(base + i as u64, l));
                assert!(
                    (got - want).abs() < 1e-11 * want.abs().max(1.0),
                    "rate {rate} K {k} c {}: {got} vs {want}",
                    base + i as u64
                );
            }
        }
    }
}
