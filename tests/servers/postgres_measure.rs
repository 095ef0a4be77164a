//! `measure --postgres` against a real PostgreSQL: a cluster created with
//! `initdb` in a temporary directory and started with `pg_ctl` on a free
//! loopback port, stopped in `Drop` (so also when an assertion fails). The
//! tests take one lock so that only one of them loads the machine at a
//! time. Without the PostgreSQL binaries these tests fail (CI installs
//! them); see tests/common/postgres.rs.

use crate::common;

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::postgres::{Pg, PASSWORD};
use shardplan::measure::postgres::{run, Design, PgConfig, PgMeasureReport};
use shardplan::model::picker::Picker;

/// Enough clients that the one hot row always has a queue.
const CLIENTS: u64 = 12;
/// Enough shard rows that 12 clients rarely pick the same one at once.
const SHARDS: u64 = 64;

fn config(pg: &Pg, duration: Duration, max_ops: Option<u64>) -> PgConfig {
    let mut c = PgConfig::new(&pg.url(), SHARDS, CLIENTS, duration, max_ops).unwrap();
    c.password = Some(PASSWORD.into());
    c
}

fn check_counts(r: &PgMeasureReport) {
    let names: Vec<&str> = r.designs.iter().map(|d| d.design.name()).collect();
    assert_eq!(names, ["single-row", "sharded-rows", "like-rows"]);
    for d in &r.designs {
        assert!(d.writes_acknowledged > 0, "{d:?}");
        assert_eq!(
            d.count_read,
            d.writes_acknowledged as i64,
            "{}: the count read differs from the writes acknowledged",
            d.design.name()
        );
        assert!(d.counts_match, "{d:?}");
        assert!(d.ops_per_second_mean > 0.0, "{d:?}");
        assert!(
            d.latency_p50_ms > 0.0 && d.latency_p50_ms <= d.latency_p99_ms,
            "{d:?}"
        );
        assert!(d.lock_wait_samples > 0, "{d:?}");
    }
    assert!(r.counts_match);
    assert!(r.schema_dropped);
    assert_eq!(r.store, "postgres");
    assert!(r.machine.server_version.is_some());
}

#[test]
fn every_design_counts_the_hot_row_waits_and_the_schema_goes() {
    let pg = Pg::start();
    let r = run(&config(&pg, Duration::from_millis(500), None)).unwrap();
    check_counts(&r);
    let single = r.design(Design::SingleRow).unwrap();
    let sharded = r.design(Design::ShardedRows).unwrap();
    let likes = r.design(Design::LikeRows).unwrap();
    eprintln!(
        "measured: single-row {:.0}/s, {} lock waits in {} samples (max gap {:.1} ms); \
         sharded-rows {:.0}/s, {} in {}; like-rows {:.0}/s, {} in {}",
        single.ops_per_second_mean,
        single.lock_waits,
        single.lock_wait_samples,
        single.lock_sample_max_gap_ms,
        sharded.ops_per_second_mean,
        sharded.lock_waits,
        sharded.lock_wait_samples,
        likes.ops_per_second_mean,
        likes.lock_waits,
        likes.lock_wait_samples
    );
    // Loose bounds that hold on a loaded 2-core machine: 12 writers of one
    // row queue on its row lock (all but the one committing wait), so
    // nearly every sample sees several waiting; over 64 rows two writers
    // rarely pick the same row at the same moment. Only "some" against
    // "fewer" is asserted, not a ratio, since a stalled machine can shorten
    // either queue.
    assert!(single.lock_waits > 0, "{single:?}");
    assert!(
        sharded.lock_waits < single.lock_waits,
        "{sharded:?} vs {single:?}"
    );
    assert_eq!(
        pg.schemas("shardplan_"),
        Vec::<String>::new(),
        "schema left behind"
    );

    // --max-ops bounds each design's count exactly.
    let r = run(&config(&pg, Duration::from_secs(20), Some(300))).unwrap();
    check_counts(&r);
    for d in &r.designs {
        assert_eq!(d.writes_acknowledged, 300, "{d:?}");
    }
    assert!(pg.schemas("shardplan_").is_empty());
}

#[test]
fn round_robin_clients_leave_the_shard_rows_within_one_write_per_client() {
    let pg = Pg::start();
    let mut c = config(&pg, Duration::from_millis(1200), None);
    c.clients = 4;
    c.shards = 16;
    c.picker = Picker::RoundRobin;
    let r = run(&c).unwrap();
    check_counts(&r);
    assert_eq!(r.picker, Picker::RoundRobin);
    let load = r.shard_load.as_ref().expect("sharded-rows was measured");
    assert_eq!(load.totals.len(), 16);
    let sharded = r.design(Design::ShardedRows).unwrap();
    assert_eq!(
        load.totals.iter().sum::<i64>(),
        sharded.writes_acknowledged as i64
    );
    // Each client's cursor moves one row a write: its writes differ by at
    // most one between any two rows, so the totals by at most one a client.
    assert!(load.total_spread <= 4, "{load:?}");
    assert!(load.seconds_sampled >= 1, "{load:?}");
    eprintln!("postgres round-robin: {load:?}");
}

fn shardplan() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_shardplan"));
    c.env("PGPASSWORD", PASSWORD);
    c
}

