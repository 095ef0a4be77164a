//! The trapezoidal rule through a peak, for integrals `int e^{phi_i(d)} dd`
//! of integrands analytic in a strip around the real line and negligible
//! at both ends: there the rule converges geometrically, its error on a
//! step `h` about `C e^{-b / h}`, so halving the step squares the error
//! (relative to the integral, `C` of order 1). Several components share
//! the nodes (neighbouring cuts of one figure, whose integrands peak close
//! together).
//!
//! The rule checks itself, and answers `None` where it cannot vouch for
//! `AGREE` (1e-12, the adaptive rule's own tolerance) of each component:
//!
//! 1. The step is the lead component's curvature radius at its peak over
//!    `STEPS_PER_RADIUS`; nodes are added on each side until what lies
//!    past them is `TAIL_NATS` below every component's largest term
//!    (`e^-32 = 1.3e-14`, bounded by the last two terms' fall: `beyond`).
//! 2. The sums on steps `h`, `2h` and `4h` come from those nodes (all,
//!    every other, every fourth). The difference of two sums is about the
//!    coarser one's error, which bounds the finer one's: agreement to
//!    `AGREE` accepts the finer sum.
//! 3. So does a difference below `QUADRATIC` that is at most ten times the
//!    square of the difference before it (the error squaring as the theory
//!    says it must): the finer sum's error is then about that difference
//!    squared, 1e-16 or less.
//! 4. Else the step is halved (at most `HALVINGS` times) and 2 and 3 are
//!    asked again of the two finest sums.
//!
//! That reasoning fails for an integrand that ripples faster than the
//! step (the mean busiest shard's staircase, `ripple.rs`): where the
//! ripple's frequency is near a multiple of `2 pi / h`, the sums on `h`
//! and `2h` alias it alike and agree however far off they are. Asked for
//! [`Accuracy::Rippled`], the rule takes a sum only where it also agrees
//! with the sum through nodes shifted a golden fraction of the step, and
//! may halve the step once more (`RIPPLED_HALVINGS`).
//!
//! A caller that only compares a value with a threshold can take the
//! first sums whose error bound is below the one it names
//! ([`Accuracy::Bounded`]): the gap to the coarser sum, or its power 3/2
//! where the gaps square as in 3 (`error_bound`), on nodes out to
//! a tenth of the bound asked only (ten nats for 1e-3), with what that
//! leaves out added; and ask again for the threshold's neighbours when a
//! bound straddles it.

use super::ripple::{shifted_gap, Staircase};

/// What [`ln_trapezoid_each`] is asked for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Accuracy {
    /// `AGREE` of each component.
    Full,
    /// `AGREE` of an integrand that may carry the staircase's ripple
    /// faster than the first steps resolve (the mean busiest shard): a sum
    /// is taken where it agrees with the sum through shifted nodes
    /// (`ripple::shifted_gap`) to `SHIFT_AGREE`, the first such sum on a
    /// step at most the staircase's `first_try` whose gap to the coarser
    /// one is under `SHIFT_GATE`.
    Rippled(Staircase),
    /// The sums on the first step (or halving) whose relative error bound
    /// is below the given one, with that bound, on nodes out to a tenth of
    /// it (else halving on as `Full` does, the bound then what those
    /// nodes leave out).
    Bounded(f64),
}

