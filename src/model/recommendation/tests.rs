use super::*;
use crate::model::law::TrafficModel::{Fixed, Poisson};
use crate::model::sizing::SafeRate;

const H4: f64 = 14_400.0;

fn inputs(peak: f64, cap: f64, safe: f64) -> PlanInputs {
    PlanInputs {
        sizing: SizingPlan::new(peak, cap, SafeRate::PerKey(safe)).unwrap(),
        risk: None,
        key_check: target(0.01, Fixed),
        partitions: None,
        nodes: None,
        reads: ReadPlan::new(50_000.0, 40, 2.0, Some(100), Some(3_000.0)).unwrap(),
        store: None,
        write_cost: None,
        writers: crate::model::picker::Writers::random(40),
    }
}

fn target(risk: f64, traffic: TrafficModel) -> RiskTarget {
    RiskTarget {
        risk,
        seconds: H4,
        traffic,
    }
}

#[test]
fn rule_of_thumb_binds_without_a_risk() {
    let rec = inputs(14_000.0, 1_000.0, 700.0).recommend().unwrap();
    assert_eq!((rec.shards, rec.binding), (20, Binding::RuleOfThumb));
    assert_eq!(rec.rule_of_thumb_shards, 20);
    // The default per-key check (1% over 4 h) is met from 17 shards: the
    // rule of thumb's 20 stand.
    assert_eq!(
        (rec.key_risk_shards, rec.partition_shards),
        (Some(17), None)
    );
    assert_eq!(rec.margin, 0.0); // 20 x 700 = 14,000
    assert!(rec.holds && rec.fails.is_empty());
    assert_eq!(rec.capacity_rate, None);
    // Only the note that the cache keeps reads within the read cap: one
    // uncached view reads every shard, 50,000/s on each against 3,000.
    assert_eq!(
        rec.warnings,
        vec![Warning::UncachedOverReadCap {
            reads_per_shard: 50_000.0,
            read_cap: 3_000.0
        }]
    );
}

#[test]
fn key_risk_binds_with_a_risk_and_the_capacity_solves_back() {
    let mut i = inputs(14_000.0, 1_000.0, 700.0);
    i.risk = Some(target(0.01, Fixed));
    i.key_check = target(0.01, Fixed);
    let rec = i.recommend().unwrap();
    // 17 shards: P(any second over 1,000 in 4 h) = 8.6e-5; 16 fail it.
    assert_eq!((rec.shards, rec.binding), (17, Binding::KeyRisk));
    assert_eq!(
        (rec.rule_of_thumb_shards, rec.key_risk_shards),
        (20, Some(17))
    );
    let p = rec.worst_p_any_over_cap.unwrap();
    assert!((p - 8.590e-5).abs() < 1e-8, "{p}");
    // The capacity: the last whole rate within 1%, the next one over it.
    let c = rec.capacity_rate.unwrap();
    assert_eq!(c, c.floor());
    let at = |rate: f64| {
        crate::model::exact::ln_p_any_over_cap(rate, 17, 1_000.0, H4, Fixed)
            .unwrap()
            .exp()
    };
    assert!(
        at(c) <= 0.01 && at(c + 1.0) > 0.01,
        "{c}: {} {}",
        at(c),
        at(c + 1.0)
    );
    assert!((rec.margin - (c / 14_000.0 - 1.0)).abs() < 1e-12);
}

#[test]
fn poisson_capacity_solves_back_to_the_target() {
    let mut i = inputs(14_000.0, 1_000.0, 700.0);
    i.risk = Some(target(0.01, Poisson));
    i.key_check = target(0.01, Poisson);
    let rec = i.recommend().unwrap();
    let c = rec.capacity_rate.unwrap();
    let p = crate::model::exact::ln_p_any_over_cap(c, rec.shards, 1_000.0, H4, Poisson)
        .unwrap()
        .exp();
    // Bisected to 1e-12 relative: the risk there is the target to ~1e-6.
    assert!((p - 0.01).abs() < 1e-6, "{c}: {p}");
}

#[test]
fn shared_partitions_bind_in_a_hashed_store_with_no_preset() {
    // The non-monotone case of the partition tests: the per-key floor is
    // far below, the fewest meeting the partition risk is 33, 41..=47 fail
    // and 48 is stable.
    let mut i = inputs(14_000.0, 1_000.0, 700.0);
    i.risk = Some(target(0.01, Poisson));
    i.key_check = target(0.01, Poisson);
    i.partitions = Some(SharedPartitions {
        partitions: 1_000,
        cap: 1_000.0,
        target: target(0.01, Poisson),
    });
    let rec = i.recommend().unwrap();
    assert_eq!((rec.shards, rec.binding), (33, Binding::SharedPartitions));
    assert!(rec.key_risk_shards.unwrap() < 33);
    assert_eq!(rec.partition_shards, Some(33));
    assert_eq!(rec.partition_shards_stable, Some(48));
    assert_eq!(rec.partition_failing, vec![[41, 47]]);
    assert_eq!(rec.partition_binds, Some(true));
    assert!(rec.worst_p_any_over_cap.unwrap() <= 0.01);
    assert!(rec
        .warnings
        .iter()
        .any(|w| matches!(w, Warning::FailingBand { .. })));
    // The capacity at 33 shards meets the partition risk too, and just above it fails.
    let c = rec.capacity_rate.unwrap();
    let pr = |rate: f64| PartitionRisk::new(rate, 1_000.0, 1_000, H4, Poisson).unwrap();
    assert!(
        pr(c).meets(33, 0.01) && !pr(c * (1.0 + 1e-6)).meets(33, 0.01),
        "{c}"
    );
    // The reference 20 shards fail it: one time in six two share a partition.
    let e = i.evaluate(20, &i.recommend().unwrap()).unwrap();
    assert!(!e.holds);
    assert_eq!(
        e.fails,
        vec![crate::model::verdict::Check::SharedPartitions]
    );
    assert!((e.partition_p_any_over_cap.unwrap() - 0.1741).abs() < 1e-3);
}

