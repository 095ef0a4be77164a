//! What `-h` shows: a page that fits a screen. Each command lists its main
//! flags, one line each; `--help` keeps every flag with its full help (the
//! definitions in `defs.rs` and `groups.rs`, which this file only selects
//! from and sums up).

use clap::{Command, CommandFactory};

use super::Cli;
use crate::model::defaults as d;
use crate::output::fmt;

/// The flags each command's `-h` lists (the rest are under `--help`).
const MAIN_FLAGS: &[(&str, &[&str])] = &[
    (
        "size",
        &[
            "scenario",
            "peak",
            "safe",
            "observed",
            "cap",
            "store",
            "risk",
            "duration",
            "traffic",
            "partitions",
            "shards",
            "check",
            "format",
            "output",
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
            "hot-reel",
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
            "redis",
            "postgres",
            "cluster",
            "design",
            "reconcile",
            "shards",
            "clients",
            "duration",
            "rate",
            "picker",
            "format",
            "output",
        ],
    ),
    (
        "reconcile",
        &[
            "scenario",
            "daily-likes",
            "reels",
            "likes-per-reel",
            "timeout-share",
            "retry",
            "increment-fail-share",
            "scan-rate",
            "every",
            "peak",
            "read-price",
            "format",
            "output",
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

/// The flags whose one line in `-h` names their values (clap's list of
/// them is left to `--help`).
const VALUES_IN_LINE: &[&str] = &["store", "traffic", "format"];

/// The one line `-h` gives a flag whose full help is longer, in
/// `command` (a flag that means more in one command has its own line
/// there); defaults come from `model::defaults`, as the full help's do.
fn one_line(command: &str, flag: &str) -> Option<String> {
    if let Some(line) = (command == "reconcile")
        .then(|| reconcile_line(flag))
        .flatten()
    {
        return Some(line);
    }
    let text = match (command, flag) {
        ("measure", "rate") => format!(
            "With --design or --reconcile: likes/s of all writers (default {})",
            fmt::num(crate::measure::durability::DEFAULT_DURABILITY_RATE)
        ),
        ("size", "shards") => "Judge this deployed count, not a new one".into(),
        ("measure", "shards") => {
            format!("Shard keys written (default {})", d::DEFAULT_MEASURE_SHARDS)
        }
        ("keys", "shards") => format!(
            "Expand the template for shards 0..N-1 (default {})",
            d::DEFAULT_KEY_SHARDS
        ),
        ("partitions", "shards") => "Shard keys placed (required)".into(),
        ("fleet", "risk") => format!(
            "Accepted chance of any partition second over the cap (default {})",
            d::DEFAULT_RISK
        ),
        ("measure", "duration") => format!(
            "How long each phase drives the server (default {})",
            d::DEFAULT_MEASURE_DURATION
        ),
        ("report", "output") => format!(
            "The folder for report.md, report.html and the charts (default {})",
            d::DEFAULT_REPORT_DIR
        ),
        ("chart", "output") => "The .svg file to write (required)".into(),
        ("fleet", "partitions") => format!(
            "Partitions of the hashed store (default {})",
            d::DEFAULT_FLEET_PARTITIONS
        ),
        ("partitions", "partitions") => "Partitions of the hashed store (required)".into(),
        (_, flag) => return any_command(flag),
    };
    Some(text)
}

/// `reconcile`'s own lines.
fn reconcile_line(flag: &str) -> Option<String> {
    let text = match flag {
        "daily-likes" => format!(
            "Likes a day over all reels (default {})",
            fmt::num(d::DEFAULT_LIKES_PER_DAY)
        ),
        "reels" => format!(
            "Reels the job counts a run (default {})",
            fmt::count(d::DEFAULT_REELS)
        ),
        "likes-per-reel" => format!(
            "Like rows counted per reel (default {})",
            fmt::num(d::DEFAULT_LIKES_PER_REEL)
        ),
        "timeout-share" => format!(
            "Share of replies lost, F (default {})",
            d::DEFAULT_TIMEOUT_RATE
        ),
        "retry" => format!(
            "After a lost reply: none or once (default {})",
            d::DEFAULT_RETRY.name()
        ),
        "increment-fail-share" => format!(
            "Increments refused after the row was saved, G (default {})",
            d::DEFAULT_INCREMENT_FAIL_SHARE
        ),
        "scan-rate" => format!(
            "Rows a second the job counts (default {})",
            fmt::num(d::DEFAULT_SCAN_ROWS_PER_SECOND)
        ),
        "every" => format!(
            "Time between runs (default {})",
            super::defs::typed(d::DEFAULT_RECONCILE_EVERY_SECONDS)
        ),
        "peak" => "The hottest reel's peak likes/s (default: the scenario's)".into(),
        "read-price" => "Price per million rows read, for the job's cost".into(),
        _ => return None,
    };
    Some(text)
}

/// The one line of `flag` wherever it has no line of its own.
fn any_command(flag: &str) -> Option<String> {
    let text = match flag {
        "scenario" => "A bundled scenario (`shardplan scenarios`), a TOML file, or -".into(),
        "rate" => "Likes/s on the counter (default: the planned peak)".into(),
        "shards" => "Shard keys of the counter (default: the count `size` recommends)".into(),
        "seconds" => format!(
            "Simulated seconds: 2000, or 33m, 4h (default: the scenario's, else {})",
            fmt::count(d::DEFAULT_SECONDS)
        ),
        "traffic" => "Likes a second: fixed (default), poisson, gamma-poisson, empirical".into(),
        "cap" => format!(
            "Cap per key, writes/s (store's, else {})",
            fmt::num(d::DEFAULT_CAP)
        ),
        "safe" => "Safe writes/s to plan per key, at most the cap".into(),
        "observed" => "The highest likes/s seen (peak = it x growth)".into(),
        "store" => "A store preset: dynamodb, firestore, postgres, redis-cluster, sorted".into(),
        "risk" => "Accepted P(any second over the cap) in --duration".into(),
        "duration" => format!(
            "How long the load lasts: 90s, 10m, 4h (default {})",
            super::defs::typed(d::DEFAULT_DURATION_SECONDS)
        ),
        "picker" => "How each app server picks a like's shard (default random)".into(),
        "seed" => format!(
            "Master seed of every random draw (default: the scenario's, else {})",
            d::DEFAULT_SEED
        ),
        "check" => "Exit 1 when the count fails its verdict (CI)".into(),
        "format" => "table, csv, json, markdown, tsv (default: -o's or table)".into(),
        "output" => "Write to PATH, format by extension (repeatable)".into(),
        "per-second" => "Stream one CSV row per simulated second to FILE".into(),
        "wide" => "Every column in tables, none left out to fit the width".into(),
        "measure" => "Quote a `shardplan measure` JSON file".into(),
        "hot-reel" => "A reel on top of the background: NAME=RATE[:SHARDS]".into(),
        "reels" => "Reels in the fleet".into(),
        "rates-csv" => "The reels' likes/s from a CSV file instead of a Zipf law".into(),
        "threshold" => format!(
            "Monitor: likes/s that raise a reel (default {})",
            d::DEFAULT_THRESHOLD
        ),
        "target-shards" => format!(
            "Monitor: shards a raised reel gets (default {})",
            d::DEFAULT_TARGET_SHARDS
        ),
        "partitions" => "Partitions of a hashed store the shard keys land on".into(),
        "trials" => "Random placements averaged".into(),
        "redis" => "The Redis server: redis://host:port".into(),
        "postgres" => "The PostgreSQL server: postgres://user@host/db".into(),
        "design" => "Drive one design (single, sharded, buffered, log) and count losses".into(),
        "reconcile" => "With --redis and --postgres: the drift and the job that closes it".into(),
        "clients" => "Concurrent connections writing".into(),
        "kind" => "Which chart".into(),
        "template" => "The shard key template, with a <shard> placeholder".into(),
        "nodes" => "Redis Cluster masters the 16,384 slots are split over".into(),
        _ => return None,
    };
    Some(text)
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
                    let a = a.hide_possible_values(VALUES_IN_LINE.contains(&l));
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
        for (name, flags) in MAIN_FLAGS {
            for f in *flags {
                if let Some(line) = one_line(name, f) {
                    assert!(line.len() <= 76, "{name} --{f}: {line}");
                }
            }
        }
    }
}
