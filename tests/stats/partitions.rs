//! Statistical checks of the partition math against direct seeded Monte
//! Carlo. Tolerances: 4 standard errors of the simulated mean (a false
//! failure about once in 16,000 runs per check; the seeds are fixed, so the
//! outcome is the same every run).

use crate::common::stats::Moments;
use rand::{RngExt, SeedableRng};
use rand_distr::{Distribution, Poisson};
use rand_xoshiro::Xoshiro256PlusPlus;
use shardplan::model::law::TrafficModel;
use shardplan::model::partitions::{
    busiest_mean_exact, expected_shared_partitions, p_shared_partition, PartitionPlan,
};

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
        .partition_p_over_cap_per_second
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
        .partition_p_over_cap_per_second
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

#[test]
fn hot_spell_risk_against_sampled_placements() {
    // The shared-partition risk over a 4 h spell at 14,000 likes/s, cap
    // 1,000, 1,000 partitions, Poisson traffic, against an independent
    // computation: seeded placements, each scored with the exact chance
    // 1 - prod_j P(Poisson(rate k_j / S) <= cap)^T from statrs (a different
    // Poisson CDF from the model's log-space one). Counts on both sides of
    // the failing band (33, 44, 48) and the reference 20. 4 SE of 40,000
    // placements (about 10% of the risk at 0.006).
    use shardplan::model::partitions::PartitionRisk;
    use statrs::distribution::{DiscreteCDF, Poisson as Pois};
    let (rate, cap, p, t) = (14_000.0, 1_000u64, 1_000u64, 14_400.0);
    let risk = PartitionRisk::new(rate, cap as f64, p, t, TrafficModel::Poisson).unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(42);
    for s in [20u64, 33, 44, 48] {
        let ok: Vec<f64> = (0..=s)
            .map(|k| match k {
                0 => 1.0,
                k => Pois::new(rate * k as f64 / s as f64)
                    .unwrap()
                    .cdf(cap)
                    .powf(t),
            })
            .collect();
        let mut m = Moments::default();
        for _ in 0..40_000 {
            let c = place(&mut rng, s, p);
            let none: f64 = c.iter().map(|&k| ok[k as usize]).product();
            m.add(1.0 - none);
        }
        m.assert_near(risk.at(s).p_any_over_cap, 4.0, &format!("{s} shards"));
    }
}
