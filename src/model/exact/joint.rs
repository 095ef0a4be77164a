//! Several shards over `c` at once: `q_j(c) = P(N_1 > c, ..., N_j > c)` for
//! Multinomial(L; 1/S, ..., 1/S) and every `j < S`, for a whole band of
//! `c` in O(1) a value (issue 18). With all of them, inclusion-exclusion
//! gives `P(max > c) = sum_j (-1)^(j+1) C(S, j) q_j(c)` exactly (no shard
//! set of size `S` can all exceed `c >= L/S`), which serves the middle of a
//! few-shard table where Levin's grid sum needs every frequency for every
//! `c` (Theta(sigma^2) in all).
//!
//! The recurrences generalise `pairs.rs`'s. Write `Q(T, n, j, c)` for
//! `P(N_1 > c, ..., N_j > c)` with `n` likes over `T` equal shards, and
//! `E(T, n, m, c) = P(N_1 = ... = N_m = c)` (a chain of binomial pmfs:
//! given `i` shards at `c`, the next has Binomial(n - i c, 1/(T - i))).
//!
//! - One like more (`n -> n + 1`): the event can only start, when the like
//!   lands on one of the `j` shards that sat at exactly `c` while the
//!   others were over:
//!   `Q(T, n+1, j, c) = Q(T, n, j, c) + (j / T) E(T, n, 1, c) Q(T-1, n-c, j-1, c)`.
//! - One cut lower (`c -> c - 1`): split `{N_i >= c}` by which `m` of the
//!   `j` shards sit at exactly `c` (disjoint parts):
//!   `Q(T, n, j, c-1) = sum_m C(j, m) E(T, n, m, c) Q(T-m, n-m c, j-m, c)`.
//!
//! Both add positive terms only, so nothing cancels. Following `Q(S, L, j,
//! c)` down in `c` needs `Q` with `l` shards removed at `n = L - l c + t`
//! for a few offsets `t` (the "levels"; fewer than 300 values for ten
//! shards), all moved one cut at a time. They start at the top of the band
//! (where `S P(N_1 > c) < 1e-17`) with the one-shard tails exact and the
//! joint ones at 0, which they are to within 1e-34 there.

use super::special::{ln_binom_sf, ln_dbinom, neumaier};

/// Inclusion-exclusion serves tables of at most this many shards: past
/// it Levin's frequency sums are short (|psi|^S decays fast), and the
/// states here grow as S^4 (at 1e9 likes/s: 9 shards 0.83 s CPU here
/// against 1.17 s and 64 MB by Levin's blocks; 10 shards 1.12 s in 17 MB
/// against 0.9 to 1.13 s in 62 to 68 MB; 11 shards by Levin 0.96 s).
pub(super) const MAX_SHARDS: u64 = 10;

/// Relative error of each `q_j` (binomial pmfs to a few ulps, sums with
/// compensation, at most `S` of them multiplied along a chain).
const Q_REL_ERROR: f64 = 1e-14;

/// One state: `Q(S - level, L - level c + offset, j, c)`.
#[derive(Clone, Copy)]
struct State {
    level: u64,
    offset: u64,
    j: u64,
}

/// One term of a state's step: `coef * prod pmfs * Q(other)` (`other`
/// `None`: the empty event, probability 1).
struct Term {
    coef: f64,
    pmfs: Vec<usize>,
    other: Option<usize>,
}

/// The states, the binomial pmfs each step needs, and each state's terms.
struct Plan {
    states: Vec<State>,
    /// `(level, offset)`: `P(Binomial(L - level c + offset, 1/(S - level)) = c)`.
    pmfs: Vec<(u64, u64)>,
    terms: Vec<Vec<Term>>,
}

impl Plan {
    fn new(shards: u64) -> Plan {
        let top = shards - 1; // levels 0..top-1 carry states
        let offsets = level_offsets(top);
        let mut states = Vec::new();
        for l in 0..top {
            for &t in &offsets[l as usize] {
                for j in 1..=top - l {
                    states.push(State {
                        level: l,
                        offset: t,
                        j,
                    });
                }
            }
        }
        let mut pmfs: Vec<(u64, u64)> = Vec::new();
        let terms = states
            .iter()
            .map(|s| terms_of(shards, s, &states, &mut pmfs))
            .collect();
        Plan {
            states,
            pmfs,
            terms,
        }
    }
}

