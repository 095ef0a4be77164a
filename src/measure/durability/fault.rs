//! The fault of a run: at `--fault-at`, the user's command (run by `sh -c`
//! while the writers go on), or one buffered writer killed with what it
//! holds.

use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
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
    let out = Command::new("sh")
        .arg("-c")
        .arg(command)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output();
    let (exit_code, stderr) = match out {
        Ok(o) => {
            let text = String::from_utf8_lossy(&o.stderr);
            let last = text.lines().rev().find(|l| !l.trim().is_empty());
            (o.status.code(), last.map(|l| l.trim().to_string()))
        }
        Err(e) => (None, Some(format!("cannot start sh: {e}"))),
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

/// How long the run waits for a fault command still running when the
/// writes end.
pub(crate) fn grace() -> Duration {
    COMMAND_GRACE
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
