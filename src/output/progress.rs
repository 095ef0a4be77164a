//! Progress on a terminal's stderr: a bar for work counted in steps, a
//! spinner with the time spent for work that is not. Both are hidden when
//! stderr is not a terminal, and when the caller does not want them
//! (`--quiet`, or work too short to need one).

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A bar over `steps` steps named `unit` ("simulated seconds").
pub fn bar(steps: u64, unit: &str, wanted: bool) -> ProgressBar {
    if !wanted || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::with_draw_target(Some(steps), ProgressDrawTarget::stderr());
    pb.set_style(
        ProgressStyle::with_template(&format!(
            "{{wide_bar}} {{human_pos}}/{{human_len}} {unit} ({{eta}} left)"
        ))
        .expect("valid template"),
    );
    pb
}

/// A spinner saying `what` and the time spent, ticking by itself until it
/// is dropped or finished.
pub fn spinner(what: String, wanted: bool) -> ProgressBar {
    if !wanted || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    pb.set_style(
        ProgressStyle::with_template("{spinner} {msg} ({elapsed})").expect("valid template"),
    );
    pb.set_message(what);
    pb.enable_steady_tick(Duration::from_millis(200));
    pb
}
