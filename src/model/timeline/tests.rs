//! Hand-computed time-lines.

use super::bucket::{BurstStart, StoreConfig};
use super::curve::RateCurve;
use super::monitor::{Monitor, MonitorConfig};
use super::resize::ResizeOrder;
use super::*;

fn store(burst_seconds: u64, burst_start: BurstStart) -> StoreConfig {
    StoreConfig {
        burst_seconds,
        burst_start,
    }
}

fn flat(rate: f64, seconds: u64, store: StoreConfig, monitor: Option<Monitor>) -> TimelinePlan {
    let curve = RateCurve::flat(rate).unwrap();
    TimelinePlan::new(
        curve,
        TrafficModel::Fixed,
        1000.0,
        seconds,
        7,
        1,
        store,
        monitor,
    )
    .unwrap()
}

fn monitor(threshold: f64, ttl: u64, order: ResizeOrder) -> Monitor {
    MonitorConfig {
        threshold,
        settings_ttl_seconds: ttl,
        servers: Some(4),
        order,
        ..MonitorConfig::default()
    }
    .validate(None)
    .unwrap()
}

#[test]
fn the_300_000_case() {
    // One key, 2,000/s for 600 s, cap 1,000, 300 s of burst, full.
    let r = run(&flat(2000.0, 600, StoreConfig::default(), None));
    assert_eq!(r.total_writes, 1_200_000);
    assert_eq!(r.rejected_writes, 300_000);
    assert_eq!(r.rejected_share, 0.25);
    assert_eq!(r.first_rejection_second, Some(301));
    assert_eq!(r.seconds_with_rejections, 300);
    assert_eq!(r.final_true_total, 900_000);
    assert_eq!(r.final_displayed_total, 900_000);
    assert_eq!(r.raise, None);
    assert_eq!(r.rejected_before_raise, 300_000);

    let empty = run(&flat(2000.0, 600, store(300, BurstStart::Empty), None));
    assert_eq!(empty.rejected_writes, 600_000);
    assert_eq!(empty.first_rejection_second, Some(1));
}

#[test]
fn ramp_with_a_small_bucket() {
    // Rate 20 t for 100 s: I(t) = 10 t^2 is whole at whole t, so second k
    // gets 10 (2k - 1) = 20k - 10 likes. Over the 1,000 cap from k = 51; the
    // excess of seconds 51..50+n totals 10 n^2 = 25,000 at n = 50. A full
    // 10 s bucket holds 10,000: it covers n = 31 (9,610) but not n = 32
    // (10,240), so rejections start in second 82 and total 15,000.
    let curve = RateCurve::new(vec![(0.0, 0.0), (100.0, 2000.0)]).unwrap();
    let p = TimelinePlan::new(
        curve.clone(),
        TrafficModel::Fixed,
        1000.0,
        100,
        1,
        1,
        store(10, BurstStart::Full),
        None,
    )
    .unwrap();
    let mut likes = Vec::new();
    let r = run_with_rows(&p, |row| {
        likes.push(row.likes);
        Ok::<(), ()>(())
    })
    .unwrap();
    assert_eq!(likes[0], 10);
    assert_eq!(likes[99], 1990);
    assert_eq!(r.total_writes, 100_000);
    assert_eq!(r.rejected_writes, 15_000);
    assert_eq!(r.first_rejection_second, Some(82));
    assert_eq!(r.seconds_with_rejections, 19);
    assert_eq!(r.peak_rate, 1990.0);
    let no_burst = TimelinePlan::new(
        curve,
        TrafficModel::Fixed,
        1000.0,
        100,
        1,
        1,
        store(0, BurstStart::Full),
        None,
    )
    .unwrap();
    assert_eq!(run(&no_burst).rejected_writes, 25_000);
}

#[test]
fn monitor_raise_by_hand() {
    // 2,000/s, no burst, 4 servers, window 60, TTL 60, threshold 300.
    // The window mean after second s is 2,000 s / 60: 300 at s = 9.
    // reads-first: read_shards stored at 10, write_shards at 70. Server
    // phases 0, 15, 30, 45; (70 - 1) mod 60 = 9, so writers switch at
    // 76, 91, 106, 121.
    // Seconds 1..75: shard 0 takes 2,000, rejects 1,000: 75,000.
    // 76..90: 1,500 old + X new on shard 0 (X ~ Bin(500, 1/20)): 500 + X.
    // 91..105: 1,000 old + X (X ~ Bin(1000, 1/20)): X.
    // 106..: shard 0 gets at most 500 + 500: nothing rejected.
    // Total 82,500 + sum of X: mean 15 x 25 + 15 x 50 = 1,125, sd
    // sqrt(15 x 500 x 0.0475 + 15 x 1000 x 0.0475) = 32.7; allow 5 sd.
    let p = flat(
        2000.0,
        300,
        store(0, BurstStart::Full),
        Some(monitor(300.0, 60, ResizeOrder::ReadsFirst)),
    );
    let r = run(&p);
    let raise = r.raise.clone().unwrap();
    assert_eq!(raise.decided_second, 9);
    assert_eq!(
        (raise.read_shards_stored, raise.write_shards_stored),
        (10, 70)
    );
    assert_eq!((raise.all_read_second, raise.all_write_second), (61, 121));
    assert_eq!(r.last_rejection_second, Some(105));
    assert_eq!(r.seconds_with_rejections, 105);
    assert!(r.rejected_writes >= 82_500);
    assert!(
        (r.rejected_writes as f64 - 83_625.0).abs() < 5.0 * 32.7,
        "{}",
        r.rejected_writes
    );
    assert_eq!(r.rejected_before_raise, r.rejected_writes);
    assert_eq!(r.rejected_after_raise, 0);
    // Reads first: the worst reader never undercounts.
    assert_eq!((r.undercount_seconds, r.min_displayed_ratio), (0, 1.0));
    assert_eq!(r.final_shards, 20);
    assert_eq!(r.final_true_total, r.total_writes - r.rejected_writes);
}

