//! The hottest partition against enumeration and drawing every partition;
//! the chance over the cap against the birthday bound and drawing every
//! partition; the work of a trial.

use rand_distr::StandardNormal;

use super::*;
use crate::model::fleet::tests::{three_reels, zipf_plan};
use crate::model::fleet::{Background, PinnedReel};
use statrs::distribution::{DiscreteCDF, Poisson};

/// P(Poisson(load) > cap) by statrs.
fn p_over(load: f64, cap: f64) -> f64 {
    match load > 0.0 {
        true => Poisson::new(load).unwrap().sf(cap as u64),
        false => 0.0,
    }
}

/// Exact E[max] for the three-reel fleet by listing the 2^5 placements of
/// its keys (300, 300, 150, 150, 100) on two partitions.
fn three_reels_busiest() -> f64 {
    let keys = [300.0, 300.0, 150.0, 150.0, 100.0];
    let mut max = 0.0;
    for mask in 0u32..32 {
        let mut load = [0.0f64; 2];
        for (j, r) in keys.iter().enumerate() {
            load[(mask >> j & 1) as usize] += r;
        }
        max += load[0].max(load[1]) / 32.0;
    }
    max
}

#[test]
fn three_reels_on_two_partitions_match_enumeration() {
    let plan = three_reels(600.0);
    let l = plan.partition_load(250.0, 2, 20_000);
    assert_eq!(l.shard_keys, 5);
    assert_eq!(l.explicit_keys, 5);
    assert_eq!(l.tail_keys, 0);
    assert_eq!(l.mean_partition_rate, 500.0);
    let max = three_reels_busiest();
    // Tolerance: 4 standard errors of the 20,000-placement mean.
    assert!((l.hottest_partition_rate - max).abs() < 4.0 * l.hottest_partition_rate_se);
    // By hand: the 32 splits give a busier side of 550 (8 times), 600 (6),
    // 700 (6), 750 (4), 850 (4), 900 (2), 1000 (2): mean 22,400 / 32 = 700.
    assert!((max - 700.0).abs() < 1e-9, "{max}");
}

#[test]
fn one_pinned_reel_is_bracketed_around_the_birthday_bound() {
    // 100 keys of 700 likes/s on 20,000 partitions, a background of 1 like/s:
    // a partition goes over 1,000 exactly when two keys share it, so the
    // chance is the birthday bound of `partitions::p_shared_partition`,
    // 0.2195, between the bound below (1 - (1 - a)^P = 0.2186, a = P(K >=
    // 2) for K ~ Binomial(100, 1 / 20,000)) and the union bound (P a =
    // 0.2467).
    let mut plan = zipf_plan(1000, 1.0, 1.0);
    plan.partitions = 20_000;
    plan.pinned = vec![PinnedReel {
        name: "post".into(),
        rate: 70_000.0,
        shards: Some(100),
    }];
    let l = plan.partition_load(300.0, 1, 2000);
    let want = crate::model::partitions::p_shared_partition(100, 20_000);
    assert!((want - 0.2195).abs() < 1e-4, "{want}");
    assert_eq!(l.exact_keys, 100);
    // The bounds by hand, to 1e-4; the background's draws move them by
    // far less.
    assert!(
        (l.partition_p_over_cap_lower - 0.2186).abs() < 1e-4,
        "{l:?}"
    );
    assert!(
        (l.partition_p_over_cap_per_second - 0.2467).abs() < 1e-4,
        "{l:?}"
    );
    assert!(l.partition_p_over_cap_lower <= want && want <= l.partition_p_over_cap_per_second);
}

