//! A bound that holds on the chance that some partition goes over its cap
//! in some second of the hot spell, for the search. Sampled placements
//! cannot give one: the placements that dominate (a dozen of the big
//! reel's shards on one partition) come up one time in hundreds, so a
//! hundred samples usually hold none and their 95% bound reads 0.
//!
//! By the union bound over partitions and their symmetry,
//! P(some partition over in some second) <= P E[g(L)], L one partition's
//! load and g(l) = 1 - (1 - P(Poisson(l) > cap))^T its chance to go over
//! in some second of T (placement fixed for the spell, Poisson arrivals).
//! L = K r + R: K ~ Binomial(n, 1/P) of the biggest reel's n shard keys of
//! r likes/s each, summed exactly over K; R the rest (every other key with
//! probability 1/P, plus the Normal tail), bounded by Chernoff:
//! E[g(a + R)] <= g(a + x) + P(R > x) for every x, and
//! P(R > x) <= exp(-theta x) E[exp(theta R)], with
//! E[exp(theta R)] = prod_i (1 + (e^{theta r_i} - 1) / P) x
//! exp(theta mu + theta^2 sigma^2 / 2). Each bound holds for any x and
//! theta, so the least over a grid of them does too.

use std::collections::HashMap;

use super::placement::Layout;
use super::FleetPlan;
use crate::model::exact::ln_p_any_over;
use crate::model::exact::special::{ln_dbinom, ln_pois_sf_quick};

/// Points of the x grid (0 to the cap) and of the theta grid.
const X_POINTS: usize = 96;
const THETA_POINTS: usize = 48;
/// Binomial terms below this (in ln) are dropped: P x e^-50 is nothing.
const LN_NEGLIGIBLE: f64 = -50.0;

impl FleetPlan {
    /// An upper bound on P(some partition over the cap in some second of
    /// the spell) under the hot-only policy at `threshold` and `shards`.
    pub fn over_cap_bound(&self, threshold: f64, shards: u64) -> f64 {
        let layout = self.layout(threshold, shards);
        self.layout_bound_within(&layout, 1.0, &mut MgfTerms::default())
    }

    /// [`FleetPlan::over_cap_bound`] of the keys `layout` places, stopping
    /// once the bound passes `limit` (a search only needs to know that it
    /// fails), with `terms` the moment generating function's terms already
    /// computed (a search keeps one for its steps).
    pub(super) fn layout_bound_within(
        &self,
        layout: &Layout,
        limit: f64,
        terms: &mut MgfTerms,
    ) -> f64 {
        self.layout_bound_screened(layout, limit, terms, None)
    }

    /// [`FleetPlan::layout_bound_within`], but where `grid` is given and
    /// the bound with `g` read at the grid's loads at or below each load
    /// (a lower bound on the bound) is past `limit`, that lower bound: the
    /// count fails either way (a search only needs to know that), at a
    /// table lookup a point where the bound sums a Poisson tail.
    pub(super) fn layout_bound_screened(
        &self,
        layout: &Layout,
        limit: f64,
        terms: &mut MgfTerms,
        grid: Option<&LoadGrid>,
    ) -> f64 {
        let mut groups = layout.groups.clone();
        let p = self.partitions as f64;
        let (cap, seconds) = (self.cap.floor().max(0.0) as u64, self.seconds as f64);
        // The quick tail (four terms a step, within a few ulps of
        // `ln_pois_sf`): 9 to 13 % of a search's time.
        let ln_g = |load: f64| ln_g_at(load, cap, seconds);
        // The exact part: the run carrying the most likes.
        let big = (0..groups.len()).max_by(|&a, &b| {
            let (ra, na) = groups[a];
            let (rb, nb) = groups[b];
            (ra * na as f64).total_cmp(&(rb * nb as f64))
        });
        let (rate, n) = big.map_or((0.0, 0), |i| groups.swap_remove(i));
        let mu = layout.tail_rate / p;
        let var = (layout.tail_sq * (1.0 / p) * (1.0 - 1.0 / p)).max(0.0);
        let rest = RestTail::new(&groups, (mu, var), p, cap, terms);
        if let Some(grid) = grid {
            let lower = self.over_big_run(n, rate, limit, |a| {
                rest.bound_at(a, |load| grid.ln_g_below(load, cap, seconds))
            });
            if lower > limit {
                return lower;
            }
        }
        self.over_big_run(n, rate, limit, |a| rest.bound_at(a, ln_g))
    }