#[test]
fn monitor_writes_first_undercounts() {
    // write_shards stored at 10, read_shards at 70 (all readers by 121):
    // between the first writer switch (16) and 121 the worst reader adds
    // up shard 0 only.
    let p = flat(
        2000.0,
        300,
        store(0, BurstStart::Full),
        Some(monitor(300.0, 60, ResizeOrder::WritesFirst)),
    );
    let r = run(&p);
    let raise = r.raise.clone().unwrap();
    assert_eq!(
        (raise.write_shards_stored, raise.all_write_second),
        (10, 61)
    );
    assert_eq!(r.undercount_seconds, 121 - 16);
    assert!(r.min_displayed_ratio < 0.9, "{}", r.min_displayed_ratio);
    // Writers switch a TTL earlier, so fewer writes are rejected.
    let safe = run(&flat(
        2000.0,
        300,
        store(0, BurstStart::Full),
        Some(monitor(300.0, 60, ResizeOrder::ReadsFirst)),
    ));
    assert!(r.rejected_writes < safe.rejected_writes);
}

#[test]
fn rows_are_repeatable_for_a_seed() {
    let curve = RateCurve::new(vec![(0.0, 50.0), (120.0, 3000.0)]).unwrap();
    let mk = |seed| {
        TimelinePlan::new(
            curve.clone(),
            TrafficModel::Poisson,
            1000.0,
            400,
            seed,
            1,
            StoreConfig::default(),
            Some(monitor(300.0, 30, ResizeOrder::ReadsFirst)),
        )
        .unwrap()
    };
    let rows = |p: &TimelinePlan| {
        let mut v = Vec::new();
        let r = run_with_rows(p, |row| {
            v.push(*row);
            Ok::<(), ()>(())
        })
        .unwrap();
        (r, v)
    };
    let (a, ra) = rows(&mk(11));
    let (b, rb) = rows(&mk(11));
    let (c, _) = rows(&mk(12));
    assert_eq!(a, b);
    assert_eq!(ra, rb);
    assert_ne!(a.total_writes, c.total_writes);
    assert_eq!(ra.len(), 400);
    assert_eq!(ra.iter().map(|r| r.likes).sum::<u64>(), a.total_writes);
    assert_eq!(
        ra.iter().map(|r| r.rejected).sum::<u64>(),
        a.rejected_writes
    );
    // Rows without a callback give the same report.
    assert_eq!(run(&mk(11)), a);
}

#[test]
fn grid_orders_and_reacts() {
    let p = flat(
        2000.0,
        300,
        store(0, BurstStart::Full),
        Some(monitor(300.0, 60, ResizeOrder::ReadsFirst)),
    );
    let g = monitor_grid(&p, &[300.0, 600.0], &[30, 60], &[0, 60]).unwrap();
    assert_eq!(g.len(), 8);
    assert_eq!(
        (
            g[0].threshold,
            g[0].window_seconds,
            g[0].settings_ttl_seconds
        ),
        (300.0, 30, 0)
    );
    assert_eq!(
        (
            g[7].threshold,
            g[7].window_seconds,
            g[7].settings_ttl_seconds
        ),
        (600.0, 60, 60)
    );
    // Window 60: 2,000 s / 60 >= 600 at s = 18, nine seconds after 300's.
    assert_eq!(g[3].raise_decided_second, Some(9));
    assert_eq!(g[7].raise_decided_second, Some(18));
    // TTL 0: every server switches in second 10, so seconds 1..9 reject
    // 1,000 each and nothing after (2,000 over 20 shards).
    let row = &g[2];
    assert_eq!((row.window_seconds, row.settings_ttl_seconds), (60, 0));
    assert_eq!(row.all_servers_second, Some(10));
    assert_eq!(row.rejected_before_raise, 9_000);
    assert_eq!(row.rejected_writes, 9_000);
    assert!(g[3].rejected_writes > g[2].rejected_writes);
    assert!(g[7].rejected_writes > g[3].rejected_writes);
    let none = flat(2000.0, 10, StoreConfig::default(), None);
    assert_eq!(
        monitor_grid(&none, &[300.0], &[60], &[60])
            .unwrap_err()
            .param,
        "monitor"
    );
}

#[test]
fn plan_validation() {
    let curve = RateCurve::flat(100.0).unwrap();
    let mk = |cap, seconds, shards, m| {
        TimelinePlan::new(
            curve.clone(),
            TrafficModel::Fixed,
            cap,
            seconds,
            1,
            shards,
            StoreConfig::default(),
            m,
        )
    };
    assert_eq!(mk(1000.5, 10, 1, None).unwrap_err().param, "cap");
    assert_eq!(mk(1000.0, 0, 1, None).unwrap_err().param, "seconds");
    assert_eq!(mk(1000.0, 10, 0, None).unwrap_err().param, "shards");
    let huge = RateCurve::flat(1e9).unwrap();
    let e = TimelinePlan::new(
        huge,
        TrafficModel::Fixed,
        1000.0,
        10_000_000_000,
        1,
        1,
        StoreConfig::default(),
        None,
    )
    .unwrap_err();
    assert_eq!(e.param, "seconds");
    let m = monitor(300.0, 60, ResizeOrder::ReadsFirst);
    assert_eq!(
        mk(1000.0, 10, 20, Some(m)).unwrap_err().param,
        "monitor.target_shards"
    );
}
