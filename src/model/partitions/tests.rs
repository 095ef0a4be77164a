use statrs::distribution::{DiscreteCDF, Poisson};

use super::*;
use crate::model::law::TrafficModel;

/// E[max] and P(shared) by listing all P^S placements.
fn brute(s: u32, p: u64) -> (f64, f64, f64) {
    let total = p.pow(s);
    let (mut max_sum, mut shared, mut shared_parts) = (0u64, 0u64, 0u64);
    for code in 0..total {
        let mut counts = vec![0u64; p as usize];
        let mut c = code;
        for _ in 0..s {
            counts[(c % p) as usize] += 1;
            c /= p;
        }
        let max = *counts.iter().max().unwrap();
        max_sum += max;
        shared += u64::from(max >= 2);
        shared_parts += counts.iter().filter(|&&k| k >= 2).count() as u64;
    }
    let t = total as f64;
    (
        max_sum as f64 / t,
        shared as f64 / t,
        shared_parts as f64 / t,
    )
}

#[test]
fn exact_matches_enumeration() {
    for (s, p) in [
        (1, 1),
        (2, 2),
        (3, 4),
        (4, 3),
        (5, 5),
        (6, 2),
        (7, 3),
        (4, 10),
    ] {
        let (mean_max, shared, parts) = brute(s, p);
        let s = u64::from(s);
        assert!(
            (busiest_mean_exact(s, p) - mean_max).abs() < 1e-12,
            "{s} {p}"
        );
        assert!((p_shared_partition(s, p) - shared).abs() < 1e-12, "{s} {p}");
        assert!(
            (expected_shared_partitions(s, p) - parts).abs() < 1e-12,
            "{s} {p}"
        );
    }
}

#[test]
fn closed_forms() {
    // Two shards: share with chance 1/P; busiest mean 1 + 1/P.
    assert!((p_shared_partition(2, 10) - 0.1).abs() < 1e-15);
    assert!((busiest_mean_exact(2, 10) - 1.1).abs() < 1e-13);
    assert_eq!(p_shared_partition(21, 20), 1.0);
    assert_eq!(busiest_mean_exact(5, 1), 5.0);
    // Huge P: C(2,2)/P without cancellation.
    let e = expected_shared_partitions(2, 1_000_000_000);
    assert!((e - 1e-9).abs() < 1e-22, "{e}");
    assert!((p_shared_partition(2, 1_000_000_000) - 1e-9).abs() < 1e-22);
    // Birthday: 23 people, 365 days: 0.5072972343239854.
    assert!((p_shared_partition(23, 365) - 0.507_297_234_323_985_4).abs() < 1e-13);
    assert!((expected_occupied_partitions(1, 7) - 1.0).abs() < 1e-14);
}

#[test]
fn twenty_shards_ten_partitions() {
    let r = PartitionPlan::new(20, 10).unwrap().evaluate();
    assert_eq!(r.method, Method::Exact);
    assert_eq!(r.p_shared_partition, 1.0);
    // P * (1 - 0.9^20 - 20/10 * 0.9^19)
    let closed = 10.0 * (1.0 - 0.9f64.powi(20) - 2.0 * 0.9f64.powi(19));
    assert!((r.expected_shared_partitions - closed).abs() < 1e-12);
    assert!(r.busiest_partition_mean_shards > 4.0 && r.busiest_partition_mean_shards < 6.0);
}

