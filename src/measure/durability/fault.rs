//! The fault of a run: at `--fault-at`, the user's command (run by `sh -c`
//! while the writers go on), or one buffered writer killed with what it
//! holds.

use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use serde::Serialize;

/// What strikes at `--fault-at`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FaultAction {
    /// `--fault-command`: run by `sh -c`.
    Command(String),
    /// `--fault kill-writer`: writer 0 of the buffered design dies without
    /// flushing.
    KillWriter,
}

/// How the fault went.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct FaultReport {
    /// `command` or `kill-writer`.
    pub kind: String,
    /// The command, for `command`.
    pub command: Option<String>,
    /// Seconds from the start of the writes to the fault.
    pub at_seconds: f64,
    /// Seconds the command ran (0 for `kill-writer`).
    pub seconds: f64,
    /// The command's exit code; `None` if a signal ended it, or it could
    /// not start, or for `kill-writer`.
    pub exit_code: Option<i32>,
    /// The last line the command wrote on stderr, if any (or why it could
    /// not start).
    pub stderr: Option<String>,
}

/// How long a fault command may outlive the writes before the run stops
/// waiting for it.
const COMMAND_GRACE: Duration = Duration::from_secs(60);

/// Waits until `at` after `start` (or until `stop` is set), then strikes:
/// sets `kill_writer`, or runs the command. `None` when the writes ended
/// first.
pub(crate) fn strike(
    action: &FaultAction,
    start: Instant,
    at: Duration,
    stop: &AtomicBool,
    kill_writer: &AtomicBool,
) -> Option<FaultReport> {
    while start.elapsed() < at {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let at_seconds = start.elapsed().as_secs_f64();
    match action {
        FaultAction::KillWriter => {
            kill_writer.store(true, Ordering::Relaxed);
            Some(FaultReport {
                kind: "kill-writer".into(),
                command: None,
                at_seconds,
                seconds: 0.0,
                exit_code: None,
                stderr: None,
            })
        }
        FaultAction::Command(c) => Some(run_command(c, at_seconds)),
    }
}

/// Runs `command` by `sh -c`, its stdout discarded and its stderr kept;
/// killed after the writes' end plus [`COMMAND_GRACE`] at the latest is
/// the caller's: here it runs to its end.
fn run_command(command: &str, at_seconds: f64) -> FaultReport {
    let t = Instant::now();
    // stderr to a file, not a pipe: a daemon the command starts (a server's
    // restart) would hold a pipe open for its whole life.
    let (exit_code, stderr) = match tempfile::tempfile() {
        Ok(file) => run_to_file(command, file),
        Err(e) => (
            None,
            Some(format!("cannot make a file for its stderr: {e}")),
        ),
    };
    FaultReport {
        kind: "command".into(),
        command: Some(command.to_string()),
        at_seconds,
        seconds: t.elapsed().as_secs_f64(),
        exit_code,
        stderr,
    }
}

/// Runs `command`, its stderr into `file`: the exit code and the last line
/// it wrote there.
fn run_to_file(command: &str, mut file: std::fs::File) -> (Option<i32>, Option<String>) {
    use std::io::{Read, Seek};
    let status = file.try_clone().map_err(|e| e.to_string()).and_then(|err| {
        Command::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(err)
            .status()
            .map_err(|e| format!("cannot start sh: {e}"))
    });
    let status = match status {
        Ok(s) => s,
        Err(e) => return (None, Some(e)),
    };
    let mut text = String::new();
    let _ = file.rewind().and_then(|_| file.read_to_string(&mut text));
    let last = text.lines().rev().find(|l| !l.trim().is_empty());
    (status.code(), last.map(|l| l.trim().to_string()))
}

/// The report of a fault command still running [`COMMAND_GRACE`] after
/// the writes ended: it struck, and nothing more is known.
pub(crate) fn still_running(fault: &super::Fault) -> FaultReport {
    let command = match &fault.action {
        FaultAction::Command(c) => Some(c.clone()),
        FaultAction::KillWriter => None,
    };
    FaultReport {
        kind: if command.is_some() {
            "command"
        } else {
            "kill-writer"
        }
        .into(),
        command,
        at_seconds: fault.at.as_secs_f64(),
        seconds: 0.0,
        exit_code: None,
        stderr: Some(format!(
            "still running {} s after the writes ended; left to itself",
            COMMAND_GRACE.as_secs()
        )),
    }
}

/// A run's fault, striking from a thread of its own: not scoped, so a
/// fault command that never ends cannot hold the run.
pub(crate) struct Striker {
    fault: super::Fault,
    stop: Arc<AtomicBool>,
    report: mpsc::Receiver<Option<FaultReport>>,
}

impl Striker {
    /// Strikes `fault` at its moment after `start`; `kill_writer` is the
    /// flag `--fault kill-writer` sets.
    pub(crate) fn start(fault: super::Fault, start: Instant, kill_writer: Arc<AtomicBool>) -> Self {
        let stop = Arc::new(AtomicBool::new(false));
        let (tx, report) = mpsc::channel();
        let (action, at, thread_stop) = (fault.action.clone(), fault.at, Arc::clone(&stop));
        std::thread::spawn(move || {
            let _ = tx.send(strike(&action, start, at, &thread_stop, &kill_writer));
        });
        Striker {
            fault,
            stop,
            report,
        }
    }

    /// Once the writes have ended: the fault's report; `None` when the
    /// writes ended before it struck; [`still_running`] when its command is
    /// still running [`COMMAND_GRACE`] later.
    pub(crate) fn finish(self) -> Option<FaultReport> {
        self.stop.store(true, Ordering::Relaxed);
        match self.report.recv_timeout(COMMAND_GRACE) {
            Ok(report) => report,
            Err(_) => Some(still_running(&self.fault)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_runs_at_its_time_and_reports_its_exit_and_stderr() {
        let stop = AtomicBool::new(false);
        let kill = AtomicBool::new(false);
        let start = Instant::now();
        let action = FaultAction::Command("echo gone >&2; exit 3".into());
        let r = strike(&action, start, Duration::from_millis(30), &stop, &kill).unwrap();
        assert!(r.at_seconds >= 0.03);
        assert_eq!((r.exit_code, r.stderr.as_deref()), (Some(3), Some("gone")));
        assert!(!kill.load(Ordering::Relaxed));
    }

    #[test]
    fn kill_writer_sets_the_flag_and_a_stopped_run_strikes_nothing() {
        let stop = AtomicBool::new(false);
        let kill = AtomicBool::new(false);
        let r = strike(
            &FaultAction::KillWriter,
            Instant::now(),
            Duration::ZERO,
            &stop,
            &kill,
        );
        assert_eq!(r.unwrap().kind, "kill-writer");
        assert!(kill.load(Ordering::Relaxed));
        stop.store(true, Ordering::Relaxed);
        let never = strike(
            &FaultAction::KillWriter,
            Instant::now(),
            Duration::from_secs(60),
            &stop,
            &kill,
        );
        assert!(never.is_none());
    }
}
