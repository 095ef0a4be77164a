//! Fixtures shared by the fleet's tests, and the tests of the whole plan.

use super::*;

/// Reads at 1 view/s (set per reel), batches of 100, a 3,000/s read cap.
pub(super) fn reads(servers: u64, cache_seconds: f64) -> ReadPlan {
    ReadPlan::new(1.0, servers, cache_seconds, Some(100), Some(3000.0)).unwrap()
}

/// Three reels at 600, 300 and 100 likes/s, two partitions.
pub(super) fn three_reels(cap: f64) -> FleetPlan {
    FleetPlan {
        background: Background::rates(vec![300.0, 100.0, 600.0]).unwrap(),
        pinned: vec![],
        views_per_like: 2.0,
        threshold: 250.0,
        target_shards: 2,
        partitions: 2,
        cap,
        safe: 700.0,
        reads: reads(40, 2.0),
        seconds: 3600,
        risk: 0.01,
        trials: 20_000,
        max_shards: 64,
        seed: 7,
    }
}

/// The three-reel plan with `reels` Zipf(s) reels sharing `total` instead.
pub(super) fn zipf_plan(reels: u64, total: f64, s: f64) -> FleetPlan {
    FleetPlan {
        background: Background::zipf(reels, total, s).unwrap(),
        ..three_reels(1000.0)
    }
}

#[test]
fn hot_reel_counts_include_pinned() {
    let mut plan = three_reels(1000.0);
    plan.pinned = vec![PinnedReel {
        name: "p".into(),
        rate: 5000.0,
        shards: None,
    }];
    assert_eq!(plan.hot_reels(250.0), 3);
    // ceil(5000 / 700) = 8 > target 2.
    assert_eq!(plan.pinned_shards(&plan.pinned[0], 2), 8);
    assert_eq!(plan.pinned_shards(&plan.pinned[0], 20), 20);
}

#[test]
fn same_seed_same_report_for_any_thread_count() {
    let mut plan = zipf_plan(100_000, 2_000.0, 1.0);
    plan.partitions = 50;
    plan.trials = 100;
    plan.threshold = 20.0;
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        serde_json::to_string(&pool.install(|| plan.evaluate())).unwrap()
    };
    let one = run(1);
    assert_eq!(one, run(2));
    assert_eq!(one, run(3));
}