/// The per-partition placement the aggregate replaced: every partition's
/// tail load drawn, every explicit key added, the busiest and P(over) over
/// all of them. Returns (mean, se) of P(over in a second) and of the busiest.
fn each_partition(plan: &FleetPlan, trials: u64) -> ((f64, f64), (f64, f64)) {
    use rand::SeedableRng;
    let layout = plan.layout(plan.threshold, plan.target_shards);
    let tail = plan.tail_only(&layout);
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(77);
    let (mut over, mut busiest) = (Vec::new(), Vec::new());
    for _ in 0..trials {
        let mut loads: Vec<f64> = (0..plan.partitions)
            .map(|_| (tail.mean + tail.sd * rng.sample::<f64, _>(StandardNormal)).max(0.0))
            .collect();
        for &(r, n) in &layout.groups {
            for _ in 0..n {
                loads[rng.random_range(0..plan.partitions) as usize] += r;
            }
        }
        let ln_ok: f64 = loads.iter().map(|&l| (-p_over(l, plan.cap)).ln_1p()).sum();
        over.push(-ln_ok.exp_m1());
        busiest.push(loads.iter().copied().fold(0.0, f64::max));
    }
    let mean_se = |x: &[f64]| {
        let n = x.len() as f64;
        let m = x.iter().sum::<f64>() / n;
        let var = x.iter().map(|v| (v - m).powi(2)).sum::<f64>() / (n - 1.0);
        (m, (var / n).sqrt())
    };
    (mean_se(&over), mean_se(&busiest))
}

#[test]
fn tail_only_partitions_in_aggregate_match_drawing_each_partition() {
    // 100,000 nearly flat Zipf reels (s = 0.1) on 5,000 partitions: the
    // 1,000 top ranks placed one by one touch about 900 partitions, the
    // other 4,100 carry only the tail (12 writes/s, sd 2.8), and both the
    // touched and the tail-only ones can be the busiest or go over a cap
    // of 35.
    let mut plan = zipf_plan(100_000, 60_000.0, 0.1);
    plan.partitions = 5_000;
    plan.cap = 35.0;
    plan.threshold = 1e6;
    let model = plan.partition_load(plan.threshold, plan.target_shards, 4_000);
    assert_eq!(model.explicit_keys, 1_000);
    let ((over, over_se), (hot, hot_se)) = each_partition(&plan, 1_000);
    assert!(over > 0.01 && over < 0.99, "a useful test point: {over}");
    // The bracket holds the chance of drawing every partition, within 4
    // combined standard errors: a false alarm about 1 in 16,000 runs.
    let tol = 4.0 * (over_se.powi(2) + model.partition_p_over_cap_se.powi(2)).sqrt();
    assert!(
        model.partition_p_over_cap_lower - tol <= over
            && over <= model.partition_p_over_cap_per_second + tol,
        "P(over): each partition {over} vs {model:?} (tol {tol})"
    );
    let tol = 4.0 * (hot_se.powi(2) + model.hottest_partition_rate_se.powi(2)).sqrt();
    assert!(
        (model.hottest_partition_rate - hot).abs() < tol,
        "busiest: {} vs each partition {hot} (tol {tol})",
        model.hottest_partition_rate
    );
}

#[test]
fn the_work_of_a_trial_counts_its_keys_partitions_and_tails() {
    // 1e8 Zipf reels on 1e6 partitions: 1,000 keys, about as many touched
    // partitions; the top key summed exactly (its two counts, 0 and 1,
    // two Poisson tails), the other 999 drawn, 999 / 1e6 of them a draw.
    let mut plan = zipf_plan(100_000_000, 2_314.8, 1.0);
    plan.partitions = 1_000_000;
    plan.threshold = 300.0;
    let w = plan.placement_work();
    assert_eq!(w.keys, 1_000);
    assert!((w.touched - 999.5).abs() < 0.1, "{w:?}");
    assert!((w.rest_keys - 999e-6).abs() < 1e-12, "{w:?}");
    assert_eq!((w.terms, w.draws), (2, plan.trials));
    // One reel alone: nothing to draw.
    let mut plan = three_reels(600.0);
    plan.background = Background::rates(vec![600.0]).unwrap();
    let w = plan.placement_work();
    assert_eq!((w.keys, w.rest_keys, w.draws), (2, 0.0, 0));
    // One trial asked for: two draws, for a standard error.
    plan.background = Background::rates(vec![600.0, 10.0]).unwrap();
    plan.trials = 1;
    assert_eq!(plan.placement_work().draws, 2);
}
