//! Statistical checks of the sampler with fixed seeds. Each tolerance is
//! derived from the standard error and stated next to it; with fixed seeds
//! the outcomes are deterministic, and the alphas say how unlikely a false
//! alarm would have been with a fresh seed.

use crate::common::stats::{pearson_chi2, two_sample_chi2};
use rand::RngExt;
use shardplan::model::law::TrafficModel;
use shardplan::model::sampler::{chunk_rng, split_uniform, ShardSampler};
use shardplan::model::simulation::{run, SimPlan};
use shardplan::model::stats::Histogram;

/// Chi-square critical values at alpha = 0.001.
const CHI2_999_DF19: f64 = 43.820;

#[test]
fn shards_are_hit_uniformly() {
    // 2,000 seconds of 14,000 likes over 20 shards: 28M likes, 1.4M expected
    // per shard. Pearson chi-square with 19 degrees of freedom, alpha 0.001.
    let mut rng = chunk_rng(20_261_130, 0);
    let mut counts = [0u64; 20];
    let mut totals = [0u64; 20];
    for _ in 0..2000 {
        split_uniform(&mut rng, 14_000, &mut counts);
        for (t, c) in totals.iter_mut().zip(counts) {
            *t += c;
        }
    }
    let observed: Vec<f64> = totals.iter().map(|&o| o as f64).collect();
    let chi2 = pearson_chi2(&observed, &[28_000_000.0 / 20.0; 20]);
    assert!(chi2 < CHI2_999_DF19, "chi-square {chi2:.2} over 19 df");
}

#[test]
fn one_shard_count_is_binomial() {
    // Shard 3's count each second is Binomial(14,000, 1/20): mean 700,
    // variance 665. Over n = 20,000 seconds the sample mean has SE
    // sqrt(665 / n) = 0.182, and the sample variance SE is about
    // variance x sqrt(2 / n) = 6.65: allow 5 SE each.
    let sampler = ShardSampler::new(14_000.0, 20, TrafficModel::Fixed).unwrap();
    let mut rng = chunk_rng(5, 0);
    let mut counts = [0u64; 20];
    let n = 20_000;
    let xs: Vec<f64> = (0..n)
        .map(|_| {
            sampler.sample_second(&mut rng, &mut counts);
            counts[3] as f64
        })
        .collect();
    let mean = xs.iter().sum::<f64>() / n as f64;
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    assert!((mean - 700.0).abs() < 5.0 * 0.182, "mean {mean}");
    assert!((var - 665.0).abs() < 5.0 * 6.65, "variance {var}");
}

/// An independent sampler: one random shard per like, as the design's
/// Python code does.
fn busiest_by_brute_force(likes: u64, shards: usize, seconds: u64, seed: u64) -> Histogram {
    let mut rng = chunk_rng(seed, 1_000_000);
    let mut h = Histogram::new();
    let mut counts = vec![0u64; shards];
    for _ in 0..seconds {
        counts.iter_mut().for_each(|c| *c = 0);
        for _ in 0..likes {
            counts[rng.random_range(0..shards)] += 1;
        }
        h.record(*counts.iter().max().unwrap());
    }
    h
}

#[test]
fn busiest_shard_agrees_with_one_draw_per_like() {
    // 14,000 likes over 20 shards. The busiest shard per second has sd
    // 12.8 (measured over 100,000 simulated seconds), so a mean over n
    // seconds has SE 12.8 / sqrt(n). With n = 4,000 brute-force seconds and
    // 40,000 engine seconds, the SE of the difference is
    // 12.8 x sqrt(1/4000 + 1/40000) = 0.21; allow 5 SE = 1.06.
    let brute = busiest_by_brute_force(14_000, 20, 4_000, 9);
    let plan = SimPlan::new(14_000.0, 20, 1000.0, 40_000, TrafficModel::Fixed, 9).unwrap();
    let engine = run(&plan, None, &|_| {}).unwrap().busiest;
    let (a, b) = (brute.mean().unwrap(), engine.mean().unwrap());
    assert!((a - b).abs() < 1.06, "brute {a:.2} vs engine {b:.2}");
    // Two-sample chi-square over quantile bins of the engine's sample: 10
    // bins, 9 df, alpha 0.001 -> 27.88.
    let chi2 = two_sample_chi2(&brute, &engine);
    assert!(chi2 < 27.88, "two-sample chi-square {chi2:.2} over 9 df");
}

