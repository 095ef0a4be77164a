//! The store model per shard key: a write cap per second plus DynamoDB-style
//! burst capacity. DynamoDB keeps up to 300 seconds of unused capacity
//! ("Burst capacity", DynamoDB Developer Guide); we model it as a token
//! bucket of cap x burst_seconds writes per key.
//!
//! Within one second, for a key with cap c and w writes:
//! - w <= c: every write is accepted and the c - w unused writes go into the
//!   bucket, up to its capacity;
//! - w > c: the c writes are accepted, the extra w - c take tokens from the
//!   bucket while it lasts, and the rest are rejected.
//!
//! A rejected write is lost: we model no client retry (a retry would only
//! move the same write into a later second of the same overloaded key).

use crate::model::defaults::MAX_BURST_SECONDS;
use serde::{Deserialize, Serialize};

use crate::error::{ParamError, ParamResult, Problem};

/// How full each key's bucket is at second 0.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum BurstStart {
    /// cap x burst_seconds tokens: the key was quiet for a while.
    #[default]
    Full,
    /// No tokens: the key was already busy.
    Empty,
}

impl BurstStart {
    /// The name flags, scenario files and views use.
    pub fn name(self) -> &'static str {
        match self {
            BurstStart::Full => "full",
            BurstStart::Empty => "empty",
        }
    }
}

/// The `[store]` scenario section (`--burst-seconds`, `--burst-start`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StoreConfig {
    /// Seconds of unused capacity a key keeps (0 = no burst). Default 300.
    #[serde(default = "default_burst_seconds")]
    pub burst_seconds: u64,
    /// Default full.
    #[serde(default)]
    pub burst_start: BurstStart,
}

fn default_burst_seconds() -> u64 {
    crate::model::defaults::DEFAULT_BURST_SECONDS
}

impl Default for StoreConfig {
    fn default() -> Self {
        StoreConfig {
            burst_seconds: crate::model::defaults::DEFAULT_BURST_SECONDS,
            burst_start: BurstStart::Full,
        }
    }
}

impl StoreConfig {
    /// Checks that `burst_seconds` is a whole number of seconds from 0 to
    /// [`MAX_BURST_SECONDS`]; the error names `store.burst_seconds`.
    pub fn validate(&self) -> ParamResult<()> {
        if self.burst_seconds > crate::model::defaults::MAX_BURST_SECONDS {
            return Err(ParamError::new(
                "store.burst_seconds",
                Problem::SecondsOutside {
                    got: self.burst_seconds,
                    max: MAX_BURST_SECONDS,
                },
            ));
        }
        Ok(())
    }
}

/// What one key did in one second.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, schemars::JsonSchema)]
pub struct KeySecond {
    /// Writes the key accepted: up to its cap, plus `burst_used` above it.
    /// `accepted + rejected` is the second's writes.
    pub accepted: u64,
    /// Accepted writes above the cap, paid from the bucket.
    pub burst_used: u64,
    /// Writes above the cap that the bucket could not cover: lost (no
    /// retry).
    pub rejected: u64,
}

/// One shard key's cap and burst bucket.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BurstBucket {
    cap: u64,
    capacity: u64,
    tokens: u64,
}

impl BurstBucket {
    /// A key with write cap `cap` (writes/s) and a bucket of
    /// cap x `store.burst_seconds` tokens (saturating at `u64::MAX`), full or
    /// empty as `store.burst_start` says.
    pub fn new(cap: u64, store: &StoreConfig) -> Self {
        let capacity = cap.saturating_mul(store.burst_seconds);
        let tokens = match store.burst_start {
            BurstStart::Full => capacity,
            BurstStart::Empty => 0,
        };
        BurstBucket {
            cap,
            capacity,
            tokens,
        }
    }

    /// Tokens the bucket holds now: writes above the cap it can still
    /// accept, from 0 to [`BurstBucket::capacity`].
    pub fn tokens(&self) -> u64 {
        self.tokens
    }

    /// The most tokens the bucket can hold: cap x burst_seconds writes
    /// (0: no burst, a hard cap).
    pub fn capacity(&self) -> u64 {
        self.capacity
    }

    /// Applies one second of `writes` to this key.
    pub fn second(&mut self, writes: u64) -> KeySecond {
        if writes <= self.cap {
            self.tokens = (self.tokens + (self.cap - writes)).min(self.capacity);
            return KeySecond {
                accepted: writes,
                burst_used: 0,
                rejected: 0,
            };
        }
        let extra = writes - self.cap;
        let taken = extra.min(self.tokens);
        self.tokens -= taken;
        KeySecond {
            accepted: self.cap + taken,
            burst_used: taken,
            rejected: extra - taken,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steady_overload_case_from_the_issue() {
        // 2,000 writes/s for 600 s, cap 1,000, 300 s burst, full: seconds
        // 1..=300 each take 1,000 from the 300,000 tokens; from second 301
        // on each second rejects 1,000: 300 x 1,000 = 300,000 rejected.
        let mut b = BurstBucket::new(1000, &StoreConfig::default());
        assert_eq!(b.capacity(), 300_000);
        let mut rejected = 0;
        let mut first = None;
        for s in 1..=600u64 {
            let k = b.second(2000);
            assert_eq!(k.accepted + k.rejected, 2000);
            if k.rejected > 0 && first.is_none() {
                first = Some(s);
            }
            rejected += k.rejected;
        }
        assert_eq!(rejected, 300_000);
        assert_eq!(first, Some(301));
    }

    #[test]
    fn empty_start_rejects_at_once_and_refills() {
        let store = StoreConfig {
            burst_seconds: 10,
            burst_start: BurstStart::Empty,
        };
        let mut b = BurstBucket::new(100, &store);
        assert_eq!(b.second(150).rejected, 50);
        // A quiet second banks 100 - 30 = 70 tokens.
        assert_eq!(b.second(30).accepted, 30);
        assert_eq!(b.tokens(), 70);
        let k = b.second(200);
        assert_eq!((k.accepted, k.burst_used, k.rejected), (170, 70, 30));
        // Refill stops at cap x burst_seconds = 1,000.
        for _ in 0..20 {
            b.second(0);
        }
        assert_eq!(b.tokens(), 1000);
    }

    #[test]
    fn no_burst_means_hard_cap() {
        let store = StoreConfig {
            burst_seconds: 0,
            burst_start: BurstStart::Full,
        };
        let mut b = BurstBucket::new(1000, &store);
        b.second(0);
        assert_eq!(b.second(1001).rejected, 1);
    }

    #[test]
    fn toml_section_and_validation() {
        let s: StoreConfig = toml::from_str("burst_start = \"empty\"").unwrap();
        assert_eq!(s.burst_seconds, 300);
        assert_eq!(s.burst_start, BurstStart::Empty);
        assert!(toml::from_str::<StoreConfig>("burst = 3").is_err());
        let bad = StoreConfig {
            burst_seconds: 100_000,
            ..StoreConfig::default()
        };
        assert_eq!(bad.validate().unwrap_err().param, "store.burst_seconds");
    }
}
