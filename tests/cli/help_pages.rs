//! Issue 61: help that fits. `COMMAND --help` is every flag in at most 150
//! lines, each flag's help as that command uses it; `-h`'s examples use
//! only the flags `-h` lists.

use crate::common::{shardplan, SUBCOMMANDS};

/// What `shardplan ARGS` prints (at the width clap gives a pipe).
fn help(args: &[&str]) -> String {
    let out = shardplan()
        .args(args)
        .env_remove("COLUMNS")
        .output()
        .unwrap();
    assert!(out.status.success(), "{args:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// The long flags a help page lists: `  -o, --output` or `      --peak`.
fn listed(page: &str) -> Vec<String> {
    page.lines()
        .take_while(|l| !l.starts_with("Examples:"))
        .filter(|l| l.len() - l.trim_start().len() <= 6)
        .filter_map(|l| {
            let l = l.trim_start();
            // `-o, --output`: the long name after the short one.
            let l = match l.get(..4) {
                Some(p) if p.starts_with('-') && p.ends_with(", ") => &l[4..],
                _ => l,
            };
            l.strip_prefix("--")
        })
        .map(|rest| rest.split([' ', '=', ',']).next().unwrap().to_string())
        .collect()
}

/// Each example command of a help page, continuation lines joined:
/// (the command it runs, the long flags it types).
fn examples(page: &str) -> Vec<(String, Vec<String>)> {
    let Some((_, tail)) = page.split_once("Examples:\n") else {
        return Vec::new();
    };
    let joined = tail.replace("\\\n", " ");
    joined
        .lines()
        .map(str::trim)
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let l = l.split(" #").next().unwrap();
            let (_, rest) = l.split_once("shardplan ")?;
            let mut words = rest.split_whitespace();
            let command = words.next()?.to_string();
            let flags = words
                .filter_map(|w| w.strip_prefix("--"))
                .map(|f| f.split('=').next().unwrap().to_string())
                .collect();
            Some((command, flags))
        })
        .collect()
}

#[test]
fn every_help_page_fits_in_150_lines() {
    for c in SUBCOMMANDS {
        let page = help(&[c, "--help"]);
        let lines = page.lines().count();
        assert!(lines <= 150, "{c} --help is {lines} lines:\n{page}");
        // `help COMMAND` is the same page.
        assert_eq!(help(&["help", c]), page, "help {c}");
    }
}

#[test]
fn short_help_examples_use_only_listed_flags() {
    for c in SUBCOMMANDS {
        let page = help(&[c, "-h"]);
        for (command, flags) in examples(&page) {
            let shown = listed(&help(&[&command, "-h"]));
            for f in flags {
                assert!(
                    shown.contains(&f),
                    "{c} -h: an example of `{command}` types --{f}, which `{command} -h` does not list"
                );
            }
        }
    }
}

/// A shared flag's help on one command's page is that command's use of
/// it, not every command's.
#[test]
fn help_describes_each_flag_as_the_command_uses_it() {
    let size = help(&["size", "--help"]);
    for other in [
        "sweep:",
        "keys:",
        "measure:",
        "partitions:",
        "compare:",
        "fleet:",
    ] {
        assert!(
            !size.contains(other),
            "size --help speaks of {other}\n{size}"
        );
    }
    assert!(size.contains("Judge this deployed count"), "{size}");
    let sweep = help(&["sweep", "--help"]);
    assert!(sweep.contains("a range 10..40"), "{sweep}");
    let measure = help(&["measure", "--help"]);
    assert!(measure.contains("How long each phase drives the server"));
    assert!(!measure.contains("hot spell"), "{measure}");
    // Every flag stays on the page: each one the man page lists.
    for c in SUBCOMMANDS {
        let flags = listed(&help(&[c, "--help"]));
        let man = help(&["man", c]).replace("\\-", "-");
        for part in man.split("\\fB--").skip(1) {
            let f = part.split(['\\', '=', ' ']).next().unwrap();
            assert!(flags.iter().any(|l| l == f), "{c} --help lacks --{f}");
        }
    }
}