#[test]
fn a_schema_that_exists_is_refused_and_left_alone() {
    let pg = Pg::start();
    pg.client()
        .batch_execute("CREATE SCHEMA likes_prod; CREATE TABLE likes_prod.t (n int); INSERT INTO likes_prod.t VALUES (7);")
        .unwrap();
    let out = shardplan()
        .args(["measure", "--postgres", &pg.url(), "--schema", "likes_prod"])
        .args(["--duration", "200ms", "--clients", "2"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("--schema") && stderr.contains("likes_prod already exists"),
        "{stderr}"
    );
    let n: i32 = pg
        .client()
        .query_one("SELECT n FROM likes_prod.t", &[])
        .unwrap()
        .get(0);
    assert_eq!(n, 7, "the existing schema was touched");
    assert_eq!(pg.schemas("likes_prod"), ["likes_prod"]);

    // A schema named with --schema is created and dropped.
    let out = shardplan()
        .args([
            "measure",
            "--postgres",
            &pg.url(),
            "--schema",
            "likes_probe",
        ])
        .args(["--duration", "200ms", "--clients", "2", "--format", "json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["schema"], "likes_probe");
    assert!(pg.schemas("likes_probe").is_empty());
}

#[test]
fn the_command_writes_json_that_plans_and_reports_read_and_hides_the_password() {
    let pg = Pg::start();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("pg.json");
    let out = shardplan()
        .args([
            "measure",
            "--postgres",
            &pg.url(),
            "--clients",
            "4",
            "--shards",
            "8",
        ])
        .args(["--duration", "300ms", "--explain", "-o"])
        .arg(&file)
        .output()
        .unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{said}");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        !said.contains(PASSWORD) && !text.contains(PASSWORD),
        "the password shows"
    );
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let errors = common::schema_errors("measure", &json);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(json["store"], "postgres");
    assert_eq!(
        json["inputs"]["password"]["source"],
        "environment PGPASSWORD"
    );
    for (d, name) in
        json["designs"]
            .as_array()
            .unwrap()
            .iter()
            .zip(["single-row", "sharded-rows", "like-rows"])
    {
        assert_eq!(d["design"], name);
        for field in [
            "ops_per_second_mean",
            "latency_p99_ms",
            "lock_waits",
            "counts_match",
        ] {
            assert!(d.get(field).is_some(), "{name} lacks {field}");
        }
    }
    assert!(json["machine"]["logical_cpus"].as_u64().unwrap() >= 1);
    let hot = json["designs"][0]["ops_per_second_mean"].as_f64().unwrap();

    // The hot-row rate is the cap of the postgres preset's plan.
    let plan = common::json_of(&[
        "size",
        "--store",
        "postgres",
        "--peak",
        "5000",
        "--cap-from-measure",
        file.to_str().unwrap(),
    ]);
    assert_eq!(
        plan["inputs"]["cap"]["value"].as_f64().unwrap(),
        hot.floor()
    );
    let source = plan["inputs"]["cap"]["source"].as_str().unwrap();
    assert!(
        source.contains("--cap-from-measure") && source.contains("single-row"),
        "{source}"
    );

    // The measurement as a report's own section, with its machine.
    let report = dir.path().join("report");
    let out = shardplan()
        .args(["report", "--quiet", "--measure"])
        .arg(&file)
        .arg("--output")
        .arg(&report)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let md = std::fs::read_to_string(report.join("report.md")).unwrap();
    let section = md
        .split("## Measurement")
        .nth(1)
        .expect("a Measurement section");
    for needle in [
        "`shardplan measure --postgres`",
        "| single-row",
        "| like-rows",
        "logical CPUs",
        "; server 1",
    ] {
        assert!(section.contains(needle), "{needle}:\n{section}");
    }
    assert!(!md.contains(PASSWORD));

    // A wrong password: a clear line, without either password.
    let out = shardplan()
        .env("PGPASSWORD", "not-the-password")
        .args(["measure", "--postgres", &pg.url(), "--duration", "100ms"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("password authentication failed"),
        "{stderr}"
    );
    assert!(!stderr.contains("not-the-password"), "{stderr}");
}

#[test]
fn a_killed_server_gives_a_clear_error_and_a_failed_exit() {
    let pg = Pg::start();
    let mut child = shardplan()
        .args(["measure", "--postgres", &pg.url(), "--clients", "4"])
        .args(["--duration", "10s", "--timeout", "5s"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Let the first design get going, then crash the server.
    pg.wait_for_load(4);
    pg.kill();
    let deadline = Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("measure hung after the server was killed");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert_eq!(status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("shardplan: "), "{stderr}");
    assert!(
        !stderr.contains("panicked") && !stderr.contains(PASSWORD),
        "{stderr}"
    );
    assert!(
        stderr.contains("single-row"),
        "names the design it was in: {stderr}"
    );
}

#[test]
fn ctrl_c_drops_the_schema_and_exits_130() {
    let pg = Pg::start();
    let child = shardplan()
        .args(["measure", "--postgres", &pg.url(), "--clients", "4"])
        .args(["--duration", "10s"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    pg.wait_for_load(4);
    assert!(
        !pg.schemas("shardplan_").is_empty(),
        "the run's schema exists while it runs"
    );
    // SAFETY: kill() with a child's pid and a signal number has no
    // memory-safety preconditions.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(
        stderr.contains("interrupted by signal 2; dropped schema shardplan_"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty(), "no results after Ctrl-C");
    assert!(
        pg.schemas("shardplan_").is_empty(),
        "the schema was not dropped"
    );
}
