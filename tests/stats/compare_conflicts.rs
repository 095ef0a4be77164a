//! The transaction conflict model (src/model/compare/exactly_once.rs) against a
//! seeded simulation of transaction starts: a Poisson count a second, each
//! start placed uniformly in its second, a start within d ms of the previous
//! one conflicting.

use rand::RngExt;
use rand_distr::{Distribution, Poisson};
use shardplan::model::compare::exactly_once::ConflictModel;
use shardplan::model::rng::chunk_rng;

/// The gaps between Poisson arrivals are independent, so the conflict
/// indicators are independent Bernoulli(p): the estimate's standard error is
/// sqrt(p (1 - p) / n). Five standard errors: a false failure about once in
/// 1.7 million runs (and the seeds are fixed, so a pass stays a pass).
fn check(rate: f64, txn_ms: f64, seconds: u64, seed: u64) {
    let p = ConflictModel::new(rate, txn_ms, 2.0).unwrap().p_conflict();
    let (conflicts, n) = simulate_conflicts(rate, txn_ms, seconds, seed);
    assert!(n > 0);
    let est = conflicts as f64 / n as f64;
    let se = (p * (1.0 - p) / n as f64).sqrt();
    eprintln!("rate {rate}, {txn_ms} ms: simulated {est:.5} vs model {p:.5} (se {se:.1e}, n {n})");
    assert!(
        (est - p).abs() <= 5.0 * se,
        "rate {rate}, {txn_ms} ms: simulated {est} vs model {p} (se {se}, n {n})"
    );
}

#[test]
fn conflict_probability_matches_simulation() {
    // 350/s per shard (14,000 over 40 transactional shards), 2 ms: p = 0.503.
    check(350.0, 2.0, 2_000, 2026);
    // The default 10 ms at the conflict-aware sizing's ~113/s: p = 0.677.
    check(112.9, 10.0, 4_000, 7);
    // Rare conflicts: 20/s, 1 ms: p = 0.0198.
    check(20.0, 1.0, 20_000, 11);
    // Near-certain conflicts: 700/s, 10 ms: p = 0.9991.
    check(700.0, 10.0, 1_000, 3);
}

#[test]
fn expected_cancellations_match_simulation() {
    // Cancellations a second on the shard = r p (first attempts; retries
    // conflict with the same p under the model, adding r p / (1 - p) in all).
    let (rate, ms, seconds) = (350.0, 2.0, 2_000u64);
    let c = ConflictModel::new(rate, ms, 2.0).unwrap().conflicts();
    let (conflicts, _) = simulate_conflicts(rate, ms, seconds, 99);
    let per_second = conflicts as f64 / seconds as f64;
    let expected = rate * c.p_conflict;
    // Count over 2,000 s: variance about r p (1 - p) + the Poisson count's
    // own variance r p^2, so the per-second SE is sqrt(r p / seconds).
    let se = (rate * c.p_conflict / seconds as f64).sqrt();
    assert!(
        (per_second - expected).abs() <= 5.0 * se,
        "{per_second} vs {expected} (se {se})"
    );
    // And the retries they cause, summed over the geometric attempts.
    let total = c.cancellations_per_second;
    assert!((total - expected / (1.0 - c.p_conflict)).abs() < 1e-9 * total);
}

/// Seeded simulation of the conflict rule on one shard: `seconds` seconds,
/// a Poisson(rate) count of transaction starts in each, placed uniformly in
/// the second; a start less than `txn_ms` after the previous start (also
/// across a second boundary) conflicts. Returns (conflicts, transactions).
fn simulate_conflicts(rate_per_shard: f64, txn_ms: f64, seconds: u64, seed: u64) -> (u64, u64) {
    let mut rng = chunk_rng(seed, 0);
    let Ok(poisson) = Poisson::new(rate_per_shard) else {
        return (0, 0);
    };
    let d = txn_ms / 1000.0;
    let mut last = f64::NEG_INFINITY;
    let (mut conflicts, mut total) = (0u64, 0u64);
    let mut times = Vec::new();
    for second in 0..seconds {
        let n = poisson.sample(&mut rng) as usize;
        times.clear();
        times.extend((0..n).map(|_| second as f64 + rng.random::<f64>()));
        times.sort_by(f64::total_cmp);
        for &t in &times {
            if t - last < d {
                conflicts += 1;
            }
            last = t;
            total += 1;
        }
    }
    (conflicts, total)
}
