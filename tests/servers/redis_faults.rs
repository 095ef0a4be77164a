//! `measure` when things go wrong, against real Redis servers (and two fake
//! ones): keys named by a run id, `--overwrite` that restores, a server
//! that is not Redis or does not answer, a refused login, a missing ACL
//! permission, a cluster node frozen past the reply timeout, and Ctrl-C
//! during a run.

use crate::common;

use std::io::Write;
use std::net::TcpListener;
use std::process::Output;
use std::time::{Duration, Instant};

use crate::common::redis::*;

use shardplan::error::InputError;
use shardplan::measure::{run, MeasureConfig};

fn config(url: &str, cluster: bool, shards: u64, template: Option<&str>) -> MeasureConfig {
    MeasureConfig::new(
        url,
        cluster,
        shards,
        2,
        Duration::from_secs(20),
        Some(500),
        1,
        template,
    )
    .unwrap()
}

/// `shardplan measure ARGS --redis URL`, run to its end.
fn measure(args: &[&str], url: &str) -> Output {
    common::shardplan()
        .arg("measure")
        .args(args)
        .args(["--redis", url])
        .env_remove("REDISCLI_AUTH")
        .output()
        .unwrap()
}

/// The one stderr line of a failed run (there must be exactly one).
fn one_line(out: &Output) -> String {
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("shardplan: "), "{err}");
    err
}

#[test]
fn default_keys_carry_a_run_id_and_reach_every_node() {
    let s = Servers::spawn(3, true);
    let url = s.url();
    let a = run(&config(&url, true, 8, None)).unwrap();
    let b = run(&config(&url, true, 8, None)).unwrap();
    for r in [&a, &b] {
        let id = r.run_id.clone().expect("a run id");
        assert!(
            id.len() == 8 && id.chars().all(|c| c.is_ascii_hexdigit()),
            "{id}"
        );
        assert_eq!(r.template, format!("shardplan:{id}:<shard>"));
        assert_eq!(r.single_key, format!("shardplan:{id}:single"));
        // Eight keys on three nodes: the id is redrawn until all are reached.
        assert_eq!((r.nodes_reached, r.nodes_possible), (3, 3), "{:?}", r.nodes);
        assert!(r.counts_match && r.keys_left.is_empty());
        // 8 shard keys, the single key and the 8 same-slot copies.
        assert_eq!(r.keys_deleted, 17);
    }
    assert_ne!(a.run_id, b.run_id, "each run draws its own id");
    for &p in &s.ports {
        assert_eq!(keys_on(p).trim(), "", "keys left on node {p}");
    }
    // As a user types it: the id is in the output.
    let out = common::shardplan()
        .args(["measure", "--cluster", "--shards", "8", "--clients", "2"])
        .args(["--max-ops", "300", "--duration", "2s", "--redis", &url])
        .assert()
        .success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(text.contains("(run id "), "{text}");
    assert!(text.contains("3 of 3 possible"), "{text}");
}

#[test]
fn overwrite_restores_strings_and_refuses_other_types() {
    let s = Servers::spawn(1, false);
    let (port, url) = (s.ports[0], s.url());
    redis_cli(port, &["SET", "ow:0", "hello", "EX", "1000"]);
    redis_cli(port, &["SET", "ow:single", "42"]);
    let mut c = config(&url, false, 2, Some("ow:<shard>"));
    c.overwrite = true;
    let r = run(&c).unwrap();
    assert!(r.counts_match);
    assert_eq!(r.keys_restored, 2);
    assert_eq!(redis_cli(port, &["GET", "ow:0"]).trim(), "hello");
    assert_eq!(redis_cli(port, &["GET", "ow:single"]).trim(), "42");
    let ttl: i64 = redis_cli(port, &["TTL", "ow:0"]).trim().parse().unwrap();
    assert!(
        (900..=1000).contains(&ttl),
        "the expiry is restored too: {ttl}"
    );
    assert_eq!(redis_cli(port, &["EXISTS", "ow:1"]).trim(), "0");

    // A list is neither deleted nor run over.
    redis_cli(port, &["RPUSH", "ow:1", "x"]);
    let e = run(&c).unwrap_err();
    let input = e.downcast_ref::<InputError>().expect("exit 2");
    assert_eq!(input.what, "--overwrite");
    assert!(input.message.contains("ow:1 holds a list"), "{input}");
    assert_eq!(redis_cli(port, &["LLEN", "ow:1"]).trim(), "1");
    assert_eq!(redis_cli(port, &["GET", "ow:0"]).trim(), "hello");

    // --keep would keep the run's values over the set-aside ones.
    let out = measure(&["--overwrite", "--keep"], &url);
    assert_eq!(out.status.code(), Some(2));
    assert!(one_line(&out).contains("--overwrite"));
}

