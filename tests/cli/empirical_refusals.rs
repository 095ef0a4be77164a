//! `--traffic empirical` refused where it cannot serve, in one line naming
//! the flag or the scenario field; a scenario that names the law and its
//! trace.

use std::fmt::Write as _;

use crate::common::traces::{bursty, write_trace};
use crate::common::{bad_input, json_of, shardplan};

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

/// With unlikes the planned peak counts writes, and a trace counts write
/// units (the share only splits them): the law is grown onto the planned
/// writes, 9,333 x 1.5 = 13,999.5, so every planned second carries 14,000
/// writes, whatever the share. `report` plans from the same law.
#[test]
fn unlikes_and_report_grow_the_same_law() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("flat.csv");
    write_trace(&csv, &[9_333; 60]);
    let csv_s = csv.to_str().unwrap();
    let v = json_of(&[
        "risk",
        "--traffic-from",
        csv_s,
        "--traffic",
        "empirical",
        "--unlike-share",
        "0.2",
        "--shards",
        "24",
    ]);
    assert_eq!(v["inputs"]["empirical"]["value"]["max"], 14_000);
    assert_eq!(v["write_rate"], 14_000.0);
    assert_eq!(v["inputs"]["like_peak"]["value"], 11_666.25);
    // A report of a small bursty trace (30 distinct counts: quick).
    let counts: Vec<u64> = (0..30).map(|i| 8_000 + 50 * i).collect();
    write_trace(&dir.path().join("small.csv"), &counts);
    let toml = dir.path().join("r.toml");
    std::fs::write(
        &toml,
        "describes = [\"flat-load\"]\ncap = 1000\ntraffic = \"empirical\"\n\
         traffic_from = \"small.csv\"\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    shardplan()
        .args(["report", "--scenario", toml.to_str().unwrap(), "--output"])
        .arg(&out)
        .assert()
        .success();
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains("empirical traffic"), "{md}");
}
