//! HyperLogLog and Count-Min: the error and memory of one HLL per post,
//! and Count-Min as the fleet's hot-reel detector (the Markov bound on its
//! false raises, and real sketches to check it).

use serde::Serialize;

use super::ApproxInputs;
use crate::error::ParamResult;
use crate::model::validate;
use crate::model::zipf::Zipf;

/// Redis HyperLogLog: 2^14 registers of 6 bits (hyperloglog.c, HLL_P = 14).
pub const REDIS_HLL_REGISTERS: u64 = 16_384;
/// Bits of one Redis HyperLogLog register.
pub const REDIS_HLL_BITS: u64 = 6;
/// Redis HLL header: "HYLL" magic 4 + encoding 1 + unused 3 + cached cardinality 8.
pub const REDIS_HLL_HEADER_BYTES: u64 = 16;
/// RedisBloom's Count-Min counters are 32-bit.
pub const COUNT_MIN_COUNTER_BYTES: u64 = 4;

/// HyperLogLog relative standard error with `m` registers: 1.04 / sqrt(m)
/// (Flajolet, Fusy, Gandouet, Meunier 2007, "HyperLogLog: the analysis of a
/// near-optimal cardinality estimation algorithm", Theorem 1: beta_m / sqrt(m),
/// beta_m -> 1.03896).
pub fn hll_standard_error(registers: u64) -> f64 {
    1.04 / (registers as f64).sqrt()
}

/// Bytes of a dense Redis HLL: header + 16,384 x 6 bits = 16 + 12,288
/// (hyperloglog.c: HLL_DENSE_SIZE = HLL_HDR_SIZE + (HLL_REGISTERS*HLL_BITS+7)/8).
/// Small HLLs start sparse and are smaller; a hot post's is dense.
pub fn redis_hll_dense_bytes() -> u64 {
    REDIS_HLL_HEADER_BYTES + (REDIS_HLL_REGISTERS * REDIS_HLL_BITS).div_ceil(8)
}

// ----------------------------------------------------------- Count-Min

/// Count-Min dimensions for error share `epsilon` with probability
/// `1 - delta`: width w = ceil(e / epsilon), depth d = ceil(ln(1 / delta))
/// (Cormode & Muthukrishnan 2005, "An improved data stream summary: the
/// count-min sketch and its applications", Theorem 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct CountMinSize {
    /// Counters per row, w.
    pub width: u64,
    /// Rows (independent hashes), d.
    pub depth: u64,
}

impl CountMinSize {
    /// The dimensions for error share `epsilon` and failure probability `delta`
    /// (errors name the parameters `epsilon` and `delta`).
    pub fn new(epsilon: f64, delta: f64) -> ParamResult<Self> {
        validate::probability_open("epsilon", epsilon)?;
        validate::probability_open("delta", delta)?;
        Ok(CountMinSize {
            width: (std::f64::consts::E / epsilon).ceil() as u64,
            depth: (1.0 / delta).ln().ceil() as u64,
        })
    }

    /// Sketch bytes: w x d counters (RedisBloom: 4 bytes each).
    pub fn bytes(&self) -> u64 {
        self.width * self.depth * COUNT_MIN_COUNTER_BYTES
    }

    /// Bound on P(estimate - truth >= gap) for one item, N the sketch's
    /// total count. One row's overcount X is the sum of the other items in
    /// its cell, E\[X\] <= N / w, so Markov gives P(X >= gap) <= N / (w gap);
    /// the d rows use independent hashes, and the estimate is their minimum,
    /// so P(min >= gap) <= (N / (w gap))^d (the proof of C&M 2005 Thm 1, with
    /// gap = epsilon N this is e^-d <= delta). Capped at 1.
    pub fn p_overcount_at_least(&self, total: f64, gap: f64) -> f64 {
        if gap <= 0.0 {
            return 1.0;
        }
        let per_row = total / (self.width as f64 * gap);
        per_row.min(1.0).powi(self.depth as i32)
    }
}

/// What Count-Min costs as the hot-reel detector.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct HotDetection {
    /// Sketch width, w.
    pub width: u64,
    /// Sketch depth, d.
    pub depth: u64,
    /// Sketch bytes (w x d counters of 4 bytes).
    pub sketch_bytes: u64,
    /// Likes/s the sketch counts: the hot reel's peak + the fleet's mean.
    pub window_rate: f64,
    /// epsilon x N: the overcount bound, likes/s (holds with P >= 1 - delta).
    pub error_bound: f64,
    /// Fleet reels truly at or above the threshold.
    pub reels_truly_above: u64,
    /// Expected fleet reels below the threshold reported above it (upper bound).
    pub expected_false_raises: f64,
    /// Extra shard items they cost: false raises x (target_shards - 1).
    pub extra_items: f64,
}

