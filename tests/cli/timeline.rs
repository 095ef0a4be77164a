//! End-to-end tests of time-line simulation and `resize`, on cases whose
//! answers are computed by hand.

use crate::common::{bad_input, json_of, shardplan};

#[test]
fn burst_runs_out_after_300_seconds() {
    // One key, 2,000 writes/s for 600 s, cap 1,000, 300 s of burst, full:
    // the 300,000-token bucket covers 1,000 extra writes a second for 300 s,
    // then 1,000 a second are rejected for the remaining 300 s.
    let v = json_of(&[
        "simulate",
        "--rate",
        "2000",
        "--shards",
        "1",
        "--seconds",
        "600",
        "--cap",
        "1000",
        "--burst-seconds",
        "300",
        "--burst-start",
        "full",
    ]);
    assert_eq!(v["rejected_writes"], 300_000);
    assert_eq!(v["rejected_share"], 0.25);
    assert_eq!(v["first_rejection_second"], 301);
    assert_eq!(v["seconds_with_rejections"], 300);
    // Starting empty, every second from the first rejects 1,000.
    let v = json_of(&[
        "simulate",
        "--rate",
        "2000",
        "--shards",
        "1",
        "--seconds",
        "600",
        "--burst-start",
        "empty",
    ]);
    assert_eq!(v["rejected_writes"], 600_000);
    assert_eq!(v["first_rejection_second"], 1);
}

#[test]
fn viral_evening_with_and_without_the_monitor() {
    let without = json_of(&["simulate", "--scenario", "viral-evening"]);
    assert!(without["rejected_share"].as_f64().unwrap() > 0.8);
    let with = json_of(&["simulate", "--scenario", "viral-evening-monitor"]);
    assert_eq!(with["rejected_writes"], 0);
    assert_eq!(with["final_shards"], 20);
    assert!(with["raise"]["decided_second"].as_u64().is_some());
    assert_eq!(with["monitor_grid"].as_array().unwrap().len(), 27);
}

#[test]
fn per_second_timeline_rows() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.csv");
    shardplan()
        .args([
            "simulate",
            "--rate",
            "2000",
            "--shards",
            "1",
            "--seconds",
            "600",
            "--quiet",
        ])
        .args(["--burst-seconds", "300", "--per-second"])
        .arg(&path)
        .assert()
        .success();
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("second,rate,likes,shards,busiest,rejected,displayed_total,true_total")
    );
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), 600);
    assert_eq!(rows[299], "300,2000.0,2000,1,2000,0,600000,600000");
    assert_eq!(rows[300], "301,2000.0,2000,1,2000,1000,601000,601000");
}

#[test]
fn grow_orders() {
    let wrong = json_of(&[
        "resize",
        "--from",
        "1",
        "--to",
        "20",
        "--order",
        "writes-first",
    ]);
    // 500 before + 1,000 after x 1/20 on shard 0 = 550 of 1,500.
    assert_eq!(wrong["displayed_total"], 550.0);
    assert_eq!(wrong["true_total"], 1500);
    let ratio = wrong["min_displayed_ratio"].as_f64().unwrap();
    assert!((ratio - 550.0 / 1500.0).abs() < 1e-12);
    let sim = wrong["simulated"]["displayed_total"].as_f64().unwrap();
    // Shard 0's share of 1,000 likes is Binomial(1000, 1/20): sd 6.9; 5 sd.
    assert!((sim - 550.0).abs() < 35.0, "{sim}");
    let right = json_of(&["resize", "--scenario", "grow-right-order"]);
    assert_eq!(right["min_displayed_ratio"], 1.0);
    assert_eq!(right["max_displayed_ratio"], 1.0);
    let ttl = json_of(&[
        "resize",
        "--from",
        "1",
        "--to",
        "20",
        "--order",
        "writes-first",
        "--settings-ttl",
        "2m",
    ]);
    assert_eq!(ttl["settings_ttl_seconds"], 120);
}

#[test]
fn shrink_folds() {
    let add_first = json_of(&["resize", "--scenario", "shrink-fold"]);
    assert_eq!(add_first["true_total"], 140);
    assert_eq!(add_first["max_displayed_total"], 180);
    let sub_first = json_of(&[
        "resize",
        "--from",
        "20",
        "--to",
        "1",
        "--step-order",
        "subtract-first",
    ]);
    assert_eq!(sub_first["min_displayed_total"], 100);
    let txn_batch = json_of(&[
        "resize",
        "--from",
        "20",
        "--to",
        "1",
        "--fold",
        "transaction",
        "--read",
        "batch",
    ]);
    assert_eq!(txn_batch["max_displayed_total"], 180);
    let txn_txn = json_of(&[
        "resize",
        "--from",
        "20",
        "--to",
        "1",
        "--fold",
        "transaction",
        "--read",
        "transactional",
    ]);
    assert_eq!(txn_txn["min_displayed_ratio"], 1.0);
    assert_eq!(txn_txn["max_displayed_ratio"], 1.0);
}

#[test]
fn bad_timeline_input() {
    for (args, what) in [
        (vec!["resize", "--from", "3"], "--to"),
        (vec!["resize", "--from", "3", "--to", "3"], "--to"),
        (vec!["simulate", "--settings-ttl", "5x"], "--settings-ttl"),
        (vec!["simulate", "--threshold", "-1"], "--threshold"),
        (
            vec!["simulate", "--burst-seconds", "100000000"],
            "--burst-seconds",
        ),
    ] {
        bad_input(&args, what);
    }
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, "[curve]\npoints = [[0, 50], [0, 90]]\n").unwrap();
    bad_input(
        &["simulate", "--scenario", bad.to_str().unwrap()],
        "bad.toml",
    );
    std::fs::write(&bad, "[monitor]\nthreshhold = 3\n").unwrap();
    bad_input(
        &["simulate", "--scenario", bad.to_str().unwrap()],
        "threshhold",
    );
}
