//! What `COMMAND --help` shows: the whole page in at most 150 lines (issue
//! 61). Every flag is listed, one entry each (no blank line between them,
//! accepted values inline), with its help as *this* command uses it: a
//! flag several commands share is defined once in `defs.rs`, and where its
//! help there speaks of several commands, [`own_help`] gives this command's
//! part. The page ends with the examples and a pointer to
//! docs/commands.md, where every flag's details are.

use clap::CommandFactory;

use super::Cli;
use crate::model::defaults as d;
use crate::output::fmt;

/// The help of `flag` as `command` uses it, where the shared definition's
/// help speaks of several commands (else `None`: the definition's own).
pub(super) fn own_help(command: &str, flag: &str) -> Option<String> {
    let text = match flag {
        "rate" => rate(command),
        "shards" => shards(command),
        "duration" => duration(command),
        "output" => output(command),
        "partitions" => partitions(command),
        "risk" => risk(command),
        "template" => template(command),
        "reels" => reels(command),
        "trials" => trials(command),
        "daily-likes" => daily_likes(command),
        _ => return other(command, flag),
    };
    Some(text)
}

fn rate(command: &str) -> String {
    match command {
        "sweep" => "Likes/s on the counter: one rate or a list 9000,14000,18000 (default: the \
                    planned peak)"
            .into(),
        "partitions" => "Likes/s on the counter: each partition's share is judged against the \
                         cap (without it no cap is checked)"
            .into(),
        "measure" => format!(
            "With --design: likes/s of all the writers together (default {})",
            fmt::num(crate::measure::durability::DEFAULT_DURABILITY_RATE)
        ),
        _ => "Likes/s on the counter (default: the planned peak)".into(),
    }
}

fn shards(command: &str) -> String {
    match command {
        "size" => "Judge this deployed count instead of recommending one (with --check: a \
                   CI gate)"
            .into(),
        "sweep" => format!(
            "Shard counts: one, a range 10..40 or a list 10,20,30 (default {})",
            d::DEFAULT_SWEEP_SHARDS
        ),
        "keys" => format!(
            "Expand the template for shards 0..N-1 (default {})",
            d::DEFAULT_KEY_SHARDS
        ),
        "measure" => format!("Shard keys written (default {})", d::DEFAULT_MEASURE_SHARDS),
        "partitions" => "Shard keys placed on the partitions (required)".into(),
        "compare" => "The sharded designs' shards (default: the count `size` recommends; with \
                      --transactional, the fewest that absorb the conflicts' retries)"
            .into(),
        _ => "Shard keys of the counter (default: the count `size` recommends)".into(),
    }
}

fn duration(command: &str) -> String {
    let units = "seconds or 500ms, 90s, 10m, 4h";
    let spell = super::defs::typed(d::DEFAULT_DURATION_SECONDS);
    match command {
        "measure" => format!(
            "How long each phase drives the server: {units} (default {})",
            d::DEFAULT_MEASURE_DURATION
        ),
        "fleet" => format!(
            "The hot spell every second of which the partition risk covers: {units}, rounded \
             up to whole seconds (default {spell}, or the scenario's)"
        ),
        _ => format!(
            "The hot spell every second of which the over-cap risk covers: {units} (default \
             {spell}, or the scenario's)"
        ),
    }
}

fn output(command: &str) -> String {
    match command {
        "chart" => "The .svg file to write (required)".into(),
        "report" => format!(
            "The folder for report.md, report.html and the charts (default {})",
            d::DEFAULT_REPORT_DIR
        ),
        "man" => "A folder to write every page to (shardplan.1, shardplan-COMMAND.1)".into(),
        _ => "Write to PATH instead of stdout; its extension picks the format (.csv, .json, \
              .md, .txt, .tsv); repeat for several files"
            .into(),
    }
}

fn partitions(command: &str) -> String {
    let shared = "shards sharing one add up against its cap";
    match command {
        "fleet" => format!(
            "Partitions of the hashed store: {shared}, at --risk (default {})",
            fmt::count(d::DEFAULT_FLEET_PARTITIONS)
        ),
        "partitions" => format!("Partitions of the hashed store (required): {shared}"),
        _ => format!(
            "Partitions of a hashed store the shard keys land on: {shared}, at the accepted \
             risk (--risk, else {}%)",
            d::DEFAULT_RISK * 100.0
        ),
    }
}

