//! Criterion benches for the hot path of `shardplan simulate`: one
//! simulated second (`ShardSampler::sample_second`, `split_uniform`, one
//! conditional binomial), the exact-table sampler per simulated second and
//! the time to build its tables, the histogram merge that joins chunk
//! results, a whole `simulate::run`, and one second of each picker.
//! Timing lives here, not in `cargo test`: CI machines are too noisy.
//! Run with `cargo bench --bench sampler`; see docs/performance.md.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use rand_distr::{Binomial, Distribution};
use shardplan::model::binomial;
use shardplan::model::exact::QuietestShard;
use shardplan::model::law::TrafficModel;
use shardplan::model::sampler::{chunk_rng, split_uniform, ShardSampler};
use shardplan::model::simulation::{self, SamplerKind, SimPlan};
use shardplan::model::stats::Histogram;

/// The two cases of issue 4: 14,000 likes/s over 20 shards, and
/// 200,000 likes/s over 286 shards.
const CASES: [(u64, u64); 2] = [(14_000, 20), (200_000, 286)];

fn sample_second(c: &mut Criterion) {
    let mut g = c.benchmark_group("sample_second");
    g.throughput(Throughput::Elements(1)); // one simulated second per iteration
    for (rate, shards) in CASES {
        for model in [TrafficModel::Fixed, TrafficModel::Poisson] {
            let sampler = ShardSampler::new(rate as f64, shards, model).expect("valid case");
            let mut rng = chunk_rng(1, 0);
            let mut counts = vec![0u64; shards as usize];
            let id = BenchmarkId::new(model.name(), format!("{rate}x{shards}"));
            g.bench_function(id, |b| {
                b.iter(|| black_box(sampler.sample_second(&mut rng, black_box(&mut counts))))
            });
        }
    }
    g.finish();
}

fn split(c: &mut Criterion) {
    let mut g = c.benchmark_group("split_uniform");
    for (rate, shards) in CASES {
        // Per shard: the split costs shards - 1 binomial draws.
        g.throughput(Throughput::Elements(shards - 1));
        let mut rng = chunk_rng(2, 0);
        let mut counts = vec![0u64; shards as usize];
        g.bench_function(format!("{rate}x{shards}"), |b| {
            b.iter(|| split_uniform(&mut rng, black_box(rate), black_box(&mut counts)))
        });
    }
    g.finish();
}

/// One binomial draw as the split makes it (`Binomial::new` then `sample`)
/// against a draw from a distribution built once: tells whether building
/// per draw matters. n = 14,000, p = 1/20 is the split's first step; n = 1,400,
/// p = 1/2 is its last (two shards left, BTPE's flipped-free worst case).
fn binomial(c: &mut Criterion) {
    let mut g = c.benchmark_group("binomial");
    for (n, k) in [(14_000u64, 20u32), (1_400, 2)] {
        let p = 1.0 / f64::from(k);
        let mut rng = chunk_rng(5, 0);
        g.bench_function(format!("new_and_sample/n{n}_p1of{k}"), |b| {
            b.iter(|| {
                Binomial::new(black_box(n), black_box(p))
                    .expect("valid p")
                    .sample(&mut rng)
            })
        });
        let d = Binomial::new(n, p).expect("valid p");
        g.bench_function(format!("sample_only/n{n}_p1of{k}"), |b| {
            b.iter(|| black_box(&d).sample(&mut rng))
        });
        // shardplan's own (BTRD), set up per draw as the split uses it.
        g.bench_function(format!("btrd/n{n}_p1of{k}"), |b| {
            b.iter(|| binomial::sample(&mut rng, black_box(n), black_box(p)))
        });
    }
    g.finish();
}

/// The table build of `--sampler exact-table` (both tables and the chunk
/// laws) for the two sizes, and the quietest table alone (the
/// busiest one is `benches/exact.rs`'s business).
fn table_build(c: &mut Criterion) {
    let mut g = c.benchmark_group("table_build");
    g.sample_size(10);
    for (rate, shards) in [(14_000u64, 20u64), (1_000_000, 1_430)] {
        for model in [TrafficModel::Fixed, TrafficModel::Poisson] {
            let id = format!("{}/{rate}x{shards}", model.name());
            g.bench_function(BenchmarkId::new("exact_tables", &id), |b| {
                b.iter(|| {
                    SimPlan::new(rate as f64, shards, 1e9, 1_000_000, model, 1)
                        .expect("valid plan")
                        .with_sampler(SamplerKind::ExactTable, false)
                        .expect("tables")
                })
            });
            g.bench_function(BenchmarkId::new("quietest", &id), |b| {
                b.iter(|| QuietestShard::new(rate as f64, shards, model).expect("table"))
            });
        }
    }
    g.finish();
}

