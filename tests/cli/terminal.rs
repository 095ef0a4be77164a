//! The binary in a pseudo-terminal, as a user sees it: through script(1)
//! (util-linux, on every Debian system) with the terminal set to 80 and 120
//! columns. Every command's default output fits the width; colour appears
//! on a terminal and never with NO_COLOR or --color never; a pipe gets no
//! escape codes and the fallback width.

use std::process::Command;

/// Runs `shardplan ARGS` in a pty of `cols` columns; the output with
/// carriage returns removed.
fn in_pty(cols: u16, env: &str, args: &str) -> String {
    let bin = env!("CARGO_BIN_EXE_shardplan");
    let cmd = format!("stty rows 50 cols {cols}; {env} {bin} {args}");
    let out = Command::new("script")
        .args(["-qec", &cmd, "/dev/null"])
        .output()
        .expect("script(1) runs (util-linux)");
    assert!(
        out.status.success(),
        "{args}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).replace('\r', "")
}

fn strip_ansi(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            // ESC [ ... letter
            for d in chars.by_ref() {
                if d.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

const COMMANDS: &[&str] = &[
    "size",
    "size --peak 14000 --risk 0.01 --partitions 1000 --traffic poisson",
    "simulate --seconds 300",
    "risk",
    "sweep",
    "compare",
    "stores",
    "scenarios",
    "keys --template 'reel:8841:likes:<shard>' --shards 20 --nodes 3",
    "partitions --shards 20 --partitions 1000 --rate 14000 --cap 1000",
    "fleet --reels 100000 --partitions 100 --trials 32 --max-shards 256",
    "resize --scenario grow-right-order",
    "simulate --scenario viral-evening",
];

#[test]
fn every_default_output_fits_80_and_120_columns() {
    for cols in [80u16, 120] {
        for args in COMMANDS {
            let text = strip_ansi(&in_pty(cols, "", args));
            let widest = text.lines().map(|l| l.chars().count()).max().unwrap_or(0);
            assert!(
                widest <= cols as usize,
                "`shardplan {args}` at {cols} columns: a line of {widest}\n{text}"
            );
        }
    }
}

/// The cells of every table, as words: a table too wide to keep its words
/// whole leaves out its secondary columns and says so (`sweep`), or with
/// `--wide` is drawn one record per row (psql's expanded display), instead
/// of cutting `2.667e-14` or `sharded-buffered` across two lines.
#[test]
fn tables_keep_numbers_and_names_whole_at_80_columns() {
    let cases: &[(&str, &[&str])] = &[
        (
            "sweep --shards 18..20",
            &[
                "2.667e-14",
                "┆ fails: thumb │",
                "Left out to fit 80 columns: reads/s uncached",
            ],
        ),
        (
            "sweep --shards 18..20 --wide",
            &["2.667e-14", "1,000,000", "P(over)/s"],
        ),
        (
            "compare --wide",
            &["sharded-buffered", "70,000", "crash loss"],
        ),
        ("compare", &["sharded-buffered", "hash-sharded"]),
    ];
    for (args, words) in cases {
        let text = strip_ansi(&in_pty(80, "", args));
        for w in *words {
            assert!(
                text.contains(w),
                "`shardplan {args}` at 80 columns cuts {w}:\n{text}"
            );
        }
        let widest = text.lines().map(|l| l.chars().count()).max().unwrap_or(0);
        assert!(widest <= 80, "{args}: {widest}");
    }
    // At 120 columns the sweep is one table with every column, nothing
    // left out.
    let wide = strip_ansi(&in_pty(120, "", "sweep --shards 18..20"));
    assert!(wide.contains("(14,000 likes/s, cap 1,000"), "{wide}");
    assert!(wide.contains("│ shards ┆ P(over)/s ┆"), "{wide}");
    assert!(
        wide.contains("1,000,000") && !wide.contains("Left out"),
        "{wide}"
    );
}

/// Issue 61: at 80 columns a five-row sweep is at most 14 lines, a row a
/// line: the constant likes/s in the title, short headers and verdicts
/// ("fails: thumb"), secondary columns left out until every row fits.
#[test]
fn a_five_row_sweep_is_a_line_a_row_at_80_columns() {
    let text = strip_ansi(&in_pty(80, "", "sweep --shards 18..22 --rate 14000"));
    assert!(text.lines().count() <= 14, "{text}");
    for shards in 18..=22 {
        let row = format!("│ {shards} ");
        let line = text
            .lines()
            .find(|l| l.starts_with(&row))
            .unwrap_or_default();
        let verdict = if shards < 20 { "fails: thumb" } else { "holds" };
        assert!(line.contains(verdict), "{shards}: {text}");
    }
    // A sweep over rates keeps its likes/s column.
    let rates = strip_ansi(&in_pty(80, "", "sweep --shards 20 --rate 9000,14000"));
    assert!(rates.contains("likes/s"), "{rates}");
}

#[test]
fn colour_on_a_terminal_and_never_when_told_or_piped() {
    let args = "size --store dynamodb --partitions 1000"; // prints a WARNING
    assert!(
        in_pty(100, "", args).contains("\x1b[33m"),
        "warnings are yellow"
    );
    assert!(!in_pty(100, "NO_COLOR=1", args).contains('\x1b'));
    assert!(!in_pty(100, "", &format!("{args} --color never")).contains('\x1b'));
    let piped = Command::new(env!("CARGO_BIN_EXE_shardplan"))
        .args(args.split(' '))
        .output()
        .unwrap();
    let text = String::from_utf8(piped.stdout).unwrap();
    assert!(!text.contains('\x1b'));
    assert!(text.lines().all(|l| l.chars().count() <= 120), "{text}");
    let forced = Command::new(env!("CARGO_BIN_EXE_shardplan"))
        .args(args.split(' '))
        .args(["--color", "always"])
        .output()
        .unwrap();
    assert!(String::from_utf8(forced.stdout)
        .unwrap()
        .contains("\x1b[33m"));
    // CLICOLOR_FORCE colours a pipe too (not when it is 0, nor with
    // NO_COLOR).
    let piped_with = |env: &[(&str, &str)]| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_shardplan"));
        c.args(args.split(' ')).env_remove("NO_COLOR");
        for (k, v) in env {
            c.env(k, v);
        }
        String::from_utf8(c.output().unwrap().stdout).unwrap()
    };
    assert!(piped_with(&[("CLICOLOR_FORCE", "1")]).contains("\x1b[33m"));
    assert!(!piped_with(&[("CLICOLOR_FORCE", "0")]).contains('\x1b'));
    assert!(!piped_with(&[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]).contains('\x1b'));
}

/// Each kind of bad news is coloured as what it is (typed in the view, not
/// matched in the text): failures red, warnings yellow.
#[test]
fn failures_are_red_and_warnings_yellow() {
    let coloured = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_shardplan"))
            .args(args)
            .args(["--color", "always"])
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    let red = "\x1b[31m";
    let yellow = "\x1b[33m";
    // 18,000 likes/s on 20 shards: over the cap within the run.
    let risk = coloured(&["risk", "--scenario", "overload"]);
    assert!(
        risk.contains(red) && risk.contains("P(at least one second"),
        "{risk}"
    );
    assert!(coloured(&["simulate", "--scenario", "overload", "--seconds", "100"]).contains(red));
    assert!(coloured(&["size", "--shards", "10"]).contains(red));
    // An undercount while resizing, keys in one tablet, reads past the cap.
    assert!(coloured(&["resize", "--scenario", "grow-wrong-order"]).contains(yellow));
    let sorted = coloured(&["keys", "--store", "sorted", "--template", "reel:1:<shard>"]);
    assert!(sorted.contains(yellow), "{sorted}");
    let size = coloured(&["size", "--store", "dynamodb"]);
    assert!(size.contains(yellow) && size.contains("read cap"), "{size}");
    // A plan that holds is not coloured.
    let fine = coloured(&["risk", "--shards", "20"]);
    assert!(!fine.contains(red), "{fine}");
}

/// A long time line shows its progress on a terminal (and nothing when
/// stderr is piped), as a long flat simulation does.
#[test]
fn a_long_time_line_shows_progress_on_a_terminal() {
    let args = "simulate --scenario viral-evening --seconds 20000000";
    let text = in_pty(80, "", &format!("{args} >/dev/null"));
    assert!(text.contains("simulated seconds"), "{text}");
    let piped = Command::new(env!("CARGO_BIN_EXE_shardplan"))
        .args(args.split(' '))
        .output()
        .unwrap();
    assert!(
        piped.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&piped.stderr)
    );
}

/// A picker drawing every like of a few long seconds (two-choice at 1e8
/// likes/s past its tables) says it is working and how long it should
/// take: a bar over 2 seconds would sit at 0 until the end (issue 58).
#[test]
fn a_few_long_seconds_show_a_spinner_with_their_estimate() {
    let args = "simulate --picker two-choice --servers 40 --shards 1000 --rate 1e8 --seconds 2";
    let text = in_pty(100, "", &format!("{args} >/dev/null"));
    assert!(text.contains("simulating 2 s (about "), "{text}");
}

/// `-h` is a summary that fits a screen (at most 50 lines at 80 columns:
/// the main flags, one line each); `--help` keeps every flag.
#[test]
fn short_help_fits_a_screen_and_long_help_keeps_every_flag() {
    let commands = std::iter::once(&"").chain(crate::common::SUBCOMMANDS);
    for c in commands {
        let text = strip_ansi(&in_pty(80, "", &format!("{c} -h")));
        let lines = text.lines().count();
        assert!(lines <= 50, "`shardplan {c} -h` is {lines} lines:\n{text}");
        let widest = text.lines().map(|l| l.chars().count()).max().unwrap_or(0);
        assert!(widest <= 80, "{c} -h: {widest}");
    }
    let short = strip_ansi(&in_pty(80, "", "simulate -h"));
    let long = strip_ansi(&in_pty(80, "", "simulate --help"));
    for flag in ["--seconds", "--shards", "--seed"] {
        assert!(short.contains(flag) && long.contains(flag), "{flag}");
    }
    for flag in ["--dispersion", "--sampler", "--unlike-share", "--color"] {
        assert!(!short.contains(flag) && long.contains(flag), "{flag}");
    }
}
