//! The aggregate draw against the per-partition way it replaces: the same
//! law for the busiest load and for the ln(1 - P(over)) sum.

use rand::SeedableRng;
use rand_distr::StandardNormal;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::*;

/// The per-partition way (the placement's loop before the aggregate):
/// every one of the m loads drawn, the busiest and the sum over all.
fn each_partition(law: &TailOnly, m: u64, rng: &mut Xoshiro256PlusPlus) -> TailOnlyDraw {
    let (mut busiest, mut ln_ok) = (0.0f64, 0.0f64);
    for _ in 0..m {
        let z: f64 = rng.sample(StandardNormal);
        let load = (law.mean + law.sd * z).max(0.0);
        busiest = busiest.max(load);
        ln_ok += (-p_over(load, law.cap)).ln_1p();
    }
    TailOnlyDraw { busiest, ln_ok }
}

/// The two-sample Kolmogorov-Smirnov statistic sup |F_a - F_b| (ties,
/// such as the atom of ln_ok at 0, stepped over together).
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

/// Draws each way and the KS statistic of the busiest and of ln_ok.
fn compare(law: TailOnly, m: u64, n: usize) -> (f64, f64, Vec<TailOnlyDraw>) {
    let mut r_new = Xoshiro256PlusPlus::seed_from_u64(11);
    let mut r_old = Xoshiro256PlusPlus::seed_from_u64(12);
    let new: Vec<_> = (0..n).map(|_| law.draw(m, &mut r_new)).collect();
    let old: Vec<_> = (0..n)
        .map(|_| each_partition(&law, m, &mut r_old))
        .collect();
    let busiest = ks(
        new.iter().map(|d| d.busiest).collect(),
        old.iter().map(|d| d.busiest).collect(),
    );
    let ln_ok = ks(
        new.iter().map(|d| d.ln_ok).collect(),
        old.iter().map(|d| d.ln_ok).collect(),
    );
    (busiest, ln_ok, new)
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
    // A tail near the cap: most partitions can go over, the walk goes deep
    // and ln_ok is a real sum; a tail clipped at 0 most of the time whose
    // busiest sometimes matters; a few partitions only.
    for (law, m) in [
        (TailOnly::new(500.0, 60.0, 700.0), 40),
        (TailOnly::new(0.5, 3.0, 12.0), 100),
        (TailOnly::new(5.0, 1.0, 9.0), 3),
    ] {
        let (busiest, ln_ok, new) = compare(law, m, n);
        assert!(
            busiest < ks_limit(n),
            "{law:?} x {m}: busiest D = {busiest}"
        );
        assert!(ln_ok < ks_limit(n), "{law:?} x {m}: ln_ok D = {ln_ok}");
        // A useful test point: some partition goes over in a second with a
        // chance well inside (0, 1).
        let over = new.iter().map(|d| -d.ln_ok.exp_m1()).sum::<f64>() / n as f64;
        assert!(over > 0.01 && over < 0.99, "{law:?} x {m}: P(over) {over}");
    }
}

#[test]
fn a_quiet_tail_costs_one_draw_and_its_busiest_follows_f_to_the_m() {
    // 1e8 Zipf reels on 1e6 partitions: 0.001 writes/s, sd 0.004, cap
    // 1,000. The busiest of a million is negligible: ln_ok is exactly 0,
    // as the per-partition sum was (every term skipped), and the busiest
    // follows P(max <= x) = Phi((x - mean) / sd)^m. One-sample KS against
    // it: P(sqrt(n) D > x) <= 2 exp(-2 x^2), x = 2.69 (1 in 1,000,000).
    let law = TailOnly::new(0.001, 0.004, 1000.0);
    let m = 1_000_000u64;
    let n = 20_000;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    let mut busiest: Vec<f64> = (0..n)
        .map(|_| {
            let d = law.draw(m, &mut rng);
            assert_eq!(d.ln_ok, 0.0);
            d.busiest
        })
        .collect();
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
    assert!(law.share_drawn() < 1e-12, "{}", law.share_drawn());
}

#[test]
fn no_spread_and_no_partitions_are_exact() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let flat = TailOnly::new(900.0, 0.0, 1000.0);
    let d = flat.draw(10, &mut rng);
    assert_eq!(d.busiest, 900.0);
    let one = (-p_over(900.0, 1000.0)).ln_1p();
    assert!((d.ln_ok - 10.0 * one).abs() < 1e-12 * one.abs());
    assert_eq!(flat.share_drawn(), 1.0);
    let none = flat.draw(0, &mut rng);
    assert_eq!((none.busiest, none.ln_ok), (0.0, 0.0));
}

#[test]
fn the_share_drawn_is_the_chance_of_a_load_past_the_skip() {
    // By bisection: the skip ends where the Chernoff exponent reaches -69.
    let law = TailOnly::new(500.0, 60.0, 700.0);
    let share = law.share_drawn();
    // Brute force: the share of 200,000 drawn loads that are not skipped,
    // within 4 standard errors of a binomial proportion.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(8);
    let n = 200_000;
    let hits = (0..n)
        .filter(|_| {
            let z: f64 = rng.sample(StandardNormal);
            !negligible((law.mean + law.sd * z).max(0.0), law.cap)
        })
        .count() as f64
        / n as f64;
    let se = (share * (1.0 - share) / n as f64).sqrt();
    assert!((hits - share).abs() < 4.0 * se, "{hits} vs {share}");
}