fn risk(command: &str) -> String {
    let chance = "Accepted chance of any second over the cap during --duration, e.g. 0.01";
    match command {
        "size" => format!("{chance}: the fewest shards that meet it"),
        "fleet" => format!(
            "Accepted chance of any partition second over the cap during --duration (default {})",
            d::DEFAULT_RISK
        ),
        _ => chance.into(),
    }
}

fn template(command: &str) -> String {
    let placeholder = "The shard key template, with a <shard> placeholder, e.g. \
                       'reel:8841:likes:<shard>'";
    match command {
        "measure" => format!(
            "{placeholder} (default {}, a fresh random id per run)",
            d::DEFAULT_MEASURE_TEMPLATE
        ),
        "keys" => format!("{placeholder}: the keys checked, for shards 0..N-1"),
        _ => format!("{placeholder}: Redis Cluster's slots of the keys"),
    }
}

fn reels(command: &str) -> String {
    let (what, default) = match command {
        "reconcile" => ("Reels the job counts a run", d::DEFAULT_REELS),
        _ => ("Background reels of the fleet", d::DEFAULT_REELS),
    };
    format!(
        "{what} (default {}; at most {})",
        fmt::count(default),
        fmt::count(d::MAX_REELS)
    )
}

fn trials(command: &str) -> String {
    match command {
        "fleet" => format!(
            "Placements sampled for the partition load (default {})",
            fmt::count(d::DEFAULT_FLEET_TRIALS)
        ),
        _ => format!(
            "Placements sampled for the partition load (default {} when Monte Carlo is used, \
             fewer on a large draw)",
            fmt::count(d::DEFAULT_PARTITION_TRIALS)
        ),
    }
}

fn daily_likes(command: &str) -> String {
    match command {
        "reconcile" => format!(
            "Likes a day whose increments drift, and with a price the monthly total \
             (default {})",
            fmt::num(d::DEFAULT_LIKES_PER_DAY)
        ),
        _ => "Likes a day, for a monthly total (needs a price)".into(),
    }
}

/// The flags whose shared help names one command's use in a clause.
fn other(command: &str, flag: &str) -> Option<String> {
    let text = match (command, flag) {
        ("measure", "picker") => {
            "How each client (one app server) picks the shard of a \
                                  like (default random)"
        }
        (_, "picker") => {
            "How each app server (--servers) picks the shard of a like \
                          (default random; docs/pickers.md)"
        }
        ("keys", "store") => {
            "The store the keys are checked for: redis-cluster (slots and \
                              nodes, the default) or sorted (key order); others are refused"
        }
        (_, "store") => {
            "A store preset: sets the cap, read cap, burst and batch size (flags \
                         still override; `shardplan stores` lists them)"
        }
        ("report", "measure") => {
            "A measurement, the JSON `shardplan measure` wrote: its own \
                                  section, with the machine it ran on"
        }
        ("compare", "measure") => {
            "A measurement, the JSON `shardplan measure` wrote: what it \
                                   lost, beside the designs"
        }
        ("chart", "explain") => {
            "Print every resolved input, its value and where it came \
                                 from (flag, scenario, store preset or default) to stderr"
        }
        ("report", "explain") => {
            "Add a section listing every resolved input, its value and \
                                  where it came from (flag, scenario, store preset or default)"
        }
        (_, "explain") => {
            "List every resolved input, its value and where it came from (flag, \
                           scenario, store preset or default) before the results"
        }
        ("compare", "wide") => {
            "Every column in tables (without it compare leaves out the \
                                secondary ones); CSV, TSV and JSON have every field"
        }
        (_, "wide") => {
            "Every column in tables (a narrow terminal otherwise leaves out \
                        secondary ones); CSV, TSV and JSON have every field"
        }
        (_, "unlike-share") => {
            "Unlikes per like, 0 to 1: each a write against the cap, so \
                                writes = likes x (1 + SHARE), routed by --picker (a \
                                --traffic-from trace counts them already; docs/commands.md#unlikes)"
        }
        (_, "traffic-from") => {
            "Plan from observed likes: CSV time,count, CloudWatch \
                                get-metric-data JSON or Prometheus query_range (- for stdin; \
                                repeatable); its busiest second is the observed rate"
        }
        (_, "check") => {
            "Exit 1 when the verdict on the shard count fails (a CI gate; \
                         docs/verdict.md)"
        }
        (_, "sensitivity") => {
            "What moves the count: each input (peak, cap, headroom or safe, \
                               risk, hot spell, partitions, servers, unlikes, dispersion) moved \
                               down and up by PERCENT (default 25%)"
        }
        _ => return None,
    };
    Some(text.into())
}