/// Sums on steps `h` and `2h` agreeing to this (relative) accept the sum on `h`.
const AGREE: f64 = 1e-12;
/// A difference between the sums on `h` and `h / 2` below this, converging
/// quadratically, accepts the sum on `h / 2`.
const QUADRATIC: f64 = 1e-8;
/// The shifted sum is asked for where the gap to the coarser sum is under
/// this (else the step is halved without it).
const SHIFT_GATE: f64 = 1e-9;
/// A rippled integrand's sums agreeing with the shifted ones to this are
/// taken: one aliased ripple moves the shifted sum by at least half its
/// error (`ripple.rs`). Several at once can cancel, which is why checks
/// are tried only on steps near the ripple's period (`first_try`): so
/// tried, 160 rows of the gamma sweep (every fifth from 203 to 998
/// shards) were within 1.3e-13 of the table; tried on every step, rows
/// at 370 and 520 shards were 1.3e-12 and 1.6e-12 off.
const SHIFT_AGREE: f64 = 2.5e-13;
/// At most this many halvings of the first step.
const HALVINGS: usize = 4;
/// At most this many for a rippled integrand: a wide density (K = 0.3
/// over 760 shards) needs a fifth to resolve the ripple on its right
/// shoulder, where the adaptive rule it fell back to was 2e-12 off.
const RIPPLED_HALVINGS: usize = 5;
/// Nodes are added on each side until what is left past it, as [`beyond`]
/// bounds it, is this far below every component's largest term (`e^-32 =
/// 1.3e-14`); for a bounded read, a tenth of the bound it asks for, what
/// is left out added to that bound.
const TAIL_NATS: f64 = 32.0;
/// The first step is the lead component's curvature radius over this.
const STEPS_PER_RADIUS: f64 = 2.0;
/// At most this many nodes on a side (a wider span is the adaptive rule's).
const MAX_SIDE: usize = 400;

/// A peak of `phi`: where, and its curvature radius `(-phi'')^-1/2`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Peak {
    pub(super) at: f64,
    pub(super) radius: f64,
}

/// The peak of the unimodal `phi` (bracketed by doubling steps from
/// `start`, then three parabolas) and its curvature radius; `None` when it
/// cannot be bracketed above `floor` or `phi` is not curved down there.
pub(super) fn fit_peak(
    phi: &impl Fn(f64) -> f64,
    start: f64,
    step: f64,
    floor: f64,
) -> Option<Peak> {
    let (mut a, mut b, mut c) = (start - step, start, start + step);
    if a < floor {
        return None;
    }
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
        let radius = (-1.0 / second).sqrt();
        if (0.5 * radius..=2.0 * radius).contains(&r) {
            return Some(Peak { at: b, radius });
        }
        r = radius;
    }
    None
}

/// `ln int e^{phi_i(d)} dd` for the `n` components `phi(d, out)` gives
/// as a log scale returned and each component's ratio to it in `out`
/// (finite, non-negative: one exponential a node, not one a component), on
/// nodes through `peak` (the lead component's), none at or below `floor`;
/// `None` where the rule cannot vouch for its answer. With the logs, the
/// relative error bound they carry: 0 when asked for `Accuracy::Full`.
pub(super) fn ln_trapezoid_each(
    phi: &impl Fn(f64, &mut [f64]) -> f64,
    n: usize,
    (peak, floor): (Peak, f64),
    accuracy: Accuracy,
) -> Option<(Vec<f64>, f64)> {
    let mut h = peak.radius / STEPS_PER_RADIUS;
    let tail_nats = match accuracy {
        Accuracy::Full | Accuracy::Rippled(_) => TAIL_NATS,
        Accuracy::Bounded(most) => (20.0 / most).ln().min(TAIL_NATS),
    };
    let Walk {
        mut at,
        mut terms,
        reference,
        centre,
    } = walk(phi, n, (peak.at, h), floor, tail_nats)?;
    let [mut full, half, quarter] = first_sums(&terms, n, centre);
    let finish = |sums: &[f64], h: f64| -> Vec<f64> {
        sums.iter().map(|s| reference + (s * h).ln()).collect()
    };
    let mut before = gap(&half, &quarter);
    let mut now = gap(&full, &half);
    // What the walk leaves out past its ends, relative to each sum (which
    // is at least the largest term): at most `e^-tail_nats` each; in full,
    // 2.5e-14 in all, nothing next to `AGREE`.
    let left_out = match accuracy {
        Accuracy::Full | Accuracy::Rippled(_) => 0.0,
        Accuracy::Bounded(_) => 2.0 * (-tail_nats).exp(),
    };
    let halvings = match accuracy {
        Accuracy::Rippled(_) => RIPPLED_HALVINGS,
        _ => HALVINGS,
    };
    for halving in 0..=halvings {
        if now.is_nan() {
            return None;
        }
        if let Accuracy::Rippled(stairs) = accuracy {
            let worth = now <= SHIFT_GATE && h <= stairs.first_try;
            let sums = (&at[..], &terms[..], h);
            if worth && shifted_gap(phi, (n, reference), sums, &stairs, &full) <= SHIFT_AGREE {
                return Some((finish(&full, h), left_out));
            }
        } else if now <= AGREE || (now <= QUADRATIC && now <= 10.0 * before * before) {
            return Some((finish(&full, h), left_out));
        }
        if let Accuracy::Bounded(most) = accuracy {
            let bound = left_out
                + if now <= most {
                    now
                } else {
                    error_bound(now, before)
                };
            if bound <= most {
                return Some((finish(&full, h), bound));
            }
        }
        if halving == halvings {
            break;
        }
        h /= 2.0;
        let finer = halve(phi, n, reference, (&mut at, &mut terms), &full);
        (before, now) = (now, gap(&finer, &full));
        full = finer;
    }
    None
}

