//! Gamma-Poisson traffic: each second's rate `Lambda` is Gamma-distributed
//! with mean `rate` and shape `K` (the dispersion), and given `Lambda` the
//! shard counts are independent Poisson(`Lambda / S`). Every per-second
//! probability of that law is a one-dimensional integral of the Poisson
//! formula over `Lambda`: `E[g(Lambda)]`, which [`GammaMix::ln_expect`]
//! computes to 1e-10 relative or better (tested), in logs (so `P(max > c)` of 1e-200
//! keeps its digits).
//!
//! The integration variable is `d = ln(Lambda / rate)`. With `U = ln(Lambda
//! / theta)`, `theta = rate / K`, the density of `U` is `e^{K u - e^u} /
//! Gamma(K)`; in `d = u - ln K` its log is `K (d - expm1(d)) + const`, which
//! keeps every digit when `K` is large (in `u`, `K u` and `e^u` are each
//! about `K ln K` and cancel), and which is concave for every `K > 0`: the
//! integrand `e^{phi(d)}` times a monotone `g` has one peak, found by
//! bracketing and golden-section search. The integral is then adaptive
//! Gauss-Kronrod (7-15 points) on the span where `phi` is within 50 of its
//! peak (`e^-50 = 2e-22`), scaled by the peak so nothing underflows. Below
//! `Lambda = LAMBDA_FLOOR` the integrand is a pure power of `Lambda` (a
//! Poisson probability of a rate that small is constant or `~ lambda^(c+1)`
//! to 1e-12), and that piece is integrated in closed form: with `K` small
//! most of the mass can sit there (`K = 0.01`: two thirds below 1e-12/s).

use super::incgamma::IncGamma;

/// Below this rate (likes/s) the integrand is taken as a power of `Lambda`.
pub(super) const LAMBDA_FLOOR: f64 = 1e-12;
/// The span integrated: where `phi` is within this of its peak.
pub(super) const SPAN_NATS: f64 = 50.0;
/// The adaptive rule stops once its error estimate is below this fraction
/// of the integral.
pub(super) const REL_TOL: f64 = 1e-12;
/// ...or after this many intervals (never reached in the tests; the
/// estimate is returned as it stands).
pub(super) const MAX_INTERVALS: usize = 4000;

/// The relative error claimed for a mixed probability: the quadrature
/// stops at 1e-12 and the Poisson tails carry a few ulps in their logs;
/// `gamma_mix_tests.rs` checks 1e-10 against the negative binomial.
pub(crate) const MIX_REL_ERROR: f64 = 1e-10;

/// The Gamma law of one second's rate.
#[derive(Debug, Clone, Copy)]
pub(crate) struct GammaMix {
    /// The mean rate (likes/s).
    rate: f64,
    /// The Gamma shape `K`: the count's variance is `rate + rate^2 / K`.
    shape: f64,
    /// `ln` of the density's constant in `d`: `K ln K - K - ln Gamma(K)`.
    ln_const: f64,
    /// The law's tails: the incomplete gamma functions of shape `K`.
    tails: IncGamma,
}

impl GammaMix {
    /// Rate `rate` > 0 and shape `shape` > 0 (checked by the caller).
    pub(crate) fn new(rate: f64, shape: f64) -> Self {
        // K ln K - K - ln Gamma(K) = ln K / 2 - ln(2 pi) / 2 - stirlerr(K),
        // from ln Gamma(K) = ln Gamma(K + 1) - ln K and Stirling's form with
        // its remainder: no terms of size K ln K left to cancel.
        let tails = IncGamma::new(shape);
        let ln_const = 0.5 * tails.ln_a - 0.5 * std::f64::consts::TAU.ln() - tails.stirlerr_a;
        GammaMix {
            rate,
            shape,
            ln_const,
            tails,
        }
    }

    /// The Gamma law's tails (its incomplete gamma functions, what depends
    /// on `K` alone taken once).
    pub(super) fn tails(&self) -> &IncGamma {
        &self.tails
    }

    /// The mean rate (likes/s).
    pub(super) fn rate(&self) -> f64 {
        self.rate
    }

    /// The Gamma shape `K`.
    pub(super) fn shape(&self) -> f64 {
        self.shape
    }

    /// `ln` of the density's constant in `d` (added to every result).
    pub(super) fn ln_const(&self) -> f64 {
        self.ln_const
    }

    /// The log density of `d = ln(Lambda / rate)`, less `ln_const`.
    pub(super) fn ln_density(&self, d: f64) -> f64 {
        self.shape * d_minus_expm1(d)
    }

    /// The log integrand at `d`: the density's log plus `ln_g`, the log of
    /// `g` at `Lambda = rate e^d` (which the caller computes), and `-inf`
    /// where that sum is NaN (`-inf + inf` where the density vanishes).
    pub(super) fn phi(&self, d: f64, ln_g: f64) -> f64 {
        let v = self.ln_density(d) + ln_g;
        if v.is_nan() {
            f64::NEG_INFINITY
        } else {
            v
        }
    }