/// The `--help` page of the subcommand `name`, as `parse` prints it
/// (headings styled as clap styles them; [`print`] decides on colour).
pub(super) fn page(name: &str) -> Option<clap::builder::StyledStr> {
    let mut root = Cli::command();
    root.build();
    let sub = root.find_subcommand(name)?.clone();
    let ids: Vec<(clap::Id, Option<String>)> = sub
        .get_arguments()
        .map(|a| (a.get_id().clone(), a.get_long().map(String::from)))
        .collect();
    let sub = ids.into_iter().fold(sub, |sub, (id, long)| {
        let own = long.as_deref().and_then(|l| own_help(name, l));
        sub.mut_arg(id, |a| {
            let text = own
                .map(Into::into)
                .or_else(|| a.get_long_help().or(a.get_help()).cloned());
            // A help that names every value needs no list of them after it.
            let named = text.as_ref().is_some_and(|t| {
                let t = t.to_string().to_ascii_lowercase();
                let values = a.get_possible_values();
                !values.is_empty() && values.iter().all(|v| t.contains(v.get_name()))
            });
            let a = a.hide_short_help(false).hide_possible_values(named);
            match text {
                Some(text) => a.help(text),
                None => a,
            }
        })
    });
    let more = format!(
        "Every flag in full: docs/commands.md, `shardplan man {name}`. -h: the main flags."
    );
    let after = match sub.get_after_long_help().or(sub.get_after_help()) {
        Some(examples) => format!("{examples}\n\n{more}"),
        None => more,
    };
    let mut sub = sub.after_help(after);
    Some(sub.render_help())
}

/// Prints `page`, styled where the command line's `--color` (else
/// `auto`: a terminal without NO_COLOR) asks for colour.
pub(super) fn print(page: &clap::builder::StyledStr, args: &[String]) {
    use crate::output::terminal::{ColorChoice, Style};
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    let asked = words
        .iter()
        .position(|a| *a == "--color")
        .and_then(|i| words.get(i + 1).copied())
        .or_else(|| words.iter().find_map(|a| a.strip_prefix("--color=")));
    let choice = match asked.map(str::to_ascii_lowercase).as_deref() {
        Some("always") => ColorChoice::Always,
        Some("never") => ColorChoice::Never,
        _ => ColorChoice::Auto,
    };
    let text = match Style::stdout(choice).colour {
        true => page.ansi().to_string(),
        false => page.to_string(),
    };
    // A reader who stops early (`| head`) is no error.
    use std::io::Write;
    let _ = std::io::stdout().write_all(text.as_bytes());
}

/// The subcommand whose whole page the command line asks for: `COMMAND
/// --help` (before any `--`) or `help COMMAND`; `None` leaves the rest,
/// `-h` and `shardplan --help` among it, to clap.
pub(super) fn requested(args: &[String]) -> Option<String> {
    let cmd = Cli::command();
    let is_command = |a: &str| cmd.find_subcommand(a).is_some() && a != "help";
    let words: Vec<&str> = args
        .iter()
        .map(String::as_str)
        .take_while(|a| *a != "--")
        .collect();
    // Past the global --color and its value, the first word is the command.
    let mut rest = words.iter().copied();
    let first = loop {
        match rest.next()? {
            "--color" => {
                rest.next();
            }
            a if a.starts_with('-') => {}
            a => break a,
        }
    };
    if first == "help" {
        return rest.next().filter(|a| is_command(a)).map(String::from);
    }
    (is_command(first) && words.contains(&"--help")).then(|| first.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        line.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn the_page_asked_for_is_found() {
        assert_eq!(requested(&words("size --help")), Some("size".into()));
        assert_eq!(
            requested(&words("size --peak 1 --help")),
            Some("size".into())
        );
        assert_eq!(requested(&words("help sweep")), Some("sweep".into()));
        let coloured = words("--color never risk --help");
        assert_eq!(requested(&coloured), Some("risk".into()));
        assert_eq!(requested(&words("size -h")), None);
        assert_eq!(requested(&words("--help")), None);
        assert_eq!(requested(&words("help")), None);
        assert_eq!(requested(&words("size -- --help")), None);
    }
}
