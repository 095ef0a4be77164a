use super::*;

fn inputs() -> ApproxInputs {
    // The interview's viral post: 200K likes/s, 50K views/s, the 286 shards
    // `size` gives at 700 safe writes/s per key, a 1,000/s cap, one minute.
    ApproxInputs::new(200_000.0, 50_000.0, 286, 1000.0, 60.0).unwrap()
}

#[test]
fn hll_error_with_redis_registers_is_0_8125_percent() {
    // 1.04 / sqrt(16384) = 1.04 / 128 = 0.008125 exactly (a power-of-two divide).
    assert_eq!(hll_standard_error(REDIS_HLL_REGISTERS), 0.008125);
}

#[test]
fn redis_dense_hll_is_12_kb_plus_header() {
    // 16,384 x 6 / 8 = 12,288 register bytes + 16 header bytes.
    assert_eq!(redis_hll_dense_bytes(), 12_304);
}

#[test]
fn count_min_dimensions() {
    // e / 0.001 = 2718.28 -> 2719; ln(1 / 0.01) = 4.605 -> 5.
    let cm = CountMinSize::new(0.001, 0.01).unwrap();
    assert_eq!((cm.width, cm.depth), (2719, 5));
    assert_eq!(cm.bytes(), 2719 * 5 * 4);
    assert_eq!(cm.bytes(), 54_380);
    // e / 0.01 = 271.8 -> 272; ln(1 / 0.001) = 6.9 -> 7.
    let cm = CountMinSize::new(0.01, 0.001).unwrap();
    assert_eq!((cm.width, cm.depth), (272, 7));
    assert_eq!(CountMinSize::new(0.0, 0.01).unwrap_err().what, "--epsilon");
    assert_eq!(CountMinSize::new(0.1, 1.0).unwrap_err().what, "--delta");
}

#[test]
fn count_min_overcount_bound() {
    let cm = CountMinSize {
        width: 10,
        depth: 2,
    };
    // (100 / (10 x 20))^2 = 0.25.
    assert_eq!(cm.p_overcount_at_least(100.0, 20.0), 0.25);
    // A gap below N / w: the per-row bound is capped at 1.
    assert_eq!(cm.p_overcount_at_least(100.0, 5.0), 1.0);
    assert_eq!(cm.p_overcount_at_least(100.0, 0.0), 1.0);
    // At gap = epsilon N the bound is (e / (w epsilon))^d <= e^-d <= delta.
    let cm = CountMinSize::new(0.001, 0.01).unwrap();
    let n = 1e6;
    let p = cm.p_overcount_at_least(n, 0.001 * n);
    assert!(p <= (-5.0f64).exp() && p <= 0.01, "{p}");
}

#[test]
fn count_min_false_raises_hand_case() {
    // Fleet rate F = 100 x 11/6 so Zipf(1) over 3 reels gives 100, 50, 33.3;
    // the hot reel adds 1,000: N = 1,183.3. Threshold 75: reel 1 is truly
    // above; reels 2 and 3 have gaps 25 and 41.67.
    let mut i = ApproxInputs::new(1000.0, 10.0, 1, 1000.0, 1.0).unwrap();
    i.likes_per_day = 86_400.0 * 100.0 * 11.0 / 6.0;
    i.reels = 3;
    i.threshold = 75.0;
    let d = count_min_detection(&i).unwrap();
    let n: f64 = 1000.0 + 100.0 * 11.0 / 6.0;
    let want = (n / (2719.0 * 25.0)).powi(5) + (n / (2719.0 * (75.0 - 100.0 / 3.0))).powi(5);
    assert_eq!(d.reels_truly_above, 1);
    assert!((d.window_rate - n).abs() < 1e-9);
    assert!(
        (d.expected_false_raises - want).abs() < 1e-12 * want,
        "{} vs {want}",
        d.expected_false_raises
    );
    assert!((d.extra_items - 19.0 * want).abs() < 1e-12 * want);
    assert!((d.error_bound - 0.001 * n).abs() < 1e-12);
}

