//! Unlikes end to end (`--unlike-share`, `--cool-down`, `--cool-down-rate`,
//! a scenario's `unlike_share`): the write load is likes x (1 + share) in
//! sizing, risk and simulation, a trace of write units is only split, and
//! the negative-shard chance matches a brute-force double sum.

use crate::common;

use crate::common::{bad_input, json_of, schema_errors};
use serde_json::Value;

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("{v} is not a number"))
}

#[test]
fn size_plans_for_likes_and_unlikes() {
    // 14,000 likes/s + 10% unlikes = 15,400 writes/s; / 700 safe = 22 shards.
    let doc = json_of(&["size", "--peak", "14000", "--unlike-share", "0.1"]);
    assert_eq!(doc["shards"], 22);
    // One name, one unit: `peak` is likes/s, `peak_writes` the writes.
    assert_eq!(f(&doc["peak"]), 14_000.0);
    assert_eq!(f(&doc["peak_writes"]), 15_400.0);
    let u = &doc["unlikes"];
    assert_eq!(f(&u["like_peak"]), 14_000.0);
    assert_eq!(f(&u["unlike_peak"]), 1_400.0);
    assert_eq!(f(&u["write_peak"]), 15_400.0);
    assert_eq!(u["counted_in_trace"], false);
    assert_eq!(doc["inputs"]["unlike_share"]["source"], "--unlike-share");
    assert!(schema_errors("size", &doc).is_empty());
    // Without unlikes: no block, the reference 20 shards.
    let plain = json_of(&["size", "--peak", "14000"]);
    assert_eq!(plain["shards"], 20);
    assert!(plain.get("unlikes").is_none());
}

#[test]
fn the_capacity_is_in_likes_per_second() {
    // Issue 32: with --unlike-share 0.3 capacity_rate was the write rate
    // (30% above the likes/s its docs promise). 22 shards, Poisson: each
    // shard Poisson(W / 22) a second, independent, so the risk over 4 h is
    // 1 - F(1,000; W / 22)^(22 x 14,400) and 0.01 at W = 18,462.0150565013
    // writes/s (mpmath bisection), 14,201.5500434625 likes/s at 1.3 writes a
    // like. Bisected to 1e-12 relative: the tolerance 1e-10.
    let size = |args: &[&str]| {
        let mut a = vec!["size", "--risk", "0.01", "--shards", "22"];
        a.extend(args);
        json_of(&a)
    };
    let likes = size(&[
        "--peak",
        "14000",
        "--unlike-share",
        "0.3",
        "--traffic",
        "poisson",
    ]);
    let writes = size(&["--peak", "18200", "--traffic", "poisson"]);
    let close = |got: f64, want: f64| ((got - want) / want).abs() < 1e-10;
    assert!(close(f(&writes["capacity_rate"]), 18_462.015_056_501_3));
    assert!(close(f(&likes["capacity_rate"]), 14_201.550_043_462_5));
    // The margin is against the planned likes: the same ratio either way.
    let margin = 14_201.550_043_462_5 / 14_000.0 - 1.0;
    assert!((f(&likes["margin"]) - margin).abs() < 1e-10);
    assert!((f(&writes["margin"]) - margin).abs() < 1e-10);
    // By the rule of thumb 22 x 700 writes/s carry 15,400 / 1.3 likes/s.
    assert_eq!(f(&likes["safe_capacity_rate"]), 22.0 * 700.0 / 1.3);
    // Fixed traffic: 18,543 whole writes meet the risk at 22 shards, so
    // 14,263 likes (18,541.9 -> 18,542 writes); 14,264 bring 18,544.
    let fixed = size(&[
        "--peak",
        "14000",
        "--unlike-share",
        "0.3",
        "--traffic",
        "fixed",
    ]);
    let fixed_writes = size(&["--peak", "18200", "--traffic", "fixed"]);
    assert_eq!(f(&fixed_writes["capacity_rate"]), 18_543.0);
    assert_eq!(f(&fixed["capacity_rate"]), 14_263.0);
    assert!((f(&fixed["margin"]) - (14_263.0 / 14_000.0 - 1.0)).abs() < 1e-12);
    // The words say likes and the planned likes.
    let table = common::shardplan()
        .args([
            "size",
            "--peak",
            "14000",
            "--unlike-share",
            "0.3",
            "--risk",
            "0.01",
        ])
        .args(["--shards", "22", "--traffic", "fixed"])
        .env("COLUMNS", "400")
        .output()
        .unwrap();
    let text = String::from_utf8(table.stdout).unwrap();
    assert!(
        text.contains("holds up to 14,263 likes/s at 0.0100 over 4 h, fixed traffic (1.9% above the planned 14,000)"),
        "{text}"
    );
    // The peak the model weighs is writes/s, and says so.
    assert!(
        text.contains(
            "planned peak              ┆ 14,000 likes/s = 18,200 writes/s with their unlikes"
        ),
        "{text}"
    );
}