    /// `ln E[g(Lambda)]`, given `ln g` as a function of `Lambda`. `g` must
    /// be monotone in `Lambda` (every per-second probability of the
    /// busiest or quietest shard, or of any partition, is) and may be 0
    /// (`ln g = -inf`) on one side.
    pub(crate) fn ln_expect(&self, ln_g: impl Fn(f64) -> f64) -> f64 {
        let phi = |d: f64| self.phi(d, ln_g(self.rate * d.exp()));
        let floor = (LAMBDA_FLOOR / self.rate).ln();
        let step = (1.0 / self.shape.sqrt()).min(1.0);
        let (peak, ln_peak) = find_peak(&phi, 0.0_f64.max(floor), step, floor);
        if ln_peak == f64::NEG_INFINITY {
            return f64::NEG_INFINITY;
        }
        let lo = span_end(&phi, peak, ln_peak, -step, floor);
        let hi = span_end(&phi, peak, ln_peak, step, f64::INFINITY);
        let mut total = integrate(&|d| (phi(d) - ln_peak).exp(), lo, peak, hi);
        if lo <= floor {
            // Below the floor ln g is linear in d with slope b (0 for a
            // probability that tends to a constant, c + 1 for a tail), and
            // the density's log is K d to 1e-12: the piece is
            // e^{phi(floor)} / (K + b).
            let b = ln_g(self.rate * floor.exp()) - ln_g(self.rate * (floor - 1.0).exp());
            let slope = self.shape + if b.is_finite() { b.max(0.0) } else { 0.0 };
            total += (phi(floor) - ln_peak).exp() / slope;
        }
        ln_peak + total.ln() + self.ln_const
    }
}

/// `d - expm1(d)`, to a few ulps of itself: near 0 the two terms agree in
/// all but their last digits (at `d = 1e-5` the difference, `-d^2 / 2`,
/// kept 6 digits), which a large shape `K` multiplies into noise that the
/// quadrature cannot get below; there the series `-sum d^n / n!`.
fn d_minus_expm1(d: f64) -> f64 {
    if d.abs() > 0.1 {
        return d - d.exp_m1();
    }
    // Terms d^n / n! for n = 2..=17: |d|^18 / 18! < 1e-34 past the last.
    let mut term = d * d / 2.0;
    let mut sum = 0.0;
    for n in 3..=18 {
        sum += term;
        term *= d / n as f64;
    }
    -sum
}

/// The peak of the unimodal `phi` on `[floor, inf)`: bracketed from `start`
/// by doubling steps, then golden-section search. Returns `(d, phi(d))`.
pub(super) fn find_peak(
    phi: &impl Fn(f64) -> f64,
    start: f64,
    step: f64,
    floor: f64,
) -> (f64, f64) {
    let f0 = phi(start);
    let (dir, mut best) = if phi(start + step) > f0 {
        (1.0, start + step)
    } else if start - step >= floor && phi(start - step) > f0 {
        (-1.0, start - step)
    } else {
        return refine(phi, (start - step).max(floor), start + step);
    };
    let mut width = step;
    let mut prev = start;
    loop {
        width *= 2.0;
        let next = best + dir * width;
        if dir < 0.0 && next <= floor {
            return refine(phi, floor, best + step);
        }
        if phi(next) <= phi(best) {
            let (a, b) = if dir > 0.0 {
                (prev, next)
            } else {
                (next, prev)
            };
            return refine(phi, a, b);
        }
        prev = best;
        best = next;
    }
}

/// Golden-section search for the maximum of `phi` on `[a, b]`.
fn refine(phi: &impl Fn(f64) -> f64, mut a: f64, mut b: f64) -> (f64, f64) {
    const INV_PHI: f64 = 0.618_033_988_749_894_8;
    let tol = 1e-4 * (b - a);
    let mut x1 = b - INV_PHI * (b - a);
    let mut x2 = a + INV_PHI * (b - a);
    let (mut f1, mut f2) = (phi(x1), phi(x2));
    while b - a > tol {
        if f1 < f2 {
            a = x1;
            (x1, f1) = (x2, f2);
            x2 = a + INV_PHI * (b - a);
            f2 = phi(x2);
        } else {
            b = x2;
            (x2, f2) = (x1, f1);
            x1 = b - INV_PHI * (b - a);
            f1 = phi(x1);
        }
    }
    let (fa, fb) = (phi(a), phi(b));
    [(x1, f1), (x2, f2), (a, fa), (b, fb)]
        .into_iter()
        .fold(
            (a, f64::NEG_INFINITY),
            |best, x| if x.1 > best.1 { x } else { best },
        )
}

/// From the peak, steps of `step`, doubling, until `phi` is `SPAN_NATS`
/// below the peak or `limit` is passed (then `limit`).
pub(super) fn span_end(
    phi: &impl Fn(f64) -> f64,
    peak: f64,
    ln_peak: f64,
    step: f64,
    limit: f64,
) -> f64 {
    let mut width = step;
    loop {
        let d = peak + width;
        if (step < 0.0 && d <= limit) || (step > 0.0 && d >= limit) {
            return limit;
        }
        if phi(d) < ln_peak - SPAN_NATS {
            return d;
        }
        width *= 2.0;
    }
}

