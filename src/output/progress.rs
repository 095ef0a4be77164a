//! Progress on a terminal's stderr: a bar for work counted in steps, a
//! spinner with the time spent for work that is not (after a second). Both are hidden when
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
/// is finished. It appears only once the work has taken a second, so a
/// short run draws nothing.
pub fn spinner(what: String, wanted: bool) -> ProgressBar {
    if !wanted || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
    pb.set_style(
        ProgressStyle::with_template("{spinner} {msg} ({elapsed})").expect("valid template"),
    );
    pb.set_message(what);
    let shown = pb.clone();
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_secs(1));
        if !shown.is_finished() {
            shown.set_draw_target(ProgressDrawTarget::stderr());
            shown.enable_steady_tick(Duration::from_millis(200));
        }
    });
    pb
}
