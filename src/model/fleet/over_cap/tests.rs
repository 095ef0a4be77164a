//! The bracketed chances against every placement listed, the exact risk
//! of one reel, and brute force where the rest's rare landings matter.

use rand::{RngExt, SeedableRng};
use statrs::distribution::{DiscreteCDF, Poisson};

use crate::model::fleet::tests::{three_reels, zipf_plan};
use crate::model::fleet::{Background, FleetPlan, PartitionLoad, PinnedReel};
use crate::model::law::TrafficModel;
use crate::model::partitions::PartitionRisk;
use crate::model::stats::Z95;

/// P(Poisson(load) > cap) by statrs (not the model's tail).
fn q(load: f64, cap: f64) -> f64 {
    match load > 0.0 {
        true => Poisson::new(load).unwrap().sf(cap as u64),
        false => 0.0,
    }
}

/// Every placement of `keys` on `p` partitions, each of chance p^-keys:
/// (a second's chance of some partition over, the spell's, and the union
/// bound P E[q(L)] over the placements).
fn enumerate(keys: &[f64], p: usize, cap: f64, seconds: f64) -> [f64; 3] {
    let count = p.pow(keys.len() as u32);
    let mut out = [0.0; 3];
    for placement in 0..count {
        let mut load = vec![0.0; p];
        let mut at = placement;
        for &r in keys {
            load[at % p] += r;
            at /= p;
        }
        let qs: Vec<f64> = load.iter().map(|&l| q(l, cap)).collect();
        let none: f64 = qs.iter().map(|q| 1.0 - q).product();
        let never: f64 = qs.iter().map(|q| (1.0 - q).powf(seconds)).product();
        out[0] += (1.0 - none) / count as f64;
        out[1] += (1.0 - never) / count as f64;
        out[2] += qs.iter().sum::<f64>() / count as f64;
    }
    out
}

/// One reel of `rate` likes/s raised to `shards` keys, alone (no tail),
/// on `p` partitions, a spell of a minute.
fn one_reel(rate: f64, shards: u64, p: u64, cap: f64) -> FleetPlan {
    FleetPlan {
        background: Background::rates(vec![rate]).unwrap(),
        threshold: 1.0,
        target_shards: shards,
        partitions: p,
        seconds: 60,
        ..three_reels(cap)
    }
}

#[test]
fn one_reel_on_a_few_partitions_is_the_enumeration_union_and_brackets_the_chance() {
    // 4 or 5 keys of one reel on 2 to 4 partitions, caps around the
    // loads of 2 and 3 keys: nothing is drawn (no other key, no tail), so
    // the union bound is the enumeration's to rounding, and the chance
    // itself lies between the bounds.
    for (shards, p, cap) in [(4, 3, 400.0), (4, 3, 310.0), (5, 2, 500.0), (4, 4, 290.0)] {
        let plan = one_reel(600.0, shards, p, cap);
        let l = plan.partition_load(plan.threshold, shards, 64);
        assert_eq!(l.rest_draws, 0, "nothing to draw");
        assert_eq!((l.exact_keys, l.exact_runs), (shards, 1));
        assert_eq!(l.partition_p_over_cap_se, 0.0);
        let keys = vec![600.0 / shards as f64; shards as usize];
        let [second, spell, union] = enumerate(&keys, p as usize, cap, 60.0);
        let close = |got: f64, want: f64| (got - want).abs() <= 1e-12 * want;
        assert!(
            close(l.partition_p_over_cap_per_second, union.min(1.0)),
            "{shards} on {p}, cap {cap}: union {} vs {union}",
            l.partition_p_over_cap_per_second
        );
        assert!(
            second > 1e-6 && second < 0.99,
            "a useful test point: {second}"
        );
        let eps = 1e-12;
        assert!(
            l.partition_p_over_cap_lower <= second * (1.0 + eps),
            "{l:?}"
        );
        assert!(second <= l.partition_p_over_cap_per_second * (1.0 + eps));
        assert!(
            l.partition_p_any_over_cap_lower <= spell * (1.0 + eps),
            "{l:?}"
        );
        assert!(spell <= l.partition_p_any_over_cap * (1.0 + eps), "{l:?}");
    }
}

