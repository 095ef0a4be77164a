//! Empirical traffic's exact mixture: against every assignment on tiny
//! cases, against fixed traffic when every second has the same count, and
//! its tails far below f64's range.

use super::*;
use crate::model::law::empirical::EmpiricalLaw;
use crate::model::law::TrafficModel;

// Shared with the fixed and Poisson tests: every assignment of L likes to
// S shards, and a relative difference.
use super::tests::{enumerate_max, rel};

fn law(table: &[(u64, u64)]) -> TrafficModel {
    TrafficModel::Empirical(EmpiricalLaw::new(table).unwrap().leak())
}

/// Counts {3, 5, 7} (and a second with none) over 2 and 3 shards: the
/// mixture of the enumerated laws, weighted by seconds, at every c. The
/// CDF within 1e-13 absolute; the tail, the mean and the risk figure
/// within 1e-12 relative.
#[test]
fn mixture_matches_enumeration() {
    let table = [(3u64, 2u64), (5, 1), (7, 3), (0, 1)];
    let seconds: u64 = table.iter().map(|t| t.1).sum();
    for shards in [2u32, 3] {
        let mut pmf = [0.0; 8];
        for &(n, s) in &table {
            for (m, p) in enumerate_max(n as u32, shards).iter().enumerate() {
                pmf[m] += p * s as f64 / seconds as f64;
            }
        }
        let d = BusiestShard::new(1.0, shards as u64, law(&table)).unwrap();
        let mut cdf = 0.0;
        for c in 0..=9u64 {
            cdf += pmf.get(c as usize).copied().unwrap_or(0.0);
            let sf: f64 = pmf.iter().skip(c as usize + 1).sum();
            assert!(
                (d.cdf(c) - cdf).abs() < 1e-13,
                "S={shards} c={c}: {}",
                d.cdf(c)
            );
            assert!(
                rel(d.sf(c), sf) < 1e-12,
                "S={shards} c={c}: {} vs {sf}",
                d.sf(c)
            );
            if sf == 0.0 {
                assert_eq!(d.ln_sf(c), f64::NEG_INFINITY, "exactly 0 over the top");
            }
            let r = Risk::from_busiest(&d, c as f64, 1.0).unwrap();
            assert!(rel(r.p_over_cap_per_second, sf) < 1e-12);
        }
        let mean: f64 = pmf.iter().enumerate().map(|(m, p)| m as f64 * p).sum();
        assert!(rel(d.mean(), mean) < 1e-13, "mean {} vs {mean}", d.mean());
        assert_eq!(d.rate(), (2.0 * 3.0 + 5.0 + 3.0 * 7.0) / 7.0);
    }
}

/// Every second with the same count: the law is fixed traffic's, value for
/// value (one term a sum: its log is the term's, to the bit).
#[test]
fn one_count_is_fixed_traffic() {
    for (likes, shards) in [
        (14_000u64, 20u64),
        (1_000, 7),
        (100_000, 5),
        (6, 3),
        (50, 1),
    ] {
        let fixed = BusiestShard::new(likes as f64, shards, TrafficModel::Fixed).unwrap();
        let model = law(&[(likes, 3600)]);
        let emp = BusiestShard::new(likes as f64, shards, model).unwrap();
        assert_eq!(
            emp.table_range(),
            fixed.table_range(),
            "L={likes} S={shards}"
        );
        let (lo, hi) = fixed.table_range();
        for c in lo.saturating_sub(3)..=hi + 3 {
            assert_eq!(emp.ln_sf(c), fixed.ln_sf(c), "L={likes} S={shards} c={c}");
            let (a, b) = (emp.ln_cdf(c), fixed.ln_cdf(c));
            assert!(
                a == b || (a - b).abs() < 1e-13,
                "L={likes} S={shards} c={c}: {a} {b}"
            );
        }
        assert_eq!(emp.mean(), fixed.mean());
        for q in [0.01, 0.5, 0.999] {
            assert_eq!(emp.quantile(q), fixed.quantile(q));
            assert_eq!(
                emp.run_quantile(14_400.0, q),
                fixed.run_quantile(14_400.0, q)
            );
        }
        let cap = (likes / shards) as f64 * 1.3;
        let (re, rf) = (
            Risk::from_busiest(&emp, cap, 14_400.0).unwrap(),
            Risk::from_busiest(&fixed, cap, 14_400.0).unwrap(),
        );
        assert_eq!(re.ln_p_over_cap_per_second, rf.ln_p_over_cap_per_second);
        let s = shards_for_risk(likes as f64, 1000.0, 14_400.0, 0.01, model, 100_000);
        let f = shards_for_risk(
            likes as f64,
            1000.0,
            14_400.0,
            0.01,
            TrafficModel::Fixed,
            100_000,
        );
        assert_eq!(s.ok(), f.ok(), "L={likes}");
    }
}

/// A tail far below f64's range keeps its log: the mixture's is the
/// log of the weighted sum of the counts' own tails (only those above the
/// cap count: 14,000 over 20 shards cannot reach 2,000 when... it can; a
/// second of 1,500 likes never goes over 2,000).
#[test]
fn tiny_tails_keep_their_logs() {
    let model = law(&[(1_500, 9), (14_000, 1)]);
    let d = BusiestShard::new(1.0, 20, model).unwrap();
    let fixed = BusiestShard::new(14_000.0, 20, TrafficModel::Fixed).unwrap();
    // ln(0.1) + ln P(max > 2000 | 14,000) = ln 0.1 - 867.78.
    let want = 0.1f64.ln() + fixed.ln_sf(2000);
    assert!(
        rel(d.ln_sf(2000), want) < 1e-14,
        "{} vs {want}",
        d.ln_sf(2000)
    );
    assert!(d.ln_sf(2000) < -860.0 && d.sf(2000) == 0.0);
    // Exactly 0 from the busiest second's count up.
    assert_eq!(d.ln_sf(14_000), f64::NEG_INFINITY);
}

/// The mean is linear in the law: E[max] = sum_n w_n E[max | n] (within
/// 1e-12 relative), and quantiles invert the mixed CDF (`CDF(c) >= q >
/// CDF(c - 1)`), for a wide law over few shards (inclusion-exclusion
/// components, on-demand rows at the bottom) and over many.
#[test]
fn mean_is_linear_and_quantiles_invert() {
    let table: Vec<(u64, u64)> = (0..41).map(|i| (2_000 + 50 * i, 1 + i % 3)).collect();
    let total: u64 = table.iter().map(|t| t.1).sum();
    for shards in [2u64, 5, 40] {
        let d = BusiestShard::new(1.0, shards, law(&table)).unwrap();
        let mean: f64 = table
            .iter()
            .map(|&(n, s)| {
                let f = BusiestShard::new(n as f64, shards, TrafficModel::Fixed).unwrap();
                f.mean() * s as f64 / total as f64
            })
            .sum();
        assert!(
            rel(d.mean(), mean) < 1e-12,
            "S={shards}: {} vs {mean}",
            d.mean()
        );
        for q in [1e-6, 0.01, 0.5, 0.999] {
            let c = d.quantile(q);
            assert!(d.cdf(c) >= q && d.cdf(c - 1) < q, "S={shards} q={q}: c={c}");
        }
    }
}
