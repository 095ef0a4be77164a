//! The smallest plan within the risk: per threshold in a grid, the fewest
//! target shards whose partitions stay under the cap, judged by a bound
//! that holds ([`FleetPlan::over_cap_bound`]), not by sampled placements.

use std::collections::HashMap;
use std::sync::Mutex;

use serde::Serialize;

use super::bound::{LoadGrid, MgfTerms};
use super::placement::Layout;
use super::FleetPlan;
use crate::model::law::TrafficModel;
use crate::model::partitions::PartitionRisk;

/// The smallest target shard count (and, for it, the largest threshold)
/// whose bound on P(any second over the cap during `seconds`) is within the risk.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct SearchResult {
    /// Accepted P(some partition over the cap during `seconds`).
    pub risk: f64,
    /// Seconds the risk covers.
    pub seconds: u64,
    /// The threshold grid searched.
    pub thresholds: Vec<f64>,
    /// Most target shards tried.
    pub max_shards: u64,
    /// Whether some threshold met the risk within `max_shards`.
    pub found: bool,
    /// The answer: the fewest target shards over the grid (null when none
    /// was found).
    pub shards: Option<u64>,
    /// The largest threshold giving those shards, likes/s (null when none
    /// was found).
    pub threshold: Option<f64>,
    /// The reels at or above that threshold (null when none was found).
    pub hot_reels: Option<u64>,
    /// The bound on P(any second over the cap) at the answer: the union
    /// bound over partitions, exact over the biggest reel's shards and a
    /// Chernoff bound on the rest.
    pub p_any_over_cap_upper: Option<f64>,
    /// Per threshold tried: the smallest shard count that met the risk.
    pub per_threshold: Vec<(f64, Option<u64>)>,
}

impl FleetPlan {
    /// Thresholds the search tries: the plan's threshold x 1/4 .. 4.
    pub fn search_thresholds(&self) -> Vec<f64> {
        [0.25, 0.5, 1.0, 2.0, 4.0]
            .iter()
            .map(|m| self.threshold * m)
            .collect()
    }

    /// For each threshold in the grid, the fewest shards (at most
    /// `max_shards`) whose bound meets the risk. The risk is not monotone in
    /// the shard count (more shards share more partitions, each with less
    /// load), so the counts are tried in order; a count at which the
    /// biggest raised reel alone fails the exact shared-partition risk
    /// ([`PartitionRisk`]: more load only adds to it) is skipped without
    /// the bound. The answer: the smallest such count, and the largest
    /// threshold giving it.
    pub fn search(&self) -> SearchResult {
        use rayon::prelude::*;
        let thresholds = self.search_thresholds();
        // Thresholds that raise the same reels give the same keys at every
        // count: one search each.
        let raised = |t: f64| {
            let pinned: Vec<bool> = self.pinned.iter().map(|r| r.rate >= t).collect();
            (self.background.count_at_least(t), pinned)
        };
        let mut classes: Vec<(f64, _)> = Vec::new();
        for &t in &thresholds {
            if !classes.iter().any(|(_, key)| *key == raised(t)) {
                classes.push((t, raised(t)));
            }
        }
        let alone = AloneMeets::default();
        let answers: Vec<_> = classes
            .par_iter()
            .map(|(t, key)| (key, self.fewest_shards(*t, &alone)))
            .collect();
        let found: Vec<(f64, Option<(u64, f64)>)> = thresholds
            .iter()
            .map(|&t| {
                let key = raised(t);
                (
                    t,
                    answers.iter().find(|(k, _)| **k == key).and_then(|a| a.1),
                )
            })
            .collect();
        let best = found
            .iter()
            .filter_map(|&(t, s)| s.map(|(s, b)| (s, t, b)))
            .min_by(|a, b| a.0.cmp(&b.0).then(b.1.total_cmp(&a.1)));
        SearchResult {
            risk: self.risk,
            seconds: self.seconds,
            thresholds,
            max_shards: self.max_shards,
            found: best.is_some(),
            shards: best.map(|b| b.0),
            threshold: best.map(|b| b.1),
            hot_reels: best.map(|b| self.hot_reels(b.1)),
            p_any_over_cap_upper: best.map(|b| b.2),
            per_threshold: found.iter().map(|&(t, s)| (t, s.map(|s| s.0))).collect(),
        }
    }

