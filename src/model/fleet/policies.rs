//! Items and shard reads of the three sharding policies, background reels
//! in closed form, pinned reels through [`ReadPlan::cost`].

use serde::Serialize;

use super::{FleetPlan, PinnedReel};
use crate::model::read_cost::ReadPlan;

/// Which reels get shard keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Policy {
    /// Every reel one counter item.
    OneCounterPerReel,
    /// Every reel the target shard count.
    EveryReelSharded,
    /// Only reels at or above the threshold sharded (the monitor's policy).
    HotReelsOnly,
}

/// Items and shard reads of one policy.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct PolicyCost {
    /// one_counter_per_reel, every_reel_sharded or hot_reels_only.
    pub policy: Policy,
    /// Counter items stored (shard keys over all reels).
    pub items: u64,
    /// items / reels.
    pub items_per_reel: f64,
    /// Every view sums every shard of its reel.
    pub shard_reads_per_second_uncached: f64,
    /// Each server sums a reel at most once per cache period.
    pub shard_reads_per_second_cached: f64,
}

impl FleetPlan {
    /// Items and shard reads for the three policies at the plan's threshold
    /// and target. Background reels in closed form; pinned reels through
    /// [`ReadPlan::cost`].
    pub fn policies(&self) -> Vec<PolicyCost> {
        let (t, s) = (self.threshold, self.target_shards);
        let bg = &self.background;
        let n = bg.reels;
        let k = bg.count_at_least(t);
        // The most sums a reel's count takes a second, however many views:
        // the read-cost formula with unbounded views.
        let limit = crate::model::read_cost::sums_per_second(
            f64::INFINITY,
            self.reads.servers,
            self.reads.cache_seconds,
        );
        let v = self.views_per_like;
        // Background views and cached sums, all ranks / the raised ranks.
        let views_all = v * bg.total_rate;
        let views_hot = v * bg.sum_pow(1, k, 1);
        let sums_all = bg.sum_min(1, n, v, limit);
        let sums_hot = bg.sum_min(1, k, v, limit);
        let sf = s as f64;
        let pinned_cost = |shards: &dyn Fn(&PinnedReel) -> u64| {
            self.pinned.iter().fold((0u64, 0.0, 0.0), |acc, r| {
                let plan = ReadPlan {
                    views: v * r.rate,
                    ..self.reads
                };
                let c = plan.cost(shards(r));
                (
                    acc.0 + shards(r),
                    acc.1 + c.reads_uncached_per_second,
                    acc.2 + c.reads_cached_per_second,
                )
            })
        };
        let one = pinned_cost(&|_| 1);
        let all = pinned_cost(&|r| self.pinned_shards(r, s));
        let hot = pinned_cost(&|r| {
            if r.rate >= t {
                self.pinned_shards(r, s)
            } else {
                1
            }
        });
        let reels = self.all_reels() as f64;
        let row = |policy, items: u64, unc: f64, cached: f64| PolicyCost {
            policy,
            items,
            items_per_reel: items as f64 / reels,
            shard_reads_per_second_uncached: unc,
            shard_reads_per_second_cached: cached,
        };
        vec![
            row(
                Policy::OneCounterPerReel,
                n + one.0,
                views_all + one.1,
                sums_all + one.2,
            ),
            row(
                Policy::EveryReelSharded,
                n * s + all.0,
                views_all * sf + all.1,
                sums_all * sf + all.2,
            ),
            row(
                Policy::HotReelsOnly,
                n + k * (s - 1) + hot.0,
                views_all + views_hot * (sf - 1.0) + hot.1,
                sums_all + sums_hot * (sf - 1.0) + hot.2,
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::fleet::tests::{reads, three_reels, zipf_plan};

    #[test]
    fn three_reels_policies_by_hand() {
        // Reels at 600, 300, 100 likes/s; 2 views per like; threshold 250 raises
        // the first two to 2 shards. Cache: 40 servers / 2 s = at most 20 sums/s
        // per reel, and every reel has >= 200 views/s.
        let p = three_reels(1000.0).policies();
        let got: Vec<(u64, f64, f64)> = p
            .iter()
            .map(|c| {
                (
                    c.items,
                    c.shard_reads_per_second_uncached,
                    c.shard_reads_per_second_cached,
                )
            })
            .collect();
        assert_eq!(
            got,
            vec![
                (3, 2000.0, 60.0),
                (6, 4000.0, 120.0),
                // 2x600x2 + 2x300x2 + 2x100 = 3800; 20x2 + 20x2 + 20 = 100.
                (5, 3800.0, 100.0),
            ]
        );
        assert_eq!(p[2].policy, Policy::HotReelsOnly);
    }

    #[test]
    fn zipf_policy_arithmetic() {
        let mut plan = zipf_plan(1_000_000, 2_000.0, 1.0);
        plan.threshold = 10.0;
        plan.target_shards = 20;
        plan.reads = reads(40, 0.0); // no cache: reads = views x shards
        let k = plan.background.count_at_least(10.0);
        assert!(k > 0);
        let p = plan.policies();
        assert_eq!(p[0].items, 1_000_000);
        assert_eq!(p[1].items, 20_000_000);
        assert_eq!(p[2].items, 1_000_000 + 19 * k);
        let views = 2.0 * 2_000.0;
        assert!((p[0].shard_reads_per_second_uncached - views).abs() < 1e-6);
        assert!((p[1].shard_reads_per_second_uncached - 20.0 * views).abs() < 1e-5);
        let hot_views: f64 = (1..=k).map(|i| 2.0 * plan.background.rate(i)).sum();
        let want = views + 19.0 * hot_views;
        assert!((p[2].shard_reads_per_second_uncached - want).abs() < 1e-6);
        // No cache: cached = uncached.
        assert_eq!(
            p[2].shard_reads_per_second_cached,
            p[2].shard_reads_per_second_uncached
        );
    }

    #[test]
    fn pinned_reel_reads_go_through_read_plan() {
        let mut plan = zipf_plan(1000, 100.0, 1.0);
        plan.pinned = vec![PinnedReel {
            name: "post".into(),
            rate: 200_000.0,
            shards: Some(286),
        }];
        plan.views_per_like = 5.0;
        let p = plan.policies();
        let cost = ReadPlan {
            views: 1e6,
            ..plan.reads
        }
        .cost(286);
        let bg_cached = plan.background.sum_min(1, 1000, 5.0, 20.0);
        assert_eq!(p[2].items, 1000 + 286);
        assert!(
            (p[2].shard_reads_per_second_cached - (bg_cached + cost.reads_cached_per_second)).abs()
                < 1e-9
        );
        assert_eq!(cost.reads_cached_per_second, 20.0 * 286.0);
    }
}
