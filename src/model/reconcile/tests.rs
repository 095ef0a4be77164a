//! The drift arithmetic exactly (dyadic shares, so every product is exact
//! in binary), the job, the gap and the correction.

use super::*;
use crate::model::defaults as d;

fn inputs(retry: Retry) -> ReconcileInputs {
    ReconcileInputs {
        daily_likes: 100_000_000.0,
        unlike_share: 0.0,
        reels: 1_000_000,
        likes_per_reel: 1_000.0,
        faults: Faults {
            timeout_share: 0.001,
            applied_share: 0.5,
            retry,
            increment_fail_share: 0.0001,
        },
        scan_rate: 100_000.0,
        every_seconds: 86_400.0,
        read_price: Some(0.25),
        write_price: None,
        plan: PlanFigures {
            peak_likes: 14_000.0,
            shards: 20,
            cap: 1_000.0,
            safe: 700.0,
            store: None,
        },
        alternatives: AlternativeInputs {
            txn_ms: d::DEFAULT_TXN_MS,
            retry_window_seconds: d::DEFAULT_RETRY_WINDOW_SECONDS,
            key_bytes: d::DEFAULT_ITEM_BYTES,
            log_commit_seconds: d::DEFAULT_LOG_COMMIT_SECONDS,
        },
    }
}

/// Shares that are sums of powers of two: every product below is exact.
fn dyadic(retry: Retry) -> ReconcileInputs {
    let mut i = inputs(retry);
    i.daily_likes = 1_048_576.0; // 2^20
    i.unlike_share = 0.5;
    i.faults = Faults {
        timeout_share: 1.0 / 64.0,
        applied_share: 0.25,
        retry,
        increment_fail_share: 1.0 / 256.0,
    };
    i
}

#[test]
fn drift_is_the_issues_arithmetic_exactly() {
    // Retry once: a like whose reply is lost and which was applied counts
    // twice; an unlike whose reply is lost and which was applied is taken
    // off twice; refused increments and decrements go the other way.
    let once = dyadic(Retry::Once).drift();
    let (likes, unlikes) = (1_048_576.0, 524_288.0);
    let (f, a, g) = (1.0 / 64.0, 0.25, 1.0 / 256.0);
    assert_eq!(once.writes_per_day, likes + unlikes);
    assert_eq!(once.over_per_day, likes * f * a + unlikes * g);
    assert_eq!(once.under_per_day, likes * g + unlikes * f * a);
    assert_eq!(once.net_per_day, once.over_per_day - once.under_per_day);
    // Retry none: an unapplied like is missing, an unapplied unlike leaves
    // one too many.
    let none = dyadic(Retry::None).drift();
    assert_eq!(none.over_per_day, unlikes * (f * (1.0 - a) + g));
    assert_eq!(none.under_per_day, likes * (f * (1.0 - a) + g));
    assert_eq!(none.p_over, none.over_per_day / none.writes_per_day);
}

#[test]
fn the_reference_day_drifts_by_its_rational_figures() {
    let d = inputs(Retry::Once).drift();
    // 1e8 x 0.001 x 0.5 = 50,000 over; 1e8 x 0.0001 = 10,000 under.
    assert!((d.over_per_day - 50_000.0).abs() < 1e-9);
    assert!((d.under_per_day - 10_000.0).abs() < 1e-9);
    assert!((d.net_per_day - 40_000.0).abs() < 1e-9);
    let r = &d.per_reel;
    assert_eq!(r.writes, 100);
    assert!((r.mean_net - 0.04).abs() < 1e-12);
    let law = r.exact.as_ref().unwrap();
    // P(net != 0) for 100 writes at p = 5e-4, q = 1e-4, by hand:
    // 1 - sum_k P(O = k, U = k).
    let (p, q) = (5e-4f64, 1e-4f64);
    let mut same = 0.0;
    for k in 0..=50u32 {
        let n = 100u32;
        let ways = (0..k).fold(1.0, |c, i| c * (n - i) as f64 / (i + 1) as f64)
            * (0..k).fold(1.0, |c, i| c * (n - k - i) as f64 / (i + 1) as f64);
        same += ways * (p * q).powi(k as i32) * (1.0 - p - q).powi((n - 2 * k) as i32);
    }
    assert!((law.p_off - (1.0 - same)).abs() < 1e-14, "{}", law.p_off);
    let none = inputs(Retry::None).drift();
    // 1e8 x 0.001 x 0.5 + 1e8 x 0.0001 = 60,000 under; nothing over.
    assert_eq!(none.over_per_day, 0.0);
    assert!((none.under_per_day - 60_000.0).abs() < 1e-9);
}

#[test]
fn the_job_the_gap_and_the_correction() {
    let r = inputs(Retry::Once).reconcile();
    assert_eq!(r.job.rows, 1e9);
    assert_eq!(r.job.seconds, 10_000.0);
    assert!(r.job.fits);
    assert_eq!(r.job.cost_per_run, Some(250.0));
    assert_eq!(r.job.cost_per_month, Some(7_500.0));
    assert_eq!(r.gap.count_seconds, 0.01);
    assert!((r.gap.likes - 140.0).abs() < 1e-9);
    assert_eq!(r.correction.shard_expected, 50.0);
    assert!(!r.correction.can_go_below_zero);
    // Beyond every kept term: 0, and +0 (an empty f64 sum is -0.0).
    let p = r.correction.p_reel_below_zero.unwrap();
    assert!(p == 0.0 && p.is_sign_positive(), "{p}");
    assert_eq!(r.alternatives.transaction_cap_per_key, 500.0);
    let held = (14_000.0 + 1e8 / 86_400.0) * 600.0;
    assert!((r.alternatives.idempotency_keys - held).abs() < 1e-6);
    // A job slower than its interval does not fit.
    let mut slow = inputs(Retry::Once);
    slow.scan_rate = 10_000.0;
    assert!(!slow.job().fits);
}

#[test]
fn a_large_drift_on_few_rows_can_take_a_shard_below_zero() {
    let mut i = inputs(Retry::Once);
    i.reels = 1_000;
    i.likes_per_reel = 100.0;
    i.faults.timeout_share = 0.05;
    i.faults.increment_fail_share = 0.0;
    let r = i.reconcile();
    // 100,000 writes a reel a day, 2.5% counted twice: ~2,500 too many on
    // shards holding 5 rows each.
    assert!(r.correction.can_go_below_zero);
    assert!(r.correction.p_reel_below_zero.unwrap() > 0.999);
}

#[test]
fn shares_outside_their_range_are_refused() {
    for (f, a, g, param) in [
        (-0.1, 0.5, 0.0, "timeout_share"),
        (f64::NAN, 0.5, 0.0, "timeout_share"),
        (0.1, 1.5, 0.0, "applied_share"),
        (0.1, 0.5, 0.95, "increment_fail_share"),
    ] {
        let mut i = inputs(Retry::Once);
        i.faults = Faults {
            timeout_share: f,
            applied_share: a,
            retry: Retry::Once,
            increment_fail_share: g,
        };
        assert_eq!(i.validate().unwrap_err().param, param);
    }
}
