use super::*;
use crate::model::law::TrafficModel::{Fixed, Poisson};
use statrs::distribution::{DiscreteCDF, Poisson as Pois};

/// Every one of the P^S equally likely placements, as shard counts per partition.
fn placements(s: u32, p: u32) -> Vec<Vec<u64>> {
    (0..p.pow(s))
        .map(|mut code| {
            let mut counts = vec![0u64; p as usize];
            for _ in 0..s {
                counts[(code % p) as usize] += 1;
                code /= p;
            }
            counts
        })
        .collect()
}

/// Brute force, Poisson traffic: the mean over placements of
/// 1 - prod_j P(Poisson(rate k_j / S) <= cap)^T (statrs' CDF).
fn brute_poisson(rate: f64, cap: u64, s: u32, p: u32, t: f64) -> f64 {
    let all = placements(s, p);
    let ok = |k: u64| match k {
        0 => 1.0,
        k => Pois::new(rate * k as f64 / s as f64).unwrap().cdf(cap),
    };
    let sum: f64 = all
        .iter()
        .map(|c| 1.0 - c.iter().map(|&k| ok(k).powf(t)).product::<f64>())
        .sum();
    sum / all.len() as f64
}

/// Brute force, fixed traffic: per placement, the chance one second keeps
/// every partition within the cap, by listing the S^L ways L likes pick
/// shards; then 1 - that^T, averaged over placements.
fn brute_fixed(likes: u32, cap: u64, s: u32, p: u32, t: f64) -> f64 {
    let all = placements(s, p);
    let mut total = 0.0;
    // Shard -> partition maps in the same order as `placements`.
    for code in 0..p.pow(s) {
        let mut map = vec![0usize; s as usize];
        let mut c = code;
        for m in map.iter_mut() {
            *m = (c % p) as usize;
            c /= p;
        }
        let ways = (s as u64).pow(likes);
        let mut fine = 0u64;
        for w in 0..ways {
            let mut load = vec![0u64; p as usize];
            let mut x = w;
            for _ in 0..likes {
                load[map[(x % s as u64) as usize]] += 1;
                x /= s as u64;
            }
            if load.iter().all(|&l| l <= cap) {
                fine += 1;
            }
        }
        total += 1.0 - (fine as f64 / ways as f64).powf(t);
    }
    total / all.len() as f64
}

#[test]
fn poisson_risk_matches_every_placement_listed() {
    // Tolerance 1e-9 relative: both sides are exact sums.
    for &(rate, cap, s, p, t) in &[
        (10.0, 6u64, 3u32, 3u32, 1.0),
        (10.0, 6, 3, 3, 100.0),
        (12.0, 5, 4, 3, 10.0),
        (8.0, 9, 5, 2, 50.0),
        (30.0, 20, 2, 4, 1000.0),
        (3.0, 6, 4, 4, 3600.0),
    ] {
        let r = PartitionRisk::new(rate, cap as f64, p as u64, t, Poisson).unwrap();
        let got = r.at(s as u64);
        let want = brute_poisson(rate, cap, s, p, t);
        assert_eq!(got.method, RiskMethod::Exact);
        assert!(
            (got.p_any_over_cap - want).abs() <= 1e-9 * want.max(1e-300),
            "{rate} {cap} {s} {p} {t}: {} vs {want}",
            got.p_any_over_cap
        );
        // The union bound brackets it: U - U^2/2 <= risk <= U.
        let u = r.ln_union_bound(s as u64).exp();
        assert!(
            want <= u * (1.0 + 1e-12) && want >= u - u * u / 2.0 - 1e-12,
            "{u} {want}"
        );
    }
}

#[test]
fn fixed_risk_is_an_upper_bound_that_holds_and_is_close_when_small() {
    for &(likes, cap, s, p, t) in &[
        (6u32, 3u64, 3u32, 2u32, 1.0),
        (8, 5, 3, 3, 10.0),
        (7, 5, 2, 3, 100.0),
        (8, 7, 4, 2, 5.0),
    ] {
        let r = PartitionRisk::new(likes as f64, cap as f64, p as u64, t, Fixed).unwrap();
        let got = r.at(s as u64);
        let want = brute_fixed(likes, cap, s, p, t);
        assert_eq!(got.method, RiskMethod::UpperBound);
        assert!(
            got.p_any_over_cap >= want * (1.0 - 1e-12),
            "{got:?} vs {want}"
        );
        // The union bound overshoots by at most the pairwise terms, which
        // are at most (U/P)^2 per pair only for Poisson; here just check it
        // is a bound within a factor the partition count allows.
        assert!(
            got.p_any_over_cap <= (want * p as f64).min(1.0) + 1e-12,
            "{got:?} vs {want}"
        );
    }
}

