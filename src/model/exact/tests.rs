use super::*;
use crate::model::law::TrafficModel;

const FIXED: TrafficModel = TrafficModel::Fixed;
const POISSON: TrafficModel = TrafficModel::Poisson;

pub(super) fn rel(a: f64, b: f64) -> f64 {
    if a == b {
        0.0
    } else {
        (a - b).abs() / b.abs()
    }
}

/// Enumerate all `S^L` equally likely assignments of likes to shards and
/// count those whose busiest shard has exactly `m` likes.
pub(super) fn enumerate_max(likes: u32, shards: u32) -> Vec<f64> {
    let total = (shards as u64).pow(likes);
    let mut counts = vec![0u64; likes as usize + 1];
    for code in 0..total {
        let mut per = vec![0u32; shards as usize];
        let mut x = code;
        for _ in 0..likes {
            per[(x % shards as u64) as usize] += 1;
            x /= shards as u64;
        }
        counts[*per.iter().max().unwrap() as usize] += 1;
    }
    counts.iter().map(|&n| n as f64 / total as f64).collect()
}

#[test]
fn fixed_matches_exhaustive_enumeration() {
    for &(l, s) in &[(6u32, 3u32), (7, 2), (8, 4), (10, 5), (5, 7)] {
        let pmf = enumerate_max(l, s);
        let d = BusiestShard::new(l as f64, s as u64, FIXED).unwrap();
        let mut cdf = 0.0;
        for c in 0..=l as u64 + 2 {
            cdf += pmf.get(c as usize).copied().unwrap_or(0.0);
            let sf: f64 = pmf.iter().skip(c as usize + 1).sum();
            assert!(
                (d.cdf(c) - cdf).abs() < 1e-13,
                "L={l} S={s} c={c}: {} vs {cdf}",
                d.cdf(c)
            );
            assert!(
                rel(d.sf(c), sf) < 1e-12,
                "L={l} S={s} c={c}: sf {} vs {sf}",
                d.sf(c)
            );
        }
        let mean: f64 = pmf.iter().enumerate().map(|(m, p)| m as f64 * p).sum();
        assert!(rel(d.mean(), mean) < 1e-13, "mean {} vs {mean}", d.mean());
    }
}

#[test]
fn six_likes_three_shards_exact_fractions() {
    // 729 assignments: max 2 only for the 90 (2,2,2) arrangements, max 6
    // for the 3 all-on-one; so P(max <= 2) = 90/729, P(max > 5) = 3/729.
    let d = BusiestShard::new(6.0, 3, FIXED).unwrap();
    assert_eq!(d.cdf(1), 0.0);
    assert!(rel(d.cdf(2), 90.0 / 729.0) < 1e-14);
    assert!(rel(d.sf(5), 3.0 / 729.0) < 1e-14);
    assert_eq!(d.sf(6), 0.0);
    assert_eq!(d.ln_sf(6), f64::NEG_INFINITY);
    assert_eq!(d.quantile(0.1), 2);
    assert_eq!(d.quantile(90.0 / 729.0), 2);
}

/// `P(max <= c)` and `P(max > c)` by the shard-by-shard recursion: the
/// first of `r` shards gets `k ~ Binomial(n, 1/r)`, the rest recurse.
/// O(S L^2) per `c`, independent of Levin's formula and of the bounds.
/// Each is summed on its own (the tail not as one minus the body), so a
/// tiny `P(max > c)` keeps its digits.
fn recursion(likes: usize, shards: usize, c: usize, pmf: &[Vec<Vec<f64>>]) -> (f64, f64) {
    (
        all_at_most(likes, shards, c, pmf),
        any_over(likes, shards, c, pmf),
    )
}

/// `P(max <= c)`: for the shards left, `all[n]` is the chance none of them
/// goes over `c` with `n` likes among them. A shard over `c` ends a path,
/// so only `k <= c` is summed (`S L c` steps a cut).
fn all_at_most(likes: usize, shards: usize, c: usize, pmf: &[Vec<Vec<f64>>]) -> f64 {
    let mut all: Vec<f64> = (0..=likes)
        .map(|n| if n <= c { 1.0 } else { 0.0 })
        .collect();
    for table in pmf.iter().take(shards + 1).skip(2) {
        let mut a2 = vec![0.0; likes + 1];
        for (n, a) in a2.iter_mut().enumerate() {
            *a = (0..=n.min(c)).map(|k| table[n][k] * all[n - k]).sum();
        }
        all = a2;
    }
    all[likes]
}