#[test]
fn count_min_false_raises_defaults() {
    // 100M likes/day = 1,157.4/s over 1M reels, Zipf(1): rank 1 has
    // 1157.4 / H(1e6, 1) = 1157.4 / 14.39 = 80.4 likes/s, below 300, so no
    // reel is truly hot. With the 200K/s reel in the sketch, N = 201,157 and
    // N / (w x 300) = 0.2466: each cold reel is raised with P <= 0.2466^5
    // ~ 9.1e-4, about 1e6 x 9.1e-4 ~ 910 reels (the gap shrinks a little for
    // the top ranks).
    let d = count_min_detection(&inputs()).unwrap();
    assert_eq!(d.reels_truly_above, 0);
    let per = (201_157.407f64 / (2719.0 * 300.0)).powi(5);
    assert!(
        d.expected_false_raises > 1e6 * per * 0.99,
        "{}",
        d.expected_false_raises
    );
    assert!(
        d.expected_false_raises < 1e6 * per * 1.01,
        "{}",
        d.expected_false_raises
    );
    // Without the hot reel (a quiet fleet) the bound is negligible.
    let mut quiet = inputs();
    quiet.rate = 1.0;
    let q = count_min_detection(&quiet).unwrap();
    assert!(
        q.expected_false_raises < 1e-6,
        "{}",
        q.expected_false_raises
    );
}

#[test]
fn jemalloc_classes() {
    let got: Vec<u64> = [1, 8, 9, 12, 24, 25, 64, 65, 80, 81, 128, 129, 257]
        .iter()
        .map(|&b| jemalloc_size_class(b))
        .collect();
    assert_eq!(got, [8, 8, 16, 16, 24, 32, 64, 80, 80, 96, 128, 160, 320]);
}

#[test]
fn redis_set_sizes() {
    // Intset: 8 header bytes + 512 x 8-byte integers.
    assert_eq!(redis_set_bytes(512.0, 8), 8.0 + 512.0 * 8.0);
    assert_eq!(redis_set_bytes(100.0, 4), 8.0 + 400.0);
    // Hashtable: 513 x (24 + jemalloc(3 + 8 + 1) = 16) + 8 x 1024 slots.
    assert_eq!(redis_set_bytes(513.0, 8), 513.0 * 40.0 + 8.0 * 1024.0);
    // 1M members: 40 MB of entries and strings + 8 x 2^20 slots.
    assert_eq!(redis_set_bytes(1e6, 8), 40e6 + 8.0 * 1_048_576.0);
}

#[test]
fn set_estimate_matches_redis_measurement() {
    // redis/redis#11595: SADD of "x1".."x1000000" took 46.29 MB (MiB, as
    // INFO prints) on Redis 7.0. Our per-member model for those strings:
    // 24-byte entry + jemalloc(3 + len + 1) + the 2^20-slot table.
    let sds: u64 = (1..=1_000_000u64)
        .map(|i| jemalloc_size_class(3 + 1 + i.to_string().len() as u64 + 1))
        .sum();
    let model = 24e6 + sds as f64 + 8.0 * 1_048_576.0;
    let measured = 46.29 * 1_048_576.0;
    assert!(
        (model / measured - 1.0).abs() < 0.01,
        "{model} vs {measured}"
    );
}