/// Offsets each level needs, from the recurrences' right-hand sides
/// (levels `0..top` carry states).
fn level_offsets(top: u64) -> Vec<Vec<u64>> {
    let mut offsets: Vec<Vec<u64>> = vec![Vec::new(); top as usize + 1];
    offsets[0].push(0);
    for l in 0..top {
        let most_j = top - l;
        let ts = offsets[l as usize].clone();
        for t in ts {
            if most_j < 2 {
                continue;
            }
            for u in t..=t + l {
                offsets[l as usize + 1].push(u);
            }
            for m in 1..most_j {
                offsets[(l + m) as usize].push(t + l);
            }
        }
        for o in &mut offsets {
            o.sort_unstable();
            o.dedup();
        }
    }
    offsets
}

/// The terms of state `s`'s step one cut lower, by the two recurrences;
/// the pmfs they read are added to `pmfs` (each `(level, offset)` once).
fn terms_of(shards: u64, s: &State, states: &[State], pmfs: &mut Vec<(u64, u64)>) -> Vec<Term> {
    let find = |level: u64, offset: u64, j: u64| -> Option<usize> {
        (j > 0).then(|| {
            states
                .iter()
                .position(|s| s.level == level && s.offset == offset && s.j == j)
                .expect("the plan holds every state a recurrence reads")
        })
    };
    let mut pmf = |level: u64, offset: u64| -> usize {
        match pmfs.iter().position(|&p| p == (level, offset)) {
            Some(i) => i,
            None => {
                pmfs.push((level, offset));
                pmfs.len() - 1
            }
        }
    };
    let (l, t, j) = (s.level, s.offset, s.j);
    let shards_here = (shards - l) as f64;
    let mut list = Vec::new();
    // n -> n + l, one like at a time (n + k for k < l)...
    for k in 0..l {
        list.push(Term {
            coef: j as f64 / shards_here,
            pmfs: vec![pmf(l, t + k)],
            other: find(l + 1, t + k, j - 1),
        });
    }
    // ...then c -> c - 1 at n' = L - l c + t + l.
    for m in 1..=j {
        list.push(Term {
            coef: binomial(j, m),
            pmfs: (0..m).map(|i| pmf(l + i, t + l)).collect(),
            other: find(l + m, t + l, j - m),
        });
    }
    list
}

/// `C(n, k)` as a float (small arguments).
fn binomial(n: u64, k: u64) -> f64 {
    (0..k).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64)
}

/// `n = L - level c + offset`, or `None` when negative.
fn likes_at(likes: u64, level: u64, offset: u64, c: u64) -> Option<u64> {
    (likes as i128 - level as i128 * c as i128 + offset as i128)
        .try_into()
        .ok()
}

/// `q_j(c)` for `j = 1..S-1` and every `c` in `lo..=hi` (`4 <= S <=`
/// [`MAX_SHARDS`], `L / S <= lo <= hi`), in linear scale, `hi` where `S
/// P(N_1 > hi) < 1e-17`: element `(c - lo) (S - 1) + j - 1`.
pub(super) fn joint_tails_band(likes: u64, shards: u64, lo: u64, hi: u64) -> Vec<f64> {
    debug_assert!((4..=MAX_SHARDS).contains(&shards) && shards * lo >= likes && lo <= hi);
    let plan = Plan::new(shards);
    let width = (shards - 1) as usize;
    // Each state's value and its compensation (Neumaier).
    let mut value: Vec<(f64, f64)> = plan
        .states
        .iter()
        .map(|s| match (s.j, likes_at(likes, s.level, s.offset, hi)) {
            (1, Some(n)) => {
                let p = 1.0 / (shards - s.level) as f64;
                (ln_binom_sf(hi, n, p, 1.0 - p).exp(), 0.0)
            }
            _ => (0.0, 0.0),
        })
        .collect();
    let level0: Vec<usize> = (1..shards)
        .map(|j| {
            plan.states
                .iter()
                .position(|s| s.level == 0 && s.offset == 0 && s.j == j)
                .expect("level 0 holds every j")
        })
        .collect();
    let mut out = vec![0.0; (hi - lo + 1) as usize * width];
    let mut pmf = vec![0.0; plan.pmfs.len()];
    // The pmfs in (level, offset) order: within a level, one likes more is
    // one ratio step, `b(c; n + 1) = b(c; n) (n + 1) / (n + 1 - c) (1 - p)`
    // (a few ulps), so Loader's `ln_dbinom` runs once a level, not once a
    // pmf (it was most of the time).
    let mut order: Vec<usize> = (0..plan.pmfs.len()).collect();
    order.sort_by_key(|&k| plan.pmfs[k]);
    let mut next = value.clone();
    let mut c = hi;
    loop {
        let row = (c - lo) as usize * width;
        for (j, &i) in level0.iter().enumerate() {
            out[row + j] = value[i].0 + value[i].1;
        }
        if c == lo {
            break;
        }
        pmfs_at(&plan, &order, likes, shards, c, &mut pmf);
        one_cut_lower(&plan, &pmf, &value, &mut next);
        std::mem::swap(&mut value, &mut next);
        c -= 1;
    }
    out
}

