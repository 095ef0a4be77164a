//! One verdict on a shard count (issue 32): every command that judges a
//! count says the same thing for the same plan, worded by one function,
//! and `--check` exits 1 exactly when it fails. The examples a new user
//! tried are pinned here, each as typed.

mod common;

use common::{json_of, shardplan};

/// The first line of `shardplan ARGS` (exit 0), wrapped lines joined.
fn headline(args: &[&str]) -> String {
    let out = shardplan().args(args).assert().success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    text.split('┌')
        .next()
        .unwrap()
        .replace('\n', " ")
        .trim()
        .to_string()
}

#[test]
fn a_stress_rate_is_reported_beside_the_plan_not_judged_as_it() {
    // The plan (viral-reel, 14,000/s) holds at 20 shards; the run at
    // 18,000/s is said plainly, and --check follows the plan.
    let args = ["simulate", "--rate", "18000", "--shards", "20"];
    assert_eq!(
        headline(&args),
        "20 shards hold the plan of 14,000/s (the recommendation); at 18,000/s they do not: \
         15 of 2,000 simulated seconds went over the cap"
    );
    let j = json_of(&args);
    let v = &j["verdict"];
    assert_eq!(
        (v["holds"].as_bool(), v["shards"].as_u64()),
        (Some(true), Some(20))
    );
    assert_eq!(v["simulated"]["at_plan"], false);
    assert_eq!(v["simulated"]["seconds_over_cap"], 15);
    // At the plan's own rate the run is a constraint: it agrees.
    assert_eq!(
        headline(&["simulate", "--shards", "20"]),
        "20 shards hold the plan of 14,000/s (the recommendation); the simulation agrees: \
         no simulated second of 2,000 went over the cap"
    );
}

#[test]
fn too_little_headroom_fails_the_per_key_check_in_every_command() {
    // 2% headroom: the rule of thumb gives 15 shards (933 a shard), which go
    // over 1,000 in most seconds; the default check (1% over 4 h) sets 17.
    let j = json_of(&["size", "--peak", "14000", "--headroom", "0.02"]);
    assert_eq!(
        (j["rule_of_thumb_shards"].as_u64(), j["shards"].as_u64()),
        (Some(15), Some(17))
    );
    assert_eq!(j["binding"], "key_risk");
    let at15 = ["--peak", "14000", "--headroom", "0.02", "--shards", "15"];
    let size = json_of(&[&["size"][..], &at15].concat());
    assert_eq!(size["verdict"]["holds"], false);
    assert_eq!(size["fails"], serde_json::json!(["key_risk"]));
    let line = "15 shards do NOT hold the plan of 14,000/s: they fail the per-key risk (the \
                recommendation is 17)";
    assert_eq!(headline(&[&["size"][..], &at15].concat()), line);
    assert_eq!(headline(&[&["risk"][..], &at15].concat()), line);
    shardplan()
        .args([&["size"][..], &at15, &["--check"]].concat())
        .assert()
        .code(1);
}

#[test]
fn assumed_inputs_are_said_and_json_carries_the_same_warnings() {
    let args = ["size", "--peak", "14000", "--safe", "700"];
    let out = shardplan().args(args).assert().success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let j = json_of(&args);
    let warnings: Vec<&str> = j["warning_text"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_str().unwrap())
        .collect();
    // The one warning: views and the read cap were the bundled scenario's.
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].starts_with(
            "WARNING: assuming views = 50,000 (scenario viral-reel.toml: views), read_cap = 3,000 \
             (scenario viral-reel.toml: read_cap): without the cache"
        ),
        "{}",
        warnings[0]
    );
    assert_eq!(j["warnings"][0]["kind"], "uncached_over_read_cap");
    // The table prints the same words (wrapped at the terminal's width).
    let flat = text.replace('\n', " ");
    assert!(flat.contains(warnings[0]), "{text}");
    // Given by the user, nothing is assumed.
    let given = json_of(&[
        "size",
        "--peak",
        "14000",
        "--safe",
        "700",
        "--views",
        "50000",
        "--read-cap",
        "3000",
    ]);
    let w = given["warning_text"][0].as_str().unwrap();
    assert!(w.starts_with("WARNING: without the cache"), "{w}");
}

#[test]
fn a_node_constraint_no_count_can_meet_says_what_would() {
    // Every key of '{reel:1}:likes:<shard>' is in one slot: 14,000/s on one
    // master of 6,000 fails at any count; without the braces 3 shards hold.
    let args = [
        "size",
        "--store",
        "redis-cluster",
        "--nodes",
        "3",
        "--node-cap",
        "6000",
        "--template",
        "{reel:1}:likes:<shard>",
    ];
    let j = json_of(&args);
    assert!(j["node_shards"].is_null());
    assert_eq!(j["verdict"]["holds"], false);
    let w = &j["warnings"][0];
    assert_eq!(w["kind"], "template_one_slot");
    assert_eq!(w["suggested"], "reel:1:likes:<shard>");
    assert_eq!(w["suggested_shards"], 3);
    let out = shardplan().args(args).assert().success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(
        text.replace('\n', " ")
            .contains("with 'reel:1:likes:<shard>', 3 shards hold"),
        "{text}"
    );
    // The suggestion holds when taken.
    let fixed = json_of(&[
        "size",
        "--store",
        "redis-cluster",
        "--nodes",
        "3",
        "--node-cap",
        "6000",
        "--template",
        "reel:1:likes:<shard>",
    ]);
    assert_eq!(
        (fixed["node_shards"].as_u64(), fixed["holds"].as_bool()),
        (Some(3), Some(true))
    );
}
