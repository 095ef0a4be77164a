//! The exact busiest-shard distribution against plain Monte Carlo: throw
//! each second's likes onto the shards (conditional binomials, which is
//! exactly the multinomial; or independent Poissons) and compare.
//!
//! Tolerances: an empirical frequency of `n` seconds has standard error
//! `sqrt(p (1 - p) / n)`, an empirical mean `sd / sqrt(n)` with `sd` taken
//! from the exact distribution. Every check allows 4.5 standard errors, so
//! with the ~40 checks below a false failure has odds of about 3e-4 even
//! before fixing the seeds (the seeds make the run reproducible).

use rand::SeedableRng;
use rand_distr::{Binomial, Distribution, Poisson};
use rand_xoshiro::Xoshiro256PlusPlus;
use shardplan::model::exact::BusiestShard;
use shardplan::model::law::TrafficModel;

const Z: f64 = 4.5;

/// The busiest shard's count in each of `seconds` simulated seconds.
fn simulate(rate: f64, shards: u64, model: TrafficModel, seconds: usize, seed: u64) -> Vec<u64> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    (0..seconds)
        .map(|_| match model {
            TrafficModel::Fixed | TrafficModel::Empirical(_) => {
                // Multinomial(L; 1/S...) as shard i ~ Binomial(left, 1/(S-i));
                // empirical traffic: L is one observed second's, uniformly.
                let mut left = match model.empirical() {
                    Some(law) => law.draw(&mut rng),
                    None => rate as u64,
                };
                let mut busiest = 0;
                for i in 0..shards {
                    let k = if i + 1 == shards {
                        left
                    } else {
                        Binomial::new(left, 1.0 / (shards - i) as f64)
                            .unwrap()
                            .sample(&mut rng)
                    };
                    left -= k;
                    busiest = busiest.max(k);
                }
                busiest
            }
            TrafficModel::Poisson => {
                let pois = Poisson::new(rate / shards as f64).unwrap();
                (0..shards)
                    .map(|_| pois.sample(&mut rng) as u64)
                    .max()
                    .unwrap()
            }
            TrafficModel::GammaPoisson(_) => {
                unimplemented!("gamma-poisson is checked in tests/cli/gamma_poisson.rs")
            }
        })
        .collect()
}

fn check(rate: f64, shards: u64, model: TrafficModel, seconds: usize, seed: u64) {
    let d = BusiestShard::new(rate, shards, model).unwrap();
    let sample = simulate(rate, shards, model, seconds, seed);
    let n = seconds as f64;
    let label = format!("{rate}/s over {shards} shards ({model:?})");

    // Mean, with the sd from the exact pmf.
    let lo = d.quantile(1e-12);
    let hi = d.quantile(1.0 - 1e-12);
    let mean = d.mean();
    let var: f64 = (lo..=hi)
        .map(|c| {
            let p = d.cdf(c) - if c == 0 { 0.0 } else { d.cdf(c - 1) };
            p * (c as f64 - mean).powi(2)
        })
        .sum();
    let sim_mean = sample.iter().sum::<u64>() as f64 / n;
    let se = (var / n).sqrt();
    assert!(
        (sim_mean - mean).abs() <= Z * se,
        "{label}: simulated mean {sim_mean} vs exact {mean} (se {se})"
    );

    // P(max > c) at the 1%, 10%, 50%, 90%, 99% and 99.9% points.
    for q in [0.01, 0.1, 0.5, 0.9, 0.99, 0.999] {
        let c = d.quantile(q);
        let p = d.sf(c);
        let freq = sample.iter().filter(|&&m| m > c).count() as f64 / n;
        let se = (p * (1.0 - p) / n).sqrt();
        assert!(
            (freq - p).abs() <= Z * se + 1e-12,
            "{label}: P(max > {c}) simulated {freq} vs exact {p} (se {se})"
        );
    }
}

#[test]
fn default_case_fixed_14000_over_20() {
    check(14_000.0, 20, TrafficModel::Fixed, 40_000, 1);
}

#[test]
fn default_case_poisson_14000_over_20() {
    check(14_000.0, 20, TrafficModel::Poisson, 40_000, 2);
}

#[test]
fn hot_case_18000_over_20() {
    check(18_000.0, 20, TrafficModel::Fixed, 40_000, 3);
}

#[test]
fn small_cases() {
    check(6.0, 3, TrafficModel::Fixed, 100_000, 4);
    check(50.0, 7, TrafficModel::Fixed, 100_000, 5);
    check(1000.0, 2, TrafficModel::Fixed, 100_000, 6);
    check(3.5, 4, TrafficModel::Poisson, 100_000, 7);
}

/// Empirical traffic: a plain simulation (one observed second drawn
/// uniformly, then its count thrown onto the shards by binomials, no
/// shardplan sampler) against the exact mixture, same 4.5 se tolerances.
#[test]
fn empirical_mixture() {
    use shardplan::model::law::empirical::EmpiricalLaw;
    // A bursty evening: mostly 12,000-14,000 likes/s, a few seconds at
    // 18,000-20,000, over 20 shards.
    let mut table: Vec<(u64, u64)> = (0..200).map(|i| (12_000 + 10 * i, 5)).collect();
    table.extend((0..20).map(|i| (18_000 + 100 * i, 1)));
    let law = EmpiricalLaw::new(&table).unwrap().leak();
    check(law.mean(), 20, TrafficModel::Empirical(law), 40_000, 9);
    let small = EmpiricalLaw::new(&[(3, 2), (5, 1), (7, 1), (0, 1)])
        .unwrap()
        .leak();
    check(small.mean(), 3, TrafficModel::Empirical(small), 100_000, 10);
}

#[test]
fn many_shards_200000_over_286() {
    check(200_000.0, 286, TrafficModel::Fixed, 4_000, 8);
}

#[test]
fn simulated_peak_over_a_run_matches_run_quantiles() {
    // 200 runs of 2,000 seconds at 14,000/s over 20 shards: the article saw
    // a peak of about 810. The fraction of runs whose peak is <= the exact
    // run median must be near 1/2 (se 0.035 for 200 runs).
    let d = BusiestShard::new(14_000.0, 20, TrafficModel::Fixed).unwrap();
    let median = d.run_quantile(2000.0, 0.5);
    let q01 = d.run_quantile(2000.0, 0.01);
    let q99 = d.run_quantile(2000.0, 0.99);
    let runs = 200;
    let mut at_most_median = 0;
    let mut outside = 0;
    for r in 0..runs {
        let peak = *simulate(14_000.0, 20, TrafficModel::Fixed, 2000, 100 + r)
            .iter()
            .max()
            .unwrap();
        if peak <= median {
            at_most_median += 1;
        }
        if peak < q01 || peak > q99 {
            outside += 1;
        }
    }
    let frac = at_most_median as f64 / runs as f64;
    // P(peak <= median) is at least 1/2 and, the peak being discrete, a bit more.
    let p = d.cdf(median).powf(2000.0);
    let se = (p * (1.0 - p) / runs as f64).sqrt();
    assert!(
        (frac - p).abs() <= Z * se,
        "runs at or below {median}: {frac} vs exact {p}"
    );
    // About 2% of runs fall outside [q01, q99]; 4.5 se of Binomial(200, 0.02) is 9.
    assert!(outside <= 4 + 9, "{outside} runs outside [{q01}, {q99}]");
    assert!((790..=830).contains(&median), "run median {median}");
}
