//! `size --sensitivity`: each entry is what `size` answers with that one
//! input given as its flag.

use crate::common::{bad_input, json_of, shardplan};

/// The flag's value as typed for `value` (durations in seconds).
fn typed(input: &str, value: f64) -> String {
    match input {
        "duration" => format!("{value}s"),
        _ => format!("{value}"),
    }
}

/// Every entry of `size ARGS --sensitivity` against `size ARGS FLAG VALUE`
/// at both ends: the same count, set by the same constraint.
fn each_entry_is_size_with_its_flag(args: &[&str]) {
    let mut with = args.to_vec();
    with.push("--sensitivity");
    let j = json_of(&["size"].iter().chain(&with).copied().collect::<Vec<_>>());
    let s = &j["sensitivity"];
    assert_eq!(s["share"], 0.25);
    assert_eq!(s["planned_shards"], j["shards"]);
    let entries = s["entries"].as_array().unwrap();
    assert!(entries.len() >= 4, "{entries:?}");
    let mut spread = u64::MAX;
    for e in entries {
        let input = e["input"].as_str().unwrap();
        let flag = format!("--{}", input.replace('_', "-"));
        for end in ["low", "high"] {
            let value = typed(input, e[end].as_f64().unwrap());
            // The plan's flags with this one set to the end's value.
            let mut one = vec!["size"];
            let mut rest = args.iter();
            while let Some(a) = rest.next() {
                match *a == flag {
                    true => _ = rest.next(),
                    false => one.push(a),
                }
            }
            one.extend([flag.as_str(), value.as_str()]);
            let got = json_of(&one);
            let at = format!("{input} {end} {value}");
            assert_eq!(got["shards"], e[format!("shards_{end}")], "{at}");
            assert_eq!(got["binding"], e[format!("binding_{end}")], "{at}");
        }
        // The widest first.
        let this = e["shards_low"]
            .as_u64()
            .unwrap()
            .abs_diff(e["shards_high"].as_u64().unwrap());
        assert!(this <= spread, "{input} after a narrower one");
        spread = this;
    }
}

#[test]
fn the_reference_entries_are_size_with_one_flag_each() {
    each_entry_is_size_with_its_flag(&[]);
    let j = json_of(&["size", "--sensitivity"]);
    // 14,000 likes/s at 700 a key: the cap and the peak move the count the
    // most (27 / 16 and 15 / 25 shards, the rule of thumb at each end).
    let first = &j["sensitivity"]["entries"][0];
    assert_eq!(first["input"], "cap");
    assert_eq!(
        (first["shards_low"].as_u64(), first["shards_high"].as_u64()),
        (Some(27), Some(16))
    );
}

#[test]
fn a_plan_sized_by_risk_moves_its_risk_servers_and_dispersion() {
    let args = [
        "--risk",
        "0.001",
        "--picker",
        "round-robin",
        "--traffic",
        "gamma-poisson",
        "--dispersion",
        "100",
        "--partitions",
        "400",
    ];
    each_entry_is_size_with_its_flag(&args);
    let mut with = args.to_vec();
    with.extend(["--sensitivity", "50%"]);
    let j = json_of(&["size"].iter().chain(&with).copied().collect::<Vec<_>>());
    let inputs: Vec<&str> = j["sensitivity"]["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["input"].as_str().unwrap())
        .collect();
    for want in [
        "peak",
        "cap",
        "headroom",
        "risk",
        "duration",
        "partitions",
        "servers",
        "dispersion",
    ] {
        assert!(inputs.contains(&want), "{want} in {inputs:?}");
    }
    assert_eq!(j["sensitivity"]["share"], 0.5);
}

#[test]
fn the_table_follows_the_recommendation() {
    let out = shardplan()
        .args(["size", "--sensitivity", "40"])
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(
        text.contains("What moves the count: each input down and up 40.0%"),
        "{text}"
    );
    assert!(text.contains("8,400 / 19,600 likes/s"), "{text}");
    let out = shardplan()
        .args(["size", "--sensitivity", "--format", "markdown"])
        .assert()
        .success();
    let md = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(md.contains("| --cap "), "{md}");
}

#[test]
fn bad_shares_and_flags_without_effect_are_refused() {
    for v in ["0", "0%", "100%", "150", "-5", "abc", "NaN", "inf"] {
        bad_input(&["size", "--sensitivity", v], "--sensitivity");
    }
    bad_input(
        &["size", "--sensitivity", "--shards", "20"],
        "--sensitivity",
    );
    bad_input(
        &["size", "--sensitivity", "--format", "csv"],
        "--sensitivity",
    );
}
