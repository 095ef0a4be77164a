//! Outside checks of the approximate-counter formulas in
//! `compare::approx`: a HyperLogLog built here against 1.04 / sqrt(m), and
//! real Count-Min sketches against the Markov false-raise bound.

use shardplan::model::compare::approx::*;

/// SplitMix64's finaliser: a well-mixed 64-bit hash of a distinct id.
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The raw HyperLogLog estimate with 2^p registers (Flajolet et al. 2007,
/// Fig. 3): register = max rank of the first 1-bit after the p index bits;
/// E = alpha_m m^2 / sum 2^-M. n here is far above 5m/2, so no small-range
/// correction is needed.
fn hll_estimate(items: impl Iterator<Item = u64>, p: u32) -> f64 {
    let m = 1usize << p;
    let mut regs = vec![0u8; m];
    for x in items {
        let h = mix(x);
        let idx = (h >> (64 - p)) as usize;
        let rest = (h << p) | (1 << (p - 1));
        let rank = rest.leading_zeros() as u8 + 1;
        regs[idx] = regs[idx].max(rank);
    }
    let mf = m as f64;
    let alpha = 0.7213 / (1.0 + 1.079 / mf);
    let z: f64 = regs.iter().map(|&r| 2f64.powi(-(r as i32))).sum();
    alpha * mf * mf / z
}

#[test]
fn hll_relative_error_matches_1_04_over_sqrt_m() {
    // 40 HLLs of 16,384 registers over 500,000 distinct ids each (disjoint
    // id ranges). The sample sd of the relative error estimates
    // 1.04 / 128 = 0.8125%; with 40 trials its own relative standard error
    // is about 1 / sqrt(2 x 39) = 11%, so we allow 35% (3 se).
    let n = 500_000u64;
    let trials = 40u64;
    let errs: Vec<f64> = (0..trials)
        .map(|t| hll_estimate(t * n..(t + 1) * n, 14) / n as f64 - 1.0)
        .collect();
    let mean = errs.iter().sum::<f64>() / trials as f64;
    let sd = (errs.iter().map(|e| (e - mean).powi(2)).sum::<f64>() / (trials - 1) as f64).sqrt();
    let want = hll_standard_error(REDIS_HLL_REGISTERS);
    eprintln!("HLL m = 16384: sd {sd:.5}, mean {mean:.5}, formula {want}");
    assert!((sd / want - 1.0).abs() < 0.35, "sd {sd} vs {want}");
    // The estimator is unbiased to well within its se: mean within 3 x sd / sqrt(40).
    assert!(
        mean.abs() < 3.0 * want / (trials as f64).sqrt(),
        "bias {mean}"
    );
}

#[test]
fn count_min_sketches_stay_under_the_markov_bound() {
    // The viral post's fleet: one 200K/s reel in the sketch. The Markov
    // bound says <= ~912 false raises; a real sketch raises a cold reel
    // only if it shares the viral reel's cell in all 5 rows,
    // P ~ (1/2719)^5, so none in practice.
    let i = ApproxInputs::new(200_000.0, 50_000.0, 286, 1000.0, 60.0).unwrap();
    let bound = count_min_detection(&i).unwrap().expected_false_raises;
    let sim = simulate_count_min_false_raises(&i, 4, 7).unwrap();
    assert!(sim <= bound, "{sim} > {bound}");
    assert_eq!(sim, 0.0);
}

#[test]
fn count_min_bound_holds_where_collisions_matter() {
    // A narrow sketch (epsilon 0.02: 136 wide, depth 2) over a heavier fleet
    // (1e9 likes/day = 11,574/s over 10,000 reels, Zipf 1, top reel 1,183/s),
    // threshold 300: plenty of cold reels collide with hot ones. The
    // simulated mean over 20 sketches must stay under the Markov bound;
    // a single sketch's count is at most 10,000, so the mean's sd is below
    // 10,000 / sqrt(20) in the worst case; the check is one-sided.
    let mut i = ApproxInputs::new(1.0, 1.0, 1, 1000.0, 1.0).unwrap();
    i.likes_per_day = 1e9;
    i.reels = 10_000;
    i.epsilon = 0.02;
    i.delta = 0.2;
    let d = count_min_detection(&i).unwrap();
    assert_eq!((d.width, d.depth), (136, 2));
    let sim = simulate_count_min_false_raises(&i, 20, 5).unwrap();
    assert!(sim > 0.0, "the case should raise some cold reels");
    assert!(
        sim <= d.expected_false_raises,
        "{sim} > {}",
        d.expected_false_raises
    );
    eprintln!(
        "narrow sketch: simulated {sim}, Markov bound {}",
        d.expected_false_raises
    );
}

#[test]
fn random_stream_is_reproducible() {
    // Same seed, same answer (one stream per trial).
    let mut i = ApproxInputs::new(5_000.0, 1.0, 1, 1000.0, 1.0).unwrap();
    i.reels = 20_000;
    i.epsilon = 0.05;
    let a = simulate_count_min_false_raises(&i, 3, 9).unwrap();
    let b = simulate_count_min_false_raises(&i, 3, 9).unwrap();
    assert_eq!(a, b);
}
