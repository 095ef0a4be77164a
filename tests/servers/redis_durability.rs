//! `measure --design` against real Redis servers: each design without a
//! fault loses nothing; a buffered writer killed mid-interval loses exactly
//! what it held; the log's rebuild equals its counter; and a master killed
//! with `kill -9` in a 3-master, 3-replica cluster, after which the run
//! goes on through the failover and accounts for every like, against the
//! keys read back here with redis-cli.

use std::path::Path;

use crate::common;
use crate::common::redis::*;

/// `shardplan measure ARGS --redis URL --keep -o FILE`, its JSON (checked
/// against the schema) and its exit code.
fn measure_json(args: &[&str], url: &str, dir: &Path) -> (serde_json::Value, i32) {
    let json = dir.join("run.json");
    let _ = std::fs::remove_file(&json);
    let out = common::shardplan()
        .arg("measure")
        .args(args)
        .args(["--keep", "--redis", url, "-o"])
        .arg(&json)
        .output()
        .unwrap();
    let code = out.status.code().unwrap_or(-1);
    if code != 0 {
        eprintln!(
            "{args:?} exited {code}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let text = std::fs::read_to_string(&json).unwrap_or_else(|_| {
        panic!(
            "no report from {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let errors = common::schema_errors("measure", &v);
    assert!(errors.is_empty(), "{errors:?}");
    (v, code)
}

fn u(v: &serde_json::Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("not a count: {v}"))
}

/// The counter keys' sum, read here: on a cluster through `redis-cli -c`.
fn sum_of_keys(port: u16, cluster: bool, v: &serde_json::Value) -> i64 {
    v["keys"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k.as_str().unwrap())
        .filter(|k| !k.ends_with(":log"))
        .map(|k| {
            let mut args = vec!["GET", k];
            if cluster {
                args.insert(0, "-c");
            }
            redis_cli(port, &args).trim().parse::<i64>().unwrap_or(0)
        })
        .sum()
}

/// Every like in exactly one ending, by the writers' records.
fn assert_every_like_placed(d: &serde_json::Value) {
    assert_eq!(
        u(&d["sent"]),
        u(&d["acknowledged"]) + u(&d["failed"]) + u(&d["unknown"]) + u(&d["lost_in_buffers"]),
        "{d}"
    );
}

#[test]
fn each_design_without_a_fault_loses_nothing() {
    let s = Servers::spawn(1, false);
    let dir = tempfile::tempdir().unwrap();
    for design in ["single", "sharded", "buffered", "log"] {
        let mut args = vec!["--design", design, "--duration", "1s", "--clients", "4"];
        args.extend(["--rate", "1000"]);
        if design != "single" {
            args.extend(["--shards", "8"]);
        }
        if design == "buffered" {
            args.extend(["--flush", "500ms"]);
        }
        if design == "log" {
            args.push("--rebuild");
        }
        let (v, code) = measure_json(&args, &s.url(), dir.path());
        assert_eq!(code, 0, "{design}");
        let d = &v["durability"];
        assert_every_like_placed(d);
        // 1,000 likes/s for 1 s: every one of them created and applied.
        assert_eq!(u(&d["sent"]), 1000, "{design}: {d}");
        assert_eq!(u(&d["acknowledged"]), 1000, "{design}: {d}");
        assert_eq!(d["counted"], 1000, "{design}: {d}");
        assert_eq!(sum_of_keys(s.ports[0], false, &v), 1000, "{design}");
        assert_eq!(
            (u(&d["lost_at_least"]), d["reconciled"].as_bool()),
            (0, Some(true))
        );
        assert_eq!(v["design"], design);
        if design == "log" {
            assert_eq!(v["rebuild"]["rebuilt"], 1000);
            assert_eq!(v["rebuild"]["matches"], true);
        }
        if design == "buffered" {
            // Every like waits for its writer's flush: at most the flush
            // interval (500 ms) plus a round trip, and about half of it in
            // the median.
            let p50 = v["lag"]["p50_ms"].as_f64().unwrap();
            assert!((100.0..=500.0).contains(&p50), "{p50}");
        }
        redis_cli(s.ports[0], &["FLUSHALL"]);
    }
}

#[test]
fn a_buffered_writer_killed_mid_interval_loses_exactly_what_it_held() {
    let s = Servers::spawn(1, false);
    let dir = tempfile::tempdir().unwrap();
    // Writer 0 of 4 flushes at 1 s, 2 s, ...; killed at 1.5 s it holds the
    // likes of the half second since its flush: 1,000 likes/s over 4
    // writers is 250 a second each, so about 125.
    let args = [
        "--design",
        "buffered",
        "--shards",
        "8",
        "--clients",
        "4",
        "--rate",
        "1000",
        "--duration",
        "2500ms",
        "--fault-at",
        "1500ms",
        "--fault",
        "kill-writer",
    ];
    let (v, code) = measure_json(&args, &s.url(), dir.path());
    assert_eq!(code, 0);
    let d = &v["durability"];
    assert_every_like_placed(d);
    let held = u(&d["lost_in_buffers"]);
    assert!((100..=150).contains(&held), "{held}");
    // Nothing else lost: the count is exactly the acknowledged likes, and
    // the keys read here agree.
    assert_eq!(d["counted"].as_i64().unwrap() as u64, u(&d["acknowledged"]));
    assert_eq!(
        sum_of_keys(s.ports[0], false, &v),
        d["counted"].as_i64().unwrap()
    );
    assert_eq!(u(&d["sent"]), u(&d["acknowledged"]) + held);
    assert_eq!(v["fault"]["kind"], "kill-writer");
    // The design doc quotes it: compare beside the designs, report whole.
    let file = dir.path().join("run.json");
    let out = common::shardplan()
        .args(["compare", "--format", "json", "--measure"])
        .arg(&file)
        .output()
        .unwrap();
    let c: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(common::schema_errors("compare", &c).is_empty());
    assert_eq!(c["measured"]["design"], "buffered");
    assert_eq!(u(&c["measured"]["durability"]["lost_in_buffers"]), held);
    let out = common::shardplan()
        .args(["compare", "--measure"])
        .arg(&file)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(&format!("LOST: {held} likes the killed writer held")),
        "{text}"
    );
    let report = dir.path().join("report");
    common::shardplan()
        .args(["report", "-q", "--measure"])
        .arg(&file)
        .arg("-o")
        .arg(&report)
        .assert()
        .success();
    let md = std::fs::read_to_string(report.join("report.md")).unwrap();
    assert!(md.contains("Every like accounted for"), "{md}");
    assert!(md.contains("measure --design buffered"), "{md}");
}

/// A template whose keys (the single design's `<prefix>:single`, the
/// shards' `<prefix>:<n>`) have a master that still has a replica (not
/// in `killed`, which holds the killed masters and the replicas that took
/// over): `(template, the key whose master dies, its node's index and
/// port)`.
fn victim(s: &Servers, killed: &[u16], design: &str) -> (String, String, usize, u16) {
    for n in 0.. {
        let template = format!("{design}{n}:<shard>");
        let key = template.replace("<shard>", if design == "single" { "single" } else { "0" });
        let (index, port) = s.master_of_key(&key);
        if !killed.contains(&port) {
            return (template, key, index, port);
        }
    }
    unreachable!()
}

#[test]
fn a_killed_cluster_master_fails_over_and_every_like_is_accounted_for() {
    // 4 masters with a replica each: one master killed with kill -9 per
    // design, 0.5 s into a 3 s run; its replica takes over about 1 to 2 s
    // later (node timeout 0.5 s, then the election's 0.5 to 1 s delay; 1.0
    // to 1.8 s measured), and the run goes on through it.
    let s = Servers::spawn_cluster_with_replicas(4, 1, 500);
    let dir = tempfile::tempdir().unwrap();
    let mut killed = Vec::new();
    for design in ["single", "sharded", "buffered", "log"] {
        let (template, key, index, port) = victim(&s, &killed, design);
        let url = format!(
            "redis://127.0.0.1:{}",
            s.live_ports().into_iter().find(|&p| p != port).unwrap()
        );
        let kill = format!("kill -9 {}", s.children[index].id());
        let mut args = vec![
            "--cluster",
            "--design",
            design,
            "--clients",
            "4",
            "--rate",
            "1000",
            "--duration",
            "3s",
            "--fault-at",
            "500ms",
            "--fault-command",
            &kill,
            "--timeout",
            "500ms",
            "--template",
            &template,
        ];
        if design != "single" {
            args.extend(["--shards", "16"]);
        }
        if design == "log" {
            args.push("--rebuild");
        }
        let (v, code) = measure_json(&args, &url, dir.path());
        assert_eq!(code, 0, "{design}: {v}");
        s.wait_failover(port, &key);
        // The promoted replica has no replica of its own: not a victim.
        killed.extend([port, s.master_of_key(&key).1]);
        let d = &v["durability"];
        eprintln!(
            "{design} through a failover: {d} unavailable {} errors {}",
            v["unavailable"], v["errors"]
        );
        assert_every_like_placed(d);
        assert_eq!(u(&d["sent"]), 3000, "{design}");
        // The master's keys were unavailable for the failover, then took
        // writes again.
        let longest = v["unavailable"]["longest_seconds"].as_f64().unwrap();
        assert!((0.5..3.0).contains(&longest), "{design}: {longest}");
        assert_eq!(v["unavailable"]["unrecovered"], 0, "{design}");
        // The run's count is the keys' sum read here, and it reconciles:
        // acknowledged - lost <= counted <= acknowledged + unknown.
        let counted = d["counted"].as_i64().unwrap();
        assert_eq!(
            sum_of_keys(s.live_ports()[0], true, &v),
            counted,
            "{design}"
        );
        assert_eq!(d["reconciled"], true, "{design}");
        assert!(counted as u64 <= u(&d["acknowledged"]) + u(&d["unknown"]));
        assert_eq!(
            u(&d["lost_at_least"]),
            u(&d["acknowledged"]).saturating_sub(counted as u64)
        );
        assert_eq!(v["fault"]["exit_code"], 0);
        if design == "log" {
            // The stream and its counter fail over together (one slot, one
            // replication stream): the rebuilt count is the counter's.
            assert_eq!(v["rebuild"]["matches"], true, "{}", v["rebuild"]);
        }
    }
}

#[test]
fn wait_replicas_counts_the_writes_no_replica_confirmed() {
    // A standalone server has no replica: every WAIT 1 times out (after
    // --timeout, 50 ms) with 0, so every acknowledged write is short.
    let s = Servers::spawn(1, false);
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "--design",
        "sharded",
        "--shards",
        "4",
        "--clients",
        "4",
        "--rate",
        "40",
        "--duration",
        "1s",
        "--wait-replicas",
        "1",
        "--timeout",
        "50ms",
    ];
    let (v, code) = measure_json(&args, &s.url(), dir.path());
    assert_eq!(code, 0);
    let d = &v["durability"];
    assert_eq!(u(&d["acknowledged"]), 40, "{v}");
    assert_eq!(v["wait_replicas"], 1);
    assert_eq!(v["wait_short"], 40);
    assert_eq!(d["counted"], 40);
}