/// `P(max > c)`: for the shards left, `any[n]` is the chance some shard
/// goes over `c` with `n` likes among them; a first shard over `c` adds its
/// whole chance.
fn any_over(likes: usize, shards: usize, c: usize, pmf: &[Vec<Vec<f64>>]) -> f64 {
    let mut any: Vec<f64> = (0..=likes)
        .map(|n| if n <= c { 0.0 } else { 1.0 })
        .collect();
    for table in pmf.iter().take(shards + 1).skip(2) {
        let mut s2 = vec![0.0; likes + 1];
        for (n, s) in s2.iter_mut().enumerate() {
            *s = (0..=n)
                .map(|k| match k <= c {
                    true => table[n][k] * any[n - k],
                    false => table[n][k],
                })
                .sum();
        }
        any = s2;
    }
    any[likes]
}

/// `pmf[r][n][k] = P(Binomial(n, 1/r) = k)`.
fn binomial_tables(likes: usize, shards: usize) -> Vec<Vec<Vec<f64>>> {
    (0..=shards)
        .map(|r| {
            if r < 2 {
                return Vec::new();
            }
            let p = 1.0 / r as f64;
            (0..=likes)
                .map(|n| {
                    (0..=n)
                        .map(|k| special::ln_dbinom(k as u64, n as u64, p, 1.0 - p).exp())
                        .collect()
                })
                .collect()
        })
        .collect()
}

#[test]
fn fixed_matches_shard_recursion() {
    for &(l, s) in &[(300usize, 7usize), (600, 10), (400, 2)] {
        let d = BusiestShard::new(l as f64, s as u64, FIXED).unwrap();
        let pmf = binomial_tables(l, s);
        let mean = l / s;
        for c in (mean..l.min(mean * 3)).step_by(mean / 6) {
            let (cdf, sf) = recursion(l, s, c, &pmf);
            if cdf > 1e-250 {
                assert!(
                    rel(d.cdf(c as u64), cdf) < 1e-11,
                    "L={l} S={s} c={c}: cdf {} vs {cdf}",
                    d.cdf(c as u64)
                );
            }
            if sf > 1e-250 {
                assert!(
                    rel(d.sf(c as u64), sf) < 1e-10,
                    "L={l} S={s} c={c}: sf {} vs {sf}",
                    d.sf(c as u64)
                );
            }
        }
    }
}

#[test]
fn poisson_is_product_of_independent_shards() {
    let d = BusiestShard::new(700.5, 3, POISSON).unwrap();
    let lam: f64 = 700.5 / 3.0;
    for c in [200u64, 233, 250, 300, 400] {
        let f: f64 = (0..=c).map(|k| special::ln_dpois(k, lam).exp()).sum();
        assert!(rel(d.cdf(c), f.powi(3)) < 1e-12, "c={c}");
        let q: f64 = (c + 1..c + 400)
            .map(|k| special::ln_dpois(k, lam).exp())
            .sum();
        // 1 - (1-q)^3 expanded, so a tiny q keeps its digits.
        let sf = 3.0 * q - 3.0 * q * q + q * q * q;
        assert!(rel(d.sf(c), sf) < 1e-12, "c={c}: {} vs {sf}", d.sf(c));
    }
}

#[test]
fn one_shard_fixed_takes_everything() {
    let d = BusiestShard::new(14_000.0, 1, FIXED).unwrap();
    assert_eq!(d.cdf(13_999), 0.0);
    assert_eq!(d.sf(13_999), 1.0);
    assert_eq!(d.cdf(14_000), 1.0);
    assert_eq!(d.mean(), 14_000.0);
    assert_eq!(d.quantile(0.5), 14_000);
    assert_eq!(d.run_quantile(3600.0, 0.99), 14_000);
}