#[test]
fn random_shard_sets_double_count_hash_shard_does_not() {
    // 100,000 users, 10% send the SADD twice, 20 sets. Random shard: each
    // repeat lands elsewhere with P = 19/20, so the overcount is
    // Binomial(1e5, 0.1 x 0.95): mean 9,500, sd sqrt(1e5 x 0.095 x 0.905)
    // = 92.7; we allow 5 sd (464).
    let users = 100_000;
    let random = simulate_set_shards(users, 0.1, 20, ShardChoice::Random, 11).unwrap();
    let over = random.scard_sum as f64 - users as f64;
    let want = expected_random_double_count(users as f64, 0.1, 20);
    assert_eq!(want, 9500.0);
    assert!((over - want).abs() < 464.0, "overcount {over}");
    // Hash by user: the repeat hits the same set, SADD ignores it: exact.
    let hashed = simulate_set_shards(users, 0.1, 20, ShardChoice::UserHash, 11).unwrap();
    assert_eq!(hashed.scard_sum, users);
    // Every user repeats: still exact with the hash.
    let all = simulate_set_shards(1000, 1.0, 7, ShardChoice::UserHash, 3).unwrap();
    assert_eq!(all.scard_sum, 1000);
    // One shard: random cannot double count either.
    let one = simulate_set_shards(1000, 1.0, 1, ShardChoice::Random, 3).unwrap();
    assert_eq!(one.scard_sum, 1000);
    assert_eq!(
        simulate_set_shards(10, 1.5, 2, ShardChoice::Random, 1)
            .unwrap_err()
            .what,
        "--repeat"
    );
}

#[test]
fn user_shard_is_stable_and_spread() {
    assert_eq!(user_shard(42, 20), user_shard(42, 20));
    let mut counts = [0u64; 20];
    for u in 0..200_000u64 {
        counts[user_shard(u, 20) as usize] += 1;
    }
    // 10,000 expected per shard, sd sqrt(2e5 x 0.05 x 0.95) = 97.5; 5 sd.
    for c in counts {
        assert!((c as f64 - 10_000.0).abs() < 488.0, "{counts:?}");
    }
}

#[test]
fn like_row_sizes() {
    // 22 name bytes + 8 user id + 16 (reel id, time) + 100 overhead.
    assert_eq!(like_row_bytes(8), 146);
    let lr = like_rows(&inputs());
    assert_eq!(lr.rows_per_day, 100e6);
    assert_eq!(lr.bytes_per_day, 14.6e9);
    // 200,000 / (1,000 x 0.5) = 400 partitions, 500 writes/s each.
    assert_eq!(lr.partitions, 400);
    assert_eq!(lr.writes_per_partition, 500.0);
    // The hot post: min(200K x 86,400, 100M) = 100M rows x 146 B / 1 MiB.
    assert_eq!(lr.count_pages, (100e6 * 146.0 / 1_048_576.0f64).ceil());
}

#[test]
fn rows_for_the_viral_post() {
    let rows = approx_rows(&inputs()).unwrap();
    let names: Vec<&str> = rows.iter().map(|r| r.strategy.as_str()).collect();
    assert_eq!(
        names,
        [
            "set",
            "set-sharded",
            "like-rows",
            "hll",
            "hll-sharded",
            "count-min",
            "hash",
            "hash-sharded"
        ]
    );
    let by = |n: &str| rows.iter().find(|r| r.strategy == n).unwrap();
    let set = by("set");
    assert!(set.exact);
    assert_eq!(set.writes_per_key_per_second, 200_000.0);
    assert_eq!(set.p_over_cap_per_second, Some(1.0));
    assert_eq!(set.memory_bytes, Some(redis_set_bytes(100e6, 8)));
    // 40 servers / 2 s cache = 20 count reads a second.
    assert_eq!(set.reads_per_second, 20.0);
    let ss = by("set-sharded");
    assert_eq!(ss.writes_per_key_per_second, 200_000.0 / 286.0);
    assert_eq!(ss.reads_per_view, 286.0);
    assert!(ss.p_over_cap_per_second.unwrap() < 1e-6);
    let hll = by("hll");
    assert!(!hll.exact);
    assert_eq!(
        hll.error,
        Some(CountError::StandardError { share: 0.008125 })
    );
    assert_eq!(hll.memory_bytes, Some(12_304.0));
    assert_eq!(by("hll-sharded").memory_bytes, Some(12_304.0 * 286.0));
    let cm = by("count-min");
    assert_eq!(cm.memory_bytes, Some(54_380.0));
    match cm.verdict {
        Verdict::CountMin {
            width,
            depth,
            sketch_bytes,
            false_raises,
            extra_items,
        } => {
            assert_eq!((width, depth, sketch_bytes), (2719, 5, 54_380));
            // <= 912 false raises by the Markov bound, 17,330 extra items.
            assert_eq!(false_raises.round(), 912.0, "{false_raises}");
            assert_eq!(extra_items.round(), 17_330.0, "{extra_items}");
        }
        v => panic!("{v:?}"),
    }
    // 286 hashes of 944 writes/s each: under the cap on average, but the
    // busiest goes over it.
    assert!(matches!(
        by("hash-sharded").verdict,
        Verdict::HashSharded {
            fit: Fit::BusiestOver { .. },
            hashes_for_mean: 270.0
        }
    ));
    assert!(matches!(
        by("set").verdict,
        Verdict::Set {
            fit: Fit::OverCap,
            ..
        }
    ));
    // 200K likes + 20K shares + 50K views on one hash.
    assert_eq!(by("hash").writes_per_key_per_second, 270_000.0);
    assert_eq!(
        by("hash-sharded").writes_per_key_per_second,
        270_000.0 / 286.0
    );
    assert_eq!(by("like-rows").writes_per_key_per_second, 500.0);
}

