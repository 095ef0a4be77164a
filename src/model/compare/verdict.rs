//! What a compare row concludes about its design, as data: which case
//! applies and the figures that case rests on. The sentences are written by
//! `views::compare`; the model only decides.

use serde::Serialize;

/// "Over the cap" counts as a problem above this chance (per second for a
/// key's fit, in the run for a design's verdict).
pub const RISK_OK: f64 = 0.01;

/// How the hottest key sits against its cap.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Fit {
    /// The mean writes per key alone are over the cap.
    OverCap,
    /// The mean is under the cap, but the busiest key goes over it with
    /// this chance a second (above [`RISK_OK`]).
    BusiestOver {
        /// P(the busiest key goes over its cap in one second).
        key_p_over_cap_per_second: f64,
    },
    /// Under the cap, and the chance of a second over it is small (or unknown).
    Fits,
}

impl Fit {
    /// The fit of the hottest key from its mean writes/s and its
    /// per-second over-cap chance (`None` past the exact model's range).
    pub fn of(writes_per_key: f64, cap: f64, p_over: Option<f64>) -> Fit {
        match p_over {
            _ if writes_per_key > cap => Fit::OverCap,
            Some(p) if p > RISK_OK => Fit::BusiestOver {
                key_p_over_cap_per_second: p,
            },
            _ => Fit::Fits,
        }
    }
}

/// Why the count a design shows is not exact (the `error` of a row).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum CountError {
    /// Buffered tallies: one server's crash loses what it holds.
    CrashLoss {
        /// Likes lost in the worst single crash.
        likes: f64,
    },
    /// A log consumer's replay after a crash counts events again.
    Replay {
        /// Likes counted twice in the worst replay.
        likes: f64,
    },
    /// A HyperLogLog's relative standard error.
    StandardError {
        /// The standard error as a share (0.008125 = 0.8125%).
        share: f64,
    },
    /// Count-Min overcounts by at most epsilon x N with a given chance.
    Overcount {
        /// The bound, likes/s.
        likes_per_second: f64,
        /// The chance the bound holds, 1 - delta.
        confidence: f64,
    },
}

/// One design's verdict: when to pick it, or what goes wrong.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Verdict {
    /// One key with transactions: most of them conflict.
    TransactionsConflict {
        /// P(a transaction is cancelled by a conflict).
        p_conflict: f64,
        /// Expected attempts per like.
        attempts_per_like: f64,
    },
    /// One key takes more likes than its cap allows.
    OneKeyOverCap {
        /// Likes/s.
        rate: f64,
        /// Likes/s the key takes.
        cap_likes_per_key: f64,
    },
    /// One key, within the cap: the simplest exact design.
    SimplestExact,
    /// The shards go over the cap in the run with more than [`RISK_OK`].
    AddShards {
        /// The run's length, seconds.
        seconds: f64,
        /// P(any second over the cap in the run).
        key_p_any_over_cap: f64,
    },
    /// Sharded and within the risk: every read sums the shards.
    ExactAndLive {
        /// Keys a read sums.
        shards: u64,
    },
    /// One buffered key takes more flushes than the safe rate.
    ShardTheBuffers {
        /// Writes/s on the key.
        writes: f64,
        /// Safe writes/s per key.
        safe: f64,
    },
    /// One buffered key within the safe rate.
    FewestWrites {
        /// Writes/s on the key.
        writes: f64,
        /// Likes a crash loses.
        crash_loss: f64,
    },
    /// Even one server's flushes alone are over the safe rate.
    FlushLessOften {
        /// Writes/s one server puts on its key.
        writes: f64,
        /// Safe writes/s per key.
        safe: f64,
    },
    /// Sharded buffers are not needed: one buffered key is under the safe rate.
    BufferedNotNeeded,
    /// Sharded buffers: this many keys keep each under the safe rate.
    BufferedKeys {
        /// Buffered keys.
        keys: u64,
        /// Writes/s on each.
        writes: f64,
        /// Safe writes/s per key.
        safe: f64,
    },
    /// Log with transactional commits: exactly once, some seconds behind.
    ExactlyOnce {
        /// Seconds the shown count lags.
        lag_seconds: f64,
    },
    /// Log without transactions: a replay double counts.
    NoHotKey {
        /// Likes a consumer crash can count twice.
        replay_likes: f64,
    },
    /// One set per post.
    Set {
        /// The set's key against the cap.
        fit: Fit,
        /// Estimated bytes per member.
        bytes_per_member: f64,
    },
    /// Sets sharded by hash(user).
    SetSharded,
    /// Like rows keyed by user id.
    LikeRows {
        /// Bytes the table grows a day.
        bytes_per_day: f64,
    },
    /// One HyperLogLog per post.
    Hll,
    /// HyperLogLogs sharded, merged on read.
    HllSharded,
    /// Count-Min as the hot-reel detector.
    CountMin {
        /// Sketch width (counters per row).
        width: u64,
        /// Sketch depth (rows).
        depth: u64,
        /// Sketch bytes.
        sketch_bytes: u64,
        /// Upper bound on reels falsely raised per window.
        false_raises: f64,
        /// Extra shard items those raises cost.
        extra_items: f64,
    },
    /// One hash per post with likes, shares and views.
    Hash,
    /// Hashes sharded: sized by all their fields' writes.
    HashSharded {
        /// Each hash's key against the cap.
        fit: Fit,
        /// ceil(all fields' writes / cap): hashes the mean alone needs.
        hashes_for_mean: f64,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_cases() {
        assert_eq!(Fit::of(1200.0, 1000.0, Some(0.0)), Fit::OverCap);
        assert_eq!(
            Fit::of(900.0, 1000.0, Some(0.3)),
            Fit::BusiestOver {
                key_p_over_cap_per_second: 0.3
            }
        );
        assert_eq!(Fit::of(900.0, 1000.0, Some(0.01)), Fit::Fits);
        assert_eq!(Fit::of(900.0, 1000.0, None), Fit::Fits);
    }
}