#[test]
fn poisson_counts_have_poisson_totals() {
    // Poisson(14,000) likes a second: mean 14,000 and variance 14,000. Over
    // n = 20,000 seconds the mean's SE is sqrt(14000 / n) = 0.837 and the
    // variance's SE about 14000 x sqrt(2 / n) = 140: allow 5 SE each.
    let sampler = ShardSampler::new(14_000.0, 20, TrafficModel::Poisson).unwrap();
    let mut rng = chunk_rng(77, 0);
    let mut counts = [0u64; 20];
    let n = 20_000;
    let xs: Vec<f64> = (0..n)
        .map(|_| sampler.sample_second(&mut rng, &mut counts) as f64)
        .collect();
    let mean = xs.iter().sum::<f64>() / n as f64;
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    assert!((mean - 14_000.0).abs() < 5.0 * 0.837, "mean {mean}");
    assert!((var - 14_000.0).abs() < 5.0 * 140.0, "variance {var}");
}

#[test]
fn exact_table_sampler_matches_the_multinomial_one() {
    use shardplan::model::simulation::SamplerKind;
    // The fast path draws the busiest shard from its exact distribution; it
    // must give the same distribution as drawing every shard. Two-sample
    // chi-square over 10 quantile bins, 9 df, alpha 0.001 -> 27.88, for
    // both traffic models and two sizes.
    for (rate, shards, traffic) in [
        (14_000.0, 20, TrafficModel::Fixed),
        (14_000.0, 20, TrafficModel::Poisson),
        (200_000.0, 286, TrafficModel::Fixed),
    ] {
        let seconds = if shards > 100 { 10_000 } else { 40_000 };
        let plan = |kind| {
            SimPlan::new(rate, shards, 1000.0, seconds, traffic, 31)
                .unwrap()
                .with_sampler(kind, false)
                .unwrap()
        };
        let table = plan(SamplerKind::ExactTable);
        assert_eq!(table.sampler_name(), "exact-table");
        let multi = plan(SamplerKind::Multinomial);
        assert_eq!(multi.sampler_name(), "multinomial");
        let a = run(&table, None, &|_| {}).unwrap();
        let b = run(&multi, None, &|_| {}).unwrap();
        let chi2 = two_sample_chi2(&a.busiest, &b.busiest);
        assert!(
            chi2 < 27.88,
            "{rate}/{shards} {traffic:?}: chi-square {chi2:.2}"
        );
        // Means agree within 5 SE of the difference: the busiest shard's sd
        // is 12.8 at 14,000/20 (Poisson adds sqrt(14000)/20 ~ 6 in
        // quadrature: 14.2) and 10.5 at 200,000/286 (measured), so the
        // tolerance is 5 x sd x sqrt(2 / n).
        let sd = match (shards, traffic) {
            (286, _) => 10.5,
            (_, TrafficModel::Poisson) => 14.2,
            _ => 12.8,
        };
        let tol = 5.0 * sd * (2.0 / seconds as f64).sqrt();
        let (ma, mb) = (a.busiest.mean().unwrap(), b.busiest.mean().unwrap());
        assert!(
            (ma - mb).abs() < tol,
            "{rate}/{shards}: {ma} vs {mb} (tol {tol})"
        );
    }
}

#[test]
fn quietest_shard_table_matches_simulation() {
    use shardplan::model::exact::QuietestShard;
    // The exact mean of the per-second quietest shard against the mean of
    // the multinomial sampler's quietest over n = 20,000 seconds. The
    // quietest's sd is 12.25 at 14,000/20 (measured over 100,000 seconds),
    // so the SE is 12.25 / sqrt(20000) = 0.087; allow 5 SE = 0.43.
    let q = QuietestShard::new(14_000.0, 20, TrafficModel::Fixed).unwrap();
    // Its mean: the sum over c >= 0 of P(min > c), which is 1 below the table.
    let (lo, hi) = q.table_range();
    let exact_mean = lo as f64 + (lo..=hi).map(|c| q.sf(c)).sum::<f64>();
    let sampler = ShardSampler::new(14_000.0, 20, TrafficModel::Fixed).unwrap();
    let mut rng = chunk_rng(8, 0);
    let mut counts = [0u64; 20];
    let n = 20_000;
    let mut sum = 0.0;
    for _ in 0..n {
        sampler.sample_second(&mut rng, &mut counts);
        sum += *counts.iter().min().unwrap() as f64;
    }
    let mean = sum / n as f64;
    assert!(
        (mean - exact_mean).abs() < 0.43,
        "simulated {mean} vs exact {exact_mean}"
    );
}