/// A listener on a free loopback port that greets every connection with
/// `greeting` (nothing: it never answers) and keeps it open.
fn fake_server(greeting: &'static [u8]) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        let mut open = Vec::new();
        for mut conn in listener.incoming().flatten() {
            let _ = conn.write_all(greeting);
            open.push(conn);
        }
    });
    port
}

#[test]
fn a_server_that_is_not_redis_or_does_not_answer_gets_one_line() {
    let ssh = format!(
        "redis://127.0.0.1:{}",
        fake_server(b"SSH-2.0-OpenSSH_9.2\r\n")
    );
    let out = measure(&["--duration", "1s"], &ssh);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        one_line(&out).trim_end(),
        format!("shardplan: cannot connect to {ssh}: not a Redis server (its reply is not the Redis protocol)")
    );
    // A silent server: the connect waits 3 s, or --timeout where shorter.
    let silent = format!("redis://127.0.0.1:{}", fake_server(b""));
    let out = measure(&["--duration", "1s", "--timeout", "300ms"], &silent);
    assert_eq!(out.status.code(), Some(1));
    let line = one_line(&out);
    assert!(
        line.contains(&format!(
            "cannot connect to {silent}: timed out (no reply within 0.3 s)"
        )),
        "{line}"
    );
}

#[test]
fn a_refused_login_and_a_missing_permission_get_one_line() {
    let s = Servers::spawn(1, false);
    let port = s.ports[0];
    redis_cli(
        port,
        &[
            "ACL",
            "SETUSER",
            "counter",
            "on",
            ">lim-pw-7",
            "~*",
            "+@all",
            "-incr",
        ],
    );
    redis_cli(port, &["CONFIG", "SET", "requirepass", "main-pw-9"]);
    let args = ["--shards", "2", "--clients", "1", "--max-ops", "100"];

    let wrong = format!("redis://:not-it-3@127.0.0.1:{port}");
    let out = measure(&args, &wrong);
    assert_eq!(out.status.code(), Some(1));
    let line = one_line(&out);
    assert!(line.contains("refused the login"), "{line}");
    assert!(!line.contains("not-it-3"), "the password shows: {line}");

    let limited = format!("redis://counter:lim-pw-7@127.0.0.1:{port}");
    let out = measure(&args, &limited);
    assert_eq!(out.status.code(), Some(1));
    let line = one_line(&out);
    assert!(
        line.contains("INCR failed: the Redis user lacks a permission (NOPERM"),
        "{line}"
    );
    assert!(!line.contains("lim-pw-7"), "the password shows: {line}");
    // The run wrote nothing, and left nothing.
    let keys = std::process::Command::new("redis-cli")
        .args([
            "-p",
            &port.to_string(),
            "-a",
            "main-pw-9",
            "--no-auth-warning",
            "--scan",
        ])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&keys.stdout).trim(), "");
}

#[test]
fn a_frozen_cluster_node_fails_the_run() {
    let s = Servers::spawn(3, true);
    let child = spawn_measure(
        &[
            "--cluster",
            "--shards",
            "8",
            "--clients",
            "2",
            "--duration",
            "1s",
            "--timeout",
            "300ms",
            "--runs",
            "1",
            "--template",
            "frz:<shard>",
        ],
        &s.url(),
    );
    // Wait for the warm-up or the sharded phase: a node holding a shard key.
    let start = Instant::now();
    let node = loop {
        let found = s.ports.iter().position(|&p| {
            keys_on(p)
                .lines()
                .any(|k| k.starts_with("frz:") && k != "frz:single")
        });
        if let Some(i) = found {
            break i;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "no shard key written"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    // Freeze that node past the reply timeout, then let it go.
    let frozen = s.children[node].id() as i32;
    // SAFETY: signals to a child this test started.
    unsafe { libc::kill(frozen, libc::SIGSTOP) };
    std::thread::sleep(Duration::from_millis(1500));
    unsafe { libc::kill(frozen, libc::SIGCONT) };
    let out = child.wait_with_output().unwrap();
    // A timeout (exit 1) or a re-sent INCR caught by the count check
    // (exit 3): never a silent success.
    let code = out.status.code();
    assert!(matches!(code, Some(1) | Some(3)), "{code:?}");
    let line = one_line(&out);
    if code == Some(1) {
        assert!(line.contains("timed out"), "{line}");
    } else {
        assert!(line.contains("count check failed"), "{line}");
    }
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
