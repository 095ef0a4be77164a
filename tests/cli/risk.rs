//! End-to-end tests of `risk`, `sweep` and `size --risk`.

use crate::common::{bad_input, json_of, shardplan};

#[test]
fn risk_fields_and_reference_figures() {
    let v = json_of(&[
        "risk",
        "--rate",
        "14000",
        "--shards",
        "20",
        "--cap",
        "1000",
        "--duration",
        "4h",
    ]);
    for field in [
        "key_p_over_cap_per_second",
        "key_p_any_over_cap",
        "busiest_mean_per_second",
        "busiest_over_run_median",
        "busiest_over_run_q01",
        "busiest_over_run_q99",
    ] {
        assert!(v.get(field).is_some(), "{field}");
    }
    assert_eq!(v["exact"], true);
    assert_eq!(v["seconds"], 14_400.0);
    // The mean busiest of 20 shards at 14,000/s is 749.86 (exact; the
    // design's simulation saw peaks about 810 over 2,000 s).
    assert!((v["busiest_mean_per_second"].as_f64().unwrap() - 749.86).abs() < 0.01);
    let p = v["key_p_over_cap_per_second"].as_f64().unwrap();
    assert!(p > 0.0 && p < 1e-20, "{p}");
    // T = 1 reduces to the one-second figure.
    let one = json_of(&[
        "risk",
        "--rate",
        "18000",
        "--shards",
        "20",
        "--duration",
        "1s",
    ]);
    assert_eq!(one["key_p_any_over_cap"], one["key_p_over_cap_per_second"]);
    // The 2,000-second run of the design: median peak 809 at 14,000/s, 1,023 at 18,000/s.
    let v = json_of(&[
        "risk",
        "--rate",
        "14000",
        "--shards",
        "20",
        "--duration",
        "2000",
    ]);
    assert_eq!(v["busiest_over_run_median"], 809);
    let v = json_of(&[
        "risk",
        "--rate",
        "18000",
        "--shards",
        "20",
        "--duration",
        "2000",
    ]);
    assert_eq!(v["busiest_over_run_median"], 1023);
}

#[test]
fn tiny_probabilities_stay_honest() {
    let v = json_of(&["risk", "--rate", "14000", "--shards", "20", "--cap", "2000"]);
    assert_eq!(v["underflow"], true);
    let ln = v["key_ln_p_over_cap_per_second"].as_f64().unwrap();
    assert!((ln + 867.78).abs() < 0.01, "{ln}");
    shardplan()
        .args(["risk", "--rate", "14000", "--shards", "20", "--cap", "2000"])
        .assert()
        .success()
        .stdout(predicates::str::contains("1.347e-377"));
    let out = shardplan()
        .args([
            "risk", "--rate", "14000", "--shards", "20", "--format", "csv",
        ])
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    // Full precision, scientific notation, never a bare 0.
    assert!(text.contains("e-27"), "{text}");
}

#[test]
fn size_by_risk_meets_the_target_and_one_fewer_does_not() {
    let v = json_of(&[
        "size",
        "--peak",
        "14000",
        "--cap",
        "1000",
        "--risk",
        "0.01",
        "--duration",
        "4h",
    ]);
    let s = v["shards"].as_u64().unwrap();
    assert_eq!(s, 17);
    assert_eq!(v["rule_of_thumb_shards"], 20);
    assert!(v["rule_of_thumb_p_any_over_cap"].as_f64().unwrap() < 1e-20);
    assert!(v["worst_p_any_over_cap"].as_f64().unwrap() <= 0.01);
    let fewer = json_of(&[
        "risk",
        "--rate",
        "14000",
        "--shards",
        &(s - 1).to_string(),
        "--duration",
        "4h",
    ]);
    assert!(fewer["key_p_any_over_cap"].as_f64().unwrap() > 0.01);
    let poisson = json_of(&[
        "size",
        "--peak",
        "14000",
        "--risk",
        "0.01",
        "--duration",
        "4h",
        "--traffic",
        "poisson",
    ]);
    assert_eq!(poisson["traffic"], "poisson");
}

#[test]
fn sweep_rows_and_monotonic_risk() {
    let v = json_of(&[
        "sweep",
        "--shards",
        "10..40",
        "--rate",
        "9000,14000,18000",
        "--duration",
        "4h",
    ]);
    // JSON: the rows under `rows`, the resolved inputs under `inputs`.
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 93);
    assert_eq!(v["inputs"]["duration_seconds"]["source"], "--duration");
    for pair in rows.windows(2) {
        let (a, b) = (&pair[0], &pair[1]);
        if a["rate"] == b["rate"] {
            // More shards, lower risk.
            assert!(
                b["key_ln_p_over_cap_per_second"].as_f64()
                    <= a["key_ln_p_over_cap_per_second"].as_f64()
            );
        }
    }
    // Higher rate, higher risk (same shard count).
    let at = |rate: f64, shards: u64| {
        rows.iter()
            .find(|r| r["rate"] == rate && r["shards"] == shards)
            .unwrap()["key_ln_p_over_cap_per_second"]
            .as_f64()
            .unwrap()
    };
    assert!(at(18000.0, 20) > at(14000.0, 20));
    assert!(at(14000.0, 20) > at(9000.0, 20));
    assert_eq!(rows[10]["reads_uncached_per_second"], 1_000_000.0);
    let out = shardplan()
        .args(["sweep", "--shards", "10..12", "--format", "csv"])
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert_eq!(text.lines().count(), 4);
    assert!(text.starts_with("rate_likes_per_s,write_rate_writes_per_s,shards,picker,key_method,key_p_over_cap_per_second,"));
}

#[test]
fn risk_bad_input() {
    for (args, what) in [
        (vec!["risk", "--duration", "0"], "--duration"),
        (vec!["risk", "--duration", "4x"], "--duration"),
        (vec!["risk", "--rate", "14000.5"], "--rate"),
        (vec!["risk", "--shards", "0"], "--shards"),
        (vec!["size", "--risk", "1.5"], "--risk"),
        (vec!["size", "--risk", "0"], "--risk"),
        (vec!["sweep", "--shards", "40..10"], "--shards"),
        (vec!["sweep", "--rate", "9000,x"], "--rate"),
    ] {
        bad_input(&args, what);
    }
}