#[test]
fn dynamodb_adaptive_capacity_makes_the_partition_risk_a_warning() {
    let mut i = inputs(14_000.0, 1_000.0, 700.0);
    i.store = Some(Store::Dynamodb);
    i.partitions = Some(SharedPartitions {
        partitions: 1_000,
        cap: 1_000.0,
        target: target(0.01, Fixed),
    });
    let rec = i.recommend().unwrap();
    assert_eq!((rec.shards, rec.binding), (20, Binding::RuleOfThumb));
    assert_eq!(rec.partition_binds, Some(false));
    assert!(rec.holds);
    assert!(rec.warnings.iter().any(|w| matches!(
        w,
        Warning::PartitionRiskAfterGrow { p_any_over_cap, .. } if *p_any_over_cap > 0.17
    )));
}

#[test]
fn transactional_writes_halve_the_cap() {
    // DynamoDB writes a transactional item twice: 500 likes/s per key, safe 350.
    let mut i = inputs(14_000.0, 500.0, 350.0);
    i.write_cost = Some(2.0);
    let rec = i.recommend().unwrap();
    assert_eq!(rec.shards, 40);
    assert_eq!(rec.cap_per_key, 500.0);
}

#[test]
fn reads_and_store_limits_are_warnings_naming_the_fix() {
    let mut i = inputs(200_000.0, 1_000.0, 700.0);
    i.reads = ReadPlan::new(1_000_000.0, 40, 0.0, Some(100), Some(3_000.0)).unwrap();
    i.store = Some(Store::Dynamodb);
    let rec = i.recommend().unwrap();
    assert_eq!(rec.shards, 286);
    let w = &rec.warnings;
    // No cache: 1,000,000 reads/s per shard against 3,000; 40 servers need 40 / 3,000 s.
    assert!(w.contains(&Warning::ReadCap {
        reads_per_shard: 1_000_000.0,
        read_cap: 3_000.0,
        cache_seconds_needed: 40.0 / 3_000.0,
    }));
    // 286 shards: three batch reads of 100 per sum.
    assert!(w.contains(&Warning::BatchesPerSum {
        batches: 3,
        batch_size: 100
    }));
    // 200,000 write units/s against the table's default quota of 40,000.
    assert!(w
        .iter()
        .any(|x| matches!(x, Warning::StoreLimit { value, .. } if *value == 200_000.0)));
}

#[test]
fn the_default_key_check_raises_a_rule_of_thumb_that_leaves_too_little_headroom() {
    // 2% headroom: ceil(14,000 / 980) = 15 shards, a mean of 933 a shard;
    // P(any second over 1,000 in 4 h) at 15 is about 1, so the default
    // check (1%) sets the count: 17, as sizing by --risk 0.01 gives.
    let i = inputs(14_000.0, 1_000.0, 980.0);
    let rec = i.recommend().unwrap();
    assert_eq!(rec.rule_of_thumb_shards, 15);
    assert_eq!((rec.shards, rec.binding), (17, Binding::KeyRisk));
    assert!(rec.holds);
    let at_rule = i.evaluate(15, &i.recommend().unwrap()).unwrap();
    assert!(!at_rule.holds);
    assert_eq!(at_rule.fails, vec![crate::model::verdict::Check::KeyRisk]);
    let v = at_rule.verdict(rec.shards, 14_000.0);
    assert!(!v.holds);
    assert_eq!(v.recommended_shards, 17);
}

#[test]
fn every_constraint_is_listed_and_a_read_cap_over_fails() {
    use crate::model::verdict::{Check, Status};
    let mut i = inputs(14_000.0, 1_000.0, 700.0);
    let rec = i.recommend().unwrap();
    let checks: Vec<_> = rec
        .constraints
        .iter()
        .map(|c| (c.check, c.status))
        .collect();
    assert_eq!(
        checks,
        vec![
            (Check::RuleOfThumb, Status::Holds),
            (Check::KeyRisk, Status::Holds),
            (Check::ReadCap, Status::Holds),
        ]
    );
    // No cache: 50,000 reads/s on each key against a read cap of 3,000.
    i.reads = ReadPlan::new(50_000.0, 40, 0.0, Some(100), Some(3_000.0)).unwrap();
    let e = i.evaluate(20, &i.recommend().unwrap()).unwrap();
    assert_eq!(e.fails, vec![Check::ReadCap]);
    let c = e
        .constraints
        .iter()
        .find(|c| c.check == Check::ReadCap)
        .unwrap();
    assert_eq!((c.figure, c.limit), (50_000.0, 3_000.0));
}