/// Breaks one field of the inputs.
type Edit = fn(&mut ApproxInputs);

#[test]
fn bad_inputs_name_the_flag() {
    let mut i = inputs();
    i.epsilon = 1.0;
    let e = approx_rows(&i).unwrap_err();
    assert_eq!(e.downcast_ref::<InputError>().unwrap().what, "--epsilon");
    let cases: [(&str, Edit); 12] = [
        ("--reels", |i| i.reels = 0),
        ("--zipf", |i| i.zipf_s = f64::NAN),
        ("--threshold", |i| i.threshold = -1.0),
        ("--target-shards", |i| i.target_shards = 0),
        ("--user-id-bytes", |i| i.user_id_bytes = 0),
        ("--likes-per-day", |i| i.likes_per_day = 0.0),
        ("--post-likes", |i| i.post_likes = Some(-3.0)),
        ("--partitions", |i| i.partitions = Some(0)),
        ("--shares", |i| i.shares = f64::INFINITY),
        ("--cache-seconds", |i| i.cache_seconds = -1.0),
        ("--duration", |i| i.seconds = 0.5),
        ("--delta", |i| i.delta = 0.0),
    ];
    for (flag, set) in cases {
        let mut i = inputs();
        set(&mut i);
        assert_eq!(i.validate().unwrap_err().what, flag);
    }
    assert_eq!(
        ApproxInputs::new(0.0, 1.0, 1, 1.0, 1.0).unwrap_err().what,
        "--rate"
    );
    assert_eq!(
        ApproxInputs::new(1.0, 1.0, 0, 1.0, 1.0).unwrap_err().what,
        "--shards"
    );
}

#[test]
fn out_of_model_range_gives_no_risk_not_an_error() {
    // 1e8 likes/s on a 1,000/s cap: 200,000 auto partitions, past the exact
    // model's 100,000 keys; and a hash at 1e8 likes + 1e7 shares + 1e9
    // views a second, past 1e9.
    let mut i = ApproxInputs::new(1e8, 1e9, 1, 1000.0, 1.0).unwrap();
    i.reels = 10;
    let rows = approx_rows(&i).unwrap();
    let lr = rows.iter().find(|r| r.strategy == "like-rows").unwrap();
    assert_eq!(lr.writes_per_key_per_second, 500.0);
    assert_eq!(lr.p_over_cap_per_second, None);
    let hash = rows.iter().find(|r| r.strategy == "hash").unwrap();
    assert_eq!(hash.writes_per_key_per_second, 1e8 + 1e7 + 1e9);
    assert_eq!(hash.p_any_over_cap, None);
}
