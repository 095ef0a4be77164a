//! `report --measure FILE`: a measurement of either store as the report's
//! own section, with the machine it ran on; a file that is not one is
//! refused naming the flag. (The PostgreSQL file from a real run is in
//! tests/servers/postgres_measure.rs.)

use crate::common::{bad_input, shardplan};

/// The fields of `measure --redis`'s JSON a report shows, with others
/// (which it ignores) around them.
const REDIS: &str = r#"{
  "schema_version": 1, "command": "measure",
  "redis": "redis://:***@127.0.0.1:7000", "cluster": true, "shards": 16, "clients": 50,
  "single_ops_per_second": 36108.4, "sharded_ops_per_second": 52001.0,
  "single_latency": {"p50_ms": 1.25, "p99_ms": 2.5, "p999_ms": 4.0, "max_ms": 9.0},
  "sharded_latency": {"p50_ms": 0.75, "p99_ms": 1.5, "p999_ms": 3.0, "max_ms": 8.0},
  "counts_match": true,
  "machine": {"hostname": "bench-1", "os": "Debian GNU/Linux 12 (bookworm)",
              "cpu_model": "AMD EPYC 7B13", "logical_cpus": 2, "server_version": null}
}"#;

fn report_with(dir: &std::path::Path, measure: &std::path::Path) -> String {
    shardplan()
        .args(["report", "--quiet", "--measure"])
        .arg(measure)
        .arg("--output")
        .arg(dir.join("out"))
        .assert()
        .success();
    std::fs::read_to_string(dir.join("out").join("report.md")).unwrap()
}

#[test]
fn a_redis_measurement_is_its_own_section_with_its_machine() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("redis.json");
    std::fs::write(&file, REDIS).unwrap();
    let md = report_with(dir.path(), &file);
    let section = md
        .split("## Measurement")
        .nth(1)
        .expect("a Measurement section");
    let section = section.split("\n## ").next().unwrap();
    for needle in [
        "`shardplan measure --redis` (redis.json)",
        "redis://:***@127.0.0.1:7000 (cluster)",
        "36,108 INCR/s (p50 1.250 / p99 2.500 ms)",
        "52,001 INCR/s",
        "bench-1, 2 logical CPUs (AMD EPYC 7B13), Debian GNU/Linux 12 (bookworm)",
    ] {
        assert!(section.contains(needle), "{needle}:\n{section}");
    }
    assert!(
        md.contains("--measure redis.json"),
        "the command that writes it again"
    );
    // Without --measure there is no such section.
    let plain = dir.path().join("plain");
    shardplan()
        .args(["report", "--quiet", "--output"])
        .arg(&plain)
        .assert()
        .success();
    let md = std::fs::read_to_string(plain.join("report.md")).unwrap();
    assert!(!md.contains("## Measurement"));
}

#[test]
fn a_file_that_is_not_a_measurement_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let out = out.to_str().unwrap();
    let write = |name: &str, text: &str| {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        p.to_str().unwrap().to_string()
    };
    let not_json = write("a.json", "not json");
    bad_input(
        &["report", "--measure", &not_json, "--output", out],
        "--measure",
    );
    let other = write("b.json", r#"{"cap": 3}"#);
    bad_input(
        &["report", "--measure", &other, "--output", out],
        "--measure",
    );
    let broken_pg = write("c.json", r#"{"store": "postgres", "designs": 3}"#);
    bad_input(
        &["report", "--measure", &broken_pg, "--output", out],
        "--measure",
    );
    assert!(
        !dir.path().join("out").exists(),
        "nothing written before the check"
    );
}