#[test]
fn cap_chance_limits() {
    // One partition takes everything: over iff rate > cap.
    let r = PartitionPlan::new(4, 1)
        .unwrap()
        .with_load(1200.0, 1000.0, TrafficModel::Fixed)
        .unwrap()
        .evaluate();
    assert!((r.partition_p_over_cap_per_second.unwrap() - 1.0).abs() < 1e-12);
    let r = PartitionPlan::new(4, 1)
        .unwrap()
        .with_load(900.0, 1000.0, TrafficModel::Fixed)
        .unwrap()
        .evaluate();
    assert!(r.partition_p_over_cap_per_second.unwrap().abs() < 1e-12);
    // One shard on one of P partitions: over iff Poisson(rate) > cap.
    let r = PartitionPlan::new(1, 20)
        .unwrap()
        .with_load(950.0, 1000.0, TrafficModel::Poisson)
        .unwrap()
        .evaluate();
    let direct = Poisson::new(950.0).unwrap().sf(1000);
    assert!((r.partition_p_over_cap_per_second.unwrap() - direct).abs() < 1e-12);
}

#[test]
fn monte_carlo_path_agrees_with_exact_path() {
    // The same plan both ways: the Monte Carlo busiest mean within 4
    // standard errors of the exact one (a false failure about once in
    // 16,000 runs; the seed is fixed, so the outcome is the same every run).
    // The cap chance is the same exact figure on both paths.
    let plan = PartitionPlan::new(20, 20)
        .unwrap()
        .with_load(9000.0, 1000.0, TrafficModel::Poisson)
        .unwrap();
    let exact = plan.evaluate_by(Method::Exact);
    let mc = plan
        .with_trials(40_000)
        .unwrap()
        .with_seed(3)
        .evaluate_by(Method::MonteCarlo);
    assert_eq!(mc.method, Method::MonteCarlo);
    let tol = 4.0 * mc.busiest_partition_mean_shards_se;
    assert!((mc.busiest_partition_mean_shards - exact.busiest_partition_mean_shards).abs() <= tol);
    let e = exact.partition_p_over_cap_per_second.unwrap();
    assert_eq!(mc.partition_p_over_cap_per_second, Some(e));
    assert!(e > 0.05 && e < 0.95, "intermediate case: {e}");
}

#[test]
fn input_errors() {
    assert_eq!(PartitionPlan::new(0, 4).unwrap_err().param, "shards");
    assert_eq!(PartitionPlan::new(4, 0).unwrap_err().param, "partitions");
    let p = PartitionPlan::new(4, 4).unwrap();
    assert_eq!(
        p.clone()
            .with_load(10.5, 100.0, TrafficModel::Fixed)
            .unwrap_err()
            .param,
        "rate"
    );
    assert_eq!(
        p.with_load(10.0, 0.0, TrafficModel::Poisson)
            .unwrap_err()
            .param,
        "cap"
    );
}

#[test]
fn assumptions_follow_the_traffic() {
    let plan = PartitionPlan::new(4, 4).unwrap();
    let r = plan.evaluate();
    assert_eq!(r.assumptions, [PartitionAssumption::UniformHashing]);
    for (traffic, loads) in [
        (
            TrafficModel::Fixed,
            PartitionAssumption::BinomialLoadsUpperBound,
        ),
        (TrafficModel::Poisson, PartitionAssumption::PoissonLoads),
    ] {
        let r = plan
            .clone()
            .with_load(100.0, 50.0, traffic)
            .unwrap()
            .evaluate();
        assert_eq!(r.assumptions, [PartitionAssumption::UniformHashing, loads]);
    }
    let json = serde_json::to_value(&r).unwrap();
    assert_eq!(json["assumptions"], serde_json::json!(["uniform_hashing"]));
}

