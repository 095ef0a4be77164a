//! Every command's `--format json` output validates against its checked-in
//! schema (`schemas/<command>.schema.json`, generated from the row types by
//! `src/views/schema.rs`), across the bundled scenarios and modes; and a
//! renamed field fails, so the schemas do guard the names.

use crate::common;

use crate::common::{json_of, schema_errors as errors, shardplan};

fn assert_valid(args: &[&str]) {
    let doc = json_of(args);
    let command = args[0];
    let errs = errors(command, &doc);
    assert!(errs.is_empty(), "{args:?}:\n{}", errs.join("\n"));
}

#[test]
fn size_risk_sweep_and_compare_validate() {
    for scenario in ["viral-reel", "overload", "interview", "quiet-reel"] {
        assert_valid(&["size", "--scenario", scenario]);
        assert_valid(&["risk", "--scenario", scenario]);
        assert_valid(&["compare", "--scenario", scenario]);
    }
    assert_valid(&[
        "size",
        "--peak",
        "14000",
        "--risk",
        "0.01",
        "--partitions",
        "1000",
    ]);
    assert_valid(&[
        "size",
        "--store",
        "redis-cluster",
        "--template",
        "r:{<shard>}",
        "--nodes",
        "3",
    ]);
    assert_valid(&["size", "--shards", "12"]);
    assert_valid(&["size", "--transactional"]);
    assert_valid(&[
        "risk",
        "--rate",
        "300",
        "--shards",
        "1",
        "--traffic",
        "poisson",
    ]);
    assert_valid(&["sweep", "--shards", "10..12", "--rate", "9000,14000"]);
    assert_valid(&["compare", "--transactional"]);
}

#[test]
fn simulate_flat_and_time_lines_validate() {
    assert_valid(&["simulate", "--seconds", "200"]);
    assert_valid(&["simulate", "--scenario", "overload", "--seconds", "200"]);
    assert_valid(&[
        "simulate",
        "--scenario",
        "viral-evening",
        "--seconds",
        "600",
    ]);
    assert_valid(&[
        "simulate",
        "--scenario",
        "viral-evening-monitor",
        "--seconds",
        "600",
    ]);
}

#[test]
fn placement_resize_fleet_and_lists_validate() {
    assert_valid(&["scenarios"]);
    assert_valid(&["stores"]);
    assert_valid(&["keys", "--template", "reel:1:<shard>", "--nodes", "3"]);
    assert_valid(&["keys", "--template", "{reel:1}:<shard>"]);
    assert_valid(&["keys", "--store", "sorted", "--template", "likes:<shard>"]);
    assert_valid(&["partitions", "--shards", "20", "--partitions", "1000"]);
    assert_valid(&[
        "partitions",
        "--shards",
        "20",
        "--partitions",
        "1000",
        "--rate",
        "14000",
    ]);
    for scenario in ["grow-right-order", "grow-wrong-order", "shrink-fold"] {
        assert_valid(&["resize", "--scenario", scenario]);
    }
    assert_valid(&["fleet", "--scenario", "interview"]);
    assert_valid(&["fleet", "--reels", "10000"]);
}

#[test]
fn a_renamed_or_unknown_field_fails_validation() {
    let mut doc = json_of(&["risk"]);
    let m = doc.as_object_mut().unwrap();
    let shards = m.remove("shards").unwrap();
    m.insert("shard_count".into(), shards);
    let errs = errors("risk", &doc);
    assert!(
        errs.iter().any(|e| e.contains("shards")),
        "a missing field is named: {errs:?}"
    );
    assert!(
        errs.iter().any(|e| e.contains("shard_count")),
        "an unknown field is named: {errs:?}"
    );
    let mut doc = json_of(&["risk"]);
    doc["schema_version"] = 2.into();
    assert!(!errors("risk", &doc).is_empty(), "schema_version is pinned");
}

#[test]
fn schema_prints_the_checked_in_file() {
    for command in ["size", "simulate", "compare", "measure"] {
        let out = shardplan().args(["schema", command]).assert().success();
        let file = std::fs::read_to_string(format!(
            "{}/schemas/{command}.schema.json",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap();
        assert_eq!(out.get_output().stdout, file.as_bytes(), "{command}");
    }
    common::bad_input(&["schema", "chart"], "possible values");
}