#[test]
fn tiny_probabilities_stay_finite_in_logs() {
    let d = BusiestShard::new(14_000.0, 20, FIXED).unwrap();
    // P(max > 2000) is around e^-800: below f64, finite in logs.
    let ln = d.ln_sf(2000);
    assert!(ln.is_finite() && ln < -700.0, "{ln}");
    // S p1 exactly: compare with 20 * Binomial tail.
    let want = 20f64.ln() + special::ln_binom_sf(2000, 14_000, 0.05, 0.95);
    assert!((ln - want).abs() < 1e-12);
    // A value near 1e-300 prints as itself, not 0.
    let c = (1000..3000).find(|&c| d.ln_sf(c) < -690.0).unwrap();
    assert!(d.sf(c) > 0.0 && d.sf(c) < 1e-299);
    // At c = L - 1 only "all on one shard" is over: 20 * 20^-14000.
    let ln_all = d.ln_sf(13_999);
    assert!(rel(ln_all, 20f64.ln() - 14_000.0 * 20f64.ln()) < 1e-14);
}

#[test]
fn default_case_figures() {
    let r = Risk::compute(14_000.0, 20, 1000.0, 2000.0, FIXED).unwrap();
    assert!(
        r.busiest_mean_per_second > 740.0 && r.busiest_mean_per_second < 760.0,
        "{r:?}"
    );
    // The article's 2,000-second simulation saw a peak of about 810.
    assert!(
        r.busiest_over_run_median > 790 && r.busiest_over_run_median < 830,
        "{r:?}"
    );
    let hot = Risk::compute(18_000.0, 20, 1000.0, 2000.0, FIXED).unwrap();
    assert!(
        hot.busiest_over_run_median > 995 && hot.busiest_over_run_median < 1040,
        "{hot:?}"
    );
    assert!(hot.p_any_over_cap > 0.1);
}

#[test]
fn one_second_run_is_the_per_second_figure() {
    let d = BusiestShard::new(14_000.0, 20, FIXED).unwrap();
    for q in [0.01, 0.5, 0.99, 0.999] {
        assert_eq!(d.run_quantile(1.0, q), d.quantile(q));
    }
    let r = Risk::compute(14_000.0, 20, 800.0, 1.0, FIXED).unwrap();
    assert!(rel(r.p_any_over_cap, r.p_over_cap_per_second) < 1e-14);
    assert!(rel(crate::model::stats::p_any(0.25, 1.0), 0.25) < 1e-15);
    assert!(rel(crate::model::stats::p_any(1e-300, 14_400.0), 1.44e-296) < 1e-14);
    assert!(rel(crate::model::stats::p_any(0.5, 2.0), 0.75) < 1e-15);
    assert!(rel(ln_p_any_over(-2000.0, 100.0), -2000.0 + 100f64.ln()) < 1e-15);
}

#[test]
fn quantiles_follow_the_definition() {
    let d = BusiestShard::new(14_000.0, 20, FIXED).unwrap();
    for q in [1e-6, 0.01, 0.5, 0.99, 0.999] {
        let c = d.quantile(q);
        assert!(d.cdf(c) >= q && d.cdf(c - 1) < q, "q={q}");
    }
    for (t, q) in [(3600.0, 0.5), (14_400.0, 0.01), (1e6, 0.99)] {
        let c = d.run_quantile(t, q);
        assert!(
            d.cdf(c).powf(t) >= q && d.cdf(c - 1).powf(t) < q,
            "T={t} q={q}"
        );
    }
}

#[test]
fn more_shards_less_risk_more_rate_more_risk() {
    for model in [FIXED, POISSON] {
        let mut last = f64::INFINITY;
        for s in [15u64, 16, 20, 25, 30, 40] {
            let p = Risk::compute(14_000.0, s, 1000.0, 1.0, model)
                .unwrap()
                .ln_p_over_cap_per_second;
            assert!(p < last, "{model:?} S={s}");
            last = p;
        }
        let mut last = f64::NEG_INFINITY;
        for rate in [10_000.0, 14_000.0, 16_000.0, 18_000.0, 19_000.0] {
            let p = Risk::compute(rate, 20, 1000.0, 1.0, model)
                .unwrap()
                .ln_p_over_cap_per_second;
            assert!(p > last, "{model:?} rate={rate}");
            last = p;
        }
    }
}

