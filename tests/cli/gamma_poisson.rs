//! Gamma-poisson traffic end to end: the exact figures against the
//! simulator sampling the same law (both samplers), and the refusals of a
//! dispersion that is missing, misplaced or out of range.

use crate::common::{bad_input, json_of, shardplan};
use serde_json::Value;

/// Mean and standard deviation of the busiest shard from a run's histogram.
fn histogram_moments(v: &Value) -> (f64, f64, f64) {
    let (mut n, mut s, mut s2) = (0.0, 0.0, 0.0);
    for bin in v["busiest_histogram"].as_array().unwrap() {
        let (x, k) = (
            bin["value"].as_f64().unwrap(),
            bin["count"].as_f64().unwrap(),
        );
        n += k;
        s += k * x;
        s2 += k * x * x;
    }
    let m = s / n;
    (n, m, (s2 / n - m * m).sqrt())
}

#[test]
fn simulated_busiest_shard_matches_the_exact_law() {
    for sampler in ["multinomial", "auto"] {
        let v = json_of(&[
            "simulate",
            "--rate",
            "14000",
            "--shards",
            "20",
            "--cap",
            "800",
            "--traffic",
            "gamma-poisson",
            "--dispersion",
            "300",
            "--seconds",
            "100000",
            "--sampler",
            sampler,
            "--seed",
            "7",
        ]);
        assert_eq!(v["traffic"], "gamma-poisson");
        let (n, mean, sd) = histogram_moments(&v);
        // The seconds are independent draws of the busiest shard: the mean
        // is within 5 standard errors (sd / sqrt(n)) of the exact mean, a
        // failure chance of about 6e-7 per run.
        let exact = v["exact_busiest_mean"].as_f64().unwrap();
        let se = sd / n.sqrt();
        assert!(
            (mean - exact).abs() < 5.0 * se,
            "{sampler}: {mean} +- {se} vs {exact}"
        );
        // P(over 800 in a second) is about 0.1 here: the share of seconds
        // over the cap within 5 binomial standard errors of the exact value.
        let p = v["key_p_over_cap_per_second"].as_f64().unwrap();
        let share = v["seconds_over_cap"].as_f64().unwrap() / n;
        let se = (p * (1.0 - p) / n).sqrt();
        assert!(
            (share - p).abs() < 5.0 * se,
            "{sampler}: {share} vs {p} +- {se}"
        );
        assert!(p > 0.01, "{p}: the check needs a common event");
    }
}

#[test]
fn burstier_traffic_needs_more_shards() {
    let risk = |dispersion: &str| {
        let mut args = vec!["size", "--peak", "14000", "--risk", "0.01"];
        if !dispersion.is_empty() {
            args.extend(["--traffic", "gamma-poisson", "--dispersion", dispersion]);
        } else {
            args.extend(["--traffic", "poisson"]);
        }
        json_of(&args)["recommended_shards"].as_u64().unwrap()
    };
    let (poisson, mild, bursty) = (risk(""), risk("3000"), risk("100"));
    assert!(
        poisson <= mild && mild < bursty,
        "{poisson} {mild} {bursty}"
    );
}

/// `risk` at 14,000 likes/s over 20 shards with `extra` flags.
fn risk_with(extra: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = ["risk", "--rate", "14000", "--shards", "20"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    args.extend(extra.iter().map(|s| s.to_string()));
    args
}

#[test]
fn dispersion_is_refused_where_it_does_nothing_or_is_out_of_range() {
    let refused = |extra: &[&str], what: &str| {
        let args = risk_with(extra);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        bad_input(&args, what);
    };
    refused(
        &["--traffic", "gamma-poisson"],
        "--traffic: gamma-poisson needs a dispersion",
    );
    refused(
        &["--dispersion", "30"],
        "--dispersion: has no effect with fixed traffic",
    );
    for bad in ["0", "-3", "nan", "inf", "1e13", "0.001"] {
        refused(
            &["--traffic", "gamma-poisson", "--dispersion", bad],
            "--dispersion",
        );
    }
    // So wide a spread that the exact table would need millions of rows.
    bad_input(
        &[
            "risk",
            "--rate",
            "1e9",
            "--shards",
            "10",
            "--traffic",
            "gamma-poisson",
            "--dispersion",
            "1",
        ],
        "--dispersion: spreads the busiest shard over",
    );
}

#[test]
fn a_scenario_sets_the_law_and_errors_name_its_field() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("bursty.toml");
    std::fs::write(
        &good,
        "peak = 14000\nrate = 14000\nshards = 20\ntraffic = \"gamma-poisson\"\ndispersion = 300\n",
    )
    .unwrap();
    let v = json_of(&["risk", "--scenario", good.to_str().unwrap()]);
    assert_eq!(v["inputs"]["dispersion"]["value"], 300.0);
    let p = v["key_p_over_cap_per_second"].as_f64().unwrap();
    // The same law by flags gives the same figure.
    let w = json_of(&[
        "risk",
        "--rate",
        "14000",
        "--shards",
        "20",
        "--traffic",
        "gamma-poisson",
        "--dispersion",
        "300",
    ]);
    assert_eq!(p, w["key_p_over_cap_per_second"].as_f64().unwrap());
    let bad = dir.path().join("misplaced.toml");
    std::fs::write(
        &bad,
        "peak = 14000\nrate = 14000\nshards = 20\ndispersion = 300\n",
    )
    .unwrap();
    let out = shardplan()
        .args(["risk", "--scenario", bad.to_str().unwrap()])
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        stderr.contains("misplaced.toml") && stderr.contains("dispersion"),
        "{stderr}"
    );
}
