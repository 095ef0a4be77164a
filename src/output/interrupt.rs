//! Interrupted runs: on SIGINT, SIGTERM or SIGHUP the temporary files of
//! the outputs being written are removed before the process exits, so an
//! interrupted run leaves the previous outputs as they were and no
//! `.shardplan-*.tmp` behind. The exit code is the shell's convention,
//! 128 + the signal's number (130 for Ctrl-C).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::Mutex;

/// Set by a command that must clean up outside the process before it
/// exits (`measure` deletes its Redis keys): the first signal is then only
/// recorded, and the command stops at its next check.
static DEFER: AtomicBool = AtomicBool::new(false);
/// The signal received while deferring (0: none).
static RECEIVED: AtomicI32 = AtomicI32::new(0);

/// From now on the first signal asks the run to stop ([`received`])
/// instead of ending the process; a second one ends it at once.
pub fn defer_exit() {
    DEFER.store(true, Ordering::SeqCst);
}

/// The signal that asked a deferring run to stop, if any.
pub fn received() -> Option<i32> {
    match RECEIVED.load(Ordering::SeqCst) {
        0 => None,
        s => Some(s),
    }
}

/// The temporary files and folders made so far and not yet renamed into
/// place (a folder: true).
static TEMPS: Mutex<Vec<(PathBuf, bool)>> = Mutex::new(Vec::new());

/// Removes the file `path` if the run is interrupted before [`untrack`].
pub fn track(path: &Path) {
    let mut temps = TEMPS.lock().unwrap_or_else(|e| e.into_inner());
    temps.push((path.to_path_buf(), false));
}

/// Removes the folder `path` and what it holds if the run is interrupted
/// before [`untrack`].
pub fn track_folder(path: &Path) {
    let mut temps = TEMPS.lock().unwrap_or_else(|e| e.into_inner());
    temps.push((path.to_path_buf(), true));
}

/// `path` was renamed into place (or removed): nothing left to clean.
pub fn untrack(path: &Path) {
    let mut temps = TEMPS.lock().unwrap_or_else(|e| e.into_inner());
    temps.retain(|(p, _)| p != path);
}

/// Starts the thread that waits for the signals. Without it (a failure to
/// register, which the OS does not do in practice) the default action
/// stands: the run stops, and its temporary files stay behind.
#[cfg(unix)]
pub fn install() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        return;
    };
    std::thread::spawn(move || {
        for signal in signals.forever() {
            let first = RECEIVED.load(Ordering::SeqCst) == 0;
            if first && DEFER.load(Ordering::SeqCst) {
                RECEIVED.store(signal, Ordering::SeqCst);
                continue;
            }
            let temps = TEMPS.lock().unwrap_or_else(|e| e.into_inner());
            for (path, folder) in temps.iter() {
                let _ = match folder {
                    true => std::fs::remove_dir_all(path),
                    false => std::fs::remove_file(path),
                };
            }
            std::process::exit(128 + signal);
        }
    });
}

#[cfg(not(unix))]
pub fn install() {}