#[test]
fn one_partition_is_the_whole_load() {
    let r = PartitionRisk::new(14_000.0, 1_000.0, 1, 3600.0, Poisson).unwrap();
    assert_eq!(r.at(20).p_any_over_cap, 1.0);
    let low = PartitionRisk::new(100.0, 1_000.0, 1, 3600.0, Fixed).unwrap();
    assert_eq!(low.at(5).p_any_over_cap, 0.0);
    assert_eq!(low.sizing(0.01, 1, 1000).shards, Some(1));
    // 14,000/s never fits one partition of 1,000: no count, found at once.
    assert_eq!(r.sizing(0.01, 1, 100_000).shards, None);
}

#[test]
fn reference_twenty_shards_share_a_partition_one_time_in_six() {
    // 20 shards of 700/s on 1,000 partitions: a partition over 1,000 is, to
    // within the tiny chance of a lone shard going over, two or more
    // shards sharing one, the birthday bound 1 - prod (1 - i/1000) = 0.1744.
    let r = PartitionRisk::new(14_000.0, 1_000.0, 1_000, 14_400.0, Poisson).unwrap();
    let got = r.at(20).p_any_over_cap;
    let birthday = crate::model::partitions::p_shared_partition(20, 1_000);
    assert!((got - birthday).abs() < 1e-6, "{got} vs {birthday}");
}

#[test]
fn the_fewest_count_meeting_the_risk_is_not_monotone() {
    // 14,000 likes/s, cap 1,000, 1,000 partitions, 4 h, Poisson, 1%. Below
    // 33 a pair of shards on one partition goes over during the 14,400 s (at
    // 32 a pair carries 875/s, and Poisson noise reaches 1,000 in some
    // second). From 33 a pair fits (848) but three do not (1,273); the chance of three on
    // one partition, about C(S, 3) / 1,000^2, grows with S and passes 1% at
    // 41 (C(41, 3) = 10,660). At 48 three fit (875) and only four go over.
    // So 33 is the fewest, 41..=47 fail, and 48 is the fewest from which
    // every count up to 96 meets it.
    let r = PartitionRisk::new(14_000.0, 1_000.0, 1_000, 14_400.0, Poisson).unwrap();
    let sizing = r.sizing(0.01, 1, 100_000);
    assert_eq!(sizing.shards, Some(33));
    assert_eq!(sizing.stable, Some(48));
    assert_eq!(sizing.failing, vec![[41, 47]]);
    assert!(r.at(32).p_any_over_cap > 0.01 && r.at(33).p_any_over_cap <= 0.01);
    assert!(r.at(40).p_any_over_cap <= 0.01 && r.at(41).p_any_over_cap > 0.01);
    assert!((48..=96).all(|s| r.meets(s, 0.01)));
    // A floor above the failing band starts there.
    let from = r.sizing(0.01, 42, 100_000);
    assert_eq!((from.shards, from.stable), (Some(48), Some(48)));
    assert!(from.failing.is_empty());
    // The decisions agree with the exact figure everywhere.
    for s in 15..100 {
        assert_eq!(r.meets(s, 0.01), r.at(s).p_any_over_cap <= 0.01, "{s}");
    }
}

#[test]
fn ranges_group_consecutive_counts() {
    assert_eq!(ranges(&[3, 4, 5, 9]), vec![[3, 5], [9, 9]]);
    assert!(ranges(&[]).is_empty());
}

