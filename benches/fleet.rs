//! `fleet` at its largest Zipf table: 1e8 reels on 1e6 partitions (the
//! defaults otherwise: 2,314.8 likes/s, threshold 300, 20 shards, cap
//! 1,000): the report's 400 placements, and the whole report with its
//! search; and the interview scenario's plan search (one post of 200,000
//! likes/s over 1,000 partitions, 10,000,000 Zipf reels), issue 37's case.

use criterion::{criterion_group, criterion_main, Criterion};
use shardplan::model::fleet::{Background, FleetPlan, PinnedReel};
use shardplan::model::read_cost::ReadPlan;

fn plan() -> FleetPlan {
    FleetPlan {
        background: Background::zipf(100_000_000, 1e8 / 86_400.0 * 2.0, 1.0).unwrap(),
        pinned: vec![],
        views_per_like: 10.0,
        threshold: 300.0,
        target_shards: 20,
        partitions: 1_000_000,
        cap: 1_000.0,
        safe: 700.0,
        reads: ReadPlan::new(1.0, 40, 2.0, Some(100), Some(3_000.0)).unwrap(),
        seconds: 4 * 3_600,
        risk: 0.01,
        trials: 400,
        max_shards: 4_096,
        seed: 2026,
    }
}

fn fleet(c: &mut Criterion) {
    let plan = plan();
    let mut g = c.benchmark_group("fleet 1e8 reels on 1e6 partitions");
    g.sample_size(10);
    g.bench_function("400 placements", |b| {
        b.iter(|| plan.partition_load(plan.threshold, plan.target_shards, plan.trials))
    });
    g.bench_function("the whole report", |b| b.iter(|| plan.evaluate()));
    g.finish();
}

/// `scenarios/interview.toml`'s fleet: what `fleet --scenario interview`
/// searches.
fn interview() -> FleetPlan {
    FleetPlan {
        background: Background::zipf(10_000_000, 1e8 / 86_400.0 * 2.0, 1.0).unwrap(),
        pinned: vec![PinnedReel {
            name: "post".into(),
            rate: 200_000.0,
            shards: None,
        }],
        views_per_like: 864.0,
        partitions: 1_000,
        seconds: 3_600,
        ..plan()
    }
}

fn interview_search(c: &mut Criterion) {
    let plan = interview();
    let mut g = c.benchmark_group("fleet interview");
    g.sample_size(10);
    g.bench_function("plan search", |b| b.iter(|| plan.search()));
    g.finish();
}

criterion_group!(benches, fleet, interview_search);
criterion_main!(benches);
