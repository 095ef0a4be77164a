//! One partition's load, split into what is summed exactly and what is
//! drawn, and the tilt the drawn heavy keys are drawn under.

use std::collections::{HashMap, HashSet};

use rand::RngExt;
use rand_distr::StandardNormal;

use crate::model::binomial;
use crate::model::exact::ln_p_any_over;
use crate::model::exact::special::ln_pois_sf_quick;
use crate::model::partitions::ln_binomial_expectation;
use crate::model::rng::ChunkRng;

/// Runs other than the biggest are summed exactly from this share of its
/// keys' rate up, ...
const EXACT_RATE_SHARE: f64 = 0.125;
/// ... while the product of the runs' windows (Poisson tails a draw
/// computes) stays within this.
const EXACT_TERMS: f64 = 1024.0;
/// The drawn runs of the highest rates, drawn under the tilt (each a
/// binomial a draw); the others are drawn as they land.
const TILTED_RUNS: usize = 256;
/// Steps of the bisection for the tilt.
const TILT_STEPS: usize = 48;

/// One partition's load, L = sum_j K_j r_j + R: the runs summed exactly
/// and the rest, drawn.
pub(in crate::model::fleet) struct Split {
    /// The runs whose count on the partition is summed exactly: (likes/s
    /// of each key, keys), the biggest (by likes) first.
    pub(in crate::model::fleet) exact: Vec<(f64, u64)>,
    /// The drawn runs of the highest rates, `(likes/s each, keys)`.
    heavy: Vec<(f64, u64)>,
    /// The other drawn keys, as runs: their rates, and the keys up to and
    /// including each run (a key's index finds its run).
    rates: Vec<f64>,
    ends: Vec<u64>,
    /// Their likes/s / P, and the tail's mean, clipped at 0.
    light_mean: f64,
    /// The tail's Normal load on the partition, before clipping at 0.
    tail_mean: f64,
    tail_sd: f64,
    /// 1 / P, the whole cap and the spell's seconds.
    w: f64,
    cap: u64,
    seconds: f64,
}

/// How one figure's draws are tilted: for each heavy run, the chance
/// each of its keys lands under the tilt and ln of its part of the
/// likelihood ratio's normaliser, n ln(1 - w + w e^(theta r)).
pub(in crate::model::fleet) struct Tilt {
    pub(in crate::model::fleet) theta: f64,
    lands: Vec<f64>,
    ln_norm: f64,
}

/// One draw of the rest: its load and ln of its likelihood ratio (the
/// untilted law's chance of the draw over the tilted one's).
pub(super) struct RestDraw {
    pub(super) load: f64,
    pub(super) ln_weight: f64,
}

impl Split {
    /// From the layout's runs of keys with likes, `(rate, keys)`, the
    /// tail's Normal on one partition, `p` partitions, the cap and the
    /// spell.
    pub(in crate::model::fleet) fn new(
        groups: &[(f64, u64)],
        (tail_mean, tail_sd): (f64, f64),
        p: u64,
        cap: f64,
        seconds: u64,
    ) -> Split {
        let w = 1.0 / p as f64;
        let exact = exact_runs(groups, w);
        let mut rest: Vec<(f64, u64)> = (0..groups.len())
            .filter(|i| !exact.contains(i))
            .map(|i| groups[i])
            .collect();
        // Highest rate first (a stable sort: equal rates in the layout's
        // order); the first ones are drawn under the tilt.
        rest.sort_by(|a, b| b.0.total_cmp(&a.0));
        let light = rest.split_off(rest.len().min(TILTED_RUNS));
        let ends = light
            .iter()
            .scan(0u64, |n, g| {
                *n += g.1;
                Some(*n)
            })
            .collect();
        let light_rate: f64 = light.iter().map(|g| g.0 * g.1 as f64).sum();
        Split {
            exact: exact.iter().map(|&i| groups[i]).collect(),
            heavy: rest,
            rates: light.iter().map(|g| g.0).collect(),
            ends,
            light_mean: light_rate * w + tail_mean.max(0.0),
            tail_mean,
            tail_sd,
            w,
            cap: cap.floor().max(0.0) as u64,
            seconds: seconds as f64,
        }
    }

    /// The drawn keys (every key but the exact runs').
    pub(in crate::model::fleet) fn rest_keys(&self) -> u64 {
        self.heavy.iter().map(|g| g.1).sum::<u64>() + self.light_keys()
    }

