//! A staircase ripple on a trapezoidal rule's integrand, and the check
//! that sees it where the rule's own gaps cannot (`trapezoid.rs`,
//! `Accuracy::Rippled`).
//!
//! The mean busiest of `S` Poisson(`mu`) shards climbs one smoothed step
//! each time the busiest shard's typical count passes an integer. Sums on
//! a step longer than that period alias the ripple, and the sums on `h`
//! and `2h` (whose nodes are among those on `h`) alias it alike wherever
//! its frequency is near a multiple of `2 pi / h`: their gap then says
//! nothing of their error (22,231.5 likes/s at K = 6.9 over 875 shards: a
//! gap of 2e-11, an error of 2e-9). Sums through nodes shifted by a golden
//! fraction of the step see it: each alias moves by a different phase.

/// The shifted sum's nodes are this far (a fraction of the step) along: a
/// golden fraction, so that no alias of the first ten multiples of the
/// sampling frequency keeps its phase (each moves by at least 0.09 of a
/// turn, which moves the sum by at least half the alias, where one alias
/// dominates: a chirp that crosses several multiples can alias at several
/// places whose moves cancel).
const SHIFT: f64 = 0.618_033_988_749_894_9;

/// A staircase in `x` whose steps come `1 / (a e^x + sqrt(a b e^x))`
/// apart: the busiest of `S` shards at `mu = a e^x` a shard passes an
/// integer each time `mu + sqrt(2 mu ln S)` does, so `b = ln S / 2` (the
/// busiest count's own `mu + z sqrt(mu)` has `z` under `sqrt(2 ln S)`, so
/// its steps are at least this far apart).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Staircase {
    /// The count a shard at `x = 0`.
    pub(super) a: f64,
    /// `ln S / 2`.
    pub(super) b: f64,
    /// The step at or under which a check is worth its nodes (infinite
    /// where the ripple is faint enough that coarse steps may already
    /// pass).
    pub(super) first_try: f64,
}

impl Staircase {
    /// The period at `x`.
    pub(super) fn period(&self, x: f64) -> f64 {
        let count = self.a * x.exp();
        1.0 / (count + (count * self.b).sqrt())
    }

    /// Where the period falls to `2 h`: below it a step of `h` resolves
    /// the ripple (two nodes a period at least), so only above it can the
    /// sums alias it.
    fn resolved_below(&self, h: f64) -> f64 {
        // With y = sqrt(a e^x): y^2 + sqrt(b) y = 1 / (2h).
        let root_b = self.b.sqrt();
        let y = 0.5 * ((root_b * root_b + 2.0 / h).sqrt() - root_b);
        (y * y / self.a).ln()
    }
}

/// The largest relative difference over the components between the sums
/// on step `h` through the nodes `at` (terms `terms`, `n` a node; their
/// totals `full`) and through the nodes `SHIFT h` along, both weighed by a
/// window that rises from 0 to 1 where the step stops resolving the
/// ripple (`Staircase::resolved_below`). Below it neither sum aliases the
/// ripple, and only the window's side is evaluated again. The window,
/// `erfc((x0 - x) / 2h) / 2`, is smooth on the step's scale (its
/// transform at `2 pi / h` is `e^{-4 pi^2}` = 7e-18 of it), so the two
/// windowed sums differ only by what they alias; 1e-17 at `x0 - 12 h`,
/// where the shifted nodes start.
pub(super) fn shifted_gap(
    phi: &impl Fn(f64, &mut [f64]) -> f64,
    (n, reference): (usize, f64),
    (at, terms, h): (&[f64], &[f64], f64),
    stairs: &Staircase,
    full: &[f64],
) -> f64 {
    let x0 = stairs.resolved_below(h) - 4.0 * h;
    let window = |x: f64| 0.5 * libm::erfc((x0 - x) / (2.0 * h));
    let start = x0 - 12.0 * h;
    let mut node = vec![0.0; n];
    let (mut plain, mut shifted) = (vec![0.0; n], vec![0.0; n]);
    for (j, &x) in at.iter().enumerate() {
        if x + h < start {
            continue;
        }
        let w = window(x);
        for i in 0..n {
            plain[i] += w * terms[j * n + i];
        }
        if j + 1 == at.len() {
            break;
        }
        let moved = x + SHIFT * h;
        let factor = window(moved) * (phi(moved, &mut node) - reference).exp();
        for i in 0..n {
            shifted[i] += node[i] * factor;
        }
    }
    (0..n)
        .map(|i| (plain[i] - shifted[i]).abs() / full[i])
        .fold(0.0, f64::max)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The period is the staircase's: `a e^x + sqrt(a b e^x)` steps a
    /// unit of `x`; and the step resolves it below `resolved_below`, two
    /// nodes a period exactly there.
    #[test]
    fn the_window_starts_where_the_step_stops_resolving() {
        let stairs = Staircase {
            a: 25.4,
            b: 875f64.ln() / 2.0,
            first_try: f64::INFINITY,
        };
        for h in [0.1, 0.024, 0.003] {
            let x = stairs.resolved_below(h);
            assert!((stairs.period(x) / (2.0 * h) - 1.0).abs() < 1e-12, "{h}");
            assert!(stairs.period(x - 0.1) > 2.0 * h);
        }
    }
}
