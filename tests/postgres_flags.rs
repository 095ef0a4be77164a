//! `measure --postgres` without a server: one that is down, the flags
//! that mean nothing with it (the Redis-only ones) and bad input, each a
//! clear line naming what is wrong. (The runs against a real PostgreSQL are
//! in tests/postgres_measure.rs.)

mod common;

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
