//! `measure`'s per-node CPU and repeated runs against real Redis servers on
//! loopback ports (a 3-node cluster without replicas, a standalone server),
//! started here and killed in `Drop`; they run one at a time (the servers'
//! lock in tests/common/mod.rs, which the PostgreSQL tests take too), so no
//! other test's server load shares the cores.
//! Needs `redis-server` and `redis-cli` on PATH.

use crate::common;

use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::common::redis::*;

use shardplan::measure::{
    run, run_with, MeasureConfig, MeasureReport, MeasureWarning, Progress, Stage, Watch,
};

/// Short phases, a few runs: the whole binary stays quick.
const PHASE: Duration = Duration::from_millis(400);
const RUNS: u64 = 3;
/// Fewer INCRs than this in a phase would make its CPU figures too small
/// to share out (a loaded machine can slow the client, not stop it).
const MIN_INCRS_PER_PHASE: u64 = 1_000;

fn config(url: &str, cluster: bool, template: &str) -> MeasureConfig {
    let mut c = MeasureConfig::new(url, cluster, 16, 4, PHASE, None, 1, Some(template)).unwrap();
    c.runs = RUNS;
    c
}

/// Each phase's per-node CPU shares sum to 1 (to rounding), the per-node
/// seconds to the total, and every phase served enough INCRs.
fn check_cpu_adds_up(r: &MeasureReport) {
    type Pick = fn(&shardplan::measure::NodeOps) -> (Option<f64>, Option<f64>);
    let phases: [(&str, Pick, Option<f64>); 2] = [
        (
            "one key",
            |n| (n.single_cpu_seconds, n.single_cpu_share),
            r.single_cpu_seconds,
        ),
        (
            "sharded",
            |n| (n.sharded_cpu_seconds, n.sharded_cpu_share),
            r.sharded_cpu_seconds,
        ),
    ];
    for (phase, pick, total) in phases {
        let seconds: f64 = r.nodes.iter().map(|n| pick(n).0.unwrap()).sum();
        let shares: f64 = r.nodes.iter().map(|n| pick(n).1.unwrap()).sum();
        assert!(
            (shares - 1.0).abs() < 1e-9,
            "{phase}: shares sum to {shares}"
        );
        assert!((seconds - total.unwrap()).abs() < 1e-9, "{phase}");
        assert!(seconds > 0.0, "{phase}: no CPU measured");
    }
    for x in &r.run_results {
        assert!(x.single_incr >= MIN_INCRS_PER_PHASE, "{x:?}");
        assert!(x.sharded_incr >= MIN_INCRS_PER_PHASE, "{x:?}");
    }
    assert!(r.nodes.iter().all(|n| n.idle_cpu_per_second >= 0.0));
}

#[test]
fn one_key_loads_one_node_and_spread_keys_share_the_cpu() {
    let s = Servers::spawn(3, true);
    let r = run(&config(&s.url(), true, "likes:<shard>")).unwrap();
    assert!(r.counts_match);
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    check_cpu_adds_up(&r);
    let shares = |f: fn(&shardplan::measure::NodeOps) -> Option<f64>| -> Vec<f64> {
        r.nodes.iter().map(|n| f(n).unwrap()).collect()
    };
    let single = shares(|n| n.single_cpu_share);
    let sharded = shares(|n| n.sharded_cpu_share);
    eprintln!("CPU shares: one key {single:?}, sharded {sharded:?}");
    // Loose bounds that hold on a loaded 2-core machine (the client's
    // threads and the three servers share the cores): with the idle CPU
    // subtracted, the node holding the one key does at least 90% of the
    // Redis work in the one-key phase, and in the sharded phase (16 keys
    // over 3 nodes) no node does more than 60% (an even split is 33%).
    let busiest = r.nodes.iter().position(|n| n.single_incr > 0).unwrap();
    assert!(single[busiest] >= 0.9, "one key: {single:?}");
    assert!(r.single_max_cpu_share.unwrap() >= 0.9);
    assert!(sharded.iter().all(|&x| x <= 0.6), "sharded: {sharded:?}");
    assert!(r.sharded_max_cpu_share.unwrap() <= 0.6);
    // Each run has its own figures, and the intervals are there.
    assert_eq!(r.runs, RUNS);
    assert_eq!(r.run_results.len() as u64, RUNS);
    let [lo, hi] = r.ratio_ci95.unwrap();
    assert!(lo <= r.ratio.mean && r.ratio.mean <= hi);
    let [lo, hi] = r.single.ops_per_second.ci95.unwrap();
    assert!(lo <= r.single_ops_per_second_mean && r.single_ops_per_second_mean <= hi);
    assert_eq!(r.single_ops_per_second, r.single_ops_per_second_mean);
    assert!(r.sharded.p99_ms.ci95.is_some() && r.single.p50_ms.std_dev.is_some());
    for (i, x) in r.run_results.iter().enumerate() {
        assert_eq!(x.run, i as u64 + 1);
        assert!((x.ratio - x.sharded_ops_per_second / x.single_ops_per_second).abs() < 1e-9);
    }
}

