//! `measure --postgres` without a server: one that is down, the flags
//! that mean nothing with it (the Redis-only ones) and bad input, each a
//! clear line naming what is wrong. (The runs against a real PostgreSQL are
//! in tests/servers/postgres_measure.rs.)

use crate::common;

use std::process::Command;

fn shardplan() -> Command {
    Command::new(env!("CARGO_BIN_EXE_shardplan"))
}

#[test]
fn a_server_that_is_down_is_a_clear_error() {
    // No server: a port nobody listens on.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let out = shardplan()
        .args([
            "measure",
            "--postgres",
            &format!("postgres://u:pw1234@127.0.0.1:{port}/db"),
        ])
        .args(["--duration", "100ms"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("cannot connect to PostgreSQL at postgres://u:***@127.0.0.1"),
        "{stderr}"
    );
    assert!(!stderr.contains("pw1234"), "{stderr}");
}

#[test]
fn redis_only_flags_and_bad_input_are_refused() {
    let pg = ["measure", "--postgres", "postgres://127.0.0.1:1/db"];
    for (extra, flag) in [
        (&["--cluster"][..], "--cluster"),
        (&["--template", "k:<shard>"][..], "--template"),
        (&["--pipeline", "4"][..], "--pipeline"),
        (&["--pipeline", "1"][..], "--pipeline"),
        (&["--password-file", "pw"][..], "--password-file"),
        (&["--overwrite"][..], "--overwrite"),
        (&["--keep"][..], "--keep"),
        (&["--redis", "redis://127.0.0.1:1"][..], "--redis"),
        (&["--schema", "Bad-Name"][..], "--schema"),
        (&["--shards", "0"][..], "--shards"),
    ] {
        let args: Vec<&str> = pg.iter().chain(extra).copied().collect();
        common::bad_input(&args, flag);
    }
    common::bad_input(&["measure", "--postgres", "mysql://h/db"], "--postgres");
    common::bad_input(&["measure", "--shards", "4"], "--redis");
    common::bad_input(
        &["measure", "--redis", "redis://127.0.0.1:1", "--schema", "x"],
        "--schema",
    );
}

#[test]
fn the_postgres_preset_needs_a_measured_or_given_cap() {
    // PostgreSQL documents no per-row write rate: no default to plan with.
    for cmd in [
        &["size", "--store", "postgres", "--peak", "5000"][..],
        &["simulate", "--store", "postgres", "--seconds", "10"][..],
        &["risk", "--store", "postgres"][..],
    ] {
        common::bad_input(cmd, "--store: postgres has no per-key write cap");
    }
    common::bad_input(
        &["keys", "--store", "postgres", "--template", "likes:<shard>"],
        "--store",
    );
    common::bad_input(
        &[
            "size",
            "--store",
            "postgres",
            "--cap",
            "600",
            "--partitions",
            "8",
        ],
        "--partitions",
    );
    let v = common::json_of(&[
        "size", "--store", "postgres", "--cap", "600", "--peak", "5000",
    ]);
    assert_eq!(v["cap"], 600.0);
    let stores = common::json_of(&["stores"]);
    let pg = stores["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["store"] == "postgres")
        .expect("a postgres preset");
    assert_eq!(pg["write_cap_per_key"], serde_json::Value::Null);
    assert_eq!(pg["placement"], "rows");
    assert!(pg["source"]
        .as_str()
        .unwrap()
        .contains("documents no per-row write rate"));
}

#[test]
fn reconcile_flags_without_reconcile_and_bad_shares_are_refused() {
    let redis = ["measure", "--redis", "redis://127.0.0.1:1"];
    for (extra, flag) in [
        (&["--lost-replies", "0.1"][..], "--lost-replies"),
        (&["--retry", "once"][..], "--retry"),
        (&["--failed-increments", "0.1"][..], "--failed-increments"),
        (&["--reconcile-every", "1s"][..], "--reconcile-every"),
        (&["--reconcile"][..], "--reconcile"),
        (&["--postgres", "postgres://127.0.0.1:1/db"][..], "--redis"),
    ] {
        let args: Vec<&str> = redis.iter().chain(extra).copied().collect();
        common::bad_input(&args, flag);
    }
    let both = [
        "measure",
        "--reconcile",
        "--redis",
        "redis://127.0.0.1:1",
        "--postgres",
        "postgres://127.0.0.1:1/db",
    ];
    for (extra, flag) in [
        (&["--lost-replies", "1.5"][..], "--lost-replies"),
        (&["--lost-replies", "NaN"][..], "--lost-replies"),
        (&["--failed-increments", "-0.1"][..], "--failed-increments"),
        (
            &["--lost-replies", "0.6", "--failed-increments", "0.6"][..],
            "--failed-increments",
        ),
        (&["--reconcile-every", "0"][..], "--reconcile-every"),
        (&["--retry", "twice"][..], "--retry"),
        (&["--rate", "0"][..], "--rate"),
        (&["--design", "single"][..], "--design"),
        (&["--cluster"][..], "--cluster"),
    ] {
        let args: Vec<&str> = both.iter().chain(extra).copied().collect();
        common::bad_input(&args, flag);
    }
}
