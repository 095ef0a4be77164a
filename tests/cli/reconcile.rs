//! End-to-end tests of `shardplan reconcile`: the reference day's figures,
//! every format, the scenario section and each bad input.

use crate::common::{bad_input, json_of, schema_errors, shardplan};

/// The reference: 100M likes a day, 14,000 likes/s at the peak.
const REFERENCE: &[&str] = &[
    "reconcile",
    "--daily-likes",
    "100000000",
    "--peak",
    "14000",
    "--timeout-share",
    "0.001",
    "--retry",
    "once",
    "--increment-fail-share",
    "0.0001",
    "--read-price",
    "0.25",
];

fn close(got: &serde_json::Value, want: f64) {
    let g = got.as_f64().unwrap();
    assert!(
        (g - want).abs() <= 1e-9 * want.abs().max(1.0),
        "{g} vs {want}"
    );
}

#[test]
fn the_reference_day() {
    let j = json_of(REFERENCE);
    assert!(
        schema_errors("reconcile", &j).is_empty(),
        "{:?}",
        schema_errors("reconcile", &j)
    );
    let d = &j["drift"];
    close(&d["over_per_day"], 50_000.0);
    close(&d["under_per_day"], 10_000.0);
    close(&d["net_per_day"], 40_000.0);
    assert_eq!(d["per_reel"]["writes"], 100);
    assert_eq!(j["job"]["rows"], 1e9);
    close(&j["job"]["seconds"], 10_000.0);
    assert_eq!(j["job"]["fits"], true);
    close(&j["job"]["cost_per_run"], 250.0);
    close(&j["gap"]["likes"], 140.0);
    assert_eq!(j["correction"]["shards"], 20);
    assert_eq!(j["correction"]["can_go_below_zero"], false);
    assert_eq!(j["alternatives"]["transaction_cap_per_key"], 500.0);
    // The figures the README's reconcile section quotes.
    let law = &d["per_reel"]["exact"];
    assert_eq!(format!("{:.3}", law["p_off"].as_f64().unwrap()), "0.058");
    assert_eq!(law["largest_abs_net_median"], 3);
    assert_eq!(law["largest_abs_net_p99"], 4);
    assert_eq!(j["correction"]["shard_expected"], 50.0);
    assert_eq!(j["alternatives"]["transaction_shards"], 124);
    assert_eq!(j["inputs"]["timeout_share"]["source"], "--timeout-share");
    assert_eq!(j["inputs"]["applied_share"]["source"], "default");
    // Retry none: the lost unapplied half is missing, nothing counts twice.
    let mut none = REFERENCE.to_vec();
    none[8] = "none";
    let j = json_of(&none);
    close(&j["drift"]["over_per_day"], 0.0);
    close(&j["drift"]["under_per_day"], 60_000.0);
}

#[test]
fn every_format_says_the_same() {
    let out = shardplan().args(REFERENCE).assert().success();
    let table = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(table.contains("net +40,000 likes a day"), "{table}");
    assert!(table.contains("250 a run, 7,500 a month"), "{table}");
    let mut a = REFERENCE.to_vec();
    a.extend(["--format", "markdown"]);
    let out = shardplan().args(&a).assert().success();
    let md = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let over = md
        .lines()
        .find(|l| l.starts_with("| over-counted "))
        .unwrap();
    assert!(over.contains("| 50,000 likes/day"), "{md}");
    let mut a = REFERENCE.to_vec();
    a.extend(["--format", "csv"]);
    let out = shardplan().args(&a).assert().success();
    let csv = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 2, "{csv}");
    let header: Vec<&str> = lines[0].split(',').collect();
    let row: Vec<&str> = lines[1].split(',').collect();
    let at = |name: &str| row[header.iter().position(|h| *h == name).unwrap()];
    assert_eq!(at("drift_over_per_day"), "50000");
    assert_eq!(at("drift_per_reel_writes"), "100");
    assert_eq!(at("job_fits"), "true");
}

#[test]
fn a_slow_job_and_a_shard_below_zero_are_said() {
    let a = [
        "reconcile",
        "--reels",
        "1000",
        "--likes-per-reel",
        "100",
        "--timeout-share",
        "0.05",
        "--scan-rate",
        "1",
    ];
    let out = shardplan().args(a).assert().success();
    let table = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(table.contains("LONGER than its 24 h interval"), "{table}");
    assert!(table.contains("CAN go below zero"), "{table}");
    let j = json_of(&a);
    assert_eq!(j["job"]["fits"], false);
    assert_eq!(j["correction"]["can_go_below_zero"], true);
}

#[test]
fn the_scenario_section_is_read_and_named() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.toml");
    std::fs::write(
        &path,
        "peak = 14000\n[reconcile]\ndaily_likes = 1e8\ntimeout_share = 0.002\nretry = \"none\"\n",
    )
    .unwrap();
    let p = path.to_str().unwrap();
    let j = json_of(&["reconcile", "--scenario", p]);
    close(&j["drift"]["under_per_day"], 1e8 * (0.002 * 0.5 + 0.0001));
    let src = j["inputs"]["timeout_share"]["source"].as_str().unwrap();
    assert!(src.ends_with("reconcile.timeout_share"), "{src}");
    std::fs::write(&path, "peak = 14000\n[reconcile]\ntimeout_share = 1.5\n").unwrap();
    bad_input(&["reconcile", "--scenario", p], "reconcile.timeout_share");
}

#[test]
fn bad_input_names_its_flag() {
    for (flag, value) in [
        ("--daily-likes", "0"),
        ("--daily-likes", "-5"),
        ("--reels", "0"),
        ("--likes-per-reel", "0"),
        ("--timeout-share", "-0.1"),
        ("--timeout-share", "1.5"),
        ("--timeout-share", "NaN"),
        ("--applied-share", "2"),
        ("--increment-fail-share", "-1"),
        ("--scan-rate", "0"),
        ("--every", "0"),
        ("--read-price", "-1"),
    ] {
        bad_input(&["reconcile", flag, value], flag);
    }
    // A lost reply and a refused increment are two outcomes of one write.
    bad_input(
        &[
            "reconcile",
            "--timeout-share",
            "0.6",
            "--increment-fail-share",
            "0.5",
        ],
        "--increment-fail-share",
    );
    bad_input(&["reconcile", "--retry", "twice"], "--retry");
}

#[test]
fn flags_with_no_effect_are_refused() {
    // With no lost reply, the share of lost replies applied means nothing.
    bad_input(
        &[
            "reconcile",
            "--timeout-share",
            "0",
            "--applied-share",
            "0.3",
        ],
        "--applied-share",
    );
    bad_input(&["reconcile", "--daily-views", "1000"], "--daily-views");
    bad_input(&["reconcile", "--storage-price", "1"], "--storage-price");
    bad_input(&["reconcile", "--transactional"], "--transactional");
    bad_input(&["reconcile", "--cool-down", "60s"], "--cool-down");
}
