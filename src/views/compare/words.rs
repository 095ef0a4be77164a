//! The sentences of `compare`: each verdict and count error in words, and
//! the figure formats they use. The tables ([`super::strategies`],
//! [`super::exactness`]) and the machine rows take them from here.
//!
//! [`verdict`] is a table: one arm a verdict, each the sentence for that
//! case with its figures. It stays one `match`, longer than a screen, so
//! every design's words read side by side in the model's order: one key,
//! shards, buffers, the log, sets, like rows, HyperLogLog, Count-Min,
//! hashes.

use crate::model::compare::verdict::{CountError, Fit, Verdict};
use crate::output::fmt::{self, num, run_length};

/// A share as a percentage, up to 4 decimals: 0.008125 -> "0.8125%".
fn pct(x: f64) -> String {
    format!("{}%", small(x * 100.0))
}

/// A figure for a sentence: scientific below 0.001, 4 decimals below 1,
/// 2 below 100, else whole with separators; a positive value never prints as 0.
fn small(x: f64) -> String {
    let trim = |s: String| s.trim_end_matches('0').trim_end_matches('.').to_string();
    let a = x.abs();
    if x != 0.0 && a < 1e-3 {
        format!("{x:.2e}")
    } else if a < 1.0 {
        trim(format!("{x:.4}"))
    } else if a < 100.0 {
        trim(format!("{x:.2}"))
    } else {
        fmt::num(x.round())
    }
}

/// Rounded to 3 decimals (for KB and GB figures).
fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// How the hottest key sits against the cap.
fn fit(f: &Fit) -> String {
    match f {
        Fit::OverCap => "over the cap".to_string(),
        Fit::BusiestOver {
            key_p_over_cap_per_second: p_over_cap_per_second,
        } => format!(
            "mean under the cap, busiest key over it with P {}/s",
            fmt::prob(*p_over_cap_per_second)
        ),
        Fit::Fits => "fits the cap".to_string(),
    }
}

/// The `error` column: why the count is not exact.
pub fn count_error(e: &CountError) -> String {
    match *e {
        CountError::CrashLoss { likes } => {
            format!("a server crash loses up to {} likes", num(likes))
        }
        CountError::Replay { likes } => format!("a replay counts up to {} likes twice", num(likes)),
        CountError::StandardError { share } => format!("{} standard error", pct(share)),
        CountError::Overcount {
            likes_per_second,
            confidence,
        } => format!(
            "overcounts by <= {} likes/s (epsilon x N) with P >= {}",
            fmt::rate(likes_per_second),
            fmt::num(confidence)
        ),
    }
}

/// The `verdict` column: when to pick the design, or what goes wrong.
pub fn verdict(v: &Verdict) -> String {
    match v {
        Verdict::TransactionsConflict { .. }
        | Verdict::OneKeyOverCap { .. }
        | Verdict::SimplestExact
        | Verdict::AddShards { .. }
        | Verdict::ExactAndLive { .. } => one_key_and_sharded(v),
        Verdict::ShardTheBuffers { .. }
        | Verdict::FewestWrites { .. }
        | Verdict::FlushLessOften { .. }
        | Verdict::BufferedNotNeeded
        | Verdict::BufferedKeys { .. } => buffered(v),
        Verdict::ExactlyOnce { .. } | Verdict::NoHotKey { .. } => logged(v),
        Verdict::Set { .. }
        | Verdict::SetSharded
        | Verdict::LikeRows { .. }
        | Verdict::Hll
        | Verdict::HllSharded => unique(v),
        Verdict::CountMin { .. } | Verdict::Hash | Verdict::HashSharded { .. } => {
            other_structures(v)
        }
    }
}

/// [`verdict`]'s words for a plain counter on one key or sharded.
fn one_key_and_sharded(v: &Verdict) -> String {
    match v {
        Verdict::TransactionsConflict {
            p_conflict,
            attempts_per_like,
        } => format!(
            "one key: transactions conflict (p = {}), {} attempts a like",
            fmt::prob(*p_conflict),
            num(*attempts_per_like)
        ),
        Verdict::OneKeyOverCap {
            rate,
            cap_likes_per_key,
        } => format!(
            "over the cap: {} likes/s on one key that takes {} a second",
            num(*rate),
            num(*cap_likes_per_key)
        ),
        Verdict::SimplestExact => {
            "simplest and exact; fine while the rate stays under the cap".into()
        }
        Verdict::AddShards {
            seconds,
            key_p_any_over_cap: p_any_over_cap,
        } => format!(
            "add shards: P(a second over the cap in {}) = {}",
            run_length(*seconds),
            fmt::prob(*p_any_over_cap)
        ),
        Verdict::ExactAndLive { shards } => {
            format!(
                "exact and live; each read sums {}, so cache the sum",
                fmt::counted(*shards, "key", "keys")
            )
        }
        _ => unreachable!("one_key_and_sharded words its own verdicts"),
    }
}

