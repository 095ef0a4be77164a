//! `measure` against real Redis servers on loopback ports: one standalone
//! server and a 3-node cluster without replicas, started here and killed in
//! `Drop` (so also when an assertion fails). Needs `redis-server` and
//! `redis-cli` on PATH (CI installs Debian's); without them these tests fail.

use crate::common;

use std::time::{Duration, Instant};

use crate::common::redis::*;

use shardplan::error::InputError;
use shardplan::measure::{run, MeasureConfig, MeasureReport, MgetKeys};

/// Runs of each phase in these tests: two give an interval and keep the
/// binary quick.
const RUNS: u64 = 2;

fn config(url: &str, cluster: bool, shards: u64, template: &str) -> MeasureConfig {
    let mut c = MeasureConfig::new(
        url,
        cluster,
        shards,
        4,
        Duration::from_secs(20),
        Some(OPS),
        1,
        Some(template),
    )
    .unwrap();
    c.runs = RUNS;
    c
}

fn check_counts(r: &MeasureReport) {
    let sent = OPS * RUNS;
    assert_eq!(r.single_incr_sent, sent, "max-ops bounds the single phase");
    assert_eq!(r.incr_sent, sent, "max-ops bounds the sharded phase");
    assert!(r.warmup_incr_sent > 0 && r.warmup_incr_sent <= OPS);
    assert_eq!(
        r.single_value, sent as i64,
        "single key lost or double counted INCRs"
    );
    assert_eq!(
        r.shard_sum,
        (sent + r.warmup_incr_sent) as i64,
        "shard sum differs from INCRs sent"
    );
    assert!(r.counts_match);
    assert_eq!(r.nodes.iter().map(|n| n.sharded_incr).sum::<u64>(), sent);
    assert_eq!(r.nodes.iter().map(|n| n.single_incr).sum::<u64>(), sent);
    // Nothing else talks to these private servers, so each node's own INCR
    // count must equal what we sent to its keys, in each phase.
    for n in &r.nodes {
        assert_eq!(n.sharded_incr_served, Some(n.sharded_incr), "{}", n.address);
        assert_eq!(n.single_incr_served, Some(n.single_incr), "{}", n.address);
        assert_eq!(n.server_incr, n.sharded_incr_served);
    }
    assert_eq!(r.runs, RUNS);
    assert_eq!(r.run_results.len() as u64, RUNS);
    assert!(r.ratio_ci95.is_some());
    assert!(r.single_ops_per_second > 0.0 && r.sharded_ops_per_second > 0.0);
    assert!(r.latency_p99_ms > 0.0 && r.sharded_latency.p50_ms <= r.latency_p99_ms);
    let json = serde_json::to_value(r).unwrap();
    for field in [
        "single_ops_per_second",
        "sharded_ops_per_second",
        "incr_sent",
        "shard_sum",
        "nodes_reached",
        "latency_p99_ms",
    ] {
        assert!(json.get(field).is_some(), "JSON lacks {field}");
    }
}

