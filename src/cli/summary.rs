//! What `-h` shows: a page that fits a screen. Each command lists its main
//! flags, one line each; `--help` keeps every flag with its full help (the
//! definitions in `defs.rs` and `groups.rs`, which this file only selects
//! from and sums up).

use clap::{Command, CommandFactory};

use super::Cli;

/// The flags each command's `-h` lists (the rest are under `--help`).
const MAIN_FLAGS: &[(&str, &[&str])] = &[
    (
        "size",
        &[
            "scenario", "peak", "safe", "observed", "cap", "store", "risk", "duration", "shards",
            "check", "output",
        ],
    ),
    (
        "simulate",
        &[
            "scenario",
            "rate",
            "shards",
            "seconds",
            "traffic",
            "cap",
            "picker",
            "seed",
            "threads",
            "per-second",
            "format",
            "output",
        ],
    ),
    (
        "risk",
        &[
            "scenario", "rate", "shards", "cap", "duration", "traffic", "picker", "check",
            "format", "output",
        ],
    ),
    (
        "sweep",
        &[
            "scenario", "rate", "shards", "cap", "duration", "traffic", "picker", "check", "wide",
            "format", "output",
        ],
    ),
    (
        "compare",
        &[
            "scenario", "rate", "shards", "peak", "cap", "store", "measure", "wide", "format",
            "output",
        ],
    ),
    (
        "fleet",
        &[
            "scenario",
            "reels",
            "rates-csv",
            "threshold",
            "target-shards",
            "partitions",
            "cap",
            "risk",
            "trials",
            "seed",
            "format",
            "output",
        ],
    ),
    (
        "measure",
        &[
            "redis", "postgres", "cluster", "design", "shards", "clients", "duration", "rate",
            "picker", "format", "output",
        ],
    ),
    (
        "report",
        &[
            "scenario", "peak", "rate", "shards", "seconds", "cap", "risk", "measure", "check",
            "output",
        ],
    ),
    (
        "chart",
        &[
            "kind", "scenario", "rate", "shards", "seconds", "cap", "duration", "output",
        ],
    ),
    (
        "resize",
        &[
            "scenario",
            "from",
            "to",
            "order",
            "likes-before",
            "likes-after",
            "settings-ttl",
            "format",
            "output",
        ],
    ),
    (
        "keys",
        &[
            "template", "shards", "nodes", "store", "stdin", "check", "format", "output",
        ],
    ),
    (
        "partitions",
        &[
            "shards",
            "partitions",
            "rate",
            "cap",
            "trials",
            "seed",
            "format",
            "output",
        ],
    ),
];

