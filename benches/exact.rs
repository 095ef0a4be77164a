//! Time to build the exact busiest-shard distribution and every risk figure
//! (`Risk::compute`): the default case, the large 200,000/s case, issue 18's
//! 1e8 likes/s over 3, 5, 20 and 1,000 shards, 1e9 over 4 and 10 (the
//! second session's inclusion-exclusion), the one-point over-cap figure
//! `compare` uses, and a sweep of shard counts. The table's cost per value
//! of `c` is the time over `table_range` (printed once per case).

use criterion::{criterion_group, criterion_main, Criterion};
use shardplan::model::exact::{sweep, BusiestShard, OverCap, Risk};
use shardplan::model::law::TrafficModel;

fn risk(c: &mut Criterion) {
    let mut g = c.benchmark_group("risk_compute");
    g.sample_size(10);
    for &(rate, shards) in &[
        (14_000.0, 20u64),
        (200_000.0, 286),
        (1e8, 3),
        (1e8, 5),
        (1e8, 20),
        (1e8, 1_000),
        (1e9, 4),
        (1e9, 10),
    ] {
        for model in [TrafficModel::Fixed, TrafficModel::Poisson] {
            let (lo, hi) = BusiestShard::new(rate, shards, model)
                .unwrap()
                .table_range();
            let name = format!(
                "{rate}/s over {shards} ({}, {} c)",
                model.name(),
                hi - lo + 1
            );
            g.bench_function(name, |b| {
                b.iter(|| Risk::compute(rate, shards, 1000.0, 4.0 * 3600.0, model).unwrap())
            });
        }
    }
    g.finish();
}

fn one_point(c: &mut Criterion) {
    let mut g = c.benchmark_group("over_cap_one_point");
    g.sample_size(10);
    for &(rate, shards, cap) in &[(1e8, 20u64, 5_010_000.0), (1e9, 7, 1000.0)] {
        g.bench_function(format!("{rate}/s over {shards}, cap {cap}"), |b| {
            b.iter(|| OverCap::compute(rate, shards, cap, 14_400.0, TrafficModel::Fixed).unwrap())
        });
    }
    g.finish();
}

fn sweeps(c: &mut Criterion) {
    let mut g = c.benchmark_group("sweep");
    g.sample_size(10);
    let counts: Vec<u64> = (10..=1000).step_by(10).collect();
    g.bench_function("200000/s over 10..1000 step 10 (fixed)", |b| {
        b.iter(|| {
            sweep(
                200_000.0,
                &counts,
                1000.0,
                14_400.0,
                TrafficModel::Fixed,
                &|| {},
            )
            .unwrap()
        })
    });
    g.finish();
}

criterion_group!(benches, risk, one_point, sweeps);
criterion_main!(benches);