    /// `P E[b(K r)]` for the biggest run's `K ~ Binomial(n, 1/P)` keys of
    /// `rate` likes/s, with `bound_at(a)` a bound on `E[g(a + R)]`, at most
    /// 1; summed over `K`, stopping once past `limit`.
    fn over_big_run(&self, n: u64, rate: f64, limit: f64, bound_at: impl Fn(f64) -> f64) -> f64 {
        let p = self.partitions as f64;
        let (w, v) = (1.0 / p, (p - 1.0) / p);
        let mut total = 0.0;
        let mode = ((n + 1) as f64 * w).floor() as u64;
        let mut top = f64::NEG_INFINITY;
        for k in 0..=n {
            let ln_pmf = match (n, self.partitions) {
                (0, _) => 0.0,
                (_, 1) if k == n => 0.0,
                (_, 1) => continue,
                _ => ln_dbinom(k, n, w, v),
            };
            top = top.max(ln_pmf);
            if ln_pmf < top + LN_NEGLIGIBLE {
                if k > mode {
                    break;
                }
                continue;
            }
            total += ln_pmf.exp() * bound_at(k as f64 * rate);
            if p * total > limit {
                break;
            }
        }
        (p * total).min(1.0)
    }
}

/// `ln g(load)`: a partition at `load` likes/s goes over `cap` in some
/// second of `seconds`.
fn ln_g_at(load: f64, cap: u64, seconds: f64) -> f64 {
    match load > 0.0 {
        true => ln_p_any_over(ln_pois_sf_quick(cap, load).min(0.0), seconds),
        false => f64::NEG_INFINITY,
    }
}

/// `ln g` on a grid of loads (`GRID_LO (1 + GRID_STEP)^j` likes/s), each
/// computed once: `g` grows with the load, so `g` at the grid point at or
/// below a load is a lower bound on `g` there, for a search's screen
/// ([`FleetPlan::layout_bound_screened`]). A search keeps one (its cap and
/// spell do not change).
#[derive(Default)]
pub(super) struct LoadGrid(std::cell::RefCell<Vec<f64>>);

/// The grid's first load and its relative step: 1e-4 of a load moves
/// `ln g` by at most about `cap` 1e-4 (the tail's log grows as `cap ln
/// load` at most).
const GRID_LO: f64 = 1e-3;
const GRID_STEP: f64 = 1e-4;
/// Points on the grid: up to about 1e12 likes/s (`ln(1e15) / 1e-4`).
const GRID_POINTS: usize = 345_400;

impl LoadGrid {
    /// `ln g` at the grid point at or below `load` (`-inf` below the grid).
    fn ln_g_below(&self, load: f64, cap: u64, seconds: f64) -> f64 {
        if load.is_nan() || load < GRID_LO {
            return f64::NEG_INFINITY;
        }
        let step = GRID_STEP.ln_1p();
        let at = |j: usize| GRID_LO * (step * j as f64).exp();
        let mut j = (((load / GRID_LO).ln() / step).floor() as usize).min(GRID_POINTS - 1);
        if at(j) > load {
            // Rounding put it a point above.
            if j == 0 {
                return f64::NEG_INFINITY;
            }
            j -= 1;
        }
        let mut values = self.0.borrow_mut();
        if values.is_empty() {
            values.resize(GRID_POINTS, f64::NAN);
        }
        if values[j].is_nan() {
            values[j] = ln_g_at(at(j), cap, seconds);
        }
        values[j]
    }
}