/// The one line `-h` gives a flag whose full help is longer: for one
/// command where the flag means more there, else (`*`) for every command.
const ONE_LINE: &[(&str, &str, &str)] = &[
    (
        "*",
        "scenario",
        "A bundled scenario (`shardplan scenarios`), a TOML file, or -",
    ),
    (
        "*",
        "rate",
        "Likes/s on the counter (default: the planned peak)",
    ),
    (
        "measure",
        "rate",
        "With --design: likes/s of all the writers together (default 2000)",
    ),
    (
        "*",
        "shards",
        "Shard keys of the counter (default: the count `size` recommends)",
    ),
    (
        "size",
        "shards",
        "Judge this deployed count instead of recommending one",
    ),
    ("measure", "shards", "Shard keys written (default 16)"),
    (
        "keys",
        "shards",
        "Expand the template for shards 0..N-1 (default 20)",
    ),
    ("partitions", "shards", "Shard keys placed (required)"),
    (
        "*",
        "seconds",
        "Simulated seconds: 2000, or 33m, 4h (default: the scenario's, else 2000)",
    ),
    (
        "*",
        "traffic",
        "How the likes of a second arrive (default fixed)",
    ),
    (
        "*",
        "cap",
        "The store's write cap per key, writes/s (default: the store's, else 1000)",
    ),
    (
        "*",
        "safe",
        "Safe writes/s to plan per key, at most the cap",
    ),
    (
        "*",
        "observed",
        "The highest rate seen so far, likes/s (peak = observed x growth)",
    ),
    (
        "*",
        "store",
        "A store preset: its cap, read cap, burst and batch size",
    ),
    (
        "*",
        "risk",
        "Accepted chance of any second over the cap during --duration",
    ),
    (
        "fleet",
        "risk",
        "Accepted chance of any partition second over the cap (default 0.01)",
    ),
    (
        "*",
        "duration",
        "How long the load lasts: 90s, 10m, 4h (default 4h)",
    ),
    (
        "measure",
        "duration",
        "How long each phase drives the server (default 10s)",
    ),
    (
        "*",
        "picker",
        "How each app server picks a like's shard (default random)",
    ),
    (
        "*",
        "seed",
        "Master seed of every random draw (default: the scenario's, else 2026)",
    ),
    (
        "*",
        "check",
        "Exit 1 when the verdict on the shard count fails (a CI gate)",
    ),
    (
        "*",
        "format",
        "Output format (default: a table, or -o's extension)",
    ),
    (
        "*",
        "output",
        "Write to PATH; its extension picks the format (repeatable)",
    ),
    (
        "report",
        "output",
        "The folder for report.md, report.html and the charts (default report)",
    ),
    ("chart", "output", "The .svg file to write (required)"),
    (
        "*",
        "per-second",
        "Stream one CSV row per simulated second to FILE",
    ),
    (
        "*",
        "wide",
        "Every column in tables, none left out to fit the width",
    ),
    ("*", "measure", "Quote a `shardplan measure` JSON file"),
    ("*", "reels", "Reels in the fleet"),
    (
        "*",
        "rates-csv",
        "The reels' likes/s from a CSV file instead of a Zipf law",
    ),
    (
        "*",
        "threshold",
        "Monitor: likes/s that raise a reel (default 300)",
    ),
    (
        "*",
        "target-shards",
        "Monitor: shards a raised reel gets (default 20)",
    ),
    (
        "*",
        "partitions",
        "Partitions of a hashed store the shard keys land on",
    ),
    (
        "fleet",
        "partitions",
        "Partitions of the hashed store (default 1000)",
    ),
    (
        "partitions",
        "partitions",
        "Partitions of the hashed store (required)",
    ),
    ("*", "trials", "Random placements averaged"),
    ("*", "redis", "The Redis server: redis://host:port"),
    (
        "*",
        "postgres",
        "The PostgreSQL server: postgres://user@host/db",
    ),
    (
        "*",
        "design",
        "Drive one design (single, sharded, buffered, log) and count losses",
    ),
    ("*", "clients", "Concurrent connections writing"),
    ("*", "kind", "Which chart"),
    (
        "*",
        "template",
        "The shard key template, with a <shard> placeholder",
    ),
    (
        "*",
        "nodes",
        "Redis Cluster masters the 16,384 slots are split over",
    ),
];

/// The one line of `flag` in `command`'s `-h`, if it needs one.
fn one_line(command: &str, flag: &str) -> Option<&'static str> {
    let of = |c: &str| {
        ONE_LINE
            .iter()
            .find(|(on, f, _)| *on == c && *f == flag)
            .map(|(_, _, line)| *line)
    };
    of(command).or_else(|| of("*"))
}

/// The command line as `parse` and the help pages see it: every command's
/// `-h` narrowed to its main flags, one line each.
pub fn command() -> Command {
    let mut cmd = Cli::command().mut_arg("color", |a| a.hide_short_help(true));
    for (name, flags) in MAIN_FLAGS {
        cmd = cmd.mut_subcommand(*name, |sub| summarised(sub, name, flags));
    }
    cmd
}

/// `sub` with only `main` in its `-h`, each with its one line there.
fn summarised(sub: Command, name: &str, main: &[&str]) -> Command {
    let args: Vec<(clap::Id, Option<String>)> = sub
        .get_arguments()
        .map(|a| (a.get_id().clone(), a.get_long().map(String::from)))
        .collect();
    args.into_iter()
        .fold(sub, |sub, (id, long)| match long.as_deref() {
            Some("help") => sub,
            Some(l) if main.contains(&l) => match one_line(name, l) {
                Some(short) => sub.mut_arg(id, |a| {
                    let full = a.get_long_help().or(a.get_help()).cloned();
                    match full {
                        Some(full) => a.help(short).long_help(full),
                        None => a.help(short),
                    }
                }),
                None => sub,
            },
            _ => sub.mut_arg(id, |a| a.hide_short_help(true)),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every flag a summary names is one of its command's, and every one
    /// line is a flag some summary shows.
    #[test]
    fn the_summaries_name_real_flags() {
        let cmd = Cli::command();
        for (name, flags) in MAIN_FLAGS {
            let sub = cmd
                .find_subcommand(name)
                .unwrap_or_else(|| panic!("{name}"));
            for f in *flags {
                assert!(
                    sub.get_arguments().any(|a| a.get_long() == Some(f)),
                    "{name} has no --{f}"
                );
            }
        }
        for (on, flag, line) in ONE_LINE {
            assert!(
                MAIN_FLAGS
                    .iter()
                    .any(|(c, fs)| (*on == "*" || on == c) && fs.contains(flag)),
                "{on} --{flag}'s one line is shown nowhere"
            );
            assert!(line.len() <= 76, "--{flag}: {line}");
        }
    }
}