#[test]
fn size_by_risk_is_the_fewest_shards() {
    for model in [FIXED, POISSON] {
        let s = shards_for_risk(14_000.0, 1000.0, 4.0 * 3600.0, 0.01, model, 10_000).unwrap();
        let at = |s| ln_p_any_over_cap(14_000.0, s, 1000.0, 4.0 * 3600.0, model).unwrap();
        assert!(at(s) <= 0.01f64.ln(), "{model:?} S={s}");
        assert!(at(s - 1) > 0.01f64.ln(), "{model:?} S={s}");
    }
    assert_eq!(
        shards_for_risk(900.0, 1000.0, 3600.0, 0.01, FIXED, 100).unwrap(),
        1
    );
    let err = shards_for_risk(14_000.0, 10.0, 3600.0, 0.01, FIXED, 100).unwrap_err();
    assert_eq!(err.param, "risk");
}

#[test]
fn bad_input_names_the_flag() {
    assert_eq!(
        BusiestShard::new(14_000.5, 20, FIXED).unwrap_err().param,
        "rate"
    );
    assert_eq!(BusiestShard::new(0.0, 20, FIXED).unwrap_err().param, "rate");
    assert_eq!(
        BusiestShard::new(100.0, 0, FIXED).unwrap_err().param,
        "shards"
    );
    assert_eq!(
        Risk::compute(100.0, 2, -1.0, 1.0, FIXED).unwrap_err().param,
        "cap"
    );
    assert_eq!(
        Risk::compute(100.0, 2, 10.0, 0.0, FIXED).unwrap_err().param,
        "duration_seconds"
    );
    assert_eq!(
        shards_for_risk(100.0, 10.0, 1.0, 1.0, FIXED, 10)
            .unwrap_err()
            .param,
        "risk"
    );
}

#[test]
fn extremes_do_not_overflow() {
    for &(l, s) in &[
        (10_000_000.0, 10_000u64),
        (1.0, 10_000),
        (1.0, 1),
        (10_000_000.0, 1),
    ] {
        for model in [FIXED, POISSON] {
            let r = Risk::compute(l, s, 1100.0, 60.0, model).unwrap();
            assert!(r.busiest_mean_per_second.is_finite(), "{r:?}");
            assert!(!r.ln_p_over_cap_per_second.is_nan(), "{r:?}");
        }
    }
}

#[test]
fn busiest_mean_is_finite_and_right_on_one_and_two_shards() {
    // Against the definition E[max] = sum_{c >= 0} P(max > c), with statrs'
    // Poisson and binomial CDFs (independent of this module). One Poisson
    // shard: the mean of Poisson(rate), i.e. the rate itself. Every integer
    // rate 1..400 (292 of them printed NaN before the log clamp) and a few
    // large ones; tolerance 1e-9 relative (the table cuts P(max > c) at 1e-17).
    use statrs::distribution::{Binomial, DiscreteCDF, Poisson};
    let rates = (1..=400).map(f64::from).chain([1_000.0, 14_000.0]);
    for rate in rates {
        let one = BusiestShard::new(rate, 1, POISSON).unwrap().mean();
        assert!(
            (one - rate).abs() <= 1e-9 * rate,
            "poisson 1 shard {rate}: {one}"
        );
        let fixed_one = BusiestShard::new(rate, 1, FIXED).unwrap().mean();
        assert!(
            (fixed_one - rate).abs() <= 1e-9 * rate,
            "fixed 1 shard {rate}: {fixed_one}"
        );
        let half = Poisson::new(rate / 2.0).unwrap();
        let bin = Binomial::new(0.5, rate as u64).unwrap();
        let (mut want_p, mut want_f) = (0.0, 0.0);
        for c in 0..(rate as u64 * 2 + 100) {
            want_p += 1.0 - half.cdf(c).powi(2);
            // Fixed, two shards: max > c unless both counts are <= c, i.e.
            // the first shard's count X is in [rate - c, c].
            let inside = if 2 * c >= rate as u64 {
                let lo = rate as u64 - c.min(rate as u64);
                bin.cdf(c) - if lo == 0 { 0.0 } else { bin.cdf(lo - 1) }
            } else {
                0.0
            };
            want_f += 1.0 - inside;
        }
        let two = BusiestShard::new(rate, 2, POISSON).unwrap().mean();
        assert!(
            rel(two, want_p) < 1e-9,
            "poisson 2 shards {rate}: {two} vs {want_p}"
        );
        let two_f = BusiestShard::new(rate, 2, FIXED).unwrap().mean();
        assert!(
            rel(two_f, want_f) < 1e-9,
            "fixed 2 shards {rate}: {two_f} vs {want_f}"
        );
    }
}

