//! An interrupted run (Ctrl-C, kill, a closed terminal) removes its
//! temporary files, keeps the previous outputs as they were and exits with
//! 128 + the signal's number.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn temps(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".tmp"))
        .collect()
}

/// Whether process `pid` holds a file in `dir` open: a temporary file,
/// unnamed (O_TMPFILE: `dir/#123 (deleted)`) or not.
fn writing_in(pid: u32, dir: &Path) -> bool {
    let Ok(fds) = std::fs::read_dir(format!("/proc/{pid}/fd")) else {
        return false;
    };
    fds.filter_map(|fd| std::fs::read_link(fd.ok()?.path()).ok())
        .any(|target| target.starts_with(dir))
}

/// Starts a long simulate writing two files in `dir`, waits until it
/// writes its rows (the other output is made at the end), sends `signal`
/// and returns the exit code.
fn interrupt(dir: &Path, signal: i32) -> Option<i32> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_shardplan"))
        .args(["simulate", "-q", "--seconds", "50000000", "-o", "out.csv"])
        .args(["--per-second", "rows.csv"])
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let real = dir.canonicalize().unwrap();
    while !writing_in(child.id(), &real) {
        assert!(start.elapsed() < Duration::from_secs(30), "no rows written");
        std::thread::sleep(Duration::from_millis(20));
    }
    // Let it write some rows first.
    std::thread::sleep(Duration::from_millis(300));
    // SAFETY: kill with a valid pid and signal number.
    unsafe { libc::kill(child.id() as i32, signal) };
    let status = child.wait().unwrap();
    status.code()
}

#[test]
fn a_signal_removes_the_temp_files_and_keeps_the_old_outputs() {
    for (signal, code) in [
        (libc::SIGINT, 130),
        (libc::SIGTERM, 143),
        (libc::SIGHUP, 129),
    ] {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("out.csv"), "previous\n").unwrap();
        assert_eq!(interrupt(dir.path(), signal), Some(code), "signal {signal}");
        assert!(temps(dir.path()).is_empty(), "{:?}", temps(dir.path()));
        let out = std::fs::read_to_string(dir.path().join("out.csv")).unwrap();
        assert_eq!(out, "previous\n");
        assert!(!dir.path().join("rows.csv").exists());
    }
}