#[test]
fn a_pinned_reel_beside_a_drawn_key_matches_the_enumeration() {
    // A pinned reel of 1,200 likes/s on its own 4 keys of 300 beside one
    // background reel of 50 likes/s (under the threshold: one key, drawn
    // under the tilt), 3 partitions, caps where 2 keys and the background
    // key (650 writes/s) or 3 keys go over: the 3^5 placements listed.
    // The union bound is the enumeration's within 4 standard errors of the
    // draws (a false alarm about 1 in 16,000 runs), and the chance lies
    // between the bounds within as much.
    for cap in [640.0, 700.0, 880.0] {
        let plan = FleetPlan {
            background: Background::rates(vec![50.0]).unwrap(),
            pinned: vec![PinnedReel {
                name: "post".into(),
                rate: 1_200.0,
                shards: Some(4),
            }],
            threshold: 100.0,
            target_shards: 1,
            partitions: 3,
            seconds: 60,
            ..three_reels(cap)
        };
        let l = plan.partition_load(100.0, 1, 4_000);
        assert_eq!((l.exact_keys, l.exact_runs, l.rest_draws), (4, 1, 4_000));
        let [second, spell, union] = enumerate(&[300.0, 300.0, 300.0, 300.0, 50.0], 3, cap, 60.0);
        let se = l.partition_p_over_cap_se.max(1e-15);
        let got = l.partition_p_over_cap_per_second;
        assert!(
            (got - union).abs() < 4.0 * se,
            "cap {cap}: {got} vs {union} (se {se})"
        );
        assert!(l.partition_p_over_cap_lower - 4.0 * se <= second && second <= got + 4.0 * se);
        let se = (l.partition_p_any_over_cap_ci95[1] - l.partition_p_any_over_cap) / Z95;
        assert!(
            l.partition_p_any_over_cap_lower - 4.0 * se <= spell,
            "{spell} {l:?}"
        );
        assert!(
            spell <= l.partition_p_any_over_cap + 4.0 * se,
            "{spell} {l:?}"
        );
    }
}

#[test]
fn three_reels_on_two_partitions_bracket_the_enumeration() {
    // The keys 300, 300, 150, 150, 100 on two partitions: the runs of 300
    // and 150 are summed exactly, the key of 100 drawn (tilted). On two
    // partitions the chance is 2a - E[q(L1) q(L2)], inside the bracket;
    // the union bound is the enumeration's within 4 standard errors of
    // the draws (a false alarm about 1 in 16,000 runs), and so is each end
    // of the bracket's interval against the chance.
    for cap in [500.0, 600.0, 700.0] {
        let plan = three_reels(cap);
        let l = plan.partition_load(250.0, 2, 4_000);
        assert_eq!((l.exact_keys, l.exact_runs, l.rest_draws), (4, 2, 4_000));
        let keys = [300.0, 300.0, 150.0, 150.0, 100.0];
        let [second, spell, union] = enumerate(&keys, 2, cap, 3600.0);
        let se = l.partition_p_over_cap_se;
        assert!(
            (l.partition_p_over_cap_per_second - union.min(1.0)).abs() < 4.0 * se.max(1e-15),
            "cap {cap}: {} vs {union} (se {se})",
            l.partition_p_over_cap_per_second
        );
        assert!(l.partition_p_over_cap_lower - 4.0 * se <= second, "{l:?}");
        assert!(
            second <= l.partition_p_over_cap_per_second + 4.0 * se,
            "{l:?}"
        );
        // The spell's standard error from its interval's upper end (the
        // union bound at a + 1.96 se(a)).
        let se = (l.partition_p_any_over_cap_ci95[1] - l.partition_p_any_over_cap) / Z95;
        assert!(
            l.partition_p_any_over_cap_lower - 4.0 * se <= spell,
            "{l:?}"
        );
        assert!(spell <= l.partition_p_any_over_cap + 4.0 * se, "{l:?}");
    }
}

/// The interview's post at 2,915 keys over 1,000 partitions beside a
/// quiet background (1,000 likes a day over 1,000,000 Zipf reels): the
/// case of issue 58, whose sampled placements gave 1.5e-4 per second.
fn post_2915() -> FleetPlan {
    let mut plan = zipf_plan(1_000_000, 1_000.0 / 86_400.0 * 2.0, 1.0);
    plan.partitions = 1_000;
    plan.cap = 1_000.0;
    plan.seconds = 14_400;
    plan.threshold = 300.0;
    plan.pinned = vec![PinnedReel {
        name: "post".into(),
        rate: 200_000.0,
        shards: Some(2_915),
    }];
    plan
}

