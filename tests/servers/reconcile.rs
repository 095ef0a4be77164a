//! `measure --reconcile` against a real Redis and PostgreSQL: without
//! faults nothing drifts; dropped replies retried once over-count by
//! exactly the ones the server applied (its ledger) and the job brings the
//! drift back to 0; skipped increments under-count and the job closes it;
//! a job during the writes leaves a gap the next job closes; and the
//! counter read back here with redis-cli equals `count(*)` of the like
//! table read with our own client.

use crate::common;
use crate::common::postgres::{Pg, PASSWORD};
use crate::common::redis::*;

fn u(v: &serde_json::Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("not a count: {v}"))
}

fn i(v: &serde_json::Value) -> i64 {
    v.as_i64()
        .unwrap_or_else(|| panic!("not a whole number: {v}"))
}

/// `shardplan measure --reconcile ARGS` on both servers, on 8 shards: the
/// document
/// (checked against the schema) and the exit code.
fn reconcile(redis: &Servers, pg: &Pg, args: &[&str]) -> (serde_json::Value, i32) {
    let out = common::shardplan()
        .args(["measure", "--reconcile", "--redis", &redis.url()])
        .args(["--postgres", &pg.url(), "--format", "json"])
        .args(["--shards", "8"])
        .args(args)
        .env("PGPASSWORD", PASSWORD)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|_| panic!("{args:?}: {}", String::from_utf8_lossy(&out.stderr)));
    let errors = common::schema_errors("measure", &v);
    assert!(errors.is_empty(), "{errors:?}");
    (v, out.status.code().unwrap_or(-1))
}

/// The checks every run passes: every like accounted for, the final job's
/// difference the drift before it, taken back, and nothing after.
fn closed(v: &serde_json::Value) -> &serde_json::Value {
    let r = &v["reconciliation"];
    let w = &v["writes"];
    assert_eq!(r["explained"], true, "{v}");
    assert_eq!(u(&r["rows"]), u(&w["likes"]), "{v}");
    assert_eq!(
        u(&w["likes"]),
        u(&w["acknowledged"]) + u(&w["lost_replies"]) + u(&w["failed_increments"])
    );
    let jobs = r["jobs"].as_array().unwrap();
    let last = jobs.last().unwrap();
    assert_eq!(last["after_writes"], true);
    assert_eq!(i(&last["difference"]), -i(&r["drift_before"]), "{v}");
    assert_eq!(i(&r["drift_after"]), 0, "{v}");
    assert_eq!(i(&r["counted_after"]), u(&r["rows"]) as i64);
    r
}

#[test]
fn each_fault_drifts_as_the_ledger_says_and_the_job_brings_it_back_to_zero() {
    let redis = Servers::spawn(1, false).beside_postgres();
    let pg = Pg::start();
    // No faults: no drift, and the job writes nothing.
    let (v, code) = reconcile(
        &redis,
        &pg,
        &["--duration", "1s", "--rate", "1000", "--clients", "4"],
    );
    assert_eq!(code, 0, "{v}");
    let r = closed(&v);
    assert_eq!(u(&r["rows"]), 1000, "{v}");
    assert_eq!(i(&r["drift_before"]), 0, "{v}");
    assert_eq!(r["jobs"][0]["shard"], serde_json::Value::Null);
    // What the run made is gone.
    assert!(pg.schemas("shardplan_").is_empty());
    assert_eq!(keys_on(redis.ports[0]).trim(), "");
    // No reply dropped: no ledger key was written.
    assert_eq!(u(&v["keys_deleted"]), 8, "{v}");
    // Written to files: one CSV line under its header, the outputs claimed
    // once though both stores' flags are read.
    let dir = tempfile::tempdir().unwrap();
    let (csv, md) = (dir.path().join("run.csv"), dir.path().join("run.md"));
    let out = common::shardplan()
        .args([
            "measure",
            "--reconcile",
            "--redis",
            &redis.url(),
            "--postgres",
            &pg.url(),
        ])
        .args([
            "--shards",
            "8",
            "--clients",
            "2",
            "--rate",
            "500",
            "--duration",
            "500ms",
            "-o",
        ])
        .arg(&csv)
        .arg("-o")
        .arg(&md)
        .env("PGPASSWORD", PASSWORD)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    let header: Vec<&str> = lines[0].split(',').collect();
    let at = header
        .iter()
        .position(|h| *h == "reconciliation_drift_after")
        .unwrap();
    assert_eq!(lines[1].split(',').nth(at), Some("0"), "{text}");
    let page = std::fs::read_to_string(&md).unwrap();
    assert!(
        page.contains("After the final job the counter equals the rows (250)"),
        "{page}"
    );
    // Dropped replies sent again: each one the server applied counts twice.
    let (v, code) = reconcile(
        &redis,
        &pg,
        &[
            "--duration",
            "1s",
            "--rate",
            "1000",
            "--lost-replies",
            "0.2",
        ],
    );
    assert_eq!(code, 0, "{v}");
    let r = closed(&v);
    let w = &v["writes"];
    eprintln!("retry once: {w} {r}");
    assert!(u(&w["lost_replies"]) > 100, "{w}");
    assert_eq!(u(&w["retried"]), u(&w["lost_replies"]));
    assert_eq!(i(&r["drift_before"]), u(&w["lost_applied"]) as i64, "{v}");
    assert!(
        u(&w["lost_applied"]) > 0,
        "no dropped reply was applied: {w}"
    );
    assert_eq!(v["retry"], "once");
    // Not sent again: the ones the server did not apply are missing.
    let args = [
        "--duration",
        "1s",
        "--lost-replies",
        "0.2",
        "--retry",
        "none",
    ];
    let (v, code) = reconcile(&redis, &pg, &args);
    assert_eq!(code, 0, "{v}");
    let r = closed(&v);
    let w = &v["writes"];
    assert_eq!(u(&w["retried"]), 0);
    let unapplied = u(&w["lost_replies"]) - u(&w["lost_applied"]);
    assert_eq!(i(&r["drift_before"]), -(unapplied as i64), "{v}");
    // Skipped increments: under-counted, and the job adds them back.
    let (v, code) = reconcile(
        &redis,
        &pg,
        &[
            "--duration",
            "1s",
            "--rate",
            "1000",
            "--failed-increments",
            "0.1",
        ],
    );
    assert_eq!(code, 0, "{v}");
    let r = closed(&v);
    let skipped = u(&v["writes"]["failed_increments"]);
    assert!(skipped > 50, "{v}");
    assert_eq!(i(&r["drift_before"]), -(skipped as i64), "{v}");
    assert_eq!(i(&r["jobs"][0]["difference"]), skipped as i64);
}

