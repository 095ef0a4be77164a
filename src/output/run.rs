//! What one run of shardplan carries from parsing to its last output: the
//! command's name (the JSON header), `--color`, and the files it reads and
//! writes. Made once at dispatch and handed down, so nothing about a run is
//! process-wide and two runs in one process (the tests) never see each
//! other's files.

use super::terminal::ColorChoice;
use crate::files::Claims;

/// One run's context.
#[derive(Debug, Clone)]
pub struct Run {
    /// The subcommand's name, as the JSON header gives it.
    pub command: &'static str,
    /// `--color`.
    pub color: ColorChoice,
    /// Every file the run reads or writes, and who took standard input.
    pub claims: Claims,
}

impl Run {
    /// A run of `command` with `--color` `color` and no file claimed yet.
    pub fn new(command: &'static str, color: ColorChoice) -> Self {
        Run {
            command,
            color,
            claims: Claims::default(),
        }
    }
}
