//! Long work is said before it starts and bounded: a run the cost model
//! puts over a day is refused naming the input that makes it long, and one
//! over a minute says its estimate on stderr first (nothing with --quiet);
//! a report over an hour runs only with --long-run.

use crate::common;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

/// The first stderr line of `shardplan ARGS`, then the run is killed (the
/// runs here would take minutes to hours).
fn first_stderr_line(args: &[&str]) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_shardplan"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Should the line never come, end the run after a minute rather than
    // wait hours for it. The watchdog is over (joined) before the child is
    // reaped, so its signal cannot reach a reused pid: the tests of
    // tests/cli/ share one process, which outlives the minute.
    let pid = child.id() as i32;
    let (line_came, watch) = mpsc::channel::<()>();
    let watchdog = std::thread::spawn(move || {
        if let Err(RecvTimeoutError::Timeout) = watch.recv_timeout(Duration::from_secs(60)) {
            // SAFETY: a signal to the child this test started, not yet reaped.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
    });
    let mut line = String::new();
    BufReader::new(child.stderr.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    drop(line_came);
    watchdog.join().unwrap();
    let _ = child.kill();
    let _ = child.wait();
    line
}

/// The stderr of `shardplan ARGS`, which must exit 2 with one line.
fn refused(args: &[&str]) -> String {
    let out = common::shardplan().args(args).assert().code(2);
    let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    err
}

#[test]
fn a_run_over_a_day_is_refused_naming_its_input() {
    // 10^12 seconds x 20 shards drawn one by one (about 500 ns a second): about 140 hours.
    let out = refused(&[
        "simulate",
        "--seconds",
        "1000000000000",
        "--sampler",
        "multinomial",
    ]);
    assert_eq!(
        out,
        "shardplan: --seconds: makes a run of about 140 hours by the cost model; \
         the limit is 24 hours (docs/performance.md), so ask for less\n"
    );
    // A time line: 10^12 seconds at about 145 ns each, about 40 hours.
    let out = refused(&[
        "simulate",
        "--scenario",
        "viral-evening",
        "--seconds",
        "1000000000000",
    ]);
    assert!(
        out.starts_with("shardplan: --seconds: makes a run of about 40 hours"),
        "{out}"
    );
}

#[test]
fn a_scenario_field_that_makes_a_run_long_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("long.toml");
    std::fs::write(
        &path,
        "description = \"long\"\npeak = 14000\nrate = 14000\nshards = 20\nseconds = 1000000000000\n",
    )
    .unwrap();
    let out = refused(&[
        "simulate",
        "--scenario",
        path.to_str().unwrap(),
        "--sampler",
        "multinomial",
    ]);
    assert!(
        out.contains("long.toml: seconds: makes a run of about 140 hours"),
        "{out}"
    );
}

#[test]
fn a_run_over_a_minute_says_its_estimate_first() {
    // From the exact tables: about 1.7 hours (6 ns a second), accepted.
    let line = first_stderr_line(&[
        "simulate",
        "--seconds",
        "1000000000000",
        "--long-run",
        "--threads",
        "2",
    ]);
    assert_eq!(
        line,
        "shardplan: this run should take about 1.7 hours on 2 worker threads (the cost model's \
         estimate); Ctrl-C stops it\n"
    );
    // One worker: twice as long.
    let line = first_stderr_line(&["simulate", "--seconds", "1e11", "--threads", "1"]);
    assert!(
        line.contains("should take about 20 min on 1 worker thread "),
        "{line}"
    );
    // Fixed traffic's exact risk: about a second at most (10^9 likes/s
    // over 10 shards), so no estimate; a sweep of 1,998 such rows says one.
    let line = first_stderr_line(&["risk", "--rate", "1e9", "--shards", "10"]);
    assert_eq!(line, "", "{line}");
    let line = first_stderr_line(&["sweep", "--shards", "3..2000", "--rate", "1e8"]);
    assert!(line.contains("should take about 4 min"), "{line}");
    // A fleet's trials: 10^5 placements of 2,000,000 keys (every reel hot)
    // on 10^6 partitions, at 15 ns a key and 10 ns a touched partition,
    // and as many draws of one partition's rest (475 Poisson tails each).
    const EVERY_REEL_HOT: [&str; 9] = [
        "fleet",
        "--reels",
        "100000000",
        "--threshold",
        "0.00001",
        "--partitions",
        "1000000",
        "--trials",
        "100000",
    ];
    let line = first_stderr_line(&[&EVERY_REEL_HOT[..], &["--long-run"]].concat());
    assert!(line.contains("should take about 65 min"), "{line}");
    // Without --long-run that fleet is refused, as simulate and report are.
    common::bad_input(&EVERY_REEL_HOT, "--trials: makes a run of about 1.1 hours");
}

#[test]
fn quiet_runs_say_nothing_and_short_runs_need_no_estimate() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_shardplan"))
        .args([
            "simulate",
            "--seconds",
            "1000000000000",
            "--long-run",
            "--quiet",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(500));
    let _ = child.kill();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    common::shardplan()
        .args(["simulate", "--seconds", "2000"])
        .assert()
        .success()
        .stderr("");
}

#[test]
fn a_report_over_an_hour_needs_long_run() {
    let dir = tempfile::tempdir().unwrap();
    let out = common::shardplan()
        .current_dir(dir.path())
        .args(["report", "--seconds", "1000000000000", "-o", "newdir"])
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert_eq!(
        err,
        "shardplan: --seconds: makes a run of about 1.7 hours by the cost model on its worker \
         threads; one over 1 hour runs only with --long-run (docs/performance.md), so give it or \
         ask for less\n"
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

/// Issue 61: `simulate` is guarded as `report` is, and the estimate counts
/// `--threads` (the reference timings ran on two workers: one takes twice
/// as long). The estimate of 1e12 s is about 1.7 hours on 2; 4e11 s is
/// about 40 minutes on 2 workers (accepted) and 1.3 hours on one (refused).
#[test]
fn a_simulation_over_an_hour_needs_long_run_on_its_workers() {
    common::bad_input(
        &["simulate", "--seconds", "1e12"],
        "--seconds: makes a run of about 1.7 hours",
    );
    common::bad_input(
        &["simulate", "--seconds", "4e11", "--threads", "1"],
        "--seconds: makes a run of about 1.3 hours",
    );
    // With --long-run the guard lets it through (refused after, on its
    // output path, so nothing runs here).
    common::bad_input(
        &[
            "simulate",
            "--seconds",
            "1e12",
            "--long-run",
            "-o",
            "/nonexistent/x.json",
        ],
        "-o",
    );
}