/// The pieces each side of the peak starts with (the error estimates
/// split them further where the integrand needs it).
pub(super) const PIECES: usize = 4;

/// Gauss-Kronrod 7-15 nodes on [-1, 1] (the positive half and 0).
pub(super) const XGK: [f64; 8] = [
    0.991_455_371_120_812_6,
    0.949_107_912_342_758_5,
    0.864_864_423_359_769_1,
    0.741_531_185_599_394_4,
    0.586_087_235_467_691_1,
    0.405_845_151_377_397_2,
    0.207_784_955_007_898_5,
    0.0,
];
/// Kronrod weights of `XGK`.
pub(super) const WGK: [f64; 8] = [
    0.022_935_322_010_529_22,
    0.063_092_092_629_978_55,
    0.104_790_010_322_250_2,
    0.140_653_259_715_525_9,
    0.169_004_726_639_267_9,
    0.190_350_578_064_785_4,
    0.204_432_940_075_298_9,
    0.209_482_141_084_727_8,
];
/// Gauss weights of the 7-point rule (nodes `XGK[1]`, `XGK[3]`, `XGK[5]`, 0).
pub(super) const WG: [f64; 4] = [
    0.129_484_966_168_869_7,
    0.279_705_391_489_276_7,
    0.381_830_050_505_118_9,
    0.417_959_183_673_469_4,
];

/// The Kronrod estimate on `[a, b]` and its difference from Gauss's.
fn kronrod(f: &impl Fn(f64) -> f64, a: f64, b: f64) -> (f64, f64) {
    let (mid, half) = (0.5 * (a + b), 0.5 * (b - a));
    let centre = f(mid);
    let (mut k, mut g) = (WGK[7] * centre, WG[3] * centre);
    for i in 0..7 {
        let pair = f(mid - half * XGK[i]) + f(mid + half * XGK[i]);
        k += WGK[i] * pair;
        if i % 2 == 1 {
            g += WG[i / 2] * pair;
        }
    }
    let (value, gap) = (k * half, ((k - g) * half).abs());
    (value, kronrod_error(value, gap))
}

/// QUADPACK's error estimate (qk15) of a piece whose Kronrod value is
/// `value` and Gauss-Kronrod difference `gap`: `gap` is the Gauss rule's
/// error, far above Kronrod's own on a smooth piece; (200 gap / value)^1.5
/// value is the calibrated figure (the integrand is non-negative here, so
/// `value` is the absolute area).
pub(super) fn kronrod_error(value: f64, gap: f64) -> f64 {
    if value > 0.0 {
        value * (200.0 * gap / value).powf(1.5).min(1.0)
    } else {
        gap
    }
}

/// The integral of `f` (non-negative, at most about 1) over `[lo, hi]`,
/// split at `mid`: each side in `PIECES` pieces, then the piece with the largest
/// error estimate halved until the errors sum below `REL_TOL` of the total.
fn integrate(f: &impl Fn(f64) -> f64, lo: f64, mid: f64, hi: f64) -> f64 {
    let mut pieces: Vec<(f64, f64, f64, f64)> = Vec::new();
    for (a, b) in [(lo, mid), (mid, hi)] {
        if b <= a {
            continue;
        }
        let w = (b - a) / PIECES as f64;
        for i in 0..PIECES {
            let (x, y) = (
                a + w * i as f64,
                if i + 1 == PIECES {
                    b
                } else {
                    a + w * (i + 1) as f64
                },
            );
            let (v, e) = kronrod(f, x, y);
            pieces.push((x, y, v, e));
        }
    }
    // Running sums (recomputed now and then, so halving does not drift).
    let (mut total, mut error) = (0.0, 0.0);
    let mut step = 0_u64;
    loop {
        step += 1;
        if step % 64 == 1 {
            total = pieces.iter().map(|p| p.2).sum();
            error = pieces.iter().map(|p| p.3).sum();
        }
        if error <= REL_TOL * total || pieces.len() >= MAX_INTERVALS {
            let (sum, comp) = pieces
                .iter()
                .fold((0.0, 0.0), |acc, p| super::special::neumaier(acc, p.2));
            return sum + comp;
        }
        let worst = (0..pieces.len())
            .max_by(|&i, &j| pieces[i].3.total_cmp(&pieces[j].3))
            .expect("at least one piece");
        let (a, b, v, e) = pieces.swap_remove(worst);
        let m = 0.5 * (a + b);
        let (v1, e1) = kronrod(f, a, m);
        let (v2, e2) = kronrod(f, m, b);
        total += v1 + v2 - v;
        error += e1 + e2 - e;
        pieces.push((a, m, v1, e1));
        pieces.push((m, b, v2, e2));
    }
}

#[cfg(test)]
#[path = "gamma_mix_tests.rs"]
pub(super) mod tests;
