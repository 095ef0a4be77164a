use std::collections::HashMap;

use super::*;
use crate::model::rng::chunk_rng;

/// The exact law of a server's labelled counts after `likes` likes over
/// `shards` shards, by the rule itself over every pair of draws (a second
/// method: count vectors, not profiles).
fn brute_law(shards: usize, likes: u64) -> HashMap<Vec<u32>, f64> {
    let mut law = HashMap::from([(vec![0u32; shards], 1.0)]);
    let pair = 1.0 / (shards * shards) as f64;
    for _ in 0..likes {
        let mut next = HashMap::new();
        for (sent, p) in &law {
            for first in 0..shards {
                for second in 0..shards {
                    let pick = if sent[second] < sent[first] {
                        second
                    } else {
                        first
                    };
                    let mut to = sent.clone();
                    to[pick] += 1;
                    *next.entry(to).or_insert(0.0) += p * pair;
                }
            }
        }
        law = next;
    }
    law
}

/// The profile of a count vector: shards at each level above the least.
fn profile_of(sent: &[u32]) -> Vec<u32> {
    let least = *sent.iter().min().unwrap();
    let top = *sent.iter().max().unwrap() - least;
    (0..=top)
        .map(|l| sent.iter().filter(|&&n| n - least == l).count() as u32)
        .collect()
}

#[test]
fn the_kept_masses_are_the_rule_s_exact_law() {
    // Nothing pruned (keep 0): each step's profile masses equal the
    // brute-force law summed by profile, to rounding.
    for shards in 1..=4 {
        let chain = ServerChain::build(shards, (1, 6), 0.0, MAX_ENTRIES).unwrap();
        for likes in 1..=6u64 {
            let mut want: HashMap<Vec<u32>, f64> = HashMap::new();
            for (sent, p) in brute_law(shards, likes) {
                *want.entry(profile_of(&sent)).or_insert(0.0) += p;
            }
            let step = &chain.steps[(likes - 1) as usize];
            assert_eq!(step.kept.len(), want.len(), "{shards} shards, {likes}");
            for &(at, m) in &step.kept {
                let profile = chain.profile(at).to_vec();
                assert!((want[&profile] - m).abs() < 1e-14, "{profile:?}: {m}");
            }
            assert_eq!(chain.left_by[likes as usize], 0.0);
        }
    }
}

#[test]
fn seconds_drawn_through_exits_follow_the_exact_law() {
    // 4 shards, 8 likes, profiles under 5 % of a step's mass pruned: about
    // a quarter of the seconds (0.235) leave the tables and finish like by like.
    // Each labelled count vector's frequency over 200,000 seconds is
    // within 5 standard errors (sqrt(p(1-p)/N)) of its exact chance; 165
    // vectors, so a false alarm is under 1e-4.
    let (shards, likes, n) = (4usize, 8u64, 200_000u32);
    let chain = ServerChain::build(shards, (1, likes), 0.05, MAX_ENTRIES).unwrap();
    assert!(
        chain.left_by[likes as usize] > 0.1,
        "{}",
        chain.left_by[likes as usize]
    );
    let mut rng = chunk_rng(34, 7);
    let (mut sent, mut order) = (vec![0u32; shards], (0..shards as u32).collect::<Vec<_>>());
    let mut seen: HashMap<Vec<u32>, u32> = HashMap::new();
    let mut counts = vec![0u64; shards];
    for _ in 0..n {
        counts.fill(0);
        chain.add_server_second(&mut rng, likes, (&mut sent, &mut order), &mut counts);
        let v: Vec<u32> = counts.iter().map(|&c| c as u32).collect();
        *seen.entry(v).or_insert(0) += 1;
    }
    let law = brute_law(shards, likes);
    assert_eq!(law.len(), 165);
    for (v, p) in &law {
        let f = f64::from(seen.get(v).copied().unwrap_or(0)) / f64::from(n);
        let se = (p * (1.0 - p) / f64::from(n)).sqrt();
        assert!((f - p).abs() <= 5.0 * se + 1e-12, "{v:?}: {f} vs {p}");
    }
    assert!(seen.keys().all(|v| law.contains_key(v)));
}

