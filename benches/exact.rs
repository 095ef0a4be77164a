//! Time to build the exact busiest-shard distribution and every risk figure
//! (`Risk::compute`) for the default case and the large 200,000/s case.

use criterion::{criterion_group, criterion_main, Criterion};
use shardplan::model::exact::Risk;
use shardplan::model::traffic::TrafficModel;

fn risk(c: &mut Criterion) {
    let mut g = c.benchmark_group("risk_compute");
    g.sample_size(10);
    for &(rate, shards) in &[(14_000.0, 20u64), (200_000.0, 286)] {
        for model in [TrafficModel::Fixed, TrafficModel::Poisson] {
            let name = format!("{rate}/s over {shards} ({})", model.name());
            g.bench_function(name, |b| {
                b.iter(|| Risk::compute(rate, shards, 1000.0, 4.0 * 3600.0, model).unwrap())
            });
        }
    }
    g.finish();
}

criterion_group!(benches, risk);
criterion_main!(benches);