#[test]
fn the_pinned_post_is_bracketed_around_its_exact_risk() {
    // The exact chance of the post alone (`partitions`' risk: the
    // expectation over the multinomial placements in closed form, 5.852e-4
    // a second, 0.01104 over the 4 hours; an independent Levin computation
    // gave 5.85e-4 a second) is a floor on the fleet's, whose background
    // adds 1e-5 writes/s a partition: the bracket holds it, and the union
    // bound is within (P - 1) a^2 / 2 <= U^2 / 2 of the bound below
    // (1 - (1 - a)^P = P a - (P choose 2) a^2 + ...), so of it.
    let plan = post_2915();
    let l = plan.partition_load(300.0, 2_915, 400);
    assert_eq!((l.exact_keys, l.exact_runs), (2_915, 1));
    let exact = |seconds: f64| {
        let risk = PartitionRisk::new(200_000.0, 1_000.0, 1_000, seconds, TrafficModel::Poisson);
        risk.unwrap().at(2_915).p_any_over_cap
    };
    let (second, spell) = (exact(1.0), exact(14_400.0));
    assert!((second - 5.852e-4).abs() < 1e-7, "{second}");
    let check = |upper: f64, lower: f64, want: f64| {
        assert!(upper >= want, "{upper} below {want}");
        assert!(upper - want <= 0.5 * upper * upper, "{upper} above {want}");
        // The background lifts the chance a little above the post's:
        // 1e-5 writes/s against a slope of ln q about 0.1 per write/s.
        assert!(lower <= want * (1.0 + 1e-5), "{lower} above {want}");
    };
    check(
        l.partition_p_over_cap_per_second,
        l.partition_p_over_cap_lower,
        second,
    );
    check(
        l.partition_p_any_over_cap,
        l.partition_p_any_over_cap_lower,
        spell,
    );
    // The draws of the quiet rest hardly move it.
    assert!(l.partition_p_over_cap_se < 1e-7 * second, "{l:?}");
}

/// Brute force: `placements` placements of every key of `rates` on `p`
/// partitions (seeded), the mean and standard error of each one's exact
/// chance of some partition over `cap` in a second.
fn brute_force(rates: &[f64], p: u64, cap: f64, placements: u64) -> (f64, f64) {
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(58);
    let (mut sum, mut sq) = (0.0, 0.0);
    for _ in 0..placements {
        let mut load = vec![0.0; p as usize];
        for &r in rates {
            load[rng.random_range(0..p) as usize] += r;
        }
        let none: f64 = load.iter().map(|&l| 1.0 - q(l, cap)).product();
        sum += 1.0 - none;
        sq += (1.0 - none).powi(2);
    }
    let n = placements as f64;
    let mean = sum / n;
    (mean, ((sq / n - mean * mean) / (n - 1.0)).max(0.0).sqrt())
}

#[test]
fn three_of_a_hundred_heavy_reels_on_one_partition_are_not_missed() {
    // 100 reels of about 400 likes/s (not raised), cap 1,000, 1,000
    // partitions: a partition goes over when three of them share it, one
    // in 6,000 for a partition. One key is summed exactly; a plain draw of
    // the other 99 would see two of them together once in 200 draws and
    // three once in 40,000: the tilted draws are not blind to it. Against
    // brute force within 4 combined standard errors.
    let rates: Vec<f64> = (0..100).map(|i| 400.0 - 0.001 * i as f64).collect();
    let mut plan = three_reels(1_000.0);
    plan.background = Background::rates(rates.clone()).unwrap();
    plan.partitions = 1_000;
    let l = plan.partition_load(500.0, 2, 4_000);
    let (brute, brute_se) = brute_force(&rates, 1_000, 1_000.0, 20_000);
    assert!(brute > 0.1 && brute < 0.2, "a useful test point: {brute}");
    let tol = 4.0 * (brute_se.powi(2) + l.partition_p_over_cap_se.powi(2)).sqrt();
    assert!(
        l.partition_p_over_cap_lower - tol <= brute,
        "{brute} vs {l:?}"
    );
    assert!(
        brute <= l.partition_p_over_cap_per_second + tol,
        "{brute} vs {l:?}"
    );
}

#[test]
fn the_interval_widens_the_bounds_by_the_draws_error() {
    let l: PartitionLoad = three_reels(600.0).partition_load(250.0, 2, 400);
    let [lo, hi] = l.partition_p_over_cap_ci95;
    assert!(lo <= l.partition_p_over_cap_lower);
    assert!(l.partition_p_over_cap_lower <= l.partition_p_over_cap_per_second);
    assert!(l.partition_p_over_cap_per_second <= hi && hi <= 1.0);
    // The upper end is the union bound at a + 1.96 se(a).
    let want = l.partition_p_over_cap_per_second + Z95 * l.partition_p_over_cap_se;
    assert!((hi - want).abs() < 1e-12, "{hi} vs {want}");
}
