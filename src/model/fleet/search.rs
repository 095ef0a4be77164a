//! The smallest plan within the risk: per threshold in a grid, the fewest
//! target shards whose partitions stay under the cap.

use serde::Serialize;

use super::FleetPlan;
use crate::model::stats::p_any;

/// The smallest target shard count (and, for it, the largest threshold)
/// that keeps P(any second over the cap during `seconds`) within the risk.
#[derive(Debug, Clone, Serialize)]
pub struct SearchResult {
    /// Accepted P(some partition over the cap during `seconds`).
    pub risk: f64,
    /// Seconds the risk covers.
    pub seconds: u64,
    /// The threshold grid searched.
    pub thresholds: Vec<f64>,
    /// Most target shards tried.
    pub max_shards: u64,
    /// Placements per step.
    pub trials: u64,
    /// Whether some threshold met the risk within `max_shards`.
    pub found: bool,
    /// The answer: the fewest target shards over the grid,
    pub shards: Option<u64>,
    /// and the largest threshold giving them,
    pub threshold: Option<f64>,
    /// with the reels at or above it.
    pub hot_reels: Option<u64>,
    /// Upper 95% bound of P(any second over the cap) at the answer.
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

    /// Does (threshold, shards) meet the risk? Uses the upper 95% bound of
    /// the per-second chance, so Monte Carlo noise does not pass a plan.
    fn meets(&self, threshold: f64, shards: u64) -> (bool, f64) {
        let l = self.partition_load(threshold, shards, self.search_trials);
        let upper = p_any(l.p_over_cap_ci95[1], self.seconds as f64);
        (upper <= self.risk, upper)
    }

    /// For each threshold in the grid, the fewest shards (at most
    /// `max_shards`) that meet the risk, by exponential then binary search
    /// (the chance falls as shards are added; every evaluation uses the same
    /// seed, so the Monte Carlo noise is common to all of them). The answer:
    /// the smallest such shard count, and the largest threshold giving it.
    pub fn search(&self) -> SearchResult {
        let thresholds = self.search_thresholds();
        let per_threshold: Vec<(f64, Option<u64>)> = thresholds
            .iter()
            .map(|&t| (t, self.fewest_shards(t)))
            .collect();
        let best = per_threshold
            .iter()
            .filter_map(|&(t, s)| s.map(|s| (s, t)))
            .min_by(|a, b| a.0.cmp(&b.0).then(b.1.total_cmp(&a.1)));
        SearchResult {
            risk: self.risk,
            seconds: self.seconds,
            thresholds,
            max_shards: self.max_shards,
            trials: self.search_trials,
            found: best.is_some(),
            shards: best.map(|b| b.0),
            threshold: best.map(|b| b.1),
            hot_reels: best.map(|b| self.hot_reels(b.1)),
            p_any_over_cap_upper: best.map(|b| self.meets(b.1, b.0).1),
            per_threshold,
        }
    }

    fn fewest_shards(&self, threshold: f64) -> Option<u64> {
        let found = crate::model::search::fewest_shards(self.max_shards, |s| {
            Ok::<_, std::convert::Infallible>(self.meets(threshold, s).0)
        });
        match found {
            Ok(s) => s,
            Err(never) => match never {},
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::model::fleet::tests::three_reels;

    #[test]
    fn search_takes_the_largest_threshold_of_the_fewest_shards() {
        // A cap no load comes near: one shard meets the risk at every
        // threshold, and the answer is the largest threshold.
        let mut plan = three_reels(1e9);
        plan.search_trials = 10;
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
        plan.search_trials = 10;
        plan.max_shards = 8;
        let r = plan.search();
        assert!(!r.found);
        assert_eq!((r.shards, r.threshold, r.hot_reels), (None, None, None));
        assert!(r.per_threshold.iter().all(|&(_, s)| s.is_none()));
    }
}