    fn light_keys(&self) -> u64 {
        self.ends.last().copied().unwrap_or(0)
    }

    /// The draws of the rest `trials` asks for: none where there is
    /// nothing to draw (no key to place, no spread in the tail: the one
    /// rest there is gives the exact figure), else `trials` and at least
    /// 2 (a standard error needs two).
    pub(in crate::model::fleet) fn draws(&self, trials: u64) -> u64 {
        // A NaN spread (no tail at all) draws nothing either.
        match self.rest_keys() == 0 && (self.tail_sd.is_nan() || self.tail_sd <= 0.0) {
            true => 0,
            false => trials.max(2),
        }
    }

    /// The rest's mean load under the tilt `theta`.
    pub(in crate::model::fleet) fn mean_rest(&self, theta: f64) -> f64 {
        let heavy: f64 = self
            .heavy
            .iter()
            .map(|&(r, n)| r * n as f64 * self.lands(r, theta))
            .sum();
        self.light_mean + heavy
    }

    /// The chance a key of `rate` lands under the tilt `theta`:
    /// w e^(theta r) / (1 - w + w e^(theta r)), written so that a large
    /// theta r does not overflow.
    fn lands(&self, rate: f64, theta: f64) -> f64 {
        self.w / (self.w + (1.0 - self.w) * (-theta * rate).exp())
    }

    /// The tilt of the draws: the heavy keys land with chance
    /// w e^(theta r) / (1 - w + w e^(theta r)) (exponential tilting of the
    /// rest's load by theta), each draw weighed by its likelihood ratio,
    /// so the weighed mean is each figure whatever theta. The draws'
    /// variance is least about where theta is the slope of ln mean(R) at
    /// the tilted mean of R (the saddle point: the loads that carry the
    /// figure are drawn about as often as the others), found by bisection
    /// (the slope falls as R grows, the tilted mean grows with theta).
    /// Both figures take the tilt of the chance in a second: the spell's
    /// own, steeper where its chance saturates, drew with about three
    /// times the standard error on the interview's fleet.
    pub(in crate::model::fleet) fn tilt(&self) -> Tilt {
        let mut memo = HashMap::new();
        let mut slope = |r: f64| {
            let d = 1e-2 + 1e-6 * r;
            let (a, b) = (
                self.ln_means(r, &mut memo)[0],
                self.ln_means(r + d, &mut memo)[0],
            );
            match a.is_finite() && b.is_finite() {
                true => ((b - a) / d).max(0.0),
                false => 0.0,
            }
        };
        let mut theta = 0.0;
        if !self.heavy.is_empty() {
            let (mut lo, mut hi) = (0.0, slope(self.mean_rest(0.0)));
            for _ in 0..TILT_STEPS {
                let mid = 0.5 * (lo + hi);
                match slope(self.mean_rest(mid)) > mid {
                    true => lo = mid,
                    false => hi = mid,
                }
            }
            theta = 0.5 * (lo + hi);
        }
        // n ln(1 - w + w e^x) = n (x + ln(w + (1 - w) e^-x)), finite
        // however large x = theta r is.
        let ln_norm = self
            .heavy
            .iter()
            .map(|&(r, n)| {
                let x = theta * r;
                n as f64 * (x + (self.w + (1.0 - self.w) * (-x).exp()).ln())
            })
            .sum();
        Tilt {
            theta,
            lands: self.heavy.iter().map(|g| self.lands(g.0, theta)).collect(),
            ln_norm,
        }
    }

    /// One draw of the rest on the partition under `tilt`: each heavy
    /// run's count (a binomial at its tilted chance), the other keys that
    /// land (their count, then which, Floyd's uniform subset: each of the
    /// j steps takes a new index in 0..=j, or j itself where the one drawn
    /// is taken) and the tail. `seen` holds the indices taken; the rates
    /// are added in the order drawn, so the sum is the seed's alone.
    pub(super) fn draw(
        &self,
        tilt: &Tilt,
        rng: &mut ChunkRng,
        seen: &mut HashSet<u64>,
    ) -> RestDraw {
        let mut load = 0.0;
        // ln of the likelihood ratio: sum over the heavy keys of
        // -theta r each landed, and the normaliser.
        let mut ln_weight = tilt.ln_norm;
        for (&(rate, n), &lands) in self.heavy.iter().zip(&tilt.lands) {
            let k = binomial::sample(rng, n, lands) as f64;
            load += k * rate;
            ln_weight -= tilt.theta * rate * k;
        }
        let m = self.light_keys();
        let landed = binomial::sample(rng, m, self.w);
        seen.clear();
        for j in m - landed..m {
            let t = rng.random_range(0..=j);
            let key = match seen.insert(t) {
                true => t,
                false => {
                    seen.insert(j);
                    j
                }
            };
            load += self.rates[self.ends.partition_point(|&e| e <= key)];
        }
        load += match self.tail_sd > 0.0 {
            true => (self.tail_mean + self.tail_sd * rng.sample::<f64, _>(StandardNormal)).max(0.0),
            false => self.tail_mean.max(0.0),
        };
        RestDraw { load, ln_weight }
    }

