//! Helpers shared by the end-to-end tests: run the binary as a user types it.
//! Each test binary (`tests/cli/`, which holds `tests/stats/`, and
//! `tests/servers/`) has this folder as its module `common`.
#![allow(dead_code)] // each test file uses its own subset

use std::sync::{Mutex, MutexGuard};

use assert_cmd::Command;
use serde_json::Value;

/// One lock for every test that starts a server, Redis and PostgreSQL
/// alike ([`redis::Servers`] and [`postgres::Pg`] take it once their
/// servers are up and hold it for their life): they all live in one test
/// binary (`tests/servers/`), whose tests run in parallel, and a
/// measurement of CPU or throughput must not share the cores with another
/// test's server load. (Cargo runs the test binaries themselves one after
/// another.)
static SERVERS: Mutex<()> = Mutex::new(());

/// Held for a whole test that starts a server: such tests run one at a
/// time. Not reentrant: a test takes it once (a test that started two
/// [`redis::Servers`] or [`postgres::Pg`] at once would wait for itself).
pub fn one_at_a_time() -> MutexGuard<'static, ()> {
    SERVERS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

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

/// The validation errors of `doc` against the checked-in
/// `schemas/<command>.schema.json` (empty when it validates).
pub fn schema_errors(command: &str, doc: &Value) -> Vec<String> {
    let path = format!(
        "{}/schemas/{command}.schema.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let url = format!("file://{path}");
    let mut schemas = boon::Schemas::new();
    let mut compiler = boon::Compiler::new();
    compiler
        .add_resource(&url, schema)
        .expect("a schema document");
    let index = compiler
        .compile(&url, &mut schemas)
        .expect("a valid schema");
    match schemas.validate(doc, index) {
        Ok(()) => Vec::new(),
        Err(e) => {
            let mut out = Vec::new();
            leaf_errors(&e, &mut out);
            out
        }
    }
}

/// The leaves of boon's tree of validation errors, one line each: what
/// failed and where in the document.
fn leaf_errors(e: &boon::ValidationError, out: &mut Vec<String>) {
    if e.causes.is_empty() {
        out.push(format!("{} at {}", e.kind, e.instance_location));
    }
    for cause in &e.causes {
        leaf_errors(cause, out);
    }
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
/// Every subcommand of shardplan, as `--help` lists them (without clap's
/// `help`).
#[allow(dead_code)]
pub const SUBCOMMANDS: &[&str] = &[
    "size",
    "simulate",
    "risk",
    "sweep",
    "scenarios",
    "chart",
    "report",
    "resize",
    "keys",
    "partitions",
    "stores",
    "fleet",
    "measure",
    "compare",
    "reconcile",
    "schema",
    "completions",
    "man",
];

#[cfg(feature = "postgres")]
pub mod postgres;
#[cfg(feature = "redis")]
pub mod redis;
pub mod stats;
pub mod traces;

/// 1234567 -> "1,234,567", as shardplan prints counts.
pub fn thousands(n: u64) -> String {
    let d = n.to_string();
    let mut out = String::new();
    for (i, c) in d.chars().enumerate() {
        if i > 0 && (d.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