#[test]
fn risk_with_unlikes_is_risk_at_the_write_rate() {
    // Poisson likes and Poisson unlikes are one Poisson stream of writes:
    // the exact figures must be the same numbers, not close ones.
    let with = json_of(&[
        "risk",
        "--rate",
        "14000",
        "--unlike-share",
        "0.3",
        "--shards",
        "20",
        "--traffic",
        "poisson",
    ]);
    let at = json_of(&[
        "risk",
        "--rate",
        "18200",
        "--shards",
        "20",
        "--traffic",
        "poisson",
    ]);
    for field in [
        "key_p_over_cap_per_second",
        "key_p_any_over_cap",
        "busiest_mean_per_second",
        "write_rate",
    ] {
        assert_eq!(with[field], at[field], "{field}");
    }
    // The likes/s given, and the writes/s they make.
    assert_eq!(f(&with["rate"]), 14_000.0);
    assert_eq!(f(&with["write_rate"]), 18_200.0);
    assert!(schema_errors("risk", &with).is_empty());
}

#[test]
fn a_flat_simulation_draws_the_writes() {
    let doc = json_of(&[
        "simulate",
        "--rate",
        "1000",
        "--unlike-share",
        "0.5",
        "--shards",
        "10",
        "--seconds",
        "50",
    ]);
    // Fixed traffic: 1,500 writes every second over 10 shards.
    assert_eq!(f(&doc["rate"]), 1_000.0);
    assert_eq!(f(&doc["write_rate"]), 1_500.0);
    assert_eq!(
        f(&doc["unlikes"]["negative_shards"]["likes_per_shard"]),
        360.0
    );
    assert!(schema_errors("simulate", &doc).is_empty());
}

/// P(U > L), L ~ Poisson(a), U ~ Poisson(b): the double sum over every pair.
fn brute(a: f64, b: f64) -> f64 {
    let pmf = |k: u32, m: f64| {
        let mut p = (-m).exp();
        for i in 1..=k {
            p *= m / f64::from(i);
        }
        p
    };
    let mut p = 0.0;
    for l in 0..150 {
        for u in (l + 1)..150 {
            p += pmf(l, a) * pmf(u, b);
        }
    }
    p
}

#[test]
fn the_negative_shard_chance_is_the_double_sum() {
    // 60 s at 1 like/s over 20 shards: 3 likes a shard, 1.5 unlikes.
    let doc = json_of(&[
        "size",
        "--peak",
        "14000",
        "--shards",
        "20",
        "--unlike-share",
        "0.5",
        "--cool-down",
        "60s",
        "--cool-down-rate",
        "1",
    ]);
    let n = &doc["unlikes"]["negative_shards"];
    assert_eq!(n["shards"], 20);
    let one = brute(3.0, 1.5);
    let some = 1.0 - (1.0 - one).powi(20);
    let got_one = f(&n["one_shard"]["p"]);
    let got_some = f(&n["some_shard"]["p"]);
    assert!(((got_one - one) / one).abs() < 1e-12, "{got_one} vs {one}");
    assert!(
        ((got_some - some) / some).abs() < 1e-12,
        "{got_some} vs {some}"
    );
    assert!((f(&n["expected_negative_shards"]) - 20.0 * one).abs() < 1e-12);
}