    /// `ln E[q(L)]` and `ln E[g(L)]` over the exact runs' counts, `rest`
    /// the rest's load, each Poisson tail computed once for both (`memo`,
    /// by the load's bits: both sums build each load the same way).
    pub(super) fn ln_means(&self, rest: f64, memo: &mut HashMap<u64, f64>) -> [f64; 2] {
        memo.clear();
        let cap = self.cap;
        let mut ln_q = |load: f64| {
            *memo
                .entry(load.to_bits())
                .or_insert_with(|| match load > 0.0 {
                    true => ln_pois_sf_quick(cap, load).min(0.0),
                    false => f64::NEG_INFINITY,
                })
        };
        let per_second = self.nested(&self.exact, rest, &mut ln_q);
        let seconds = self.seconds;
        let spell = self.nested(&self.exact, rest, &mut |load| {
            ln_p_any_over(ln_q(load), seconds)
        });
        [per_second, spell]
    }

    /// `ln E[f(base + sum_j K_j r_j)]` over the `runs`' independent counts
    /// `K_j ~ Binomial(n_j, 1/P)`, one walk within another (`f` grows
    /// with the load, so each inner mean grows with the outer count, as
    /// the walk needs).
    fn nested(&self, runs: &[(f64, u64)], base: f64, ln_f: &mut dyn FnMut(f64) -> f64) -> f64 {
        match runs.split_first() {
            None => ln_f(base),
            Some((&(rate, n), more)) => ln_binomial_expectation(n, self.w, |k| {
                self.nested(more, base + k as f64 * rate, &mut *ln_f)
            }),
        }
    }
}

/// Which runs (indices into `groups`, `(likes/s each, keys)`) are summed
/// exactly: the one carrying the most likes (as the search's bound takes
/// it), then the others of more than one key and at least
/// [`EXACT_RATE_SHARE`] of its keys' rate, the highest rate first, while
/// the product of their windows (the counts a walk reads, about
/// [`window`]) stays within [`EXACT_TERMS`]: a second reel as heavy as the
/// first piles up as rarely, and is summed as exactly.
fn exact_runs(groups: &[(f64, u64)], w: f64) -> Vec<usize> {
    let Some(big) = (0..groups.len()).max_by(|&a, &b| {
        let (ra, na) = groups[a];
        let (rb, nb) = groups[b];
        (ra * na as f64).total_cmp(&(rb * nb as f64))
    }) else {
        return Vec::new();
    };
    let mut others: Vec<usize> = (0..groups.len())
        .filter(|&i| i != big && groups[i].1 > 1)
        .filter(|&i| groups[i].0 >= EXACT_RATE_SHARE * groups[big].0)
        .collect();
    // Highest rate first; equal rates in the layout's order.
    others.sort_by(|&a, &b| groups[b].0.total_cmp(&groups[a].0).then(a.cmp(&b)));
    let mut exact = vec![big];
    let mut terms = window(groups[big].1, w);
    for i in others {
        let more = terms * window(groups[i].1, w);
        if more > EXACT_TERMS {
            break;
        }
        terms = more;
        exact.push(i);
    }
    exact
}

/// About the counts a walk over `Binomial(n, w)` reads: from 0 to the
/// mean and 10 standard deviations past it, and 10 more (the terms up to
/// where the pmf is e^-60 of the sum are read; a singleton's two).
fn window(n: u64, w: f64) -> f64 {
    let mean = n as f64 * w;
    ((n + 1) as f64).min(mean + 10.0 * mean.sqrt() + 10.0)
}