    fn fewest_shards(&self, threshold: f64, known: &AloneMeets) -> Option<(u64, f64)> {
        // The biggest raised pinned reel on its own: a floor on the risk.
        let alone = self
            .pinned
            .iter()
            .filter(|r| r.rate >= threshold)
            .max_by(|a, b| a.rate.total_cmp(&b.rate))
            .and_then(|r| {
                PartitionRisk::new(
                    r.rate,
                    self.cap,
                    self.partitions,
                    self.seconds as f64,
                    TrafficModel::Poisson,
                )
                .ok()
                .map(|pr| (pr, r))
            });
        let mut terms = MgfTerms::default();
        let grid = LoadGrid::default();
        // Counts below a raised reel's own keep its keys: the same layout,
        // the same bound, computed once.
        let mut last: Option<(Layout, f64)> = None;
        (1..=self.max_shards).find_map(|s| {
            if let Some((pr, reel)) = &alone {
                let keys = self.pinned_shards(reel, s);
                if !known.meets((reel.rate, keys), || pr.meets(keys, self.risk)) {
                    return None;
                }
            }
            let layout = self.layout(threshold, s);
            let b = match &last {
                Some((seen, b)) if *seen == layout => *b,
                _ => self.layout_bound_screened(&layout, self.risk, &mut terms, Some(&grid)),
            };
            last = Some((layout, b));
            (b <= self.risk).then_some((s, b))
        })
    }
}

/// Whether the biggest raised reel alone meets the risk, by its rate and
/// shard keys: the thresholds' searches ask the same question (the same
/// reel, and below its own count the same keys at every step), and the
/// exact answer near the edge is the costliest step of a search.
#[derive(Default)]
struct AloneMeets(Mutex<HashMap<(u64, u64), bool>>);

impl AloneMeets {
    fn meets(&self, (rate, keys): (f64, u64), compute: impl FnOnce() -> bool) -> bool {
        let key = (rate.to_bits(), keys);
        let known = self
            .0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&key)
            .copied();
        known.unwrap_or_else(|| {
            // Computed outside the lock: another search may do the same
            // work at once, with the same answer.
            let answer = compute();
            self.0
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(key, answer);
            answer
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::model::fleet::tests::three_reels;

    #[test]
    fn search_takes_the_largest_threshold_of_the_fewest_shards() {
        // A cap no load comes near: one shard meets the risk at every
        // threshold, and the answer is the largest threshold.
        let plan = three_reels(1e9);
        assert_eq!(
            plan.search_thresholds(),
            vec![62.5, 125.0, 250.0, 500.0, 1000.0]
        );
        let r = plan.search();
        assert!(r.found);
        assert_eq!((r.shards, r.threshold), (Some(1), Some(1000.0)));
        assert_eq!(r.hot_reels, Some(0));
        assert_eq!(r.p_any_over_cap_upper, Some(0.0));
        assert!(r.per_threshold.iter().all(|&(_, s)| s == Some(1)));
    }

    #[test]
    fn search_reports_none_when_no_shard_count_fits() {
        // A cap of 0: every partition with a like goes over, whatever the shards.
        let mut plan = three_reels(0.0);
        plan.max_shards = 8;
        let r = plan.search();
        assert!(!r.found);
        assert_eq!((r.shards, r.threshold, r.hot_reels), (None, None, None));
        assert!(r.per_threshold.iter().all(|&(_, s)| s.is_none()));
    }
}
