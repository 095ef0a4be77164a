//! The plan's capacity: the highest likes/s at which a shard count still
//! meets the accepted risk over the spell ("20 shards hold up to N likes/s
//! at 1% over 4 h"). The risk grows with the rate at a fixed count, so a
//! bracket and a bisection find it. The model weighs writes/s (likes and
//! unlikes, `--unlike-share`): the bisection runs on writes and the answer
//! is turned into likes/s once, here, by the plan's writes per like.

use super::{planned_rate, PlanInputs};
use crate::error::ParamResult;
use crate::model::defaults::MAX_RATE;

/// Bisection steps for Poisson traffic: the bracket shrinks 2^-60 of its width.
const STEPS: u32 = 60;

impl PlanInputs {
    /// Does `shards` meet every risk constraint at `rate`?
    fn meets_at(&self, rate: f64, shards: u64) -> ParamResult<bool> {
        let Some(t) = self.risk else {
            return Ok(true);
        };
        if !self.key_meets(rate, shards, t)? {
            return Ok(false);
        }
        if self.partitions_bind() {
            if let Some((pr, risk)) = self.partition_risk(rate)? {
                if !pr.meets(shards, risk) {
                    return Ok(false);
                }
            }
        }
        if let Some(c) = &self.nodes {
            let at = c.at(planned_rate(rate, c.target.traffic), shards);
            return Ok(at.p_any_over_cap <= c.target.risk);
        }
        Ok(true)
    }

    /// The highest like rate at which `shards` meets the risk; `None`
    /// without a risk. Fixed traffic counts whole likes, so the answer is
    /// whole.
    pub(super) fn capacity(&self, shards: u64) -> ParamResult<Option<f64>> {
        let whole = self.risk.is_some_and(|t| t.traffic.law().whole_rate());
        Ok(self
            .write_capacity(shards)?
            .map(|w| likes_of(w, self.sizing.writes_per_like, whole)))
    }

    /// The margin of a capacity in likes/s: capacity / planned likes - 1.
    pub(super) fn margin_of(&self, capacity: f64) -> f64 {
        capacity / self.sizing.like_peak() - 1.0
    }

    /// The highest write rate at which `shards` meets the risk.
    fn write_capacity(&self, shards: u64) -> ParamResult<Option<f64>> {
        let Some(t) = self.risk else {
            return Ok(None);
        };
        if t.traffic.empirical().is_some() {
            // The law is the observed seconds at one growth: it has no rate
            // to raise (none is given rather than a wrong one).
            return Ok(None);
        }
        let whole = t.traffic.law().whole_rate();
        let smallest = if whole { 1.0 } else { 1e-9 };
        if !self.meets_at(smallest, shards)? {
            return Ok(Some(0.0));
        }
        // Bracket: `lo` meets, `hi` fails (doubling from the peak).
        let (mut lo, mut hi) = (smallest, self.sizing.peak.max(smallest));
        while self.meets_at(hi, shards)? {
            lo = hi;
            if hi >= MAX_RATE {
                return Ok(Some(MAX_RATE));
            }
            hi = (hi * 2.0).min(MAX_RATE);
        }
        if whole {
            let (mut lo, mut hi) = (lo.floor() as u64, hi.ceil() as u64);
            while hi - lo > 1 {
                let mid = lo + (hi - lo) / 2;
                match self.meets_at(mid as f64, shards)? {
                    true => lo = mid,
                    false => hi = mid,
                }
            }
            return Ok(Some(lo as f64));
        }
        for _ in 0..STEPS {
            let mid = 0.5 * (lo + hi);
            match self.meets_at(mid, shards)? {
                true => lo = mid,
                false => hi = mid,
            }
            if hi - lo <= 1e-12 * hi {
                break;
            }
        }
        Ok(Some(lo))
    }
}

/// Likes/s from a capacity in writes/s: / (1 + unlike share). Under fixed
/// traffic the most whole likes L whose writes, L (1 + share) rounded up to
/// whole writes as the planned rate is, stay within the whole `writes`:
/// floor(writes / (1 + share)), nudged by 1e-12 so that an exact quotient
/// (13 / 1.3 = 9.999999999999998 in floating point) is not floored away.
fn likes_of(writes: f64, writes_per_like: f64, whole: bool) -> f64 {
    if writes_per_like == 1.0 {
        return writes;
    }
    let likes = writes / writes_per_like;
    match whole {
        true => (likes * (1.0 + 1e-12)).floor(),
        false => likes,
    }
}

#[cfg(test)]
mod tests {
    use super::likes_of;

    #[test]
    fn writes_become_likes_by_one_plus_the_share() {
        assert_eq!(likes_of(18_462.0, 1.0, true), 18_462.0);
        // 14,201 likes bring 18,461.3 -> 18,462 writes; 14,202 bring 18,463.
        assert_eq!(likes_of(18_462.0, 1.3, true), 14_201.0);
        assert_eq!(likes_of(13.0, 1.3, true), 10.0);
        assert_eq!(likes_of(18_200.0, 1.3, false), 18_200.0 / 1.3);
    }
}
