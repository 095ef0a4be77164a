//! `measure` against real Redis servers on loopback ports: one standalone
//! server and a 3-node cluster without replicas, started here and killed in
//! `Drop` (so also when an assertion fails). Needs `redis-server` and
//! `redis-cli` on PATH (CI installs Debian's); without them these tests fail.

mod common;

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use shardplan::error::InputError;
use shardplan::measure::{run, MeasureConfig, MeasureReport, MgetKeys};

/// Loads stay small: a few thousand INCRs per phase.
const OPS: u64 = 3_000;

/// Held while picking ports and until the servers on them are up, so two
/// tests running in parallel cannot pick the same free port.
static PORTS: Mutex<()> = Mutex::new(());

fn port_lock() -> MutexGuard<'static, ()> {
    PORTS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn require(tool: &str) {
    let found = Command::new(tool)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    assert!(
        matches!(found, Ok(s) if s.success()),
        "`{tool}` is not installed or not on PATH: these tests start real Redis servers; install it (Debian: apt-get install redis-server)"
    );
}

/// A loopback port that is free, and whose cluster bus port (+10000) is too.
fn free_port() -> u16 {
    for _ in 0..100 {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        if port <= 55_535 && TcpListener::bind(("127.0.0.1", port + 10_000)).is_ok() {
            return port;
        }
    }
    panic!("no free loopback port pair found");
}

