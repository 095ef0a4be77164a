//! Every command's `--format json` output validates against its checked-in
//! schema (`schemas/<command>.schema.json`, generated from the row types by
//! `src/views/schema.rs`), across the bundled scenarios and modes; a
//! renamed field fails, so the schemas do guard the names; and the
//! compatibility rule of docs/output.md holds: a field added anywhere
//! passes (yesterday's schema accepts today's output), and every property
//! of every schema has a description.

use serde_json::Value;

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
fn a_renamed_or_removed_field_fails_validation() {
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
        !errs.iter().any(|e| e.contains("shard_count")),
        "an added field is no error: {errs:?}"
    );
    // Inside a nested object too.
    let mut doc = json_of(&["risk"]);
    let rec = doc["recommendation"].as_object_mut().unwrap();
    rec.remove("binding").unwrap();
    let errs = errors("risk", &doc);
    assert!(
        errs.iter().any(|e| e.contains("binding")),
        "a field removed from a nested object is named: {errs:?}"
    );
    let mut doc = json_of(&["risk"]);
    doc["schema_version"] = 3.into();
    assert!(!errors("risk", &doc).is_empty(), "schema_version is pinned");
}

/// Adds `field` to `v` and to every object inside it (rows, nested blocks,
/// each input's `{value, source}`), except the `inputs` map itself, whose
/// keys are the inputs' names. Returns how many objects got it.
fn add_everywhere(v: &mut Value, field: &str) -> usize {
    match v {
        Value::Object(m) => {
            let mut added = 0;
            for (k, x) in m.iter_mut() {
                if k == "inputs" {
                    added += x.as_object_mut().map_or(0, |inputs| {
                        inputs
                            .values_mut()
                            .map(|input| add_everywhere(input, field))
                            .sum()
                    });
                } else {
                    added += add_everywhere(x, field);
                }
            }
            m.insert(
                field.into(),
                serde_json::json!({ "unit": "likes/s", "value": 1.5 }),
            );
            added + 1
        }
        Value::Array(a) => a.iter_mut().map(|x| add_everywhere(x, field)).sum(),
        _ => 0,
    }
}

/// 300 seconds of per-second counts (Gamma-Poisson around 9,000 likes/s),
/// for the `observed_traffic` block.
const TRACE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/compat_trace.csv");

/// docs/output.md, "Compatibility": within one `schema_version` fields are
/// only added, so the checked-in schema (yesterday's) must accept a
/// document with fields it has never seen (today's), at the top level and
/// in every nested object.
#[test]
fn yesterdays_schema_accepts_todays_output() {
    let runs: &[&[&str]] = &[
        &["size"],
        &["size", "--traffic-from", TRACE, "--unlike-share", "0.1"],
        &["simulate", "--seconds", "100"],
        &[
            "simulate",
            "--scenario",
            "viral-evening-monitor",
            "--seconds",
            "600",
        ],
        &["compare"],
        &[
            "risk",
            "--rate",
            "300",
            "--shards",
            "1",
            "--traffic",
            "poisson",
        ],
        &["sweep", "--shards", "10..12", "--rate", "9000,14000"],
        &["keys", "--template", "reel:1:<shard>", "--nodes", "3"],
        &["resize", "--scenario", "grow-right-order"],
        &["fleet", "--reels", "10000"],
    ];
    for args in runs {
        let command = args[0];
        let mut doc = json_of(args);
        let today = errors(command, &doc);
        assert!(today.is_empty(), "{args:?}:\n{}", today.join("\n"));
        // One field at the top level alone, then one in every object.
        doc["added_in_a_later_version"] = "a field this schema has never seen".into();
        let top = errors(command, &doc);
        assert!(
            top.is_empty(),
            "{args:?} + a top-level field:\n{}",
            top.join("\n")
        );
        let added = add_everywhere(&mut doc, "added_later_too");
        assert!(added > 2, "{args:?}: nested objects to add to, got {added}");
        let nested = errors(command, &doc);
        assert!(
            nested.is_empty(),
            "{args:?} + a field in each of {added} objects:\n{}",
            nested.join("\n")
        );
    }
}

/// The properties of `v` (an object's `properties`, at any depth: `$defs`,
/// `oneOf` alternatives, `items`) whose schema has no non-empty
/// `description`, as JSON pointers.
fn undescribed(v: &Value, at: &str, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            if let Some(Value::Object(props)) = m.get("properties") {
                for (name, schema) in props {
                    let text = schema.get("description").and_then(Value::as_str);
                    if text.is_none_or(|t| t.trim().is_empty()) {
                        out.push(format!("{at}/properties/{name}"));
                    }
                }
            }
            for (k, x) in m {
                undescribed(x, &format!("{at}/{k}"), out);
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                undescribed(x, &format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

/// Every property of every checked-in schema says what it is (and its
/// unit): a consumer reads the schema, not the source. And no object is
/// closed to added fields.
#[test]
fn every_schema_property_has_a_description() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas");
    let mut missing = Vec::new();
    let mut files = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !name.ends_with(".schema.json") {
            continue;
        }
        files += 1;
        let text = std::fs::read_to_string(&path).unwrap();
        let schema: Value = serde_json::from_str(&text).unwrap();
        undescribed(&schema, &name, &mut missing);
        assert!(
            !text.contains("\"additionalProperties\": false"),
            "{name} closes an object to added fields (docs/output.md, Compatibility)"
        );
    }
    assert!(files >= 12, "the schemas in {}: {files}", dir.display());
    assert!(
        missing.is_empty(),
        "{} properties without a description (a `///` on the row type's field, or \
         `about(...)` in src/views/schema/payload.rs):\n{}",
        missing.len(),
        missing.join("\n")
    );
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