#[test]
fn meets_stops_summing_only_where_the_count_fails_anyway() {
    // `meets` stops the union bound's sum once it is past where the count
    // fails; its answers must be those of the whole sum, decided the same
    // way (U within the risk meets; for independent shards U - U^2/2 past
    // it fails, else the exact risk decides), at every count of a scan
    // that crosses the edge, for the three laws.
    use crate::model::law::{gamma_poisson::Dispersion, TrafficModel::GammaPoisson};
    let gamma = GammaPoisson(Dispersion::new("dispersion", 11.9).unwrap());
    for (rate, cap, p, model) in [
        (3_000.0, 500.0, 100, Poisson),
        (14_000.0, 1_000.0, 1_000, Fixed),
        (2_000.0, 300.0, 50, gamma),
    ] {
        let r = PartitionRisk::new(rate, cap, p, 14_400.0, model).unwrap();
        for risk in [0.01, 0.3] {
            let mut seen = [false; 2];
            for s in (1..200).step_by(3).chain((1..12).map(|i| i * 400)) {
                let u = r.ln_union_bound(s).exp();
                let whole = match model.split(rate).shards_independent() {
                    _ if u <= risk => true,
                    false => false,
                    true if u.min(1.0) - u.min(1.0).powi(2) / 2.0 > risk => false,
                    true => r.at(s).p_any_over_cap <= risk,
                };
                assert_eq!(r.meets(s, risk), whole, "{rate} {p} {risk} S = {s}");
                seen[whole as usize] = true;
            }
            assert_eq!(
                seen, [true; 2],
                "{rate} {p} {risk}: the scan crosses the edge"
            );
        }
    }
}

#[test]
fn sizing_from_a_floor_at_or_below_the_answer_is_the_sizing_from_one() {
    // The recommendation reuses the search from 1 for its floor when the
    // floor is at or below that search's answer: the same scan and walk.
    for (rate, cap, p, model) in [
        (3_000.0, 500.0, 100, Poisson),
        (14_000.0, 1_000.0, 1_000, Fixed),
        (200_000.0, 1_000.0, 1_000, Poisson),
    ] {
        let r = PartitionRisk::new(rate, cap, p, 14_400.0, model).unwrap();
        let from_one = r.sizing(0.01, 1, 20_000);
        let first = from_one.shards.expect("some count meets the risk");
        for floor in [1, first / 2, first.saturating_sub(1), first] {
            assert_eq!(
                r.sizing(0.01, floor, 20_000),
                from_one,
                "{rate} {p} floor {floor}"
            );
        }
        // Past it, the scan starts later: the answer is at least the floor.
        let later = r.sizing(0.01, first + 1, 20_000);
        assert!(later.shards.is_some_and(|s| s > first), "{rate} {p}");
    }
}

/// The pair term against brute force: `C(P, 2) E[g(K1) g(K2)]` is the sum
/// over partition pairs of the chance both go over, listed over every
/// placement (statrs' CDF), to 1e-9 relative.
#[test]
fn the_pair_term_is_the_sum_over_pairs_of_placements() {
    for (rate, cap, s, p) in [(40.0, 30, 4u32, 3u32), (25.0, 12, 5, 2), (60.0, 25, 3, 4)] {
        let t = 100.0;
        let g = |k: u64| match k {
            0 => 0.0,
            k => {
                1.0 - Pois::new(rate * k as f64 / s as f64)
                    .unwrap()
                    .cdf(cap)
                    .powf(t)
            }
        };
        let all = placements(s, p);
        let want: f64 = all
            .iter()
            .map(|c| {
                let mut pairs = 0.0;
                for i in 0..c.len() {
                    for j in i + 1..c.len() {
                        pairs += g(c[i]) * g(c[j]);
                    }
                }
                pairs
            })
            .sum::<f64>()
            / all.len() as f64;
        let r = PartitionRisk::new(rate, cap as f64, p as u64, t, Poisson).unwrap();
        let pf = p as f64;
        let got = pf * (pf - 1.0) / 2.0 * r.ln_pair_expectation(s as u64).exp();
        assert!(
            (got / want - 1.0).abs() < 1e-9,
            "{s} on {p}: {got} vs {want}"
        );
    }
}