fn redis_cli(port: u16, args: &[&str]) -> String {
    let out = Command::new("redis-cli")
        .args(["-h", "127.0.0.1", "-p", &port.to_string()])
        .args(args)
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Servers that die with this value (children killed before the dir goes).
struct Servers {
    ports: Vec<u16>,
    children: Vec<Child>,
    dir: tempfile::TempDir,
}

impl Drop for Servers {
    fn drop(&mut self) {
        for c in &mut self.children {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

impl Servers {
    fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.ports[0])
    }

    fn spawn(n: usize, cluster: bool) -> Servers {
        require("redis-server");
        require("redis-cli");
        let _ports = port_lock();
        let mut s = Servers {
            ports: Vec::new(),
            children: Vec::new(),
            dir: tempfile::tempdir().unwrap(),
        };
        let dir = s.dir.path().to_path_buf();
        for _ in 0..n {
            let port = free_port();
            let mut cmd = Command::new("redis-server");
            cmd.args([
                "--port",
                &port.to_string(),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ]);
            cmd.arg("--dir").arg(&dir);
            if cluster {
                cmd.args(["--cluster-enabled", "yes", "--cluster-config-file"]);
                cmd.arg(dir.join(format!("nodes-{port}.conf")));
            }
            let child = cmd
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("spawn redis-server");
            s.ports.push(port);
            s.children.push(child);
        }
        for &p in &s.ports {
            wait_for(&format!("redis-server on port {p} answers PING"), || {
                redis_cli(p, &["PING"]).contains("PONG")
            });
        }
        // A server that could not bind exits; then PONG came from someone else.
        for (c, p) in s.children.iter_mut().zip(&s.ports) {
            assert!(
                matches!(c.try_wait(), Ok(None)),
                "redis-server on port {p} exited"
            );
        }
        if cluster {
            let addrs: Vec<String> = s.ports.iter().map(|p| format!("127.0.0.1:{p}")).collect();
            let out = Command::new("redis-cli")
                .arg("--cluster")
                .arg("create")
                .args(&addrs)
                .args(["--cluster-replicas", "0", "--cluster-yes"])
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "redis-cli --cluster create failed: {}",
                String::from_utf8_lossy(&out.stdout)
            );
            for &p in &s.ports {
                wait_for(&format!("node {p} reports cluster_state:ok"), || {
                    redis_cli(p, &["CLUSTER", "INFO"]).contains("cluster_state:ok")
                });
            }
        }
        s
    }
}

fn wait_for(what: &str, mut ok: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while !ok() {
        assert!(Instant::now() < deadline, "timed out waiting until {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn config(url: &str, cluster: bool, shards: u64, template: &str) -> MeasureConfig {
    MeasureConfig::new(
        url,
        cluster,
        shards,
        4,
        Duration::from_secs(20),
        Some(OPS),
        1,
        template,
    )
    .unwrap()
}

fn check_counts(r: &MeasureReport) {
    assert_eq!(r.single_incr_sent, OPS, "max-ops bounds the single phase");
    assert_eq!(r.incr_sent, OPS, "max-ops bounds the sharded phase");
    assert_eq!(
        r.single_value, OPS as i64,
        "single key lost or double counted INCRs"
    );
    assert_eq!(r.shard_sum, OPS as i64, "shard sum differs from INCRs sent");
    assert!(r.counts_match);
    assert_eq!(r.nodes.iter().map(|n| n.sharded_incr).sum::<u64>(), OPS);
    // Nothing else talks to these private servers, so each node's own INCR
    // count must equal what we sent to its keys.
    for n in &r.nodes {
        assert_eq!(n.server_incr, Some(n.sharded_incr), "{}", n.node);
    }
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

fn keys_on(port: u16) -> String {
    redis_cli(port, &["--scan"])
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
    assert_eq!(total, OPS as i64);

    // Now the keys exist: refused without --overwrite, and nothing changed.
    let err = run(&config(&url, false, 8, "likes:<shard>")).unwrap_err();
    let input = err
        .downcast_ref::<InputError>()
        .expect("refusal is an input error (exit 2)");
    assert_eq!(input.what, "--overwrite");
    assert!(input.message.contains("already exist"), "{input}");
    assert_eq!(
        redis_cli(port, &["GET", "likes:single"]).trim(),
        OPS.to_string()
    );

    // With --overwrite they are reset, so the sums still match exactly.
    let mut c = config(&url, false, 8, "likes:<shard>");
    c.overwrite = true;
    check_counts(&run(&c).unwrap());
    assert_eq!(keys_on(port).trim(), "");

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
            "likes:<shard>",
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
    assert_eq!(v["incr_sent"], 2000);
    assert_eq!(v["shard_sum"], 2000);
    assert_eq!(v["nodes_reached"], 3);
    // The document validates against its checked-in schema (as every other
    // command's does in tests/json_schemas.rs).
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
        .args(["--max-ops", "400", "--format", "json", "--redis"])
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

/// Starts `shardplan measure ARGS --redis URL` with its output piped, to
/// act on the server while it runs.
fn spawn_measure(args: &[&str], url: &str) -> Child {
    Command::new(env!("CARGO_BIN_EXE_shardplan"))
        .arg("measure")
        .args(args)
        .args(["--redis", url])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
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
            "2s",
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
    while start.elapsed() < Duration::from_millis(3500) {
        redis_cli(port, &["INCR", "foreign:0"]);
    }
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(err.contains("count check failed"), "{err}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["counts_match"], false);
}

#[test]
fn ctrl_c_during_measure_deletes_its_keys_and_exits_130() {
    let s = Servers::spawn(1, false);
    let port = s.ports[0];
    let child = spawn_measure(
        &[
            "--shards",
            "4",
            "--clients",
            "2",
            "--duration",
            "30s",
            "--template",
            "sig:<shard>",
        ],
        &s.url(),
    );
    // Wait until the run is writing its keys.
    let start = Instant::now();
    while keys_on(port).trim().is_empty() {
        assert!(start.elapsed() < Duration::from_secs(20), "no keys written");
        std::thread::sleep(Duration::from_millis(50));
    }
    // SAFETY: kill with a valid pid and signal number.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(err.contains("interrupted"), "{err}");
    assert!(out.stdout.is_empty(), "no results for a run cut short");
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "it stopped at once"
    );
    assert_eq!(keys_on(port).trim(), "", "the run's keys are deleted");
}
