//! Comparing counter designs: one row per strategy, every figure from the
//! same models as `size`, `simulate` and `risk` (sizing, exact, store).

pub mod approx;
pub mod exactly_once;
pub mod strategies;
pub mod usage;
pub mod verdict;

use serde::Serialize;

use verdict::{CountError, Verdict};

/// One design in the comparison. `views::compare` renders `error` and
/// `verdict` as sentences in the CSV columns and JSON fields.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct CompareRow {
    /// `single`, `sharded`, `buffered`, `sharded-buffered`, `log`, and the
    /// uniqueness / approximate designs (`set`, `like-rows`, `hll`,
    /// `count-min`, `hash`).
    pub strategy: String,
    /// Whether the count it shows is exact (given no crash or retry).
    pub exact: bool,
    /// Why the count is not exact, where it is not (e.g. a HyperLogLog's
    /// 0.8125% standard error).
    pub error: Option<CountError>,
    /// Writes per key per second at the peak (the hottest key).
    pub writes_per_key_per_second: f64,
    /// P(the hottest key goes over its cap in one second).
    pub key_p_over_cap_per_second: Option<f64>,
    /// P(any second over the cap during the duration).
    pub key_p_any_over_cap: Option<f64>,
    /// Store reads per second to show the count (with the cache where the design has one).
    pub reads_per_second: f64,
    /// Store reads one view costs when it is not cached: the reads of one
    /// sum of the count (`reads_per_second` / the cached sums per second).
    pub reads_per_view: f64,
    /// How far the shown count lags behind the truth, seconds.
    pub freshness_lag_seconds: f64,
    /// Likes lost in the worst single crash (one server, one consumer).
    pub crash_loss_likes: f64,
    /// Likes counted twice in the worst single replay or retry.
    pub double_count_likes: f64,
    /// Memory or storage per counted item, bytes, where it matters.
    pub memory_bytes: Option<f64>,
    /// When to pick it, or what goes wrong, with the figures it rests on.
    pub verdict: Verdict,
}