/// Bonferroni's bracket holds around the exact risk (`U - S2 <= risk <= U -
/// S2 + U^3 / 6`), and where it decides a count it decides as the exact
/// figure does: risks just either side of the exact one, from a hair to
/// 10 % away, on shared partitions from 2 to 1,000.
#[test]
fn the_bracket_decides_as_the_exact_risk_does() {
    let mut decided = 0;
    for (rate, cap, p, shards) in [
        (3_000.0, 500.0, 100, 60),
        (3_000.0, 500.0, 100, 20),
        (14_000.0, 1_000.0, 1_000, 41),
        (900.0, 600.0, 2, 7),
        (900.0, 480.0, 3, 9),
        (31_778.0, 500.0, 100, 15_000),
    ] {
        let r = PartitionRisk::new(rate, cap, p, 14_400.0, Poisson).unwrap();
        let exact = r.exact_poisson(shards);
        let u = r.ln_union_bound(shards).exp();
        let pf = p as f64;
        let s2 = pf * (pf - 1.0) / 2.0 * r.ln_pair_expectation(shards).exp();
        let what = format!("{rate} cap {cap} on {p}, S = {shards}: exact {exact}, U {u}, S2 {s2}");
        assert!(exact > 1e-6 && exact < 0.999, "{what}");
        // Within the exact figure's rounding (1 - an expectation near 1),
        // far inside the slack of 1e-9 U + 1e-12 the bracket allows.
        let off = 1e-13 + 1e-10 * u;
        assert!(u - s2 <= exact + off, "{what}");
        assert!(exact <= u - s2 + u.powi(3) / 6.0 + off, "{what}");
        for rel in [1e-12, 1e-9, 1e-6, 1e-3, 0.1] {
            for risk in [exact * (1.0 - rel), exact * (1.0 + rel)] {
                if let Some(meets) = r.bonferroni_decides(shards, u, risk) {
                    assert_eq!(meets, exact <= risk, "{what}: risk {risk}");
                    decided += 1;
                }
            }
        }
    }
    assert!(decided >= 6, "{decided}");
}

/// Ended early within a level, the union bound's sum gives a bound at or
/// above the whole sum and within the level; otherwise the whole sum (at
/// counts where it is far below the level, near it and past it, for the
/// three laws).
#[test]
fn the_sum_ended_within_a_level_bounds_the_whole_sum() {
    use crate::model::law::{gamma_poisson::Dispersion, TrafficModel::GammaPoisson};
    let gamma = GammaPoisson(Dispersion::new("dispersion", 11.9).unwrap());
    let mut ended = 0;
    for (rate, cap, p, model) in [
        (3_000.0, 500.0, 100, Poisson),
        (14_000.0, 1_000.0, 1_000, Fixed),
        (2_000.0, 300.0, 50, gamma),
    ] {
        let r = PartitionRisk::new(rate, cap, p, 14_400.0, model).unwrap();
        for s in (1..200).step_by(7).chain([400, 2_000, 4_400]) {
            let whole = r.ln_union_bound(s);
            for level in [whole - 1.0, whole + 1e-9, whole + 0.1, whole + 5.0] {
                let early = Early {
                    past: f64::INFINITY,
                    within: level,
                };
                let got = r.ln_union_bound_until(s, early);
                if got == whole {
                    continue;
                }
                ended += 1;
                assert!(got <= level, "{rate} {p} S = {s}: {got} > {level}");
                assert!(got >= whole - 1e-12, "{rate} {p} S = {s}: {got} < {whole}");
            }
        }
    }
    assert!(ended > 20, "{ended}");
}

#[test]
fn the_screen_brackets_the_union_bound_and_changes_no_answer() {
    // The sizing scan's screen (`screen.rs`) reads a partition's chance off
    // a grid of shares: its bracket must hold the union bound, and the
    // screened decisions must be `meets`' own, at every count of a scan
    // across the answer, for the three laws.
    use crate::model::law::{gamma_poisson::Dispersion, TrafficModel::GammaPoisson};
    let gamma = GammaPoisson(Dispersion::new("dispersion", 11.9).unwrap());
    for (rate, cap, p, model) in [
        (3_000.0, 500.0, 100, Poisson),
        (14_000.0, 1_000.0, 1_000, Fixed),
        (2_000.0, 300.0, 50, gamma),
        (31_778.0, 500.0, 100, Poisson),
    ] {
        let r = PartitionRisk::new(rate, cap, p, 14_400.0, model).unwrap();
        let grid = screen::ShareGrid::new(&r);
        for s in (1..400).chain((1..40).map(|i| i * 997)) {
            let u = r.ln_union_bound(s).exp();
            let (lower, upper) = grid.bracket(s);
            assert!(
                lower <= u && u <= upper,
                "S {s}: {u} outside [{lower}, {upper}]"
            );
            for risk in [0.01, 0.3] {
                assert_eq!(
                    r.meets_screened(&grid, s, risk),
                    r.meets(s, risk),
                    "S {s} risk {risk}"
                );
            }
        }
    }
}
