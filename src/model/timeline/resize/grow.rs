//! A grow: read_shards and write_shards raised in one order or the other,
//! and what the worst reader shows while the caches expire (by arithmetic,
//! and by a seeded simulation).

use serde::Serialize;

use super::ResizeOrder;
use crate::model::sampler::{chunk_rng, split_uniform};

/// A validated grow (from < to), made by
/// [`ResizeConfig::validate`](super::ResizeConfig::validate).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GrowPlan {
    /// Shards before the grow (read_shards and write_shards both).
    pub from: u64,
    /// Shards after the grow, above `from`.
    pub to: u64,
    /// Which of read_shards and write_shards is raised first.
    pub order: ResizeOrder,
    /// Likes already on the `from` old shards when the grow starts.
    pub likes_before: u64,
    /// Likes arriving evenly over the 2 x TTL stale window.
    pub likes_after: u64,
    /// How long each likes server caches read_shards and write_shards,
    /// seconds (0: no cache, so the stale window is empty).
    pub settings_ttl_seconds: u64,
}

/// What the worst reader saw during a grow.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct GrowReport {
    /// The plan's shards before the grow.
    pub from: u64,
    /// The plan's shards after the grow.
    pub to: u64,
    /// The plan's order of the two settings changes.
    pub order: ResizeOrder,
    /// The plan's likes on the old shards before the grow.
    pub likes_before: u64,
    /// The plan's likes arriving over the stale window.
    pub likes_after: u64,
    /// The plan's settings TTL, seconds.
    pub settings_ttl_seconds: u64,
    /// 2 x TTL: how long the worst reader can hold an old read_shards.
    pub stale_window_seconds: u64,
    /// None for the exact arithmetic, the seed for a simulation.
    pub seed: Option<u64>,
    /// Every like at the end of the window: likes_before + likes_after.
    pub true_total: u64,
    /// What the worst reader shows at the end of the window (expected value
    /// for the arithmetic, a whole number when simulated).
    pub displayed_total: f64,
    /// The arithmetic's value, for comparison with a simulation.
    pub expected_displayed_total: f64,
    /// The lowest displayed / true total at the end of any second of the
    /// window (1.0 when the window is empty or there are no likes).
    pub min_displayed_ratio: f64,
    /// The highest displayed / true total at the end of any second of the
    /// window (1.0 when the window is empty or there are no likes).
    pub max_displayed_ratio: f64,
    /// Seconds of the window in which the reader showed less than the truth.
    pub undercount_seconds: u64,
}

/// One second of a simulated grow (a shrink's reads are
/// [`ShrinkRow`](super::ShrinkRow)s).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct GrowRow {
    /// The second of the stale window, 1-based: 1 to 2 x TTL.
    pub second: u64,
    /// Likes that arrived in this second.
    pub likes: u64,
    /// What the worst reader shows at the end of this second: the sum of
    /// the `from` old shards (writes-first) or of all `to` shards
    /// (reads-first).
    pub displayed_total: u64,
    /// Every like so far, likes_before included.
    pub true_total: u64,
}

pub(super) fn ratio(displayed: f64, truth: f64) -> f64 {
    if truth == 0.0 {
        1.0
    } else {
        displayed / truth
    }
}

impl GrowPlan {
    /// 2 x TTL, seconds: how long the worst reader can hold an old
    /// read_shards, and the window `likes_after` arrive over.
    pub fn stale_window_seconds(&self) -> u64 {
        2 * self.settings_ttl_seconds
    }

    /// Likes arriving in second k (1-based) of the window: round(L k / W) -
    /// round(L (k - 1) / W), half up, in integers.
    fn likes_in(&self, k: u64) -> u64 {
        let w = self.stale_window_seconds() as u128;
        let l = self.likes_after as u128;
        let upto = |k: u128| (2 * l * k + w) / (2 * w);
        (upto(k as u128) - upto(k as u128 - 1)) as u64
    }

    fn stale(&self) -> bool {
        self.order == ResizeOrder::WritesFirst && self.settings_ttl_seconds > 0
    }

    /// The exact expected figures (no randomness).
    pub fn expected(&self) -> GrowReport {
        let w = self.stale_window_seconds();
        let truth = self.likes_before + self.likes_after;
        let seen_share = if self.stale() {
            self.from as f64 / self.to as f64
        } else {
            1.0
        };
        let displayed = self.likes_before as f64 + self.likes_after as f64 * seen_share;
        let (mut min_r, mut max_r, mut under) = (1.0f64, 0.0f64, 0);
        let mut cum = 0u64;
        for k in 1..=w {
            cum += self.likes_in(k);
            let t = (self.likes_before + cum) as f64;
            let d = self.likes_before as f64 + cum as f64 * seen_share;
            let r = ratio(d, t);
            min_r = min_r.min(r);
            max_r = max_r.max(r);
            under += u64::from(d < t);
        }
        if w == 0 {
            max_r = 1.0;
        }
        GrowReport {
            from: self.from,
            to: self.to,
            order: self.order,
            likes_before: self.likes_before,
            likes_after: self.likes_after,
            settings_ttl_seconds: self.settings_ttl_seconds,
            stale_window_seconds: w,
            seed: None,
            true_total: truth,
            displayed_total: displayed,
            expected_displayed_total: displayed,
            min_displayed_ratio: min_r,
            max_displayed_ratio: max_r,
            undercount_seconds: under,
        }
    }

    /// A seeded run with each like going to a uniformly random shard;
    /// `on_row` gets one row per second of the window.
    pub fn simulate<E>(
        &self,
        seed: u64,
        mut on_row: impl FnMut(&GrowRow) -> Result<(), E>,
    ) -> Result<GrowReport, E> {
        let mut rng = chunk_rng(seed, 0);
        let mut shards = vec![0u64; self.to as usize];
        split_uniform(
            &mut rng,
            self.likes_before,
            &mut shards[..self.from as usize],
        );
        let mut scratch = vec![0u64; self.to as usize];
        let w = self.stale_window_seconds();
        let stale = self.stale();
        let (mut min_r, mut max_r, mut under) = (1.0f64, 0.0f64, 0);
        let mut displayed = self.likes_before;
        for k in 1..=w {
            let likes = self.likes_in(k);
            // reads-first: writers keep the old shards for the first TTL.
            let writing = if !stale && k <= self.settings_ttl_seconds {
                self.from
            } else {
                self.to
            };
            let part = &mut scratch[..writing as usize];
            split_uniform(&mut rng, likes, part);
            for (s, add) in shards.iter_mut().zip(part.iter()) {
                *s += add;
            }
            let truth: u64 = shards.iter().sum();
            let read = if stale { self.from } else { self.to } as usize;
            displayed = shards[..read].iter().sum();
            let r = ratio(displayed as f64, truth as f64);
            min_r = min_r.min(r);
            max_r = max_r.max(r);
            under += u64::from(displayed < truth);
            on_row(&GrowRow {
                second: k,
                likes,
                displayed_total: displayed,
                true_total: truth,
            })?;
        }
        let mut report = self.expected();
        if w > 0 {
            report.displayed_total = displayed as f64;
            report.min_displayed_ratio = min_r;
            report.max_displayed_ratio = max_r;
            report.undercount_seconds = under;
        }
        report.seed = Some(seed);
        Ok(report)
    }
}