/// The sums over `terms` (`n` a node) on steps `h`, `2h` and `4h`: every
/// node, those at even offsets from the `centre`'th, and those at offsets
/// that are multiples of four.
fn first_sums(terms: &[f64], n: usize, centre: usize) -> [Vec<f64>; 3] {
    let (mut full, mut half, mut quarter) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
    for (j, node) in terms.chunks(n).enumerate() {
        let offset = j.abs_diff(centre);
        for i in 0..n {
            full[i] += node[i];
            if offset % 2 == 0 {
                half[i] += node[i];
            }
            if offset % 4 == 0 {
                quarter[i] += node[i];
            }
        }
    }
    [full, half, quarter]
}

/// Halves the step: a node at each midpoint of `at`, its terms (`e^{phi_i
/// - reference}`) among `terms`; returns the sums on the new step.
fn halve(
    phi: &impl Fn(f64, &mut [f64]) -> f64,
    n: usize,
    reference: f64,
    (at, terms): (&mut Vec<f64>, &mut Vec<f64>),
    full: &[f64],
) -> Vec<f64> {
    let mut node = vec![0.0; n];
    let mut finer = full.to_vec();
    let mut next_at = Vec::with_capacity(2 * at.len());
    let mut next_terms = Vec::with_capacity(2 * terms.len());
    for j in 0..at.len() {
        next_at.push(at[j]);
        next_terms.extend_from_slice(&terms[j * n..(j + 1) * n]);
        if j + 1 < at.len() {
            let d = 0.5 * (at[j] + at[j + 1]);
            let factor = (phi(d, &mut node) - reference).exp();
            for i in 0..n {
                node[i] *= factor;
                finer[i] += node[i];
            }
            next_at.push(d);
            next_terms.extend_from_slice(&node);
        }
    }
    (*at, *terms) = (next_at, next_terms);
    finer
}

/// The relative error bound of the sum on `h` past its gap `now` to the
/// sum on `2h`, given `before`, the gap from `2h` to `4h`. A gap is about
/// the coarser sum's error, which bounds the finer one's: `now` bounds it.
/// Where the gaps square as the rule's convergence says they must (`now <=
/// 10 before^2`, the test that accepts a sum in full), the finer sum's
/// error is far smaller (`e(h) = e(2h)^2 / C` for errors `C e^{-b / h}`),
/// but the first steps are not always that far along: on 139 blocks of
/// cuts (`gamma_parts.rs`' tests) the error was at most 2.2e-3 of `now`,
/// and 150 `now^2` once (`now` = 1.3e-5). `now^{3/2}` held on all, 14
/// times over or more where `now` is above 1e-3 (where a search uses it).
fn error_bound(now: f64, before: f64) -> f64 {
    if now <= 10.0 * before * before {
        now.min(now.powf(1.5))
    } else {
        now
    }
}

