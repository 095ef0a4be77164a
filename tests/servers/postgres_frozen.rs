//! `measure --postgres` against a server that freezes mid-run (SIGSTOP to
//! the postmaster and every backend): its connections stay open and the
//! kernel still acknowledges packets, so no socket or statement timeout
//! fires. The run must still end, with one line and exit 1, by its bound
//! (3 x --duration + 20 x --timeout + 5 s). The server is thawed before
//! the fixture stops it.

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::postgres::{Pg, PASSWORD};

/// The binary with the fixture's password in PGPASSWORD.
fn shardplan() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_shardplan"));
    c.env("PGPASSWORD", PASSWORD);
    c
}

/// The cluster's processes: the postmaster (first line of postmaster.pid)
/// and its children (the backends, the run's connections among them),
/// found in /proc (field 4 of /proc/<pid>/stat is the parent's pid).
fn cluster_pids(pg: &Pg) -> Vec<i32> {
    let pid_file = std::fs::read_to_string(pg.data().join("postmaster.pid")).unwrap();
    let postmaster: i32 = pid_file.lines().next().unwrap().trim().parse().unwrap();
    let mut pids = vec![postmaster];
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // The command name, in parentheses, may hold spaces: read after it.
        let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
        let ppid = after
            .split_whitespace()
            .nth(1)
            .and_then(|p| p.parse::<i32>().ok());
        if ppid == Some(postmaster) {
            pids.push(pid);
        }
    }
    pids
}

fn signal(pids: &[i32], sig: i32) {
    for &pid in pids {
        // SAFETY: kill() with a pid of the test's own cluster and a signal
        // number has no memory effects.
        unsafe { libc::kill(pid, sig) };
    }
}

#[test]
fn a_frozen_server_ends_the_run_by_its_bound() {
    let pg = Pg::start();
    let mut child = shardplan()
        .args(["measure", "--postgres", &pg.url(), "--clients", "2"])
        .args(["--duration", "500ms", "--timeout", "100ms"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    pg.wait_for_load(2);
    let frozen = cluster_pids(&pg);
    signal(&frozen, libc::SIGSTOP);
    let started = Instant::now();
    // The bound is 3 x 0.5 s + 20 x 0.1 s + 5 s = 8.5 s from the run's start;
    // 40 s leaves room for a loaded machine before calling it a hang.
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break Some(s);
        }
        if started.elapsed() > Duration::from_secs(40) {
            let _ = child.kill();
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    signal(&frozen, libc::SIGCONT);
    let status = status.expect("measure hung on a frozen server");
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert_eq!(status.code(), Some(1), "{stderr}");
    let last = stderr.lines().last().unwrap_or("");
    assert!(last.contains("the server stopped answering"), "{stderr}");
    assert!(last.contains("may be left"), "{stderr}");
    assert!(
        !stderr.contains("panicked") && !stderr.contains(PASSWORD),
        "{stderr}"
    );
}
