//! What a time-line run returns: one row per second (streamed to a
//! callback) and the whole run's figures.

use serde::Serialize;

use super::monitor::RaiseSchedule;
use crate::model::law::TrafficModel;

/// One second of a time-line (the per-second CSV row).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub struct TimelineRow {
    /// 1-based.
    pub second: u64,
    /// The curve's mean rate over this second (likes/s).
    pub rate: f64,
    /// Likes that arrived in this second; each is one write to one shard key.
    pub likes: u64,
    /// The most shard keys any server writes to in this second.
    pub shards: u64,
    /// Writes sent to the busiest shard key in this second.
    pub busiest: u64,
    /// Writes rejected in this second, summed over every shard key (lost:
    /// no retry).
    pub rejected: u64,
    /// What the worst reader shows at the end of the second.
    pub displayed_total: u64,
    /// Every accepted like so far.
    pub true_total: u64,
}

/// A whole time-line run.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct TimelineReport {
    /// Seconds simulated (the plan's run length).
    pub seconds: u64,
    /// The plan's seed.
    pub seed: u64,
    /// The plan's traffic model (fixed or Poisson).
    pub traffic: TrafficModel,
    /// The write cap of every shard key, writes/s.
    pub cap: u64,
    /// The store's burst window, seconds: each shard key's burst bucket
    /// holds up to cap x burst_seconds writes (0: a hard cap).
    pub burst_seconds: u64,
    /// Likes over the whole run; each like is one write attempt.
    pub total_writes: u64,
    /// Writes the shard keys accepted, within their cap or paid from their
    /// burst bucket: total_writes - rejected_writes.
    pub accepted_writes: u64,
    /// Writes rejected over the whole run (lost: no retry).
    pub rejected_writes: u64,
    /// rejected_writes / total_writes (0 when there were no writes).
    pub rejected_share: f64,
    /// Seconds in which at least one write was rejected.
    pub seconds_with_rejections: u64,
    /// The first second with a rejected write: 1-based; None when nothing
    /// was rejected.
    pub first_rejection_second: Option<u64>,
    /// The last second with a rejected write: 1-based; None when nothing
    /// was rejected.
    pub last_rejection_second: Option<u64>,
    /// The highest per-second mean rate of the curve.
    pub peak_rate: f64,
    /// The most likes in any one second of the run.
    pub peak_likes: u64,
    /// The most writes any one shard key got in any one second (the largest
    /// [`TimelineRow::busiest`]).
    pub busiest_max: u64,
    /// The plan's starting shard count.
    pub start_shards: u64,
    /// The shard count in the last second: the most shard keys any server
    /// wrote to then ([`TimelineRow::shards`] of the last row).
    pub final_shards: u64,
    /// The monitor's raise, when it happened.
    pub raise: Option<RaiseSchedule>,
    /// Rejected in seconds before every server wrote over the new shards
    /// (all of them when the raise never fully took effect).
    pub rejected_before_raise: u64,
    /// Rejected from the first second in which every server wrote over the
    /// new shards ([`RaiseSchedule::all_write_second`]) on; 0 without a
    /// raise. With `rejected_before_raise` it sums to `rejected_writes`.
    pub rejected_after_raise: u64,
    /// The lowest displayed_total / true_total at the end of any second in
    /// which the worst reader showed less than the truth; 1.0 when it never
    /// did.
    pub min_displayed_ratio: f64,
    /// Seconds at whose end the worst reader showed less than the true
    /// total.
    pub undercount_seconds: u64,
    /// What the worst reader shows at the end of the last second.
    pub final_displayed_total: u64,
    /// Every accepted like on every shard at the end of the run (equal to
    /// `accepted_writes`).
    pub final_true_total: u64,
}