/// The integral past a walk's end, in units of the step, over its last
/// term `t`, the term inside it being `u`: past the end the integrand
/// falls at least as fast as those two do (the integrands' logs are
/// concave out there), so the rest is under `t / ln(u / t)` on that step
/// or any finer one; infinite where the end does not fall.
fn beyond(t: f64, u: f64) -> f64 {
    if t == 0.0 {
        0.0
    } else if t < u {
        t / (u / t).ln()
    } else {
        f64::INFINITY
    }
}

/// The largest relative difference over the components between the
/// integrals `h fine` and `2h coarse`, for `fine` summed over every node
/// and `coarse` over every other one.
fn gap(fine: &[f64], coarse: &[f64]) -> f64 {
    fine.iter()
        .zip(coarse)
        .map(|(f, c)| (f - 2.0 * c).abs() / f)
        .fold(0.0, f64::max)
}

/// The nodes of [`walk`]: positions left to right, each node's `n` terms
/// `e^{phi_i - reference}`, and the centre's index.
struct Walk {
    at: Vec<f64>,
    terms: Vec<f64>,
    reference: f64,
    centre: usize,
}

/// The nodes `centre + j h` out to where what lies past them ([`beyond`])
/// is `tail_nats` below every component's largest term; `None` past
/// `MAX_SIDE` nodes a side, at `floor`, or where a term is not finite.
fn walk(
    phi: &impl Fn(f64, &mut [f64]) -> f64,
    n: usize,
    (centre, h): (f64, f64),
    floor: f64,
    tail_nats: f64,
) -> Option<Walk> {
    let mut node = vec![0.0; n];
    let scale = phi(centre, &mut node);
    // The centre's largest component is the reference (the lead's peak:
    // no term is far above it).
    let reference = scale + node.iter().copied().fold(0.0, f64::max).ln();
    if !reference.is_finite() {
        return None;
    }
    let term_at = |d: f64, node: &mut Vec<f64>| -> Option<()> {
        let factor = (phi(d, node) - reference).exp();
        for v in node.iter_mut() {
            *v *= factor;
            if !v.is_finite() {
                return None;
            }
        }
        Some(())
    };
    term_at(centre, &mut node)?;
    let middle = node.clone();
    let mut top = node.clone();
    let cut = (-tail_nats).exp();
    // Each side's positions and its terms, `n` a node, outwards (flat: a
    // vector a node was an allocation a node).
    let mut sides: [(Vec<f64>, Vec<f64>); 2] = [(Vec::new(), Vec::new()), (Vec::new(), Vec::new())];
    for ((side_at, side_terms), dir) in sides.iter_mut().zip([1.0, -1.0]) {
        let mut inner = middle.clone();
        for j in 1..=MAX_SIDE {
            let d = centre + dir * j as f64 * h;
            if d <= floor {
                return None;
            }
            term_at(d, &mut node)?;
            let mut done = true;
            for i in 0..n {
                top[i] = top[i].max(node[i]);
                done &= beyond(node[i], inner[i]) <= cut * top[i];
            }
            side_at.push(d);
            side_terms.extend_from_slice(&node);
            if done {
                break;
            }
            inner.copy_from_slice(&node);
            if j == MAX_SIDE {
                return None;
            }
        }
    }
    let [(right_at, right_terms), (left_at, left_terms)] = sides;
    let centre_index = left_at.len();
    let mut at = Vec::with_capacity(left_at.len() + right_at.len() + 1);
    let mut terms = Vec::with_capacity(n * at.capacity());
    for (j, &d) in left_at.iter().enumerate().rev() {
        at.push(d);
        terms.extend_from_slice(&left_terms[j * n..(j + 1) * n]);
    }
    at.push(centre);
    terms.extend_from_slice(&middle);
    at.extend_from_slice(&right_at);
    terms.extend_from_slice(&right_terms);
    Some(Walk {
        at,
        terms,
        reference,
        centre: centre_index,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Closed forms: a normal bump (`sqrt(2 pi) s`), a Gumbel density
    /// scaled by `e^5` (a double exponential on one side, as the busiest
    /// shard's weight has) and a gamma density in `ln` of its variable
    /// (`Gamma(a)`), each as two components; in full to 1e-12, and the
    /// sums asked for a bound within the bound they carry.
    #[test]
    fn closed_forms_within_the_bounds() {
        let ln_gamma = |a: f64| libm::lgamma(a);
        type Phi = Box<dyn Fn(f64) -> f64>;
        let cases: Vec<(Phi, f64, f64)> = vec![
            (
                Box::new(|d: f64| -0.5 * (d / 0.3).powi(2)),
                (std::f64::consts::TAU.sqrt() * 0.3).ln(),
                0.0,
            ),
            (
                Box::new(|d: f64| 5.0 + 30.0 * d - (30.0 * d).exp() + 30f64.ln()),
                5.0,
                0.0,
            ),
            (Box::new(|d: f64| 6.9 * d - d.exp()), ln_gamma(6.9), 1.0),
        ];
        for (phi, want, start) in cases {
            let each = |d: f64, out: &mut [f64]| {
                out[0] = 1.0;
                out[1] = 0.5;
                phi(d)
            };
            let peak = fit_peak(&|d| phi(d), start, 0.3, -50.0).expect("a peak");
            let (full, bound) = ln_trapezoid_each(&each, 2, (peak, -50.0), Accuracy::Full).unwrap();
            assert_eq!(bound, 0.0);
            assert!((full[0] - want).abs() <= 1e-12, "{} vs {want}", full[0]);
            assert!((full[1] - (want - 2f64.ln())).abs() <= 1e-12);
            // Each bound asked, including those only the squared gap
            // (`error_bound`) meets on the first step, holds.
            for most in [1e-2, 1e-3, 1e-4, 1e-6, 1e-8] {
                let (first, bound) =
                    ln_trapezoid_each(&each, 2, (peak, -50.0), Accuracy::Bounded(most)).unwrap();
                assert!(bound <= most);
                assert!(
                    (first[0] - want).abs() <= bound.max(1e-12),
                    "{} vs {want} within {bound}",
                    first[0]
                );
            }
        }
    }

    /// A normal bump with a ripple of 1e-6 whose period is the first step
    /// (0.5): the sums on it and on twice it each carry the whole ripple,
    /// so they agree with each other and `Full` takes a sum 1e-6 off;
    /// `Rippled` sees it in the shifted sum and halves on to the integral,
    /// `sqrt(2 pi) (1 + 1e-6 e^{-(4 pi)^2 / 2})`, to 1e-12.
    #[test]
    fn a_ripple_on_the_step_is_seen() {
        let (amplitude, omega) = (1e-6, std::f64::consts::TAU / 0.5);
        let each = |d: f64, out: &mut [f64]| {
            out[0] = 1.0;
            -0.5 * d * d + (amplitude * (omega * d).cos()).ln_1p()
        };
        let peak = Peak {
            at: 0.0,
            radius: 1.0,
        };
        let want =
            0.5 * std::f64::consts::TAU.ln() + (amplitude * (-0.5 * omega * omega).exp()).ln_1p();
        // A staircase whose steps are far finer than any step here: the
        // shifted sums cover every node.
        let everywhere = Staircase {
            a: 1e6,
            b: 0.0,
            first_try: f64::INFINITY,
        };
        let (fooled, _) = ln_trapezoid_each(&each, 1, (peak, -50.0), Accuracy::Full).unwrap();
        assert!(
            (fooled[0] - want - amplitude).abs() < 1e-12,
            "{}",
            fooled[0] - want
        );
        let (seen, bound) =
            ln_trapezoid_each(&each, 1, (peak, -50.0), Accuracy::Rippled(everywhere)).unwrap();
        assert_eq!(bound, 0.0);
        assert!((seen[0] - want).abs() < 1e-12, "{}", seen[0] - want);
    }
}
