//! Reading and fitting observed traffic: a 30-day per-second CSV trace
//! (2,592,000 rows, about 9,000 likes/s), generated in memory, with Unix
//! seconds and with RFC 3339 times; and the fit alone. The target: read
//! and fit well under 1.5 s on one core.
//! Run with `cargo bench --bench observed`.

use std::fmt::Write;
use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use shardplan::model::observed::{parse, TraceFit};
use shardplan::model::rng::mix64;

/// 30 days of seconds.
const ROWS: u64 = 30 * 86_400;
/// 2026-12-01T00:00:00Z: every day of the trace is in December.
const START: i64 = 1_796_083_200;

/// `time,count` lines; the counts 9,000 +- 500, from a fixed hash.
fn csv(rfc3339: bool) -> String {
    let mut text = String::with_capacity(ROWS as usize * 32);
    text.push_str("time,count\n");
    for s in 0..ROWS {
        let count = 8_500 + mix64(s) % 1_001;
        if rfc3339 {
            let (day, rest) = (s / 86_400, s % 86_400);
            let (h, m, sec) = (rest / 3_600, rest / 60 % 60, rest % 60);
            let _ = writeln!(
                text,
                "2026-12-{:02}T{h:02}:{m:02}:{sec:02}Z,{count}",
                day + 1
            );
        } else {
            let _ = writeln!(text, "{},{count}", START + s as i64);
        }
    }
    text
}

fn observed(c: &mut Criterion) {
    let unix = csv(false);
    let rfc3339 = csv(true);
    let trace = parse(&[&unix], None).expect("a valid trace");
    assert_eq!(trace, parse(&[&rfc3339], None).expect("a valid trace"));
    let mut g = c.benchmark_group("observed 30 days per second");
    g.sample_size(10);
    g.throughput(Throughput::Elements(ROWS));
    g.bench_function("CSV Unix seconds: read and fit", |b| {
        b.iter(|| TraceFit::new(&parse(&[black_box(&unix)], None).unwrap()))
    });
    g.bench_function("CSV RFC 3339: read and fit", |b| {
        b.iter(|| TraceFit::new(&parse(&[black_box(&rfc3339)], None).unwrap()))
    });
    g.bench_function("fit alone", |b| b.iter(|| TraceFit::new(black_box(&trace))));
    g.finish();
}

criterion_group!(benches, observed);
criterion_main!(benches);