/// The exact-table sampler per simulated second, whole chunks on one
/// thread (the tables built beforehand): the figure the cost model uses.
fn table_seconds(c: &mut Criterion) {
    let mut g = c.benchmark_group("exact_table_per_second");
    let seconds = 1_000_000;
    g.throughput(Throughput::Elements(seconds));
    g.sample_size(10);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("thread pool");
    for (rate, shards) in CASES {
        for model in [TrafficModel::Fixed, TrafficModel::Poisson] {
            let plan = SimPlan::new(rate as f64, shards, 1000.0, seconds, model, 1)
                .expect("valid plan")
                .with_sampler(SamplerKind::ExactTable, false)
                .expect("tables");
            let id = BenchmarkId::new(model.name(), format!("{rate}x{shards}"));
            g.bench_function(id, |b| {
                b.iter(|| pool.install(|| simulation::run(&plan, None, &|_| {}).expect("run")))
            });
        }
    }
    g.finish();
}

/// A histogram of the busiest shard over one chunk, like the engine's.
fn busiest_histogram(seed: u64, rate: u64, shards: u64, seconds: u64) -> Histogram {
    let mut rng = chunk_rng(seed, 0);
    let mut counts = vec![0u64; shards as usize];
    let mut h = Histogram::new();
    for _ in 0..seconds {
        split_uniform(&mut rng, rate, &mut counts);
        h.record(counts.iter().copied().max().unwrap_or(0));
    }
    h
}

fn merge(c: &mut Criterion) {
    // 14,000 x 20 over 4,096 seconds (one engine chunk) spans about 100-200
    // busiest values; the brief asks for ~200 bins, so widen with the tails.
    let mut a = busiest_histogram(3, 14_000, 20, 4096);
    let mut b = busiest_histogram(4, 14_000, 20, 4096);
    let lo = a.min().unwrap_or(0).min(b.min().unwrap_or(0));
    a.record(lo.saturating_sub(50));
    b.record(lo + 150);
    // Dense bins from smallest to largest value (empty ones included).
    let span = |h: &Histogram| h.max().unwrap_or(0) - h.min().unwrap_or(0) + 1;
    let bins = span(&a).max(span(&b));
    c.bench_function(&format!("histogram_merge/{bins}_bins"), |bench| {
        bench.iter_batched_ref(
            || a.clone(),
            |acc| acc.merge(black_box(&b)),
            criterion::BatchSize::SmallInput,
        )
    });
}

fn run(c: &mut Criterion) {
    let mut g = c.benchmark_group("simulate_run");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(10));
    // 100,000 seconds of the small case; the large case costs ~14x more per
    // second, so 10,000 keeps one iteration under a second.
    for (rate, shards, seconds) in [(14_000, 20, 100_000), (200_000, 286, 10_000)] {
        g.throughput(Throughput::Elements(seconds));
        let plan = SimPlan::new(rate as f64, shards, 1000.0, seconds, TrafficModel::Fixed, 1)
            .expect("valid plan");
        for threads in [1usize, 2] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .expect("thread pool");
            let id = BenchmarkId::new(
                format!("{rate}x{shards}x{seconds}s"),
                format!("{threads}_threads"),
            );
            g.bench_function(id, |b| {
                b.iter(|| pool.install(|| simulation::run(&plan, None, &|_| {}).expect("run")))
            });
        }
    }
    g.finish();
}

/// One simulated second of each picker drawn server by server (issue 34):
/// 14,000 likes/s, 40 app servers, 20 shards, fixed traffic. Random and
/// user-hash seconds are `sample_second`'s (above).
fn picker_second(c: &mut Criterion) {
    use shardplan::model::picker::{PickerSampler, Writers, PICKERS};
    let mut g = c.benchmark_group("picker_second");
    g.throughput(Throughput::Elements(1));
    for &(picker, name, _) in PICKERS.iter().filter(|p| !p.0.splits_like_random()) {
        let writers = Writers::new(picker, 40).expect("valid servers");
        let sampler =
            PickerSampler::new(14_000.0, 20, TrafficModel::Fixed, writers).expect("valid case");
        let mut rng = chunk_rng(1, 0);
        let mut state = sampler.chunk_state(1, 0);
        let mut counts = vec![0u64; 20];
        g.bench_function(name, |b| {
            b.iter(|| black_box(sampler.sample_second(&mut rng, &mut state, &mut counts)))
        });
    }
    g.finish();
}

criterion_group! {
    name = micro;
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = sample_second, split, binomial, merge, picker_second
}
criterion_group!(tables, table_build, table_seconds);
criterion_group!(whole, run);
criterion_main!(micro, tables, whole);
