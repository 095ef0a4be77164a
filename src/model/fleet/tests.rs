use super::*;

fn reads(servers: u64, cache_seconds: f64) -> ReadPlan {
    ReadPlan::new(1.0, servers, cache_seconds, 100, 3000.0).unwrap()
}

/// Three reels at 600, 300 and 100 likes/s, two partitions.
fn three_reels(cap: f64) -> FleetPlan {
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
        search_trials: 100,
        max_shards: 64,
        seed: 7,
    }
}

fn zipf_plan(reels: u64, total: f64, s: f64) -> FleetPlan {
    FleetPlan {
        background: Background::zipf(reels, total, s).unwrap(),
        ..three_reels(1000.0)
    }
}

#[test]
fn zipf_rates_sum_to_the_total() {
    let bg = Background::zipf(100_000, 2_314.8, 1.0).unwrap();
    let direct: f64 = (1..=100_000).rev().map(|i| bg.rate(i)).sum();
    assert!((direct - 2_314.8).abs() < 1e-9, "{direct}");
    assert!((bg.sum_pow(1, 100_000, 1) - 2_314.8).abs() < 1e-9);
    // s = 0: every reel the same.
    let flat = Background::zipf(1000, 50.0, 0.0).unwrap();
    assert!((flat.rate(1) - 0.05).abs() < 1e-15);
    assert!((flat.rate(1000) - 0.05).abs() < 1e-15);
}

#[test]
fn threshold_count_matches_brute_force() {
    for s in [0.7, 1.0, 1.5] {
        let bg = Background::zipf(10_000, 5_000.0, s).unwrap();
        for t in [0.01, 0.5, 1.0, 7.3, 100.0, 1e4] {
            let brute = (1..=10_000).filter(|&i| bg.rate(i) >= t).count() as u64;
            assert_eq!(bg.count_at_least(t), brute, "s {s} t {t}");
        }
        // Exactly on a rate: that reel counts.
        let r7 = bg.rate(7);
        assert_eq!(bg.count_at_least(r7), 7);
    }
    let csv = Background::rates(vec![1.0, 5.0, 3.0]).unwrap();
    assert_eq!(csv.count_at_least(3.0), 2);
    assert_eq!(csv.count_at_least(0.5), 3);
}

#[test]
fn capped_view_sums_match_brute_force() {
    let bg = Background::zipf(20_000, 3_000.0, 1.1).unwrap();
    for (a, b, limit) in [(1, 20_000, 20.0), (5, 15_000, 3.0), (1, 100, f64::INFINITY)] {
        let brute: f64 = (a..=b).map(|i| (7.0 * bg.rate(i)).min(limit)).sum();
        let closed = bg.sum_min(a, b, 7.0, limit);
        assert!(
            (closed - brute).abs() < 1e-9 * brute,
            "{a}..{b}: {closed} vs {brute}"
        );
    }
}

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

/// Exact P(over) and E[max] for the three-reel fleet by listing the 2^5
/// placements of its keys (300, 300, 150, 150, 100).
fn three_reels_exact(cap: f64) -> (f64, f64) {
    let keys = [300.0, 300.0, 150.0, 150.0, 100.0];
    let (mut over, mut max) = (0.0, 0.0);
    for mask in 0u32..32 {
        let mut load = [0.0f64; 2];
        for (j, r) in keys.iter().enumerate() {
            load[(mask >> j & 1) as usize] += r;
        }
        let ok: f64 = load
            .iter()
            .map(|&l| {
                if l == 0.0 {
                    1.0
                } else {
                    Poisson::new(l).unwrap().cdf(cap as u64)
                }
            })
            .product();
        over += (1.0 - ok) / 32.0;
        max += load[0].max(load[1]) / 32.0;
    }
    (over, max)
}

#[test]
fn three_reels_on_two_partitions_match_enumeration() {
    let plan = three_reels(600.0);
    let l = plan.partition_load(250.0, 2, 20_000);
    assert_eq!(l.shard_keys, 5);
    assert_eq!(l.explicit_keys, 5);
    assert_eq!(l.tail_keys, 0);
    assert_eq!(l.mean_partition_rate, 500.0);
    let (over, max) = three_reels_exact(600.0);
    // Tolerance: 4 standard errors of the 20,000-placement mean.
    assert!(
        (l.p_over_cap_per_second - over).abs() < 4.0 * l.p_over_cap_se,
        "{} vs {over} (se {})",
        l.p_over_cap_per_second,
        l.p_over_cap_se
    );
    assert!((l.hottest_partition_rate - max).abs() < 4.0 * l.hottest_partition_rate_se);
    // By hand: the 32 splits give a busier side of 550 (8 times), 600 (6),
    // 700 (6), 750 (4), 850 (4), 900 (2), 1000 (2): mean 22,400 / 32 = 700.
    assert!((max - 700.0).abs() < 1e-9, "{max}");
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

#[test]
fn bad_inputs_name_the_flag() {
    assert_eq!(Background::zipf(0, 1.0, 1.0).unwrap_err().what, "--reels");
    assert_eq!(
        Background::zipf(crate::model::defaults::MAX_REELS + 1, 1.0, 1.0)
            .unwrap_err()
            .what,
        "--reels"
    );
    assert_eq!(Background::zipf(10, 1.0, -1.0).unwrap_err().what, "--zipf");
    assert_eq!(
        Background::zipf(10, 1.0, f64::NAN).unwrap_err().what,
        "--zipf"
    );
    assert_eq!(Background::rates(vec![]).unwrap_err().what, "rates");
    assert_eq!(
        Background::rates(vec![1.0, -2.0]).unwrap_err().what,
        "rates"
    );
}

#[test]
fn p_over_skips_only_negligible_partitions() {
    // Below the skip the Chernoff bound is < e^-69; check the exact tail agrees.
    for lambda in [1.0, 100.0, 500.0, 700.0, 900.0, 1200.0] {
        let exact = Poisson::new(lambda).unwrap().sf(1000);
        let got = p_over(lambda, 1000.0);
        assert!((got - exact).abs() <= 1e-30, "{lambda}: {got} vs {exact}");
    }
    assert_eq!(p_over(0.0, 1000.0), 0.0);
}

#[test]
fn one_pinned_reel_agrees_with_the_birthday_bound() {
    // 100 keys of 700 likes/s on 20,000 partitions, a background of 1 like/s:
    // a partition goes over 1,000 exactly when two keys share it, so the
    // chance is the birthday bound of `partitions::p_shared_partition`.
    let mut plan = zipf_plan(1000, 1.0, 1.0);
    plan.partitions = 20_000;
    plan.pinned = vec![PinnedReel {
        name: "post".into(),
        rate: 70_000.0,
        shards: Some(100),
    }];
    let l = plan.partition_load(300.0, 1, 2000);
    let want = crate::model::partitions::p_shared_partition(100, 20_000);
    assert!((want - 0.2188).abs() < 1e-3, "{want}");
    // 4 standard errors of the 2,000-placement mean.
    assert!(
        (l.p_over_cap_per_second - want).abs() < 4.0 * l.p_over_cap_se,
        "{} vs {want} (se {})",
        l.p_over_cap_per_second,
        l.p_over_cap_se
    );
}