#[test]
fn a_tiny_chance_prints_in_scientific_notation_never_zero() {
    let out = common::shardplan()
        .args([
            "size",
            "--peak",
            "14000",
            "--unlike-share",
            "0.1",
            "--format",
            "markdown",
        ])
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(
        text.contains("14,000 likes/s + 1,400 unlikes/s = 15,400 writes/s"),
        "{text}"
    );
    assert!(
        text.contains("never show or check one shard on its own"),
        "{text}"
    );
    let line = text
        .lines()
        .find(|l| l.contains("P(some shard below zero"))
        .expect("the chance's line");
    assert!(line.contains("e-"), "{line}");
}

#[test]
fn a_trace_of_write_units_is_split_not_grown() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("writes.csv");
    let mut text = String::from("time,count\n");
    for t in 0..100 {
        text.push_str(&format!("{},{}\n", 1_700_000_000 + t, 1_000 + (t % 7) * 20));
    }
    std::fs::write(&path, text).unwrap();
    let p = path.to_str().unwrap();
    let doc = json_of(&[
        "size",
        "--traffic-from",
        p,
        "--growth",
        "1",
        "--unlike-share",
        "0.25",
    ]);
    // The busiest second, 1,120 write units, is the plan; likes are 4/5 of it.
    assert_eq!(f(&doc["peak_writes"]), 1_120.0);
    assert_eq!(f(&doc["peak"]), 896.0);
    let u = &doc["unlikes"];
    assert_eq!(u["counted_in_trace"], true);
    assert_eq!(f(&u["like_peak"]), 896.0);
    assert_eq!(f(&u["unlike_peak"]), 224.0);
}

#[test]
fn a_scenario_gives_the_share_and_its_errors_name_the_field() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.toml");
    std::fs::write(
        &good,
        "peak = 14000\nunlike_share = 0.1\ncool_down_seconds = 600\n",
    )
    .unwrap();
    let doc = json_of(&["size", "--scenario", good.to_str().unwrap()]);
    assert_eq!(doc["shards"], 22);
    assert_eq!(
        f(&doc["unlikes"]["negative_shards"]["cool_down_seconds"]),
        600.0
    );
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, "peak = 14000\nunlike_share = 2\n").unwrap();
    bad_input(
        &["size", "--scenario", bad.to_str().unwrap()],
        "unlike_share",
    );
    let orphan = dir.path().join("orphan.toml");
    std::fs::write(&orphan, "peak = 14000\ncool_down_rate = 3\n").unwrap();
    bad_input(
        &["size", "--scenario", orphan.to_str().unwrap()],
        "cool_down_rate",
    );
}

#[test]
fn bad_unlike_inputs_are_refused() {
    for bad in ["-0.1", "1.5", "NaN", "inf"] {
        bad_input(
            &["size", "--peak", "14000", "--unlike-share", bad],
            "--unlike-share",
        );
    }
    bad_input(
        &["size", "--peak", "14000", "--cool-down", "1h"],
        "--cool-down",
    );
    bad_input(
        &["size", "--peak", "14000", "--cool-down-rate", "5"],
        "--cool-down-rate",
    );
    bad_input(
        &[
            "size",
            "--peak",
            "14000",
            "--unlike-share",
            "0.1",
            "--cool-down-rate",
            "0",
        ],
        "--cool-down-rate",
    );
    // Past the exact sum's reach: refused, naming the cool-down.
    bad_input(
        &[
            "size",
            "--peak",
            "14000",
            "--unlike-share",
            "0.1",
            "--cool-down-rate",
            "1e9",
        ],
        "--cool-down",
    );
    // The writes past the accepted rate name the share.
    bad_input(
        &["size", "--peak", "9e8", "--unlike-share", "0.5"],
        "--unlike-share",
    );
}
