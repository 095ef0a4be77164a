//! Statistical checks of the partition math against direct seeded Monte
//! Carlo. Tolerances: 4 standard errors of the simulated mean (a false
//! failure about once in 16,000 runs per check; the seeds are fixed, so the
//! outcome is the same every run).

mod common;

use common::stats::Moments;
use rand::{RngExt, SeedableRng};
use rand_distr::{Distribution, Poisson};
use rand_xoshiro::Xoshiro256PlusPlus;
use shardplan::model::partitions::{
    busiest_mean_exact, expected_shared_partitions, p_shared_partition, PartitionPlan,
};
use shardplan::model::traffic::TrafficModel;

fn place(rng: &mut Xoshiro256PlusPlus, s: u64, p: u64) -> Vec<u64> {
    let mut counts = vec![0u64; p as usize];
    for _ in 0..s {
        counts[rng.random_range(0..p) as usize] += 1;
    }
    counts
}

#[test]
fn birthday_and_busiest_against_simulation() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    for (s, p) in [(20u64, 10u64), (10, 20), (20, 1000), (30, 8)] {
        let (mut shared, mut parts, mut max) =
            (Moments::default(), Moments::default(), Moments::default());
        for _ in 0..40_000 {
            let c = place(&mut rng, s, p);
            let m = *c.iter().max().unwrap();
            shared.add(f64::from(u8::from(m >= 2)));
            parts.add(c.iter().filter(|&&k| k >= 2).count() as f64);
            max.add(m as f64);
        }
        if s <= p {
            shared.assert_near(p_shared_partition(s, p), 4.0, "p_shared");
        }
        parts.assert_near(expected_shared_partitions(s, p), 4.0, "expected_shared");
        max.assert_near(busiest_mean_exact(s, p), 4.0, "busiest mean");
    }
}

#[test]
fn poisson_cap_chance_against_simulated_seconds() {
    // Simulate placements and one second of Poisson likes per partition.
    let (s, p, rate, cap) = (20u64, 20u64, 9000.0, 1000.0);
    let exact = PartitionPlan::new(s, p)
        .unwrap()
        .with_load(rate, cap, TrafficModel::Poisson)
        .unwrap()
        .evaluate()
        .p_partition_over_cap_per_second
        .unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
    let mut over = Moments::default();
    for _ in 0..40_000 {
        let c = place(&mut rng, s, p);
        let hit = c.iter().filter(|&&k| k > 0).any(|&k| {
            let load: f64 = Poisson::new(rate * k as f64 / s as f64)
                .unwrap()
                .sample(&mut rng);
            load > cap
        });
        over.add(f64::from(u8::from(hit)));
    }
    over.assert_near(exact, 4.0, "poisson over-cap");
}

#[test]
fn fixed_cap_chance_is_an_upper_bound() {
    // Fixed traffic: each like picks a shard; partition loads are multinomial.
    let (s, p, rate, cap) = (8u64, 8u64, 800u64, 150.0);
    let bound = PartitionPlan::new(s, p)
        .unwrap()
        .with_load(rate as f64, cap, TrafficModel::Fixed)
        .unwrap()
        .evaluate()
        .p_partition_over_cap_per_second
        .unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    let mut over = Moments::default();
    for _ in 0..20_000 {
        let part: Vec<u64> = (0..s).map(|_| rng.random_range(0..p)).collect();
        let mut load = vec![0u64; p as usize];
        for _ in 0..rate {
            load[part[rng.random_range(0..s) as usize] as usize] += 1;
        }
        over.add(f64::from(u8::from(load.iter().any(|&l| l as f64 > cap))));
    }
    assert!(
        over.mean() <= bound + 4.0 * over.se(),
        "{} vs {bound}",
        over.mean()
    );
    // ... and a close one: within 2 percentage points here.
    assert!(bound - over.mean() < 0.02, "{} vs {bound}", over.mean());
}
