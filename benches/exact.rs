//! Time to build the exact busiest-shard distribution and every risk figure
//! (`Risk::compute`): the default case, the large 200,000/s case, issue 18's
//! 1e8 likes/s over 3, 5, 20 and 1,000 shards, 1e9 over 4 and 10 (the
//! second session's inclusion-exclusion), the one-point over-cap figure
//! `compare` uses, and sweeps of shard counts. The table's cost per value
//! of `c` is the time over `table_range` (printed once per case).
//!
//! One group per exact path (issue 37): fixed traffic's table (`risk`) and
//! row tables (`sweep`), Poisson's closed form, gamma-poisson's row without
//! a table (`risk`, `sweep`, the risk chart), its one point (`compare`,
//! `size --risk`), its tables (`simulate`'s exact figures) and its
//! shared-partition union bound (negative binomial tails), empirical
//! traffic's mixture of fixed tables, the quietest shard's table, and the
//! pickers' key figures (round-robin's bound, sticky's mixture).
//! Run with `cargo bench --bench exact` (about 4 minutes), one group with
//! `cargo bench --bench exact -- gamma_poisson`.

use criterion::{criterion_group, criterion_main, Criterion};
use shardplan::model::exact::{sweep, BusiestShard, OverCap, QuietestShard, Risk};
use shardplan::model::law::{empirical::EmpiricalLaw, Dispersion, TrafficModel};
use shardplan::model::partitions::PartitionRisk;
use shardplan::model::picker::risk::key_over_cap;
use shardplan::model::picker::{Picker, Writers};

/// Issue 37's case: `traffic = "gamma-poisson"`, `dispersion = 6.9`,
/// observed 14,821 likes/s planned at 1.5x (22,231.5), cap 2,000, 4 h.
const GP_RATE: f64 = 22_231.5;

fn gamma_poisson() -> TrafficModel {
    TrafficModel::GammaPoisson(Dispersion::new("dispersion", 6.9).unwrap())
}

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

/// The rows of a fixed-traffic sweep at 200,000 likes/s, cap 1,000, over
/// a 4-hour run.
fn fixed_sweep(counts: &[u64]) -> Vec<Risk> {
    sweep(
        200_000.0,
        counts,
        1000.0,
        14_400.0,
        TrafficModel::Fixed,
        &|| {},
    )
    .unwrap()
}

fn sweeps(c: &mut Criterion) {
    let mut g = c.benchmark_group("sweep");
    g.sample_size(10);
    let counts: Vec<u64> = (10..=1000).step_by(10).collect();
    g.bench_function("200000/s over 10..1000 step 10 (fixed)", |b| {
        b.iter(|| fixed_sweep(&counts))
    });
    g.finish();
}

