//! How wide and whether coloured: a table on a terminal fits its width and
//! colours warnings and failed verdicts; anywhere else (a pipe, a file) it
//! is drawn at a readable fixed width with no escape codes. `--color
//! auto|always|never`, `NO_COLOR` (<https://no-color.org>) and
//! `CLICOLOR_FORCE` (<https://bixense.com/clicolors/>) decide colour.

use std::io::IsTerminal;

/// Width of tables and prose when stdout is not a terminal and `COLUMNS`
/// is not set.
pub const FALLBACK_WIDTH: usize = 120;
/// Narrowest width drawn to, however small the terminal.
const MIN_WIDTH: usize = 40;

/// `--color`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum ColorChoice {
    /// Colour when stdout is a terminal, or `CLICOLOR_FORCE` is set (not
    /// `0`), and `NO_COLOR` is unset.
    #[default]
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

/// How one destination is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Style {
    /// Columns a line may take.
    pub width: usize,
    /// ANSI colours on.
    pub colour: bool,
    /// `--wide`: every column of a table, none left out to fit the width.
    pub wide: bool,
}

impl Style {
    /// A file or a pipe: the fallback width, no colour (unless `--color
    /// always`).
    pub fn plain(color: ColorChoice) -> Style {
        Style {
            width: FALLBACK_WIDTH,
            colour: color == ColorChoice::Always,
            wide: false,
        }
    }

    /// The same style, with every column kept when `wide`.
    pub fn widened(self, wide: bool) -> Style {
        Style { wide, ..self }
    }

    /// Standard output: a terminal's width and colour, else [`Style::plain`].
    pub fn stdout(color: ColorChoice) -> Style {
        let tty = std::io::stdout().is_terminal();
        let columns = std::env::var("COLUMNS")
            .ok()
            .and_then(|c| c.trim().parse::<usize>().ok());
        // A terminal says its own width; a pipe takes COLUMNS if set.
        let width = match tty {
            true => terminal_size::terminal_size()
                .map(|(w, _)| w.0 as usize)
                .or(columns)
                .unwrap_or(FALLBACK_WIDTH),
            false => columns.unwrap_or(FALLBACK_WIDTH),
        };
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        let forced = std::env::var_os("CLICOLOR_FORCE").is_some_and(|v| !v.is_empty() && v != "0");
        let colour = match color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => (tty || forced) && !no_color,
        };
        Style {
            width: width.max(MIN_WIDTH),
            colour,
            wide: false,
        }
    }
}

/// `text` broken at spaces into lines of at most `width` characters (a
/// word longer than the width gets a line of its own, cut at the width).
pub fn wrap(text: &str, width: usize) -> String {
    let mut out = Vec::new();
    for para in text.split('\n') {
        let mut line = String::new();
        for word in para.split(' ') {
            let mut word = word.to_string();
            while word.chars().count() > width {
                if !line.is_empty() {
                    out.push(std::mem::take(&mut line));
                }
                let head: String = word.chars().take(width).collect();
                out.push(head);
                word = word.chars().skip(width).collect();
            }
            let len = line.chars().count();
            if len > 0 && len + 1 + word.chars().count() > width {
                out.push(std::mem::take(&mut line));
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&word);
        }
        out.push(line);
    }
    out.join("\n")
}

/// Red: a verdict that fails.
pub const RED: &str = "31";
/// Yellow: a warning.
pub const YELLOW: &str = "33";

/// `text` in the ANSI colour `code`, line by line (so a wrapped note stays
/// coloured and the reset comes before each newline).
pub fn paint(text: &str, code: &str) -> String {
    text.lines()
        .map(|l| format!("\x1b[{code}m{l}\x1b[0m"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_keeps_lines_within_the_width() {
        let text = "one two three four five six seven eight nine ten";
        let w = wrap(text, 12);
        assert!(w.lines().all(|l| l.chars().count() <= 12), "{w}");
        assert_eq!(w.replace('\n', " "), text);
        assert_eq!(wrap("abcdefghij", 4), "abcd\nefgh\nij");
    }

    #[test]
    fn paint_colours_every_line_and_resets_it() {
        assert_eq!(paint("a\nb", RED), "\x1b[31ma\x1b[0m\n\x1b[31mb\x1b[0m");
    }
}