/// [`verdict`]'s words for buffered writes.
fn buffered(v: &Verdict) -> String {
    match v {
        Verdict::ShardTheBuffers { writes, safe } => format!(
            "{} writes/s on one key is over the safe {}: shard the buffers",
            num(*writes),
            num(*safe)
        ),
        Verdict::FewestWrites { writes, crash_loss } => format!(
            "fewest writes ({} /s whatever the traffic); a crash loses up to {} likes",
            num(*writes),
            num(*crash_loss)
        ),
        Verdict::FlushLessOften { writes, safe } => format!(
            "one server alone writes {} /s to its key, over the safe {}: flush less often",
            num(*writes),
            num(*safe)
        ),
        Verdict::BufferedNotNeeded => {
            "not needed here: one buffered key is under the safe rate".into()
        }
        Verdict::BufferedKeys { keys, writes, safe } => format!(
            "{keys} keys keep {} writes/s each under the safe {}",
            num(*writes),
            num(*safe)
        ),
        _ => unreachable!("buffered words its own verdicts"),
    }
}

/// [`verdict`]'s words for a log and its consumer.
fn logged(v: &Verdict) -> String {
    match v {
        Verdict::ExactlyOnce { lag_seconds } => format!(
            "exactly once: total and log position commit together; {} s behind",
            num(*lag_seconds)
        ),
        Verdict::NoHotKey { replay_likes } => format!(
            "no hot key at all; a consumer crash can count {} likes twice",
            num(*replay_likes)
        ),
        _ => unreachable!("logged words its own verdicts"),
    }
}

/// [`verdict`]'s words for structures that count each user once.
fn unique(v: &Verdict) -> String {
    match v {
        Verdict::Set {
            fit: f,
            bytes_per_member,
        } => format!(
            "exact and dedups retries, but SADD is one hot key ({}) and {bytes_per_member:.0} \
             bytes/member",
            fit(f)
        ),
        Verdict::SetSharded => "exact uniqueness at scale: shard by hash(user), never at random \
                                (a retry in another set counts twice); sum S SCARDs"
            .into(),
        Verdict::LikeRows { bytes_per_day } => format!(
            "the durable uniqueness record ({} GB/day); spreads by user id, but counting \
             a post's rows per view is far too slow: keep a counter for the shown count",
            fmt::num(round3(bytes_per_day / 1e9))
        ),
        Verdict::Hll => {
            "12 KB per post and idempotent, but ~1% off and PFADD is one hot key again".into()
        }
        Verdict::HllSharded => "spreads PFADD; reads merge S x 16,384 registers (PFCOUNT k1..kS \
                                needs one slot, so across nodes fetch and merge in the client)"
            .into(),
        _ => unreachable!("unique words its own verdicts"),
    }
}

/// [`verdict`]'s words for a sketch and a hash of counts.
fn other_structures(v: &Verdict) -> String {
    match v {
        Verdict::CountMin {
            width,
            depth,
            sketch_bytes,
            false_raises,
            extra_items,
        } => format!(
            "hot-reel detector, not a shown count: {width}x{depth} ({} KB); reels falsely \
             raised per window <= {} by the (loose) Markov bound ({} extra items); one Redis \
             key takes every like, so keep a sketch per server (sketches add)",
            fmt::num(round3(*sketch_bytes as f64 / 1000.0)),
            small(*false_raises),
            small(*extra_items)
        ),
        Verdict::Hash => {
            "compact, one HGETALL for all counts, but likes + shares + views all hit one key".into()
        }
        Verdict::HashSharded {
            fit: f,
            hashes_for_mean,
        } => format!(
            "S hashes, each with all fields: size S by likes + shares + views ({}; the mean \
             alone needs {})",
            fit(f),
            fmt::counted(*hashes_for_mean as u64, "hash", "hashes")
        ),
        _ => unreachable!("other_structures words its own verdicts"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_in_words() {
        // 1.04 / sqrt(16384) = 0.008125 exactly.
        assert_eq!(pct(0.008125), "0.8125%");
        assert_eq!(small(2.99e-4), "2.99e-4");
        assert_eq!(small(0.00571), "0.0057");
        assert_eq!(small(12.5), "12.5");
        assert_eq!(small(17_330.4), "17,330");
        assert_eq!(num(2e12), "2.000e12");
    }

    #[test]
    fn sentences_carry_their_figures() {
        assert_eq!(
            count_error(&CountError::StandardError { share: 0.008125 }),
            "0.8125% standard error"
        );
        assert_eq!(
            count_error(&CountError::Overcount {
                likes_per_second: 10.157_407,
                confidence: 0.99
            }),
            "overcounts by <= 10.2 likes/s (epsilon x N) with P >= 0.99"
        );
        let cm = verdict(&Verdict::CountMin {
            width: 2719,
            depth: 5,
            sketch_bytes: 54_380,
            false_raises: 912.4,
            extra_items: 17_330.2,
        });
        assert!(cm.contains("2719x5 (54.38 KB)"), "{cm}");
        assert!(
            cm.contains("<= 912 by the (loose) Markov bound (17,330 extra items)"),
            "{cm}"
        );
        assert_eq!(
            verdict(&Verdict::HashSharded {
                fit: Fit::BusiestOver {
                    key_p_over_cap_per_second: 0.2725
                },
                hashes_for_mean: 60.0
            }),
            "S hashes, each with all fields: size S by likes + shares + views (mean under the \
             cap, busiest key over it with P 0.2725/s; the mean alone needs 60 hashes)"
        );
    }
}