#[test]
fn a_job_during_the_writes_leaves_a_gap_the_next_closes_and_the_counter_reads_back_as_the_rows() {
    let redis = Servers::spawn(1, false).beside_postgres();
    let pg = Pg::start();
    let args = [
        "--duration",
        "2s",
        "--rate",
        "2000",
        "--clients",
        "16",
        "--reconcile-every",
        "100ms",
        "--keep",
    ];
    let (v, code) = reconcile(&redis, &pg, &args);
    assert_eq!(code, 0, "{v}");
    let r = closed(&v);
    eprintln!("jobs: {}", r["jobs"]);
    let jobs = r["jobs"].as_array().unwrap();
    let during: Vec<_> = jobs.iter().filter(|j| j["after_writes"] == false).collect();
    assert_eq!(during.len(), 19, "{v}");
    // Without faults the true drift is 0: whatever a job during the writes
    // added was the gap of the likes in flight while it counted, and those
    // gaps are the whole drift the final job took back.
    let gaps: i64 = during.iter().map(|j| i(&j["difference"])).sum();
    assert_eq!(i(&r["drift_before"]), gaps);
    assert_eq!(i(&r["corrected_during"]), gaps);
    // Job k adds d_k = rows(its count) - counted(its read) - the drift the
    // jobs before it left, so the drift it leaves, the sum S_k of the
    // differences so far, is its own gap alone (the one before closed):
    // likes whose row its count saw but whose increment came after its
    // read (at most one a writer, 16) minus likes whose row it missed but
    // whose increment it read (at most those that landed meanwhile).
    let mut left = 0;
    for j in &during {
        left += i(&j["difference"]);
        assert!(-i(&j["landed"]) <= left && left <= 16, "{j} leaves {left}");
    }
    // Likes land while the jobs count, and some job leaves a gap (about a
    // third of them do on this machine).
    assert!(during.iter().any(|j| i(&j["landed"]) > 0), "{v}");
    assert!(during.iter().any(|j| i(&j["difference"]) != 0), "{v}");
    // Read back independently: the shard keys with redis-cli, the rows
    // with our own client.
    let keys: Vec<&str> = v["keys"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k.as_str().unwrap())
        .collect();
    let (shards, ledger) = keys.split_at(8);
    assert!(ledger[0].ends_with(":lost-applied"));
    let mut mget = vec!["MGET"];
    mget.extend(shards);
    let sum: i64 = redis_cli(redis.ports[0], &mget)
        .lines()
        .map(|l| l.trim().parse::<i64>().unwrap_or(0))
        .sum();
    let table = r["like_table"].as_str().unwrap();
    let rows: i64 = pg
        .client()
        .query_one(&format!("SELECT count(*) FROM {table}"), &[])
        .unwrap()
        .get(0);
    assert_eq!(sum, rows);
    assert_eq!(rows as u64, u(&r["rows"]));
    assert_eq!(
        pg.schemas("shardplan_").len(),
        1,
        "--keep leaves the schema"
    );
}
