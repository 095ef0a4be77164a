//! A run killed at any moment (SIGKILL: no handler runs, nothing is
//! cleaned up) leaves nothing behind: no temporary file, no folder it
//! made, the old outputs as they were. Temporary files exist only while
//! their content is written, unnamed where the file system allows
//! (O_TMPFILE); a report's folder is made at the end.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use crate::common::shardplan;

/// Every entry under `dir`, as paths relative to it, sorted.
fn entries(dir: &Path) -> Vec<String> {
    let mut all = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(d) = pending.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let path = e.unwrap().path();
            if path.is_dir() {
                pending.push(path.clone());
            }
            let shown = path.strip_prefix(dir).unwrap().display().to_string();
            all.push(shown);
        }
    }
    all.sort();
    all
}

/// When the run is killed.
#[derive(Debug, Clone, Copy)]
enum Moment {
    /// `ms` milliseconds after it starts (parsing, the scenario, the
    /// checks of the outputs, the risk table).
    After(u64),
    /// Once it has said its estimate: the simulation has started.
    Said,
    /// A while into the simulation.
    Simulating,
}

/// Starts `shardplan ARGS` in `dir` and kills it (SIGKILL) at `moment`.
fn kill_at(dir: &Path, args: &[&str], moment: Moment) {
    let mut child: Child = Command::new(env!("CARGO_BIN_EXE_shardplan"))
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    match moment {
        Moment::After(ms) => std::thread::sleep(Duration::from_millis(ms)),
        Moment::Said | Moment::Simulating => {
            stderr.read_line(&mut line).unwrap();
            assert!(line.contains("should take about"), "{line}");
        }
    }
    if let Moment::Simulating = moment {
        std::thread::sleep(Duration::from_millis(300));
    }
    child.kill().unwrap();
    let status = child.wait().unwrap();
    assert!(
        !status.success(),
        "{moment:?}: the run should have been killed"
    );
}

/// A report of about 1.7 hours (10^12 simulated seconds, from the exact
/// tables), so every moment is before its end.
const LONG_REPORT: [&str; 6] = [
    "report",
    "--long-run",
    "--seconds",
    "1000000000000",
    "-o",
    "new/report",
];

const MOMENTS: [Moment; 6] = [
    Moment::After(0),
    Moment::After(5),
    Moment::After(30),
    Moment::After(100),
    Moment::Said,
    Moment::Simulating,
];

#[test]
fn a_report_killed_at_any_moment_leaves_no_folder_and_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    for moment in MOMENTS {
        kill_at(dir.path(), &LONG_REPORT, moment);
        assert_eq!(entries(dir.path()), Vec::<String>::new(), "{moment:?}");
    }
}

#[test]
fn a_report_killed_in_an_existing_folder_leaves_its_files_as_they_were() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("new").join("report");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("report.md"), "last week's\n").unwrap();
    let before = entries(dir.path());
    for moment in MOMENTS {
        kill_at(dir.path(), &LONG_REPORT, moment);
        assert_eq!(entries(dir.path()), before, "{moment:?}");
        let md = std::fs::read_to_string(folder.join("report.md")).unwrap();
        assert_eq!(md, "last week's\n");
    }
}

/// Whether this file system makes unnamed temporary files (O_TMPFILE):
/// without them a file being written has a name until it is renamed.
fn unnamed_temporary_files(dir: &Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(dir.as_os_str().as_bytes()).unwrap();
    // SAFETY: a NUL-terminated path; the descriptor is closed at once.
    unsafe {
        let fd = libc::open(c.as_ptr(), libc::O_TMPFILE | libc::O_WRONLY, 0o600);
        if fd >= 0 {
            libc::close(fd);
        }
        fd >= 0
    }
}

#[test]
fn a_simulation_killed_while_writing_rows_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    if !unnamed_temporary_files(dir.path()) {
        eprintln!("skipped: no O_TMPFILE here, a file being written has a name");
        return;
    }
    std::fs::write(dir.path().join("rows.csv"), "previous\n").unwrap();
    // 10^10 seconds from the exact tables with a row each, over an hour
    // (so --long-run):
    // it says so, then writes rows until killed.
    let args = [
        "simulate",
        "--long-run",
        "--seconds",
        "10000000000",
        "--per-second",
        "rows.csv",
        "-o",
        "out.csv",
    ];
    for moment in [Moment::After(0), Moment::After(30), Moment::Simulating] {
        kill_at(dir.path(), &args, moment);
        assert_eq!(entries(dir.path()), ["rows.csv"], "{moment:?}");
        let rows = std::fs::read_to_string(dir.path().join("rows.csv")).unwrap();
        assert_eq!(rows, "previous\n");
    }
}

#[test]
fn a_new_report_folder_and_the_folders_above_it_appear_whole() {
    let dir = tempfile::tempdir().unwrap();
    shardplan()
        .current_dir(dir.path())
        .args(["report", "-q", "--seconds", "60", "-o", "a/b/c"])
        .assert()
        .success();
    assert_eq!(
        entries(dir.path()),
        [
            "a",
            "a/b",
            "a/b/c",
            "a/b/c/busiest.svg",
            "a/b/c/report.html",
            "a/b/c/report.md",
            "a/b/c/risk.svg",
        ]
    );
    // Again, into the folder it made: the same files, replaced.
    shardplan()
        .current_dir(dir.path())
        .args(["report", "-q", "--seconds", "60", "-o", "a/b/c"])
        .assert()
        .success();
    assert_eq!(entries(dir.path()).len(), 7);
}