/// Count-Min as the hot-reel detector: the fleet's reels follow Zipf(s)
/// with the fleet's mean rate; the hot reel adds its peak to the sketch's
/// total N. A reel at true rate r < threshold T is falsely raised when its
/// overcount reaches T - r; summing the per-reel bound
/// [`CountMinSize::p_overcount_at_least`] gives the expected number (an upper
/// bound: Markov per row, independent rows). Count-Min never undercounts,
/// so there are no missed hot reels. Rates and counts scale together, so the
/// window length cancels out of N / (w (T - r)).
pub fn count_min_detection(inputs: &ApproxInputs) -> ParamResult<HotDetection> {
    inputs.validate()?;
    let size = CountMinSize::new(inputs.epsilon, inputs.delta)?;
    let fleet = inputs.fleet_rate();
    let total = inputs.rate + fleet;
    let zipf = Zipf::new(inputs.reels, inputs.zipf_s);
    let mut above = 0u64;
    let mut false_raises = 0.0;
    for k in 1..=inputs.reels {
        let r = zipf.rate(k, fleet);
        if r >= inputs.threshold {
            above += 1;
        } else {
            false_raises += size.p_overcount_at_least(total, inputs.threshold - r);
        }
    }
    Ok(HotDetection {
        width: size.width,
        depth: size.depth,
        sketch_bytes: size.bytes(),
        window_rate: total,
        error_bound: inputs.epsilon * total,
        reels_truly_above: above,
        expected_false_raises: false_raises,
        extra_items: false_raises * (inputs.target_shards - 1) as f64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::compare::approx::tests::inputs;

    #[test]
    fn hll_error_with_redis_registers_is_0_8125_percent() {
        // 1.04 / sqrt(16384) = 1.04 / 128 = 0.008125 exactly (a power-of-two divide).
        assert_eq!(hll_standard_error(REDIS_HLL_REGISTERS), 0.008125);
    }

    #[test]
    fn redis_dense_hll_is_12_kb_plus_header() {
        // 16,384 x 6 / 8 = 12,288 register bytes + 16 header bytes.
        assert_eq!(redis_hll_dense_bytes(), 12_304);
    }

    #[test]
    fn count_min_dimensions() {
        // e / 0.001 = 2718.28 -> 2719; ln(1 / 0.01) = 4.605 -> 5.
        let cm = CountMinSize::new(0.001, 0.01).unwrap();
        assert_eq!((cm.width, cm.depth), (2719, 5));
        assert_eq!(cm.bytes(), 2719 * 5 * 4);
        assert_eq!(cm.bytes(), 54_380);
        // e / 0.01 = 271.8 -> 272; ln(1 / 0.001) = 6.9 -> 7.
        let cm = CountMinSize::new(0.01, 0.001).unwrap();
        assert_eq!((cm.width, cm.depth), (272, 7));
        assert_eq!(CountMinSize::new(0.0, 0.01).unwrap_err().param, "epsilon");
        assert_eq!(CountMinSize::new(0.1, 1.0).unwrap_err().param, "delta");
    }

    #[test]
    fn count_min_overcount_bound() {
        let cm = CountMinSize {
            width: 10,
            depth: 2,
        };
        // (100 / (10 x 20))^2 = 0.25.
        assert_eq!(cm.p_overcount_at_least(100.0, 20.0), 0.25);
        // A gap below N / w: the per-row bound is capped at 1.
        assert_eq!(cm.p_overcount_at_least(100.0, 5.0), 1.0);
        assert_eq!(cm.p_overcount_at_least(100.0, 0.0), 1.0);
        // At gap = epsilon N the bound is (e / (w epsilon))^d <= e^-d <= delta.
        let cm = CountMinSize::new(0.001, 0.01).unwrap();
        let n = 1e6;
        let p = cm.p_overcount_at_least(n, 0.001 * n);
        assert!(p <= (-5.0f64).exp() && p <= 0.01, "{p}");
    }

    #[test]
    fn count_min_false_raises_hand_case() {
        // Fleet rate F = 100 x 11/6 so Zipf(1) over 3 reels gives 100, 50, 33.3;
        // the hot reel adds 1,000: N = 1,183.3. Threshold 75: reel 1 is truly
        // above; reels 2 and 3 have gaps 25 and 41.67.
        let mut i = ApproxInputs::new(1000.0, 10.0, 1, 1000.0, 1.0).unwrap();
        i.likes_per_day = 86_400.0 * 100.0 * 11.0 / 6.0;
        i.reels = 3;
        i.threshold = 75.0;
        let d = count_min_detection(&i).unwrap();
        let n: f64 = 1000.0 + 100.0 * 11.0 / 6.0;
        let want = (n / (2719.0 * 25.0)).powi(5) + (n / (2719.0 * (75.0 - 100.0 / 3.0))).powi(5);
        assert_eq!(d.reels_truly_above, 1);
        assert!((d.window_rate - n).abs() < 1e-9);
        assert!(
            (d.expected_false_raises - want).abs() < 1e-12 * want,
            "{} vs {want}",
            d.expected_false_raises
        );
        assert!((d.extra_items - 19.0 * want).abs() < 1e-12 * want);
        assert!((d.error_bound - 0.001 * n).abs() < 1e-12);
    }

    #[test]
    fn count_min_false_raises_defaults() {
        // 100M likes/day = 1,157.4/s over 1M reels, Zipf(1): rank 1 has
        // 1157.4 / H(1e6, 1) = 1157.4 / 14.39 = 80.4 likes/s, below 300, so no
        // reel is truly hot. With the 200K/s reel in the sketch, N = 201,157 and
        // N / (w x 300) = 0.2466: each cold reel is raised with P <= 0.2466^5
        // ~ 9.1e-4, about 1e6 x 9.1e-4 ~ 910 reels (the gap shrinks a little for
        // the top ranks).
        let d = count_min_detection(&inputs()).unwrap();
        assert_eq!(d.reels_truly_above, 0);
        let per = (201_157.407f64 / (2719.0 * 300.0)).powi(5);
        assert!(
            d.expected_false_raises > 1e6 * per * 0.99,
            "{}",
            d.expected_false_raises
        );
        assert!(
            d.expected_false_raises < 1e6 * per * 1.01,
            "{}",
            d.expected_false_raises
        );
        // Without the hot reel (a quiet fleet) the bound is negligible.
        let mut quiet = inputs();
        quiet.rate = 1.0;
        let q = count_min_detection(&quiet).unwrap();
        assert!(
            q.expected_false_raises < 1e-6,
            "{}",
            q.expected_false_raises
        );
    }
}
