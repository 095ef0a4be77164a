//! `--traffic empirical` refused where it cannot serve, in one line naming
//! the flag or the scenario field; a scenario that names the law and its
//! trace.

mod common;

use std::fmt::Write as _;

use common::traces::{bursty, write_trace};
use common::{bad_input, json_of, shardplan};

/// A scenario names the law and the trace; its `rate` beside them is
/// refused, naming the field.
#[test]
fn a_scenario_sets_empirical_traffic() {
    let dir = tempfile::tempdir().unwrap();
    write_trace(&dir.path().join("evening.csv"), &bursty());
    let toml = dir.path().join("s.toml");
    let body = "describes = [\"flat-load\"]\ncap = 1000\ntraffic = \"empirical\"\n\
                traffic_from = \"evening.csv\"\ngrowth = 1.5\n";
    std::fs::write(&toml, body).unwrap();
    let toml_s = toml.to_str().unwrap();
    let v = json_of(&["risk", "--scenario", toml_s, "--shards", "20"]);
    assert_eq!(v["traffic"], "empirical");
    assert_eq!(v["inputs"]["empirical"]["value"]["max"], 16_500);
    std::fs::write(&toml, format!("{body}rate = 12000\n")).unwrap();
    bad_input(&["risk", "--scenario", toml_s, "--shards", "20"], "rate");
}

#[test]
fn refusals_name_the_flag() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("evening.csv");
    write_trace(&csv, &bursty());
    let csv = csv.to_str().unwrap();
    let minute = dir.path().join("minute.csv");
    let mut text = String::from("time,count\n");
    for m in 0..30 {
        writeln!(text, "{},{}", 1_773_500_000 + 60 * m, 540_000 + m).unwrap();
    }
    std::fs::write(&minute, text).unwrap();
    let minute = minute.to_str().unwrap();
    let emp = ["--traffic", "empirical"];
    let with = |extra: &[&'static str], args: &[&str]| -> Vec<String> {
        args.iter().chain(extra).map(|s| s.to_string()).collect()
    };
    let run = |args: Vec<String>, what: &str| {
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        bad_input(&a, what);
    };
    // No trace; a trace coarser than a second.
    run(
        with(&emp, &["risk", "--shards", "20"]),
        "--traffic: empirical needs a per-second trace",
    );
    run(
        with(&emp, &["risk", "--traffic-from", minute]),
        "is per 60 s",
    );
    // A rate or a dispersion would have no effect.
    run(
        with(&emp, &["risk", "--traffic-from", csv, "--rate", "9000"]),
        "--rate: has no effect",
    );
    run(
        with(&emp, &["sweep", "--traffic-from", csv, "--rate", "9000"]),
        "--rate: has no effect",
    );
    run(
        with(&emp, &["simulate", "--traffic-from", csv, "--rate", "9000"]),
        "--rate",
    );
    run(
        with(&emp, &["risk", "--traffic-from", csv, "--dispersion", "10"]),
        "--dispersion",
    );
    // No quietest-shard table; no time line; no trace on compare.
    run(
        with(
            &emp,
            &[
                "simulate",
                "--traffic-from",
                csv,
                "--sampler",
                "exact-table",
            ],
        ),
        "--sampler: exact-table",
    );
    run(
        with(&emp, &["simulate", "--scenario", "viral-evening"]),
        "--traffic: empirical plans a flat load",
    );
    run(with(&emp, &["compare", "--peak", "14000"]), "--traffic");
    run(
        with(&emp, &["simulate", "--traffic-from", csv, "--replay"]),
        "--traffic: empirical plans a flat load",
    );
    let out = shardplan()
        .args(["risk", "--traffic", "empirical"])
        .assert()
        .code(2);
    assert!(!String::from_utf8_lossy(&out.get_output().stderr).contains("panicked"));
}