/// `ln(1 + (e^{theta r} - 1) / P)` on the theta grid, by the grid's top
/// key rate and the key rate `r` (their bits). A search's steps share most
/// keys (the background ranks not raised, a thousand or more) and their
/// grid, and these terms, two transcendental calls each, were nearly all
/// of its time; a stored term is the same bits as a recomputed one.
#[derive(Default)]
pub(super) struct MgfTerms(HashMap<(u64, u64), Vec<f64>>);

impl MgfTerms {
    /// The terms of a key of `rate` likes/s on `thetas` (built for `r_max`).
    fn of(&mut self, rate: f64, r_max: f64, thetas: &[f64], p: f64) -> &[f64] {
        self.0
            .entry((r_max.to_bits(), rate.to_bits()))
            .or_insert_with(|| {
                thetas
                    .iter()
                    .map(|&t| ((t * rate).exp_m1() / p).ln_1p())
                    .collect()
            })
    }
}

/// The rest R of one partition's load (every key but the biggest run's,
/// plus the Normal tail): `ln P(R > x)` on a grid of `x`.
struct RestTail {
    xs: Vec<f64>,
    ln_tail: Vec<f64>,
}

impl RestTail {
    /// From the rest's keys `(rate, count)`, each on the partition with
    /// probability `1 / p`, and the Normal tail's mean `mu` and variance
    /// `var`, on a grid of `x` up to the cap.
    fn new(
        groups: &[(f64, u64)],
        (mu, var): (f64, f64),
        p: f64,
        cap: u64,
        terms: &mut MgfTerms,
    ) -> Self {
        // The rest's moment generating function on a theta grid: up to
        // theta r = 50 for the largest rest key.
        let r_max = groups.iter().map(|g| g.0).fold(1e-9, f64::max);
        let thetas: Vec<f64> = (0..THETA_POINTS)
            .map(|i| 1e-4 * (5e5f64).powf(i as f64 / (THETA_POINTS - 1) as f64) / r_max)
            .collect();
        // Summed over the keys in their order, theta by theta, as before
        // the terms were stored.
        let mut keys = vec![0.0f64; THETA_POINTS];
        for (i, &(r, c)) in groups.iter().enumerate() {
            let row = terms.of(r, r_max, &thetas, p);
            for (k, term) in keys.iter_mut().zip(row) {
                let add = c as f64 * term;
                *k = if i == 0 { add } else { *k + add };
            }
        }
        let ln_mgf: Vec<f64> = thetas
            .iter()
            .zip(&keys)
            .map(|(&t, &k)| k + t * mu + 0.5 * t * t * var)
            .collect();
        // Fine steps just above the rest's mean, where the best x lies.
        let span = (cap as f64 + 1.0 - mu).max(1.0);
        let xs: Vec<f64> = (0..X_POINTS)
            .map(|i| mu.max(0.0) + span * (i as f64 / (X_POINTS - 1) as f64).powi(2))
            .collect();
        // ln P(R > x), the least Chernoff bound over the theta grid (at most 0).
        let ln_tail: Vec<f64> = xs
            .iter()
            .map(|&x| {
                thetas
                    .iter()
                    .zip(&ln_mgf)
                    .map(|(t, m)| m - t * x)
                    .fold(0.0, f64::min)
            })
            .collect();
        RestTail { xs, ln_tail }
    }

