//! The aggregate draw against the per-partition way it replaces: the same
//! law for the busiest load.

use rand::SeedableRng;
use rand_distr::StandardNormal;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::*;

/// The per-partition way (the placement's loop before the aggregate):
/// every one of the m loads drawn, the busiest of them.
fn each_partition(law: &TailOnly, m: u64, rng: &mut Xoshiro256PlusPlus) -> f64 {
    let mut busiest = 0.0f64;
    for _ in 0..m {
        let z: f64 = rng.sample(StandardNormal);
        busiest = busiest.max((law.mean + law.sd * z).max(0.0));
    }
    busiest
}

/// The two-sample Kolmogorov-Smirnov statistic sup |F_a - F_b| (ties,
/// such as the atom of a load clipped at 0, stepped over together).
fn ks(mut a: Vec<f64>, mut b: Vec<f64>) -> f64 {
    a.sort_by(f64::total_cmp);
    b.sort_by(f64::total_cmp);
    let (mut i, mut j, mut d) = (0, 0, 0.0f64);
    while i < a.len() && j < b.len() {
        let x = a[i].min(b[j]);
        while i < a.len() && a[i] <= x {
            i += 1;
        }
        while j < b.len() && b[j] <= x {
            j += 1;
        }
        d = d.max((i as f64 / a.len() as f64 - j as f64 / b.len() as f64).abs());
    }
    d
}

/// Draws each way and the KS statistic of the busiest.
fn compare(law: TailOnly, m: u64, n: usize) -> f64 {
    let mut r_new = Xoshiro256PlusPlus::seed_from_u64(11);
    let mut r_old = Xoshiro256PlusPlus::seed_from_u64(12);
    let new: Vec<_> = (0..n).map(|_| law.busiest(m, &mut r_new)).collect();
    let old: Vec<_> = (0..n)
        .map(|_| each_partition(&law, m, &mut r_old))
        .collect();
    ks(new, old)
}

/// The KS bound for two samples of n: Kolmogorov's limit law gives
/// P(D > x sqrt(2 / n)) <= 2 exp(-2 x^2), so x = 2.69 is a false alarm
/// under 1 in 1,000,000 (the empirical CDF's standard error is at most
/// 0.5 / sqrt(n) at any point; this is 2.69 sqrt 2 of those).
fn ks_limit(n: usize) -> f64 {
    2.69 * (2.0 / n as f64).sqrt()
}

#[test]
fn the_aggregate_draw_has_the_law_of_drawing_every_partition() {
    let n = 20_000;
    // A tail near a cap, a tail clipped at 0 most of the time whose
    // busiest sometimes is not, and a few partitions only.
    for (law, m) in [
        (TailOnly::new(500.0, 60.0), 40),
        (TailOnly::new(0.5, 3.0), 100),
        (TailOnly::new(5.0, 1.0), 3),
    ] {
        let busiest = compare(law, m, n);
        assert!(
            busiest < ks_limit(n),
            "{law:?} x {m}: busiest D = {busiest}"
        );
    }
}

#[test]
fn the_busiest_of_a_million_follows_f_to_the_m() {
    // 1e8 Zipf reels on 1e6 partitions: 0.001 writes/s, sd 0.004. The
    // busiest follows P(max <= x) = Phi((x - mean) / sd)^m. One-sample KS
    // against it: P(sqrt(n) D > x) <= 2 exp(-2 x^2), x = 2.69 (1 in
    // 1,000,000).
    let law = TailOnly::new(0.001, 0.004);
    let m = 1_000_000u64;
    let n = 20_000;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    let mut busiest: Vec<f64> = (0..n).map(|_| law.busiest(m, &mut rng)).collect();
    busiest.sort_by(f64::total_cmp);
    let cdf = |x: f64| {
        let phi = 0.5 * statrs::function::erf::erfc(-(x - law.mean) / law.sd / SQRT_2);
        (m as f64 * phi.ln()).exp()
    };
    let d = busiest
        .iter()
        .enumerate()
        .map(|(i, &x)| {
            let f = cdf(x);
            (f - i as f64 / n as f64)
                .abs()
                .max(((i + 1) as f64 / n as f64 - f).abs())
        })
        .fold(0.0, f64::max);
    assert!(d < 2.69 / (n as f64).sqrt(), "D = {d}");
}

#[test]
fn no_spread_and_no_partitions_are_exact() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let flat = TailOnly::new(900.0, 0.0);
    assert_eq!(flat.busiest(10, &mut rng), 900.0);
    assert_eq!(flat.busiest(0, &mut rng), 0.0);
    assert_eq!(TailOnly::new(-3.0, 0.0).busiest(5, &mut rng), 0.0);
}
