//! Seeded Monte Carlo checks of the fleet's partition model against brute
//! force: every shard key placed one by one (no Normal tail), and every
//! second's writes drawn as Poisson counts (no closed-form tail).

use crate::common::stats::mean_se;
use rand::{RngExt, SeedableRng};
use rand_distr::{Distribution, Poisson};
use rand_xoshiro::Xoshiro256PlusPlus;
use shardplan::model::fleet::{Background, FleetPlan};
use shardplan::model::read_cost::ReadPlan;
use statrs::distribution::{DiscreteCDF, Poisson as PoissonLaw};

/// P(Poisson(load) > cap) by statrs.
fn p_over(load: f64, cap: f64) -> f64 {
    match load > 0.0 {
        true => PoissonLaw::new(load).unwrap().sf(cap as u64),
        false => 0.0,
    }
}

const REELS: u64 = 50_000;
const TOTAL: f64 = 5_000.0;
const ZIPF: f64 = 0.8;
const PARTITIONS: u64 = 10;
const CAP: f64 = 700.0;

fn plan(trials: u64) -> FleetPlan {
    FleetPlan {
        background: Background::zipf(REELS, TOTAL, ZIPF).unwrap(),
        pinned: vec![],
        views_per_like: 1.0,
        // No reel reaches it: every reel is one key.
        threshold: 1e6,
        target_shards: 20,
        partitions: PARTITIONS,
        cap: CAP,
        safe: 700.0,
        reads: ReadPlan::new(1.0, 40, 2.0, Some(100), Some(3000.0)).unwrap(),
        seconds: 3600,
        risk: 0.01,
        trials,
        max_shards: 64,
        seed: 99,
    }
}

#[test]
fn normal_tail_matches_placing_every_key() {
    let model = plan(4000).partition_load(1e6, 20, 4000);
    // 1,000 top ranks placed one by one, 49,000 in the tail.
    assert_eq!(model.explicit_keys, 1000);
    assert_eq!(model.tail_keys, 49_000);

    let bg = Background::zipf(REELS, TOTAL, ZIPF).unwrap();
    let rates: Vec<f64> = (1..=REELS).map(|i| bg.rate(i)).collect();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(12345);
    let (mut over, mut hottest) = (Vec::new(), Vec::new());
    let mut seconds_over = 0u64;
    let mut seconds_total = 0u64;
    let mut conditional_sum = 0.0;
    for placement in 0..1500 {
        let mut loads = vec![0.0f64; PARTITIONS as usize];
        for &r in &rates {
            loads[rng.random_range(0..PARTITIONS) as usize] += r;
        }
        let ok: f64 = loads.iter().map(|&l| 1.0 - p_over(l, CAP)).product();
        over.push(1.0 - ok);
        hottest.push(loads.iter().copied().fold(0.0, f64::max));
        // The Poisson step: draw 20 seconds of writes per partition and
        // count seconds with some partition over the cap.
        if placement < 500 {
            conditional_sum += 20.0 * (1.0 - ok);
            for _ in 0..20 {
                let any = loads
                    .iter()
                    .any(|&l| Poisson::new(l).unwrap().sample(&mut rng) > CAP);
                seconds_over += any as u64;
                seconds_total += 1;
            }
        }
    }
    let (b_over, b_over_se) = mean_se(&over);
    let (b_hot, b_hot_se) = mean_se(&hottest);
    // The model's bracket holds the brute force's chance within 4 combined
    // standard errors: a false alarm about 1 in 16,000 runs.
    let tol = 4.0 * (b_over_se.powi(2) + model.partition_p_over_cap_se.powi(2)).sqrt();
    assert!(
        model.partition_p_over_cap_lower - tol <= b_over
            && b_over <= model.partition_p_over_cap_per_second + tol,
        "P(over): model {:?} vs brute {b_over} (tol {tol})",
        [
            model.partition_p_over_cap_lower,
            model.partition_p_over_cap_per_second
        ]
    );
    assert!(
        b_over > 0.01 && b_over < 0.9,
        "a useful test point: {b_over}"
    );
    let tol = 4.0 * (b_hot_se.powi(2) + model.hottest_partition_rate_se.powi(2)).sqrt();
    assert!(
        (model.hottest_partition_rate - b_hot).abs() < tol,
        "hottest: model {} vs brute {b_hot} (tol {tol})",
        model.hottest_partition_rate
    );
    // Seconds over the cap vs the exact conditional chance, over the same
    // placements: the count is a sum of Bernoullis with those chances, so
    // its variance is at most the expected count.
    let expected = conditional_sum;
    let got = seconds_over as f64;
    assert!(
        (got - expected).abs() < 4.0 * expected.sqrt().max(1.0),
        "{got} seconds over in {seconds_total}, expected {expected}"
    );
}

#[test]
fn tail_mean_and_spread_match_the_multinomial() {
    let model = plan(200).partition_load(1e6, 20, 200);
    let bg = Background::zipf(REELS, TOTAL, ZIPF).unwrap();
    let tail: Vec<f64> = (1001..=REELS).map(|i| bg.rate(i)).collect();
    let p = PARTITIONS as f64;
    let mean = tail.iter().sum::<f64>() / p;
    let var = tail.iter().map(|r| r * r).sum::<f64>() * (1.0 / p) * (1.0 - 1.0 / p);
    assert!((model.tail_partition_mean - mean).abs() < 1e-9 * mean);
    assert!((model.tail_partition_sd - var.sqrt()).abs() < 1e-9 * var.sqrt());
    // And the empirical spread of partition 0's tail load over placements.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    let draws: Vec<f64> = (0..2000)
        .map(|_| {
            tail.iter()
                .filter(|_| rng.random_range(0..PARTITIONS) == 0)
                .sum()
        })
        .collect();
    let (m, se) = mean_se(&draws);
    assert!((m - mean).abs() < 4.0 * se, "{m} vs {mean}");
    let sd = (draws.iter().map(|x| (x - m).powi(2)).sum::<f64>() / 1999.0).sqrt();
    // The sample sd of 2,000 near-Normal draws has a relative SE of 1/sqrt(2 x 1999) = 1.6%.
    assert!(
        (sd / var.sqrt() - 1.0).abs() < 4.0 * 0.0159,
        "{sd} vs {}",
        var.sqrt()
    );
}