    /// A bound on `E[g(a + R)]`: the least over the grid of `g(a + x) +
    /// P(R > x)`, with `ln_g` the log of `g`.
    fn bound_at(&self, a: f64, ln_g: impl Fn(f64) -> f64) -> f64 {
        let mut best = 1.0f64;
        for (&x, &lt) in self.xs.iter().zip(&self.ln_tail) {
            // Where the tail alone is at least the best, g + P(R > x) is
            // too: no need for g (most of the cost). Skipping the stop
            // test there changes nothing: g only grows, so past where it
            // would have stopped no point can lower the best.
            let tail = lt.exp();
            if tail >= best {
                continue;
            }
            // g only grows with x; once it alone passes the best, stop.
            let g = ln_g(a + x).exp();
            if g >= best {
                break;
            }
            best = best.min(g + tail);
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use crate::model::fleet::tests::zipf_plan;
    use crate::model::fleet::PinnedReel;
    use crate::model::law::TrafficModel;
    use crate::model::partitions::PartitionRisk;

    #[test]
    fn the_bound_holds_over_every_placement_listed() {
        // Three reels of 600, 300 and 100 likes/s, two shards a raised reel,
        // two partitions: keys 300, 300, 150, 150, 100 (threshold 250). List
        // the 2^5 placements; each stays for the hour, so the exact risk is
        // the mean of 1 - prod_p P(Poisson(load_p) <= cap)^3600 (statrs).
        use statrs::distribution::{DiscreteCDF, Poisson};
        for cap in [500.0, 600.0, 700.0, 900.0] {
            let plan = crate::model::fleet::tests::three_reels(cap);
            let keys = [300.0, 300.0, 150.0, 150.0, 100.0];
            let mut exact = 0.0;
            for mask in 0u32..32 {
                let mut load = [0.0f64; 2];
                for (j, r) in keys.iter().enumerate() {
                    load[(mask >> j & 1) as usize] += r;
                }
                let none: f64 = load
                    .iter()
                    .map(|&l| match l {
                        0.0 => 1.0,
                        l => Poisson::new(l).unwrap().cdf(cap as u64).powf(3600.0),
                    })
                    .product();
                exact += (1.0 - none) / 32.0;
            }
            let b = plan.over_cap_bound(250.0, 2);
            assert!(
                b >= exact - 1e-12 && b <= 1.0,
                "cap {cap}: bound {b} vs exact {exact}"
            );
        }
    }

    /// One reel of 200,000 likes/s over 1,000 partitions (cap 1,000, the
    /// hour) beside a quiet background of 10 likes/s.
    fn post_plan() -> crate::model::fleet::FleetPlan {
        let mut plan = zipf_plan(10_000, 10.0, 1.0);
        plan.partitions = 1_000;
        plan.cap = 1_000.0;
        plan.seconds = 3_600;
        plan.pinned = vec![PinnedReel {
            name: "post".into(),
            rate: 200_000.0,
            shards: None,
        }];
        plan
    }

    #[test]
    fn the_screen_decides_as_the_bound_does() {
        // The search's screen (`g` at the grid's loads at or below each
        // load) answers only where the count fails anyway: at every count
        // of a scan across the answer, the screened figure is past the
        // limit exactly where the bound is, and the bound itself (the same
        // bits) where it is not.
        let plan = post_plan();
        let grid = super::LoadGrid::default();
        let mut terms = super::MgfTerms::default();
        for limit in [1e-2, 1e-6] {
            for s in (200..4_000).step_by(97) {
                let layout = plan.layout(100.0, s);
                let plain = plan.layout_bound_within(&layout, limit, &mut terms);
                let screened = plan.layout_bound_screened(&layout, limit, &mut terms, Some(&grid));
                assert_eq!(plain > limit, screened > limit, "S {s} limit {limit}");
                if plain <= limit {
                    assert_eq!(plain.to_bits(), screened.to_bits(), "S {s}");
                }
            }
        }
    }

    #[test]
    fn the_bound_holds_over_the_exact_risk_and_is_close_to_it() {
        // One reel of 200,000 likes/s over 1,000 partitions and a quiet
        // background of 10 likes/s: the exact shared-partition risk of the
        // reel alone is a floor, the bound must sit above it and, the
        // background being small, within a factor 3 of it where it is small.
        let plan = post_plan();
        let exact =
            PartitionRisk::new(200_000.0, 1_000.0, 1_000, 3_600.0, TrafficModel::Poisson).unwrap();
        for s in [1_000, 2_000, 2_715, 2_896, 3_000, 4_000] {
            let b = plan.over_cap_bound(100.0, s);
            let e = exact.at(s).p_any_over_cap;
            assert!(b >= e, "{s}: bound {b} below the exact {e}");
            if e < 0.1 {
                assert!(b <= 3.0 * e, "{s}: bound {b} far above {e}");
            }
        }
    }
}
