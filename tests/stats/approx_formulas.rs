//! Outside checks of the approximate-counter formulas in
//! `compare::approx`: a HyperLogLog built here against 1.04 / sqrt(m), and
//! real Count-Min sketches against the Markov false-raise bound.

use rand::RngExt;
use shardplan::model::compare::approx::*;
use shardplan::model::rng::chunk_rng;
use shardplan::model::zipf::Zipf;

/// SplitMix64's finaliser: a well-mixed 64-bit hash of a distinct id.
use shardplan::model::rng::mix64 as mix;

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

/// The false raises of real sketches: builds `trials` Count-Min sketches
/// (fully random column per reel and row, one stream per trial:
/// [`chunk_rng`]`(seed, trial)`),
/// adds the hot reel's peak and every fleet reel's Zipf rate, and counts
/// the reels below the threshold whose estimate (the minimum over rows)
/// reaches it. Returns the mean over trials. This checks how loose the
/// Markov bound of `count_min_detection` is: with one viral reel a cold
/// reel is raised only if it shares the viral reel's cell in all d rows.
fn simulate_count_min_false_raises(
    inputs: &ApproxInputs,
    trials: u64,
    seed: u64,
) -> Result<f64, shardplan::error::ParamError> {
    use rayon::prelude::*;
    inputs.validate()?;
    shardplan::model::validate::count("trials", trials, 10_000)?;
    let size = CountMinSize::new(inputs.epsilon, inputs.delta)?;
    let (w, d) = (size.width as usize, size.depth as usize);
    // Reel 0 is the viral reel; 1.. the fleet by rank.
    let mut rates = vec![inputs.rate];
    rates.extend(Zipf::new(inputs.reels, inputs.zipf_s).rates(inputs.fleet_rate()));
    let raised: u64 = (0..trials)
        .into_par_iter()
        .map(|t| {
            let stream = chunk_rng(seed, t);
            let mut cells = vec![0.0f64; w * d];
            let mut rng = stream.clone();
            for &r in &rates {
                for row in 0..d {
                    cells[row * w + rng.random_range(0..w)] += r;
                }
            }
            // Replay the same stream: each reel reads the cells it was added to.
            let mut rng = stream;
            let mut raised = 0u64;
            for (i, &r) in rates.iter().enumerate() {
                let mut estimate = f64::INFINITY;
                for row in 0..d {
                    estimate = estimate.min(cells[row * w + rng.random_range(0..w)]);
                }
                if i > 0 && r < inputs.threshold && estimate >= inputs.threshold {
                    raised += 1;
                }
            }
            raised
        })
        .sum();
    Ok(raised as f64 / trials as f64)
}
