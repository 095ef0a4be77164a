//! Hostile input gets one clear line and exit 2, within bounded memory:
//! endless streams (/dev/zero) for every file a command reads, huge
//! templates, and numbers written in another tool's syntax.

use crate::common;

use std::process::Command;

use crate::common::bad_input;

/// Runs `shardplan ARGS < stdin` under a 256 MB address-space limit (the
/// binary needs about 40 MB of it) and returns (exit code, stderr).
fn capped(args: &str, stdin: &str) -> (i32, String) {
    let bin = env!("CARGO_BIN_EXE_shardplan");
    let out = Command::new("bash")
        .arg("-c")
        .arg(format!("ulimit -v 262144; exec {bin} {args} < {stdin}"))
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn endless_inputs_are_refused_in_bounded_memory() {
    for (args, what) in [
        ("keys -", "larger than"),
        ("keys /dev/zero", "larger than"),
        ("fleet --rates-csv /dev/zero", "longer than 4096 bytes"),
        ("fleet --rates-csv -", "longer than 4096 bytes"),
        ("size --scenario /dev/zero", "larger than"),
        ("size --scenario -", "larger than"),
        ("size --cap-from-measure /dev/zero", "larger than"),
    ] {
        let (code, err) = capped(args, "/dev/zero");
        assert_eq!(code, 2, "{args}: {err}");
        assert_eq!(err.lines().count(), 1, "{args}: {err}");
        assert!(err.contains(what), "{args}: {err}");
    }
}

#[test]
fn huge_templates_and_key_lists_are_refused() {
    let template = format!("{}<shard>", "k".repeat(120_000));
    bad_input(
        &["keys", "--template", &template, "--shards", "100000"],
        "at most 512 bytes",
    );
    // Within the template limit, but 20,000 keys of 507 bytes: 9.7 MiB.
    let long = format!("{}<shard>", "k".repeat(500));
    bad_input(
        &["keys", "--template", &long, "--shards", "20000"],
        "--shards: 20000 keys of 505 bytes are 9.6 MiB of key text; keys lists at most 2 MiB",
    );
    bad_input(
        &["keys", "--template", "k:<shard>", "--shards", "20001"],
        "--shards: must be a whole number from 1 to 20000",
    );
    let dir = tempfile::tempdir().unwrap();
    let many = dir.path().join("keys.txt");
    let text: String = (0..20_001).map(|i| format!("k{i}\n")).collect();
    std::fs::write(&many, text).unwrap();
    bad_input(&["keys", many.to_str().unwrap()], "more than 20000 keys");
}

#[test]
fn numbers_in_another_syntax_are_refused_and_echoed_short() {
    for (flag, value) in [
        ("--peak", "1_000"),
        ("--peak", "+5"),
        ("--peak", " 5"),
        ("--shards", "1_0"),
    ] {
        bad_input(&["size", flag, value], flag);
    }
    let huge = "9".repeat(100_000);
    let out = common::shardplan()
        .args(["size", "--shards", &huge])
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert_eq!(err.lines().count(), 1);
    assert!(
        err.len() < 400,
        "{} bytes: {}",
        err.len(),
        &err[..200.min(err.len())]
    );
    assert!(err.contains("--shards") && err.contains("..."), "{err}");
}

#[test]
fn a_growth_below_one_warns_after_every_check_passed() {
    let out = common::shardplan()
        .args(["size", "--observed", "9000", "--growth", "0.5"])
        .assert()
        .success();
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert_eq!(
        err,
        "shardplan: warning: --growth = 0.5 plans below the observed peak (9,000 likes/s x 0.5 \
         = 4,500); a plan usually grows the observed peak (1.5 is common)\n"
    );
    // A rate below one like a second is accepted, with a word.
    let out = common::shardplan()
        .args(["size", "--observed", "5e-324"])
        .assert()
        .success();
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert_eq!(
        err,
        "shardplan: warning: --observed = 5e-324 likes/s is below one like a second; \
         the plan sizes for almost no traffic\n"
    );
    // A refused run prints its one error line, not the warning.
    bad_input(
        &[
            "size",
            "--observed",
            "9000",
            "--growth",
            "0.5",
            "--headroom",
            "2",
        ],
        "--headroom",
    );
}
