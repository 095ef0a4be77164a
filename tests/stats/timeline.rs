//! Seeded statistical checks of the time-line against exact expectations.

use std::convert::Infallible;

use shardplan::model::law::TrafficModel;
use shardplan::model::timeline::bucket::{BurstStart, StoreConfig};
use shardplan::model::timeline::curve::RateCurve;
use shardplan::model::timeline::resize::{ResizeConfig, ResizeOrder, ResizePlan};
use shardplan::model::timeline::{run, TimelinePlan};

/// Poisson(lambda) probabilities for 0..=n, by the recurrence
/// p(k) = p(k - 1) lambda / k from log p(0) = -lambda.
fn poisson_pmf(lambda: f64, n: usize) -> Vec<f64> {
    let mut logp = -lambda;
    let mut v = vec![logp.exp()];
    for k in 1..=n {
        logp += lambda.ln() - (k as f64).ln();
        v.push(logp.exp());
    }
    v
}

#[test]
fn poisson_rejections_without_burst() {
    // Rate = cap = 1,000/s, no burst: each second independently rejects
    // (X - 1000)+ with X ~ Poisson(1000). E[(X - c)+] = lambda P(X >= c) -
    // c P(X >= c + 1), which for lambda = c is c p(c) = 12.61.
    let (lambda, cap, seconds) = (1000.0, 1000usize, 100_000u64);
    let pmf = poisson_pmf(lambda, 2000);
    let mean: f64 = pmf
        .iter()
        .enumerate()
        .skip(cap)
        .map(|(k, p)| (k - cap) as f64 * p)
        .sum();
    let second: f64 = pmf
        .iter()
        .enumerate()
        .skip(cap)
        .map(|(k, p)| ((k - cap) as f64).powi(2) * p)
        .sum();
    assert!((mean - cap as f64 * pmf[cap]).abs() < 1e-9);
    let sd = (second - mean * mean).sqrt();
    let store = StoreConfig {
        burst_seconds: 0,
        burst_start: BurstStart::Full,
    };
    let plan = TimelinePlan::new(
        RateCurve::flat(lambda).unwrap(),
        TrafficModel::Poisson,
        cap as f64,
        seconds,
        2026,
        1,
        store,
        None,
    )
    .unwrap();
    let r = run(&plan);
    let per_second = r.rejected_writes as f64 / seconds as f64;
    // Standard error of the mean over independent seconds; allow 5 of them.
    let se = sd / (seconds as f64).sqrt();
    println!("rejected per second: {per_second} (expected {mean}, se {se})");
    assert!(
        (per_second - mean).abs() < 5.0 * se,
        "{per_second} vs {mean} (se {se})"
    );
    // Seconds with a rejection: P(X > 1000) = 0.4874 (from the pmf), binomial se.
    let p_over: f64 = pmf.iter().skip(cap + 1).sum();
    let share = r.seconds_with_rejections as f64 / seconds as f64;
    let se = (p_over * (1.0 - p_over) / seconds as f64).sqrt();
    assert!((share - p_over).abs() < 5.0 * se, "{share} vs {p_over}");
}

#[test]
fn grow_simulation_mean_is_550() {
    // Over 400 seeds the stale reader's total averages 500 + 1000 / 20 =
    // 550; one run's sd is sqrt(1000 x 0.05 x 0.95) = 6.89, the mean's
    // 6.89 / 20 = 0.34; allow 5 of those.
    let mut c = ResizeConfig::new(1, 20);
    c.order = ResizeOrder::WritesFirst;
    let ResizePlan::Grow(g) = c.validate().unwrap() else {
        panic!()
    };
    let n = 400;
    let sum: f64 = (0..n)
        .map(|seed| {
            g.simulate(seed, |_| Ok::<(), Infallible>(()))
                .unwrap()
                .displayed_total
        })
        .sum();
    let mean = sum / n as f64;
    println!("grow writes-first, mean displayed over {n} seeds: {mean}");
    assert!((mean - 550.0).abs() < 5.0 * 0.345, "{mean}");
}
