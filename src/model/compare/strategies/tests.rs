//! The write-path designs checked by hand.

use super::*;
use crate::model::exact::Risk;

/// The reference case: 1,000 cap, 700 safe, 40 servers caching 2 s.
fn inputs(rate: f64, shards: u64) -> CompareInputs {
    CompareInputs {
        rate,
        shards,
        cap: 1000.0,
        safe: 700.0,
        traffic: TrafficModel::Fixed,
        duration_seconds: 14_400.0,
        reads: ReadPlan::new(50_000.0, 40, 2.0, Some(100), Some(3000.0)).unwrap(),
        flush_seconds: 1.0,
        log_commit_seconds: 5.0,
        transactional: None,
        drift: DriftModel::new(rate, 0.001, 0.5, 2).unwrap(),
        writers: crate::model::picker::Writers::new(crate::model::picker::Picker::Random, 40)
            .unwrap(),
        risk: 0.01,
    }
}

fn row<'a>(c: &'a Comparison, strategy: &str) -> &'a StrategyRow {
    c.rows.iter().find(|r| r.row.strategy == strategy).unwrap()
}

#[test]
fn reference_rows_by_hand() {
    let c = compare(&inputs(9_000.0, 20)).unwrap();
    let names: Vec<_> = c.rows.iter().map(|r| r.row.strategy.as_str()).collect();
    assert_eq!(
        names,
        ["single", "sharded", "buffered", "sharded-buffered", "log"]
    );

    // One key takes every like: 9,000 > 1,000, over the cap every second.
    let s = row(&c, "single");
    assert_eq!(s.row.writes_per_key_per_second, 9_000.0);
    assert_eq!(s.row.key_p_over_cap_per_second, Some(1.0));
    // Cached: min(50,000 views, 40 servers / 2 s) = 20 sums/s of 1 key.
    assert_eq!(s.row.reads_per_second, 20.0);
    assert_eq!(s.reads_uncached_per_second, Some(50_000.0));
    assert_eq!(s.row.double_count_likes, 1.0);

    // 20 shards: 450 per shard on average; reads 20 x 20 = 400/s cached,
    // 50,000 x 20 = 1,000,000/s uncached (sizing.rs reference).
    let s = row(&c, "sharded");
    assert_eq!(s.row.writes_per_key_per_second, 450.0);
    assert_eq!(s.row.reads_per_second, 400.0);
    assert_eq!(s.reads_uncached_per_second, Some(1_000_000.0));
    let risk = Risk::compute(9_000.0, 20, 1000.0, 14_400.0, TrafficModel::Fixed).unwrap();
    assert_eq!(
        s.row.key_p_over_cap_per_second,
        Some(risk.p_over_cap_per_second)
    );
    assert_eq!(s.row.key_p_any_over_cap, Some(risk.p_any_over_cap));

    // 40 servers at 1 s: 40 writes/s on the key, whatever the traffic;
    // one crash loses 9,000 / 40 x 1 = 225 likes.
    let b = row(&c, "buffered");
    assert_eq!(b.row.writes_per_key_per_second, 40.0);
    assert_eq!(b.row.crash_loss_likes, 225.0);
    assert_eq!(b.row.key_p_over_cap_per_second, Some(0.0));
    assert_eq!(b.row.freshness_lag_seconds, 3.0);
    assert_eq!(b.row.double_count_likes, 225.0);

    // 40 writes/s is under the safe 700: one key is enough.
    assert_eq!(c.buffered_shards, 1);

    // Log: one write per 5 s, 7 s behind, a replay double counts 45,000.
    let l = row(&c, "log");
    assert_eq!(l.row.writes_per_key_per_second, 0.2);
    assert_eq!(l.row.freshness_lag_seconds, 7.0);
    assert_eq!(l.row.double_count_likes, 45_000.0);
    assert_eq!(l.row.crash_loss_likes, 0.0);
    assert_eq!(l.net_drift_per_hour, Some(0.0));
}

#[test]
fn buffered_is_traffic_independent_and_sharded_buffered_splits_servers() {
    for rate in [9_000.0, 200_000.0] {
        let c = compare(&inputs(rate, 20)).unwrap();
        assert_eq!(row(&c, "buffered").row.writes_per_key_per_second, 40.0);
    }
    // 4,000 servers at 1 s: 4,000 writes/s on one key is over the cap;
    // 700 per key needs ceil(4,000 / 700) = 6 keys, 667 servers each.
    let mut i = inputs(200_000.0, 286);
    i.reads = ReadPlan::new(50_000.0, 4_000, 2.0, Some(100), Some(3000.0)).unwrap();
    let c = compare(&i).unwrap();
    assert_eq!(row(&c, "buffered").row.key_p_over_cap_per_second, Some(1.0));
    assert_eq!(c.buffered_shards, 6);
    let sb = row(&c, "sharded-buffered");
    assert_eq!(sb.row.writes_per_key_per_second, 667.0);
    assert_eq!(sb.row.key_p_over_cap_per_second, Some(0.0));
    assert_eq!(sb.row.crash_loss_likes, 50.0);
    // Firestore-like: 1 write/s per key, safe 0.7: a key per server.
    assert_eq!(buffered_shards(40, 1.0, 0.7), 40);
    assert_eq!(buffered_shards(40, 2.0, 0.7), 40);
    assert_eq!(buffered_shards(40, 10.0, 0.7), 6);
}

#[test]
fn transactions_halve_the_cap_and_stop_drift() {
    let mut i = inputs(14_000.0, 40);
    i.transactional = Some(Transactional {
        write_cost: 2.0,
        txn_ms: 0.0,
    });
    let c = compare(&i).unwrap();
    let s = row(&c, "sharded");
    assert_eq!(s.cap_likes_per_key, Some(500.0));
    assert_eq!(s.p_conflict, Some(0.0));
    assert_eq!(s.net_drift_per_hour, Some(0.0));
    assert_eq!(s.row.double_count_likes, 0.0);
    let t = c.transactional.as_ref().unwrap();
    // 14,000 x 2 / 700 = 40 shards (20 without transactions).
    assert_eq!(t.shards_without_conflicts, 40);
    assert_eq!(t.shards_with_conflicts, Some(40));
    assert_eq!(row(&c, "log").row.double_count_likes, 0.0);

    i.transactional = Some(Transactional {
        write_cost: 2.0,
        txn_ms: 10.0,
    });
    let c = compare(&i).unwrap();
    let s = row(&c, "sharded");
    // r = 350/s, d = 10 ms: p = 1 - e^-3.5.
    let p = 1.0 - (-3.5f64).exp();
    assert!((s.p_conflict.unwrap() - p).abs() < 1e-12);
    assert!((s.attempts_per_like.unwrap() - 3.5f64.exp()).abs() < 1e-9);
    assert!((s.cancellations_per_second.unwrap() - 14_000.0 * (3.5f64.exp() - 1.0)).abs() < 1e-6);
    assert!(c.transactional.unwrap().shards_with_conflicts.unwrap() > 40);
}

#[test]
fn bad_periods_name_the_flag() {
    let mut i = inputs(9_000.0, 20);
    i.flush_seconds = 0.0;
    assert_eq!(i.validate().unwrap_err().param, "flush_seconds");
    let mut i = inputs(9_000.0, 20);
    i.log_commit_seconds = f64::NAN;
    assert_eq!(i.validate().unwrap_err().param, "log_commit_seconds");
}