#[test]
fn the_busiest_shard_law_gives_the_busiest_partition() {
    // Both exact methods on the same placements (S keys over P partitions
    // is Multinomial(S; 1/P, ...)): bins_expectation's sums (pmf terms cut
    // at 1e-20) and the busiest-shard table agree to 1e-9 relative.
    for (s, p) in [(1_000u64, 20u64), (600, 1_000), (999, 7), (1_000, 100_000)] {
        let sums = busiest_mean_exact(s, p);
        let law = busiest_mean_multinomial(s, p);
        assert!(
            (sums / law - 1.0).abs() < 1e-9,
            "{s} over {p}: {sums} vs {law}"
        );
    }
    // Past 1,000 shards the figures stay exact...
    let r = PartitionPlan::new(5_000, 1_000).unwrap().evaluate();
    assert_eq!(r.method, Method::Exact);
    assert_eq!(r.trials, None);
    // ...and Monte Carlo agrees within 4 standard errors (fixed seed).
    let mc = PartitionPlan::new(5_000, 1_000)
        .unwrap()
        .with_trials(4_000)
        .unwrap()
        .with_seed(5)
        .evaluate_by(Method::MonteCarlo);
    let tol = 4.0 * mc.busiest_partition_mean_shards_se;
    let gap = (mc.busiest_partition_mean_shards - r.busiest_partition_mean_shards).abs();
    assert!(gap <= tol, "{gap} > {tol}");
    // Past MAX_SHARDS partitions, Monte Carlo.
    let big = PartitionPlan::new(5_000, 1_000_000).unwrap().evaluate();
    assert_eq!(big.method, Method::MonteCarlo);
}

/// The doubling over every count, as before the windows: each step summed
/// at 0..=S.
fn bins_expectation_every_count(p: u64, f: &[f64]) -> f64 {
    let s = f.len() - 1;
    let ln_fact = super::busiest::ln_factorials(s);
    let mut cur = f.to_vec();
    let mut m: u64 = 1;
    for bit in (0..(63 - p.leading_zeros())).rev() {
        cur = super::busiest::combine(&cur, m, &cur, m, &ln_fact, (0, s));
        m *= 2;
        if (p >> bit) & 1 == 1 {
            cur = super::busiest::combine(&cur, m, f, 1, &ln_fact, (0, s));
            m += 1;
        }
    }
    cur[s]
}

/// The windowed doubling gives the same bits as the doubling over every
/// count: weights that fall from 1 to 0 (a partition's chance to stay
/// under the cap, exactly 0 from some count on or never), steps and
/// indicators, from 1 to 5,000 partitions and 1 to 3,000 shards.
#[test]
fn the_windows_leave_the_expectation_bit_for_bit() {
    let mut checked = 0;
    for &s in &[1usize, 2, 7, 40, 333, 1_000, 3_000] {
        for &p in &[1u64, 2, 3, 10, 97, 100, 1_000, 5_000] {
            let tails: [&dyn Fn(usize) -> f64; 4] = [
                &|k| (-((k as f64) / (s as f64 / p as f64 + 3.0)).powi(3)).exp(),
                &|k| if k <= 2 { 1.0 } else { 0.0 },
                &|k| 1.0 - 1e-9 * k as f64,
                &|k| {
                    if k * p as usize > 3 * s {
                        0.0
                    } else {
                        1.0 - 1e-3 * k as f64
                    }
                },
            ];
            for f in tails {
                let w: Vec<f64> = (0..=s).map(|k| f(k).clamp(0.0, 1.0)).collect();
                let (got, want) = (bins_expectation(p, &w), bins_expectation_every_count(p, &w));
                assert_eq!(
                    got.to_bits(),
                    want.to_bits(),
                    "S {s} P {p}: {got} vs {want}"
                );
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 7 * 8 * 4);
}

/// The weights are asked for only where the sums read them: 16,036 shards
/// over 100 partitions read a window of under 2,000 counts, and the
/// answer is the same bits as with every weight given.
#[test]
fn only_the_window_of_weights_is_computed() {
    let (s, p) = (16_036usize, 100u64);
    let f = |k: usize| (-((k as f64) / 200.0).powi(6)).exp();
    let asked = std::cell::Cell::new(0);
    let lazy = super::busiest::bins_expectation_by(p, s, |k| {
        asked.set(asked.get() + 1);
        f(k)
    });
    let w: Vec<f64> = (0..=s).map(f).collect();
    assert_eq!(
        lazy.to_bits(),
        bins_expectation_every_count(p, &w).to_bits()
    );
    assert!(asked.get() < 2_000, "{} weights asked", asked.get());
}
