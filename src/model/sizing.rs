//! Sizing by the rule of thumb: shards = ceil(peak / safe rate per key),
//! where the safe rate keeps headroom below the store's cap for the random
//! unevenness between shards.

use serde::Serialize;

use crate::error::{ParamError, ParamResult, Problem};
use crate::model::validate;

/// Where the safe rate per key comes from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SafeRate {
    /// Given directly (`--safe 700`).
    PerKey(f64),
    /// cap x (1 - headroom) (`--headroom 0.3` with a cap of 1,000 gives 700).
    Headroom(f64),
}

/// The validated inputs of a sizing.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SizingPlan {
    /// Peak writes per second to plan for: the likes/s, x (1 + unlike
    /// share) when unlikes are planned (`writes_per_like`).
    pub peak: f64,
    /// Writes a second one shard key accepts.
    pub cap: f64,
    /// Where the safe rate per key comes from.
    pub safe: SafeRate,
    /// Writes one like brings: 1 + the unlike share (1 without unlikes).
    /// Every figure per key counts writes; the figures the user reads in
    /// likes/s (the capacity) are writes / this.
    pub writes_per_like: f64,
}

/// The rule-of-thumb sizing and what it implies at the peak.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Sizing {
    /// Peak likes per second.
    pub peak: f64,
    /// Writes a second one shard key accepts.
    pub cap: f64,
    /// The safe writes a second per shard key.
    pub safe_per_shard: f64,
    /// (cap - safe) / cap: the headroom planned per key.
    pub headroom: f64,
    /// Shards: ceil(peak / safe).
    pub shards: u64,
    /// peak / shards: the average writes per shard at the peak.
    pub mean_per_shard_at_peak: f64,
    /// (cap - mean) / cap: the share of the cap still unused on an average
    /// shard at the peak (at least the planned headroom).
    pub headroom_left: f64,
}

/// ceil(peak / safe), tolerant of the last-bit error of a computed safe rate
/// (1,000 x (1 - 0.3) is 700.0000000000001 in floating point; 14,000 / that
/// must still give 20, not 21).
pub fn shards_for(peak: f64, safe: f64) -> u64 {
    let ratio = peak / safe;
    let nearest = ratio.round();
    if (ratio - nearest).abs() <= 1e-9 * nearest.max(1.0) {
        nearest.max(1.0) as u64
    } else {
        ratio.ceil().max(1.0) as u64
    }
}

impl SizingPlan {
    /// Checks the inputs; errors name the parameters `peak`, `cap`, `safe` and
    /// `headroom` (a peak that needs more shards than supported names `peak`).
    pub fn new(peak: f64, cap: f64, safe: SafeRate) -> ParamResult<Self> {
        validate::rate("peak", peak)?;
        validate::rate("cap", cap)?;
        match safe {
            SafeRate::PerKey(s) => {
                validate::positive("safe", s)?;
                if s > cap {
                    return Err(ParamError::new(
                        "safe",
                        Problem::SafeAboveCap { got: s, cap },
                    ));
                }
            }
            SafeRate::Headroom(h) => {
                validate::in_half_open("headroom", h, 0.0, 1.0)?;
            }
        }
        let plan = SizingPlan {
            peak,
            cap,
            safe,
            writes_per_like: 1.0,
        };
        let shards = shards_for(peak, plan.safe_per_shard());
        validate::count("peak", shards, crate::model::defaults::MAX_SHARDS).map_err(|_| {
            ParamError::new(
                "peak",
                Problem::TooManyShards {
                    shards,
                    per_shard: plan.safe_per_shard(),
                    max: crate::model::defaults::MAX_SHARDS,
                },
            )
        })?;
        Ok(plan)
    }

    /// The plan with unlikes: its peak already counts them (writes/s),
    /// and `writes_per_like` (1 + the unlike share, at least 1) turns the
    /// write rates back into likes/s.
    pub fn with_writes_per_like(self, writes_per_like: f64) -> SizingPlan {
        debug_assert!(writes_per_like >= 1.0 && writes_per_like.is_finite());
        SizingPlan {
            writes_per_like,
            ..self
        }
    }

    /// The planned peak in likes/s: the peak's writes / writes per like.
    pub fn like_peak(&self) -> f64 {
        self.peak / self.writes_per_like
    }

    /// The safe rate per key: as given, or cap x (1 - headroom).
    pub fn safe_per_shard(&self) -> f64 {
        match self.safe {
            SafeRate::PerKey(s) => s,
            SafeRate::Headroom(h) => self.cap * (1.0 - h),
        }
    }

    /// The rule-of-thumb sizing and what it leaves at the peak.
    pub fn size(&self) -> Sizing {
        let safe = self.safe_per_shard();
        let shards = shards_for(self.peak, safe);
        let mean = self.peak / shards as f64;
        let headroom = match self.safe {
            SafeRate::Headroom(h) => h,
            SafeRate::PerKey(s) => (self.cap - s) / self.cap,
        };
        Sizing {
            peak: self.peak,
            cap: self.cap,
            safe_per_shard: safe,
            headroom,
            shards,
            mean_per_shard_at_peak: mean,
            headroom_left: (self.cap - mean) / self.cap,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn size(peak: f64, safe: SafeRate) -> Sizing {
        SizingPlan::new(peak, 1000.0, safe).unwrap().size()
    }

    #[test]
    fn reference_sizings() {
        assert_eq!(size(14_000.0, SafeRate::PerKey(700.0)).shards, 20);
        let s = size(14_000.0, SafeRate::Headroom(0.3));
        assert_eq!(s.shards, 20);
        assert!((s.safe_per_shard - 700.0).abs() < 1e-9);
        assert_eq!(size(13_500.0, SafeRate::PerKey(700.0)).shards, 20);
        assert_eq!(size(14_001.0, SafeRate::PerKey(700.0)).shards, 21);
        assert_eq!(size(200_000.0, SafeRate::PerKey(700.0)).shards, 286);
        assert_eq!(size(5.0 / 60.0, SafeRate::PerKey(700.0)).shards, 1);
    }

    #[test]
    fn headroom_left_at_peak() {
        let s = size(14_000.0, SafeRate::PerKey(700.0));
        assert_eq!(s.mean_per_shard_at_peak, 700.0);
        assert!((s.headroom_left - 0.3).abs() < 1e-12);
    }

    #[test]
    fn bad_sizing_inputs_name_the_flag() {
        let e = SizingPlan::new(14_000.0, 1000.0, SafeRate::PerKey(1200.0)).unwrap_err();
        assert_eq!(e.param, "safe");
        let e = SizingPlan::new(14_000.0, 1000.0, SafeRate::Headroom(1.0)).unwrap_err();
        assert_eq!(e.param, "headroom");
        let e = SizingPlan::new(f64::NAN, 1000.0, SafeRate::Headroom(0.3)).unwrap_err();
        assert_eq!(e.param, "peak");
        let e = SizingPlan::new(1e9, 1000.0, SafeRate::PerKey(1.0)).unwrap_err();
        assert_eq!(e.param, "peak");
    }
}
