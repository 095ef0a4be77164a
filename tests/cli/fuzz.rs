//! Property-based hostile input (proptest): random scenario files and flag
//! values, run through the binary as a user would. Whatever the input, the
//! run exits 0 or 2, never panics, prints exactly one stderr line when it
//! refuses, and leaves no temporary file behind. (A `cargo fuzz` target
//! for the scenario parser is in `fuzz/` for local use: it needs nightly
//! Rust, which CI does not have.)

use std::path::Path;
use std::process::Command;

use proptest::prelude::*;

/// Runs `shardplan ARGS` in `dir` and checks the contract.
fn check_run(dir: &Path, args: &[String]) -> Result<(), TestCaseError> {
    let out = Command::new(env!("CARGO_BIN_EXE_shardplan"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    let code = out.status.code();
    prop_assert!(
        matches!(code, Some(0) | Some(2)),
        "{args:?}: exit {code:?}\n{err}"
    );
    prop_assert!(!err.contains("panicked"), "{args:?}: {err}");
    if code == Some(2) {
        prop_assert_eq!(err.lines().count(), 1, "{:?}: {}", args, err);
    }
    let temps: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    prop_assert!(temps.is_empty(), "{args:?}: left {temps:?}");
    Ok(())
}

/// A value as a user might type it: plausible, extreme or malformed.
fn value() -> impl Strategy<Value = String> {
    prop_oneof![
        (-1e6f64..1e6).prop_map(|v| v.to_string()),
        (0u64..100_000).prop_map(|v| v.to_string()),
        Just("0".to_string()),
        Just("-0".to_string()),
        Just("NaN".to_string()),
        Just("inf".to_string()),
        Just("1e309".to_string()),
        Just("5e-324".to_string()),
        Just("18446744073709551616".to_string()),
        Just("".to_string()),
        Just("4h".to_string()),
        Just("1h30m".to_string()),
        "[a-z0-9_.+:<>/ -]{0,12}",
    ]
}

/// A TOML value for a scenario field.
fn toml_value() -> impl Strategy<Value = String> {
    prop_oneof![
        (-1e9f64..1e9).prop_map(|v| format!("{v:?}")),
        (-5i64..100_000).prop_map(|v| v.to_string()),
        Just("nan".to_string()),
        Just("inf".to_string()),
        Just("1e400".to_string()),
        Just("true".to_string()),
        Just("\"fixed\"".to_string()),
        Just("\"poisson\"".to_string()),
        Just("\"dynamodb\"".to_string()),
        Just("[]".to_string()),
        Just("\"<img src=x>\"".to_string()),
        "\"[a-z<>]{0,8}\"",
    ]
}

const FIELDS: &[&str] = &[
    "peak",
    "observed",
    "growth",
    "cap",
    "safe",
    "headroom",
    "rate",
    "shards",
    "seconds",
    "duration_seconds",
    "risk",
    "traffic",
    "seed",
    "views",
    "servers",
    "cache_seconds",
    "batch_size",
    "read_cap",
    "partitions",
    "nodes",
    "store_preset",
    "description",
    "peek",
];

const FLAGS: &[(&str, &str)] = &[
    ("size", "--peak"),
    ("size", "--cap"),
    ("size", "--headroom"),
    ("size", "--risk"),
    ("size", "--shards"),
    ("size", "--partitions"),
    ("size", "--duration"),
    ("risk", "--rate"),
    ("risk", "--shards"),
    ("risk", "--traffic"),
    ("simulate", "--seconds"),
    ("simulate", "--rate"),
    ("simulate", "--seed"),
    ("sweep", "--shards"),
    ("partitions", "--partitions"),
    ("keys", "--template"),
    ("compare", "--txn-ms"),
];

proptest! {
    // In process, so many cases: the entry point the cargo fuzz target
    // drives, on arbitrary text and on TOML-shaped lines.
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn scenario_text_gives_one_line_errors(text in prop_oneof![
        any::<String>(),
        proptest::collection::vec(
            ("[a-z_.]{1,12}", "[ =\\[\\]\"0-9a-z.e+-]{0,16}"), 0..10
        ).prop_map(|lines| lines.into_iter().map(|(k, v)| format!("{k} = {v}\n")).collect()),
    ]) {
        if let Err(e) = shardplan::shell::check_scenario(&text) {
            prop_assert!(!e.contains('\n'), "{e}");
        }
    }
}

proptest! {
    // 48 cases each: every case is one process (about 10 ms), so the
    // target stays a few seconds long in CI.
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn scenario_files_never_panic(fields in proptest::collection::vec(
        (0..FIELDS.len(), toml_value()), 0..8)) {
        let dir = tempfile::tempdir().unwrap();
        let mut text = String::new();
        let mut seen = std::collections::HashSet::new();
        for (i, v) in fields {
            if seen.insert(i) {
                text.push_str(&format!("{} = {v}\n", FIELDS[i]));
            }
        }
        std::fs::write(dir.path().join("s.toml"), &text).unwrap();
        for command in ["size", "risk"] {
            let args: Vec<String> = [command, "--scenario", "s.toml", "-o", "out.json"]
                .iter().map(|s| s.to_string()).collect();
            check_run(dir.path(), &args)?;
        }
    }

    #[test]
    fn flag_values_never_panic(flag in 0..FLAGS.len(), v in value()) {
        let dir = tempfile::tempdir().unwrap();
        let (command, name) = FLAGS[flag];
        let mut args: Vec<String> = vec![command.into(), format!("{name}={v}"), "-o".into(),
            "out.csv".into()];
        if command == "partitions" {
            args.extend(["--shards".into(), "20".into()]);
        }
        if command == "simulate" && name != "--seconds" {
            args.extend(["--seconds".into(), "50".into()]);
        }
        check_run(dir.path(), &args)?;
    }
}