#[test]
fn the_reference_tables_are_small_and_rarely_left() {
    // 20 shards, a server's 250..=450 likes a second (14,000 likes/s over
    // 40 servers): the build keeps a few thousand profiles a step, and
    // 1.1 % of 350-like seconds leave them.
    let chain = ServerChain::build(20, (250, 450), KEEP, MAX_ENTRIES).unwrap();
    let kept = chain.steps[100].kept.len();
    assert!((1000..5000).contains(&kept), "{kept}");
    let left = chain.left_by[350];
    assert!((0.005..0.03).contains(&left), "{left}");
    assert!(chain.covers(250) && chain.covers(450) && !chain.covers(451) && !chain.covers(249));
}

#[test]
fn a_build_past_its_entries_gives_up() {
    assert!(ServerChain::build(20, (1, 450), KEEP, 10_000).is_none());
    // 50 shards intern past MAX_PROFILE_WORDS before 450 likes.
    assert!(ServerChain::build(50, (250, 450), KEEP, MAX_ENTRIES).is_none());
    assert!(ServerChain::build(0, (1, 4), KEEP, MAX_ENTRIES).is_none());
}

#[test]
fn sampled_seconds_are_stable_per_seed() {
    // Value stability (as rand_distr pins its samplers): the first seconds
    // of seed 34's stream 1 at the reference tables.
    let chain = ServerChain::build(20, (250, 450), KEEP, MAX_ENTRIES).unwrap();
    let mut rng = chunk_rng(34, 1);
    let (mut sent, mut order) = (vec![0u32; 20], (0..20u32).collect::<Vec<_>>());
    let mut counts = vec![0u64; 20];
    for _ in 0..3 {
        chain.add_server_second(&mut rng, 350, (&mut sent, &mut order), &mut counts);
    }
    assert_eq!(counts.iter().sum::<u64>(), 1050);
    assert_eq!(
        counts,
        [51, 52, 51, 54, 52, 50, 54, 52, 52, 53, 53, 51, 55, 53, 53, 53, 51, 53, 52, 55]
    );
}

#[test]
fn reference_seconds_from_the_tables_match_the_rule_like_by_like() {
    // 350 likes over 20 shards (the reference server's second), 40,000
    // seconds each way: the law of the server's busiest shard from the
    // tables (exits included) and from the rule drawn like by like agree.
    // Each value's two frequencies differ by under 5 standard errors of a
    // difference, sqrt(2 p (1 - p) / N), p their mean.
    let chain = ServerChain::build(20, (250, 450), KEEP, MAX_ENTRIES).unwrap();
    let n = 40_000usize;
    let (mut sent, mut order) = (vec![0u32; 20], (0..20u32).collect::<Vec<_>>());
    let mut counts = vec![0u64; 20];
    let mut tally = [[0u32; 40]; 2];
    let mut rng = chunk_rng(34, 11);
    for _ in 0..n {
        counts.fill(0);
        chain.add_server_second(&mut rng, 350, (&mut sent, &mut order), &mut counts);
        tally[0][(*counts.iter().max().unwrap() - 10) as usize] += 1;
        counts.fill(0);
        super::super::two_choice::add_server_second(&mut rng, 350, &mut sent, &mut counts);
        tally[1][(*counts.iter().max().unwrap() - 10) as usize] += 1;
    }
    for (v, (&a, &b)) in tally[0].iter().zip(&tally[1]).enumerate() {
        let (a, b) = (f64::from(a) / n as f64, f64::from(b) / n as f64);
        let p = (a + b) / 2.0;
        let se = (2.0 * p * (1.0 - p) / n as f64).sqrt();
        assert!(
            (a - b).abs() <= 5.0 * se + 1e-12,
            "busiest {}: {a} vs {b}",
            v + 10
        );
    }
}
