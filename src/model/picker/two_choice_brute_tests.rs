//! Two-choice's figure against every placement and every split of small
//! seconds: 2 to 4 servers, 2 to 5 shards, up to 8 likes.

use std::collections::HashMap;

use super::risk::key_over_cap;
use super::two_choice_bound::{ln_busiest_over, Second};
use super::{Picker, Writers};
use crate::model::exact::special::ln_dbinom;
use crate::model::exact::OverCap;
use crate::model::law::TrafficModel;

/// Every count vector a two-choice server leaves after `n` likes over `s`
/// shards, with its exact chance, by the rule itself (two uniform draws,
/// the one this server sent fewer likes to, the first on a tie).
fn server_vectors(s: usize, n: u32) -> Vec<(Vec<u32>, f64)> {
    let mut states: Vec<(Vec<u32>, f64)> = vec![(vec![0; s], 1.0)];
    for _ in 0..n {
        let mut next: HashMap<Vec<u32>, f64> = HashMap::new();
        for (v, p) in &states {
            for a in 0..s {
                for b in 0..s {
                    let mut w = v.clone();
                    w[if v[b] < v[a] { b } else { a }] += 1;
                    *next.entry(w).or_default() += p / (s * s) as f64;
                }
            }
        }
        states = next.into_iter().collect();
    }
    states
}

/// The shards' totals after `likes` likes split uniformly over `servers`
/// servers (server `i` takes Binomial(left, 1 / (K - i)) of what the ones
/// before it left: the multinomial), every outcome with its chance.
fn totals(s: usize, servers: u32, likes: u32) -> HashMap<Vec<u32>, f64> {
    let laws: Vec<_> = (0..=likes).map(|n| server_vectors(s, n)).collect();
    let mut states: HashMap<Vec<u32>, f64> = HashMap::from([(vec![0; s], 1.0)]);
    for i in 0..servers {
        let mut next: HashMap<Vec<u32>, f64> = HashMap::new();
        for (v, p) in &states {
            let left = likes - v.iter().sum::<u32>();
            let last = i + 1 == servers;
            let share = 1.0 / f64::from(servers - i);
            for n in (0..=left).filter(|&n| !last || n == left) {
                let split = match last {
                    true => 1.0,
                    false => ln_dbinom(u64::from(n), u64::from(left), share, 1.0 - share).exp(),
                };
                for (w, q) in &laws[n as usize] {
                    let sum: Vec<u32> = v.iter().zip(w).map(|(a, b)| a + b).collect();
                    *next.entry(sum).or_default() += p * q * split;
                }
            }
        }
        states = next;
    }
    states
}

#[test]
fn the_bound_holds_over_every_placement_and_split() {
    // For every cap below the second's likes: two-choice's own bound and
    // key_over_cap's two-choice figure (the lower of it and random's law)
    // are at least the exact P(busiest > cap) (to rounding), and so, in
    // these cases, is random's exact figure: two-choice never balances
    // worse than random picks here.
    for servers in 2..=4u32 {
        for s in 2..=5usize {
            for likes in [1, 2, 3, 5, 8] {
                let all = totals(s, servers, likes);
                let total: f64 = all.values().sum();
                assert!((total - 1.0).abs() < 1e-12, "{total}");
                for cap in 0..likes {
                    let exact: f64 = all
                        .iter()
                        .filter(|(v, _)| v.iter().any(|&x| x > cap))
                        .map(|e| e.1)
                        .sum();
                    let writers = Writers::new(Picker::TwoChoice, u64::from(servers)).unwrap();
                    let (rate, shards, c) = (f64::from(likes), s as u64, f64::from(cap));
                    let bound = key_over_cap(rate, shards, c, TrafficModel::Fixed, writers)
                        .unwrap()
                        .ln_p_per_second
                        .exp();
                    let random = OverCap::compute(rate, shards, c, 1.0, TrafficModel::Fixed)
                        .unwrap()
                        .ln_p_per_second
                        .exp();
                    let own = ln_busiest_over(
                        Second::Count(u64::from(likes)),
                        u64::from(servers),
                        shards,
                        u64::from(cap),
                    )
                    .unwrap()
                    .exp();
                    let at = format!("K {servers} S {s} N {likes} cap {cap}");
                    assert!(own >= exact * (1.0 - 1e-12), "{at}: own {own} < {exact}");
                    assert!(bound >= exact * (1.0 - 1e-12), "{at}: {bound} < {exact}");
                    assert!(
                        random >= exact * (1.0 - 1e-12),
                        "{at}: random {random} < {exact}"
                    );
                }
            }
        }
    }
}