#[test]
fn keys_that_share_a_slot_are_said_before_the_load() {
    let s = Servers::spawn(3, true);
    let mut c = config(&s.url(), true, "{likes}:<shard>");
    c.runs = 1;
    c.duration = Duration::from_millis(200);
    // The warnings come before the first progress report.
    let events: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let before = |w: &[MeasureWarning]| events.lock().unwrap().push(format!("warn {}", w.len()));
    let progress = |_: &shardplan::measure::Progress| {
        events.lock().unwrap().push("progress".into());
    };
    let r = run_with(
        &c,
        &Watch {
            before: &before,
            progress: &progress,
        },
    )
    .unwrap();
    let events = events.into_inner().unwrap();
    assert_eq!(events[0], "warn 2", "{events:?}");
    assert!(events[1..].iter().all(|e| e == "progress"), "{events:?}");
    assert!(matches!(
        r.warnings[0],
        MeasureWarning::NodesUnreached {
            reached: 1,
            nodes: 3,
            shards: 16
        }
    ));
    assert!(matches!(r.warnings[1], MeasureWarning::Placement { .. }));
    // One node takes both phases.
    assert!(r.sharded_max_cpu_share.unwrap() >= 0.9, "{:?}", r.nodes);
    assert_eq!(r.runs, 1);
    assert_eq!(r.ratio_ci95, None, "one run gives no interval");

    // As a user sees it: on stderr before the results, and in the JSON.
    let out = common::shardplan()
        .args([
            "measure",
            "--cluster",
            "--clients",
            "2",
            "--duration",
            "100ms",
        ])
        .args([
            "--runs",
            "1",
            "--template",
            "{likes}:<shard>",
            "--format",
            "json",
        ])
        .args(["--redis", &s.url()])
        .env_remove("REDISCLI_AUTH")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("shardplan: warning: the 16 shard keys reach 1 of the 3 nodes"),
        "{err}"
    );
    assert!(err.contains("SHARED SLOT"), "{err}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["warnings"].as_array().unwrap().len(), 2);
    assert_eq!(v["ratio_ci95"], serde_json::Value::Null);
    assert!(common::schema_errors("measure", &v).is_empty());
}

#[test]
fn a_standalone_server_is_one_node_with_all_the_cpu() {
    let s = Servers::spawn(1, false);
    let mut c = config(&s.url(), false, "k:<shard>");
    c.runs = 2;
    // The phases alternate after one warm-up: the progress reports say
    // which phase of which run is under way.
    let stages: Mutex<Vec<(Stage, u64)>> = Mutex::new(Vec::new());
    let progress = |p: &Progress| {
        let mut seen = stages.lock().unwrap();
        if seen.last() != Some(&(p.stage, p.run)) {
            seen.push((p.stage, p.run));
        }
        assert_eq!(p.runs, 2);
    };
    let r = run_with(
        &c,
        &Watch {
            before: &|w| assert!(w.is_empty()),
            progress: &progress,
        },
    )
    .unwrap();
    assert_eq!(
        stages.into_inner().unwrap(),
        [
            (Stage::Warmup, 0),
            (Stage::Single, 1),
            (Stage::Sharded, 1),
            (Stage::Single, 2),
            (Stage::Sharded, 2)
        ]
    );
    check_cpu_adds_up(&r);
    assert_eq!(r.nodes.len(), 1);
    assert_eq!(r.nodes[0].single_cpu_share, Some(1.0));
    assert_eq!(r.nodes[0].sharded_cpu_share, Some(1.0));
    assert!(r.warnings.is_empty());
}

#[test]
fn bad_runs_are_refused_with_exit_2() {
    for (runs, said) in [
        ("0", "--runs: must be a whole number from 1 to 1000 (got 0)"),
        (
            "1001",
            "--runs: must be a whole number from 1 to 1000 (got 1001)",
        ),
        ("99999999999999999999999", "--runs"),
        ("-1", "--runs"),
        ("two", "--runs"),
    ] {
        let out = common::shardplan()
            .args(["measure", "--runs", runs, "--redis", "redis://127.0.0.1:1"])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{runs}: {err}");
        assert!(err.contains(said), "{runs}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn a_server_killed_mid_run_fails_the_run_in_one_line() {
    let mut s = Servers::spawn(1, false);
    let port = s.ports[0];
    let child = spawn_measure(
        &["--clients", "2", "--duration", "1s", "--runs", "3"],
        &s.url(),
    );
    let start = Instant::now();
    while keys_on(port).trim().is_empty() {
        assert!(start.elapsed() < Duration::from_secs(20), "no keys written");
        std::thread::sleep(Duration::from_millis(20));
    }
    s.children[0].kill().unwrap();
    s.children[0].wait().unwrap();
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("shardplan: "), "{err}");
    assert!(
        err.contains("INCR failed")
            || err.contains("INFO on node")
            || err.contains("cannot connect"),
        "{err}"
    );
    assert!(out.stdout.is_empty(), "no results from a failed run");
}

#[test]
fn progress_shows_on_a_terminal_only() {
    let s = Servers::spawn(1, false);
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("m.json");
    let args = format!(
        "measure --clients 2 --duration 600ms --runs 2 --redis {} -o {}",
        s.url(),
        json.display()
    );
    // In a pseudo-terminal (script(1), util-linux): the spinner appears
    // after a second and says the phase, the run and the ops/s so far,
    // also with -o.
    let cmd = format!(
        "stty rows 50 cols 120; {} {args}",
        env!("CARGO_BIN_EXE_shardplan")
    );
    let out = std::process::Command::new("script")
        .args(["-qec", &cmd, "/dev/null"])
        .output()
        .expect("script(1) runs (util-linux)");
    let seen = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{seen}");
    assert!(seen.contains("run 2/2"), "{seen}");
    assert!(seen.contains("INCR/s"), "{seen}");
    assert!(json.exists());
    // Not a terminal: nothing on stderr (one short run is enough to tell).
    let quiet = format!(
        "measure --clients 2 --duration 300ms --runs 1 --redis {} -o {}",
        s.url(),
        json.display()
    );
    let out = common::shardplan()
        .args(quiet.split(' '))
        .env_remove("REDISCLI_AUTH")
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}