fn gamma_poisson_paths(c: &mut Criterion) {
    let mut g = c.benchmark_group("gamma_poisson");
    g.sample_size(10);
    let model = gamma_poisson();
    g.bench_function("risk row 22231.5/s over 57, K 6.9", |b| {
        b.iter(|| Risk::compute(GP_RATE, 57, 2_000.0, 14_400.0, model).unwrap())
    });
    // Past a few hundred shards the mean's integrand ripples: its
    // trapezoidal rule's fourth halving.
    g.bench_function("risk row 22231.5/s over 1000, K 6.9", |b| {
        b.iter(|| Risk::compute(GP_RATE, 1_000, 2_000.0, 14_400.0, model).unwrap())
    });
    g.bench_function("over-cap point 22231.5/s over 57, K 6.9", |b| {
        b.iter(|| OverCap::compute(GP_RATE, 57, 2_000.0, 14_400.0, model).unwrap())
    });
    let counts: Vec<u64> = (10..=100).collect();
    g.bench_function("sweep 22231.5/s over 10..100, K 6.9", |b| {
        b.iter(|| sweep(GP_RATE, &counts, 2_000.0, 14_400.0, model, &|| {}).unwrap())
    });
    let counts: Vec<u64> = (10..=1000).collect();
    g.bench_function("sweep 22231.5/s over 10..1000, K 6.9", |b| {
        b.iter(|| sweep(GP_RATE, &counts, 2_000.0, 14_400.0, model, &|| {}).unwrap())
    });
    // The whole table (what `simulate` builds for its exact figures and
    // its table sampler where that is cheap): 14,000/s over 20 at K = 300.
    let k300 = TrafficModel::GammaPoisson(Dispersion::new("dispersion", 300.0).unwrap());
    g.bench_function("table 14000/s over 20, K 300", |b| {
        b.iter(|| BusiestShard::new(14_000.0, 20, k300).unwrap())
    });
    // A bursty table, its rows integrated eight at a time (2,900 rows),
    // and the quietest shard's beside it: what `simulate` builds for
    // 9,902 likes/s over 16 shards at K = 21.
    let k21 = TrafficModel::GammaPoisson(Dispersion::new("dispersion", 21.0).unwrap());
    g.bench_function("table 9902/s over 16, K 21", |b| {
        b.iter(|| BusiestShard::new(9_902.0, 16, k21).unwrap())
    });
    g.bench_function("quietest table 9902/s over 16, K 21", |b| {
        b.iter(|| QuietestShard::new(9_902.0, 16, k21).unwrap())
    });
    // The shared-partition union bound: a negative binomial tail a
    // partition's share of the shards (closed form), 414 shards over 100
    // partitions at 111 likes/s, K = 11.9, over the hour.
    let k119 = TrafficModel::GammaPoisson(Dispersion::new("dispersion", 11.9).unwrap());
    let shared = PartitionRisk::new(111.0, 2_000.0, 100, 3_600.0, k119).unwrap();
    g.bench_function(
        "partition union bound 111/s over 414, 100 partitions, K 11.9",
        |b| b.iter(|| shared.ln_union_bound(414)),
    );
    // The exact shared-partition risk (Poisson traffic) at 16,036 shards
    // over 100 partitions: the windowed doubling, its weights asked for
    // in the windows only.
    let wide = PartitionRisk::new(31_778.0, 500.0, 100, 14_400.0, TrafficModel::Poisson).unwrap();
    g.bench_function(
        "partition exact risk 31778/s over 16036, 100 partitions",
        |b| b.iter(|| wide.at(16_036)),
    );
    g.finish();
}

fn other_paths(c: &mut Criterion) {
    let mut g = c.benchmark_group("other_paths");
    g.sample_size(10);
    // Empirical traffic: 100 observed counts from 13,500 to 14,490 a second.
    let table: Vec<(u64, u64)> = (0..100).map(|i| (13_500 + 10 * i, 1 + i % 3)).collect();
    let law = TrafficModel::Empirical(EmpiricalLaw::new(&table).unwrap().leak());
    g.bench_function("empirical risk row, 100 counts over 20", |b| {
        b.iter(|| Risk::compute(0.0, 20, 1_000.0, 14_400.0, law).unwrap())
    });
    for model in [TrafficModel::Fixed, TrafficModel::Poisson] {
        let name = format!("quietest table 14000/s over 20 ({})", model.name());
        g.bench_function(name, |b| {
            b.iter(|| QuietestShard::new(14_000.0, 20, model).unwrap())
        });
    }
    // The pickers' key figures (`compare`'s and the report's picker table,
    // one count of their search), 40 servers at cap 1,000: round-robin's
    // bound at the interview's 200,000 likes/s over 204 shards (each
    // server's law of two points, convolved 40-fold), and sticky's mixture
    // over the fuller group at the overload's 18,000 over 30 shards (ten
    // shards with two servers, twenty with one).
    let cases = [
        (Picker::RoundRobin, 200_000.0, 204),
        (Picker::Sticky, 18_000.0, 30),
    ];
    for (picker, rate, shards) in cases {
        let writers = Writers::new(picker, 40).unwrap();
        let name = format!(
            "{} key figure {rate}/s over {shards}, 40 servers",
            picker.name()
        );
        g.bench_function(name, |b| {
            b.iter(|| key_over_cap(rate, shards, 1_000.0, TrafficModel::Fixed, writers).unwrap())
        });
    }
    g.finish();
}

fn fixed_sweeps(c: &mut Criterion) {
    let mut g = c.benchmark_group("sweep_every_count");
    g.sample_size(10);
    // Issue 37's case: every count from 10 to 1,000 (row tables).
    let counts: Vec<u64> = (10..=1000).collect();
    g.bench_function("200000/s over 10..1000 (fixed)", |b| {
        b.iter(|| fixed_sweep(&counts))
    });
    g.finish();
}

criterion_group!(
    benches,
    risk,
    one_point,
    sweeps,
    gamma_poisson_paths,
    other_paths,
    fixed_sweeps
);
criterion_main!(benches);