#[test]
fn ctrl_c_during_a_durability_run_deletes_its_keys_and_exits_130() {
    let s = Servers::spawn(1, false);
    let port = s.ports[0];
    let args = [
        "--design",
        "log",
        "--shards",
        "4",
        "--clients",
        "2",
        "--rate",
        "200",
        "--duration",
        "30s",
    ];
    let child = spawn_measure(&args, &s.url());
    let start = std::time::Instant::now();
    while keys_on(port).trim().is_empty() {
        assert!(start.elapsed().as_secs() < 20, "no keys written");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    std::thread::sleep(std::time::Duration::from_millis(300));
    // SAFETY: kill with a valid pid and signal number.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(out.stdout.is_empty(), "no results for a run cut short");
    assert!(start.elapsed().as_secs() < 20, "it stopped at once");
    assert_eq!(
        keys_on(port).trim(),
        "",
        "the counters and streams are deleted"
    );
}

#[test]
fn a_count_another_client_raised_cannot_be_reconciled_and_exits_1() {
    // The fault is another client adding 1,000 to the key mid-run: the
    // count is then above what the writers acknowledged and left unknown.
    let s = Servers::spawn(1, false);
    let dir = tempfile::tempdir().unwrap();
    let bump = format!("redis-cli -p {} INCRBY other:single 1000", s.ports[0]);
    let args = [
        "--design",
        "single",
        "--template",
        "other:<shard>",
        "--clients",
        "2",
        "--rate",
        "200",
        "--duration",
        "1s",
        "--fault-at",
        "500ms",
        "--fault-command",
        &bump,
    ];
    let (v, code) = measure_json(&args, &s.url(), dir.path());
    assert_eq!(code, 1, "{v}");
    let d = &v["durability"];
    assert_eq!(d["reconciled"], false);
    assert_eq!(d["counted"].as_i64().unwrap(), 200 + 1000);
}