/// A quantile below the table's 1e-30 floor lies under the table: the
/// smallest c with P(max <= c) >= q, found below `table_range().0`.
#[test]
fn quantiles_below_the_table() {
    for (rate, shards) in [(200_000.0, 286u64), (10_000_000.0, 20)] {
        let d = BusiestShard::new(rate, shards, FIXED).unwrap();
        let (lo, _) = d.table_range();
        let q = d.cdf(lo - 2);
        let c = d.quantile(q);
        assert_eq!(c, lo - 2, "{rate}/{shards}: table start {lo}");
        assert!(d.cdf(c) >= q && d.cdf(c - 1) < q, "{rate}/{shards}: {c}");
    }
}

/// A sweep's row tables (`BusiestShard::for_row`: started from the
/// saddlepoint estimate, one piece, Levin's tilt let drift 2 deviations)
/// give the full table's figures: the same quantiles, the mean to 1e-12
/// relative, the chance over the cap within both tables' stated error.
#[test]
fn row_tables_give_the_full_tables_figures() {
    for &(likes, shards) in &[
        (14_000.0, 20u64),
        (18_000.0, 20),
        (200_000.0, 11),
        (200_000.0, 57),
        (200_000.0, 233),
        (200_000.0, 286),
        (200_000.0, 1_000),
        (1e6, 1_430),
        (1e6, 5),
        (1_000.0, 7),
        (300.0, 3),
        (50.0, 2),
    ] {
        let row = BusiestShard::for_row(likes, shards, FIXED).unwrap();
        let full = BusiestShard::new(likes, shards, FIXED).unwrap();
        let mean = likes / shards as f64;
        for (cap, seconds) in [(1_000.0, 14_400.0), (mean * 1.1, 1.0), (mean, 2_000.0)] {
            let (a, b) = (
                Risk::from_busiest(&row, cap, seconds).unwrap(),
                Risk::from_busiest(&full, cap, seconds).unwrap(),
            );
            let what = format!("{likes}/{shards} cap {cap} T {seconds}");
            assert_eq!(a.quantiles(), b.quantiles(), "{what}");
            assert!(
                rel(a.busiest_mean_per_second, b.busiest_mean_per_second) < 1e-12,
                "{what}"
            );
            let err = a.p_over_cap_rel_error + b.p_over_cap_rel_error + 1e-14;
            let (pa, pb) = (a.ln_p_over_cap_per_second, b.ln_p_over_cap_per_second);
            assert!(
                pa == pb || (pa - pb).abs() <= err * 1.01,
                "{what}: {pa} vs {pb} ({err})"
            );
        }
    }
}

/// Row tables against exact values by the shard-by-shard recursion: the
/// mean `sum_c P(max > c)` to 1e-10 relative, and each quantile. The cuts
/// stop where `P(max > c)` falls under 1e-15: the `l - c` left add under
/// `l * 1e-15` to a mean of at least `l / s`, 1e-13 relative at most, and
/// every quantile asked (the highest, 0.99 over 14,400 s, needs
/// `P(max > c)` under 7e-7) is below that cut.
#[test]
fn row_tables_match_the_recursion() {
    for &(l, s) in &[(300usize, 7usize), (600, 10), (400, 2), (500, 25)] {
        let pmf = binomial_tables(l, s);
        let mut cdf: Vec<f64> = Vec::new();
        for c in 0..=l {
            let f = all_at_most(l, s, c, &pmf);
            cdf.push(f);
            if 1.0 - f < 1e-15 {
                break;
            }
        }
        let mean: f64 = cdf.iter().map(|f| 1.0 - f).sum();
        let row = BusiestShard::for_row(l as f64, s as u64, FIXED).unwrap();
        assert!(
            rel(row.mean(), mean) < 1e-10,
            "{l}/{s}: {} vs {mean}",
            row.mean()
        );
        for (seconds, q) in [
            (1.0, 0.999_f64),
            (14_400.0, 0.5),
            (14_400.0, 0.01),
            (14_400.0, 0.99),
        ] {
            let want = cdf.iter().position(|f| seconds * f.ln() >= q.ln()).unwrap() as u64;
            assert_eq!(
                row.run_quantile(seconds, q),
                want,
                "{l}/{s} T {seconds} q {q}"
            );
        }
    }
}
