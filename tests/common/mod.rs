//! Helpers shared by the end-to-end tests: run the binary as a user types it.
#![allow(dead_code)] // each test file uses its own subset

use assert_cmd::Command;
use serde_json::Value;

pub fn shardplan() -> Command {
    Command::cargo_bin("shardplan").unwrap()
}

/// Runs `shardplan ARGS --format json`, which must succeed, and parses it.
pub fn json_of(args: &[&str]) -> Value {
    let out = shardplan()
        .args(args)
        .args(["--format", "json"])
        .assert()
        .success();
    serde_json::from_slice(&out.get_output().stdout).unwrap()
}

/// Runs a command that must fail with exit 2 and one stderr line naming `what`.
pub fn bad_input(args: &[&str], what: &str) {
    let out = shardplan().args(args).assert().code(2);
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert_eq!(
        stderr.lines().count(),
        1,
        "one line for {args:?}, got {stderr:?}"
    );
    assert!(
        stderr.contains(what),
        "{args:?}: {stderr:?} should name {what}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}
pub mod stats;