#[test]
fn standalone_counts_and_key_safety() {
    let s = Servers::spawn(1, false);
    let port = s.ports[0];
    let url = s.url();

    let r = run(&config(&url, false, 8, "likes:<shard>")).unwrap();
    check_counts(&r);
    assert_eq!(r.nodes_reached, 1);
    assert_eq!(r.read.mget_keys, MgetKeys::ShardKeys);
    assert_eq!(r.read.crossslot_error, None);
    assert!(r.read.mget_p50_ms.is_some());
    assert_eq!(keys_on(port).trim(), "", "keys were not cleaned up");

    // Pipelined, with --keep: the keys stay and hold the counts.
    let mut c = config(&url, false, 8, "likes:<shard>");
    c.pipeline = 16;
    c.keep = true;
    let r = run(&c).unwrap();
    check_counts(&r);
    let mut total = 0;
    for i in 0..8 {
        total += redis_cli(port, &["GET", &format!("likes:{i}")])
            .trim()
            .parse::<i64>()
            .unwrap_or(0);
    }
    assert_eq!(total, (r.incr_sent + r.warmup_incr_sent) as i64);

    // Now the keys exist: refused without --overwrite, and nothing changed.
    let err = run(&config(&url, false, 8, "likes:<shard>")).unwrap_err();
    let input = err
        .downcast_ref::<InputError>()
        .expect("refusal is an input error (exit 2)");
    assert_eq!(input.what, "--overwrite");
    assert!(input.message.contains("already exist"), "{input}");
    assert_eq!(
        redis_cli(port, &["GET", "likes:single"]).trim(),
        (OPS * RUNS).to_string()
    );

    // With --overwrite they are set aside, the sums still match exactly,
    // and afterwards the kept values are back.
    let mut c = config(&url, false, 8, "likes:<shard>");
    c.overwrite = true;
    let r = run(&c).unwrap();
    check_counts(&r);
    assert_eq!((r.keys_restored, r.keys_deleted), (9, 9));
    assert_eq!(
        redis_cli(port, &["GET", "likes:single"]).trim(),
        (OPS * RUNS).to_string()
    );
    redis_cli(port, &["FLUSHALL"]);

    // --cluster against a standalone server says so.
    let err = run(&config(&url, true, 8, "likes:<shard>"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("not a Redis Cluster node"), "{err}");
}

#[test]
fn cluster_spreads_tag_free_keys_and_pins_tagged_ones() {
    let s = Servers::spawn(3, true);
    let url = s.url();

    // Tag-free template: 16 keys land on all three nodes.
    let r = run(&config(&url, true, 16, "likes:<shard>")).unwrap();
    check_counts(&r);
    assert_eq!(r.nodes.len(), 3);
    assert_eq!(r.nodes_reached, 3, "{:?}", r.nodes);
    assert!(r.nodes.iter().all(|n| n.sharded_incr > 0));
    assert_eq!(r.nodes.iter().map(|n| n.slots).sum::<u64>(), 16_384);
    assert_eq!(r.read.nodes_per_read, 3);
    let crossslot = r.read.crossslot_error.as_deref().unwrap_or("");
    assert!(crossslot.contains("CROSSSLOT"), "{crossslot}");
    assert_eq!(r.read.mget_keys, MgetKeys::SameSlotCopy);
    assert!(r.read.mget_p50_ms.is_some());

    // One hash tag: every shard key in one slot, so one node takes it all.
    let mut c = config(&url, true, 16, "{likes}:<shard>");
    c.pipeline = 8;
    let r = run(&c).unwrap();
    check_counts(&r);
    assert_eq!(r.nodes_reached, 1, "{:?}", r.nodes);
    assert_eq!(r.nodes.iter().filter(|n| n.sharded_incr > 0).count(), 1);
    assert_eq!(r.read.nodes_per_read, 1);
    assert_eq!(r.read.crossslot_error, None);
    assert_eq!(r.read.mget_keys, MgetKeys::ShardKeys);

    for &p in &s.ports {
        assert_eq!(keys_on(p).trim(), "", "keys left on node {p}");
    }

    // Without --cluster, a cluster node is recognised.
    let err = run(&config(&url, false, 16, "likes:<shard>"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("pass --cluster"), "{err}");
}

#[test]
fn a_server_that_is_down_and_a_bad_url_give_clear_errors() {
    // Port 1 (tcpmux) has no listener here; an ephemeral port picked at
    // random could meet another test's cluster traffic and be reset
    // instead of refused.
    let port = 1;
    for cluster in [false, true] {
        let url = format!("redis://127.0.0.1:{port}");
        let err = run(&config(&url, cluster, 4, "likes:<shard>")).unwrap_err();
        assert!(
            err.downcast_ref::<InputError>().is_none(),
            "a down server is not an input error (exit 1)"
        );
        assert_eq!(
            err.to_string(),
            format!("cannot connect to {url}: connection refused")
        );
    }
    for url in [
        "http://127.0.0.1:6379",
        "127.0.0.1:6379",
        "redis://127.0.0.1:port",
    ] {
        let e = MeasureConfig::new(
            url,
            false,
            4,
            1,
            Duration::from_secs(1),
            None,
            1,
            Some("likes:<shard>"),
        )
        .unwrap_err();
        assert_eq!(e.what, "--redis", "{url}");
    }
}

#[test]
fn measure_command_as_a_user_types_it() {
    let servers = Servers::spawn(3, true);
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("measure.json");
    assert_cmd::Command::cargo_bin("shardplan")
        .unwrap()
        .args([
            "measure",
            "--cluster",
            "--shards",
            "16",
            "--clients",
            "4",
            "--duration",
            "5s",
        ])
        .args([
            "--max-ops",
            "2000",
            "--runs",
            "2",
            "--template",
            "likes:<shard>",
            "--redis",
        ])
        .arg(servers.url())
        .arg("--output")
        .arg(&json)
        .assert()
        .success();
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(v["incr_sent"], 4000);
    assert_eq!(v["runs"], 2);
    assert_eq!(v["run_results"].as_array().unwrap().len(), 2);
    assert_eq!(
        v["shard_sum"].as_u64().unwrap(),
        4000 + v["warmup_incr_sent"].as_u64().unwrap()
    );
    assert_eq!(v["nodes_reached"], 3);
    // The document validates against its checked-in schema (as every other
    // command's does in tests/cli/json_schemas.rs).
    let errors = common::schema_errors("measure", &v);
    assert!(errors.is_empty(), "{errors:?}");
    for field in [
        "single_ops_per_second",
        "sharded_ops_per_second",
        "latency_p99_ms",
    ] {
        assert!(v[field].as_f64().unwrap() > 0.0, "{field}");
    }
    // The measured single-key rate feeds the planner.
    let out = assert_cmd::Command::cargo_bin("shardplan")
        .unwrap()
        .args([
            "size",
            "--peak",
            "14000",
            "--format",
            "json",
            "--cap-from-measure",
        ])
        .arg(&json)
        .assert()
        .success();
    let size: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(
        size["cap"],
        v["single_ops_per_second"].as_f64().unwrap().floor()
    );
}

#[test]
fn a_password_from_the_environment_or_a_file_never_shows() {
    // A server that needs a password; the URL carries none.
    let servers = Servers::spawn(1, false);
    redis_cli(
        servers.ports[0],
        &["CONFIG", "SET", "requirepass", "s3cr@t"],
    );
    let dir = tempfile::tempdir().unwrap();
    let pw_file = dir.path().join("pw");
    std::fs::write(&pw_file, "s3cr@t\n").unwrap();
    let measure = |extra: &[&str], env: Option<&str>| {
        let mut cmd = assert_cmd::Command::cargo_bin("shardplan").unwrap();
        cmd.args([
            "measure",
            "--shards",
            "4",
            "--clients",
            "2",
            "--duration",
            "2s",
        ])
        .args([
            "--max-ops",
            "400",
            "--runs",
            "1",
            "--format",
            "json",
            "--redis",
        ])
        .arg(servers.url())
        .args(extra)
        .env_remove("REDISCLI_AUTH");
        if let Some(pw) = env {
            cmd.env("REDISCLI_AUTH", pw);
        }
        cmd.assert()
    };
    for out in [
        measure(&[], Some("s3cr@t")).success(),
        measure(&["--password-file", pw_file.to_str().unwrap()], None).success(),
    ] {
        let o = out.get_output();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(!text.contains("s3cr@t"), "the password shows: {text}");
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(v["incr_sent"], 400);
        assert_eq!(v["inputs"]["password"]["value"], "***");
    }
    // Without it the server refuses, and the error does not leak either.
    let out = measure(&[], None).failure();
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(!err.contains("s3cr@t") && !err.is_empty(), "{err}");
    let missing = dir.path().join("none");
    measure(&["--password-file", missing.to_str().unwrap()], None)
        .code(2)
        .stderr(predicates::str::contains("--password-file"));
}

#[test]
fn a_failed_count_check_exits_3() {
    // Another client INCRs a shard key during the run: the shard keys then
    // sum to more than the INCRs sent, and the run must not exit 0.
    let s = Servers::spawn(1, false);
    let port = s.ports[0];
    let child = spawn_measure(
        &[
            "--shards",
            "2",
            "--clients",
            "2",
            "--duration",
            "1s",
            "--runs",
            "1",
            "--template",
            "foreign:<shard>",
            "--format",
            "json",
        ],
        &s.url(),
    );
    // After the start-up check for existing keys, until past the readback.
    std::thread::sleep(Duration::from_millis(500));
    let start = Instant::now();
    while start.elapsed() < Duration::from_millis(2500) {
        redis_cli(port, &["INCR", "foreign:0"]);
    }
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(err.contains("count check failed"), "{err}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["counts_match"], false);
    // The key the other client also wrote is left as it is; the run's
    // other keys, which still held what it wrote, are gone.
    assert_eq!(v["keys_left"], serde_json::json!(["foreign:0"]));
    assert_eq!(keys_on(port).trim(), "foreign:0");
    assert!(err.lines().count() == 1, "{err}");
}