/// Every pmf of the plan at cut `c`, into `pmf`, taken in `order`: by the
/// ratio step from the last one of its level where that is a few steps
/// back, by `ln_dbinom` otherwise.
fn pmfs_at(plan: &Plan, order: &[usize], likes: u64, shards: u64, c: u64, pmf: &mut [f64]) {
    let mut last: Option<(u64, u64, f64)> = None; // (level, n, pmf)
    for &k in order {
        let (level, offset) = plan.pmfs[k];
        let share = 1.0 / (shards - level) as f64;
        let n = likes_at(likes, level, offset, c);
        pmf[k] = match n {
            Some(n) => match last {
                Some((l, m, b)) if l == level && m < n && n - m <= 4 && b > 0.0 => {
                    let mut b = b;
                    for n1 in m + 1..=n {
                        b *= n1 as f64 / (n1 - c) as f64 * (1.0 - share);
                    }
                    b
                }
                _ => ln_dbinom(c, n, share, 1.0 - share).exp(),
            },
            None => 0.0,
        };
        last = n.map(|n| (level, n, pmf[k]));
    }
}

/// Every state's value one cut lower (`c -> c - 1`, into `next`) from its
/// terms: the values at `c` and the pmfs at `c`.
fn one_cut_lower(plan: &Plan, pmf: &[f64], value: &[(f64, f64)], next: &mut [(f64, f64)]) {
    for (i, terms) in plan.terms.iter().enumerate() {
        let mut acc = value[i];
        for term in terms {
            let mut x = term.coef;
            for &k in &term.pmfs {
                x *= pmf[k];
            }
            if let Some(o) = term.other {
                x *= value[o].0 + value[o].1;
            }
            acc = neumaier(acc, x);
        }
        next[i] = acc;
    }
}

/// `P(max > c)` and `P(max <= c)` from the `q_j(c)` of one row of
/// [`joint_tails_band`], with a bound on their absolute error.
pub(super) fn inclusion_exclusion(shards: u64, q: &[f64]) -> (f64, f64, f64) {
    let (mut odd, mut even) = (0.0, 0.0);
    for (j, &qj) in (1..).zip(q) {
        let term = binomial(shards, j) * qj;
        if j % 2 == 1 {
            odd += term;
        } else {
            even += term;
        }
    }
    let sf = odd - even;
    let cdf = (1.0 - odd) + even;
    let err = Q_REL_ERROR * (odd + even) + 4.0 * f64::EPSILON * (1.0 + odd + even);
    (sf, cdf, err)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every assignment of `L` likes to `S` shards, for tiny cases:
    /// `P(N_1 > c, ..., N_j > c)` by counting.
    fn brute(likes: u64, shards: u64, c: u64) -> Vec<f64> {
        let total = (shards as f64).powi(likes as i32);
        let mut counts = vec![0u64; shards as usize];
        let mut hits = vec![0.0; shards as usize - 1];
        let mut a = vec![0u64; likes as usize];
        loop {
            counts.iter_mut().for_each(|x| *x = 0);
            for &s in &a {
                counts[s as usize] += 1;
            }
            for j in 1..shards as usize {
                if counts[..j].iter().all(|&n| n > c) {
                    hits[j - 1] += 1.0;
                }
            }
            // Next assignment (odometer).
            let mut i = 0;
            loop {
                if i == a.len() {
                    return hits.iter().map(|h| h / total).collect();
                }
                a[i] += 1;
                if a[i] < shards {
                    break;
                }
                a[i] = 0;
                i += 1;
            }
        }
    }

    /// The table's middle, now from inclusion-exclusion, against exact
    /// values: `1 - P(max <= c)` with `P(max <= c)` from a long-double
    /// convolution of the deficit polynomial and mpmath's `loggamma`
    /// (the method of `levin::tests::BOTTOM_EXACT`). Levin's `1 - P(max
    /// <= c)`, which served here before, was off by 3e-12 to 7e-12
    /// relative at these points; its stated bound was 1e-11.
    #[test]
    fn table_middle_is_exact() {
        for &(likes, shards, c, want) in &[
            (1_000_000u64, 4u64, 251_500u64, 0.0010678018433532195),
            (1_000_000, 5, 201_341, 0.002011555958936053),
            (1_000_000, 8, 126_059, 0.005492630614718329),
        ] {
            let d = crate::model::exact::BusiestShard::new(
                likes as f64,
                shards,
                crate::model::law::TrafficModel::Fixed,
            )
            .unwrap();
            let got = d.sf(c);
            assert!(
                (got / want - 1.0).abs() < 1e-13,
                "{likes} {shards} {c}: {got} vs {want}"
            );
        }
    }

    /// Few shards at a high rate: the bottom of the table is tabulated
    /// from inclusion-exclusion (absolute error only) and computed exactly
    /// on demand; quantiles down there search the exact values.
    #[test]
    fn bottom_is_exact_on_demand() {
        use crate::model::exact::BusiestShard;
        use crate::model::law::TrafficModel;
        let (likes, shards) = (1_000_000u64, 5u64);
        let d = BusiestShard::new(likes as f64, shards, TrafficModel::Fixed).unwrap();
        let (lo, hi) = d.table_range();
        let (cdf, sf) = d.tabulated();
        let err = d.tabulated_error();
        assert!(err > 0.0 && err < 1e-11, "{err}");
        let point =
            super::super::point::Point::new(likes as f64, shards, TrafficModel::Fixed).unwrap();
        for c in (lo..=hi).step_by(97).chain([lo, lo + 1, lo + 40]) {
            let exact = point.ln_cdf_levin(c);
            let i = (c - lo) as usize;
            // Exact (Levin's on demand at the bottom, inclusion-exclusion
            // above): within 1e-12 relative or Levin's absolute error.
            let got = d.cdf(c);
            assert!((got - exact.exp()).abs() <= 1e-12 * got + 2e-14, "{c}");
            // Tabulated: within the stated absolute error of it.
            assert!((cdf[i] - exact.exp()).abs() <= err + 1e-15, "{c}");
            assert!((cdf[i] + sf[i] - 1.0).abs() < 1e-12, "{c}");
        }
        // A quantile at the bottom: the smallest c with P(max <= c) >= q.
        for q in [1e-6, 1e-3, 0.02] {
            let c = d.quantile(q);
            assert!(d.cdf(c) >= q && d.cdf(c - 1) < q, "q = {q}: {c}");
        }
    }

    #[test]
    fn band_matches_counting() {
        for &(likes, shards) in &[(10u64, 4u64), (9, 5), (11, 4), (8, 6)] {
            let lo = likes.div_ceil(shards);
            let hi = likes;
            let band = joint_tails_band(likes, shards, lo, hi);
            let width = (shards - 1) as usize;
            for c in lo..=hi {
                let want = brute(likes, shards, c);
                let got = &band[(c - lo) as usize * width..][..width];
                for (j, (g, w)) in got.iter().zip(&want).enumerate() {
                    assert!(
                        (g - w).abs() <= 1e-14 * w.max(1e-300) + 1e-16,
                        "L={likes} S={shards} c={c} j={}: {g} vs {w}",
                        j + 1
                    );
                }
            }
        }
    }
}
