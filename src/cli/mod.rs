//! The command line: clap derive structs only (the low-level flags). Each
//! subcommand's flags go to `commands::<name>::run`, which resolves them
//! with the scenario into validated plans ([`crate::config`]).

mod commands;
pub mod complete;
mod defs;
mod designs;
mod groups;
mod pages;
mod parse;
mod prices;
mod reconcile;
mod summary;
mod usage;
mod values;

pub use commands::*;
pub use defs::{Duration, Span, Traffic};
pub use designs::*;
pub use groups::*;
pub use prices::PriceArgs;
pub use reconcile::ReconcileArgs;

use clap::{Parser, Subcommand};

use crate::error::InputError;

#[derive(Debug, Parser)]
#[command(
    name = "shardplan",
    version,
    about = "Capacity planner and load simulator for sharded counters",
    long_about = "How many shards does a hot counter need, how likely is the busiest shard to go \
                  over the store's per-key cap, and what do reads cost? Exact where the math \
                  allows, Monte Carlo (reproducible from --seed) where it does not.",
    after_help = "Examples:
  shardplan size --peak 14000 --safe 700    # how many shards (20)
  shardplan simulate --seconds 2000         # the busiest shard per second
  shardplan risk --rate 14000 --shards 20   # the exact over-cap chance
  shardplan report -o report                # a design doc with charts",
    after_long_help = "Examples:
  shardplan size --peak 14000 --safe 700    # how many shards (20)
  shardplan simulate --seconds 2000         # the busiest shard per second
  shardplan risk --rate 14000 --shards 20   # the exact over-cap chance
  shardplan report -o report                # a design doc with charts

Exit status:
  0  done
  1  a failed --check, or a run that could not finish (a Redis server down)
  2  bad input: one line on stderr naming the flag or scenario field
  3  measure's count check failed (the keys do not sum to the INCRs sent; --reconcile: the
     counter is not the rows after the job)

Environment:
  NO_COLOR       no colour (as --color never)
  CLICOLOR_FORCE colour on standard output even when it is not a terminal (not 0)
  COLUMNS        the table width when stdout is not a terminal
  REDISCLI_AUTH  measure's Redis password
  PGPASSWORD     measure --postgres's password"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// Colour warnings and failed verdicts: auto (on a terminal, unless NO_COLOR is set), always, never.
    #[arg(
        long,
        global = true,
        value_enum,
        ignore_case = true,
        default_value = "auto"
    )]
    pub color: crate::output::terminal::ColorChoice,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// How many shards: one recommendation over every constraint (rule of thumb, risk, partitions, nodes, reads).
    #[command(after_help = "Examples:
  # 20 shards: the rule of thumb
  shardplan size --peak 14000 --safe 700
  # 17: the per-key risk over a 4 h spell
  shardplan size --peak 14000 --risk 0.01 --duration 4h
  # 33: shards hashed onto 1,000 partitions
  shardplan size --peak 14000 --risk 0.01 --partitions 1000 \\
      --traffic poisson
  # exit 1: 20 shards fail that constraint
  shardplan size --peak 14000 --partitions 1000 --shards 20 --check
  shardplan size --scenario interview --format json")]
    Size(SizeArgs),
    /// Monte Carlo of the busiest shard, second by second.
    #[command(after_help = "Examples:
  # the bundled viral-reel scenario
  shardplan simulate
  shardplan simulate --seconds 2000 --rate 18000 --shards 20
  # a time line with the hot-key monitor
  shardplan simulate --scenario viral-evening-monitor
  shardplan simulate --per-second rows.csv -o summary.csv")]
    Simulate(SimulateArgs),
    /// Exact over-cap risk per second and over a long run.
    #[command(after_help = "Examples:
  shardplan risk --rate 14000 --shards 20 --duration 4h
  shardplan risk --rate 300 --shards 1 --traffic poisson")]
    Risk(RiskArgs),
    /// Exact risk over a range of shard counts (and rates): the design-doc table.
    #[command(after_help = "Examples:
  shardplan sweep --shards 10..40 --rate 9000,14000,18000 -o sweep.csv")]
    Sweep(SweepArgs),
    /// List the bundled scenarios.
    #[command(after_help = "Examples:
  shardplan scenarios
  shardplan scenarios --format csv
  shardplan simulate --scenario viral-evening")]
    Scenarios(ScenariosArgs),
    /// Draw one SVG chart to a file.
    #[command(after_help = "Examples:
  shardplan chart --kind risk -o risk.svg
  shardplan chart --kind timeline --scenario viral-evening -o timeline.svg")]
    Chart(ChartArgs),
    /// Write a Markdown design-doc report with SVG charts to a folder.
    #[command(after_help = "Examples:
  shardplan report --scenario viral-reel -o report")]
    Report(ReportArgs),
    /// What readers see while the shard count grows or shrinks.
    #[command(after_help = "Examples:
  shardplan resize --scenario grow-right-order
  shardplan resize --scenario shrink-fold")]
    Resize(ResizeArgs),
    /// Where shard keys land: Redis Cluster slots and nodes, or sorted-store order.
    #[command(after_help = "Examples:
  shardplan keys --template 'reel:8841:likes:<shard>' --shards 20 \\
      --nodes 3 --check
  shardplan keys --store sorted --template 'likes:<shard>' --shards 20
  printf 'a:{1}\\nb:{1}\\n' | shardplan keys -")]
    Keys(KeysArgs),
    /// Hashed store with P partitions: do shards share one?
    #[command(after_help = "Examples:
  shardplan partitions --shards 20 --partitions 1000 --rate 14000")]
    Partitions(PartitionsArgs),
    /// List the store presets and their sources.
    #[command(after_help = "Examples:
  shardplan stores
  # size with a preset's cap and read cost
  shardplan size --peak 14000 --store dynamodb")]
    Stores(StoresArgs),
    /// The whole table: hot reels, items and reads per policy, partition load.
    #[command(after_help = "Examples:
  shardplan fleet --scenario interview
  shardplan fleet --reels 1000000 --hot-reel post=200000 --partitions 1000
  shardplan fleet --rates-csv rates.csv   # a reel_id,rate header")]
    Fleet(FleetArgs),
    /// Drive a real Redis (one key, then the shard keys) or PostgreSQL (--postgres: one row, sharded rows, like rows); --reconcile: both, the drift and the job.
    #[command(
        after_help = "Examples:
  REDISCLI_AUTH=secret shardplan measure --cluster \\
      --redis redis://127.0.0.1:7000 --shards 16 --clients 50 \\
      --duration 5s -o measure.json
  PGPASSWORD=secret shardplan measure --postgres \\
      postgres://app@127.0.0.1:5432/likes --clients 8 --shards 64 -o pg.json",
        after_long_help = "Examples:
  REDISCLI_AUTH=secret shardplan measure --cluster \\
      --redis redis://127.0.0.1:7000 --shards 16 --clients 50 \\
      --duration 5s -o measure.json
  shardplan size --peak 14000 --cap-from-measure measure.json
  PGPASSWORD=secret shardplan measure --postgres \\
      postgres://app@127.0.0.1:5432/likes --clients 8 --shards 64 -o pg.json
  shardplan size --store postgres --peak 5000 --cap-from-measure pg.json
  PGPASSWORD=secret shardplan measure --reconcile --redis redis://127.0.0.1:6379 \\
      --postgres postgres://app@127.0.0.1:5432/likes --rate 1000 --duration 5s \\
      --lost-replies 0.05 --retry once --failed-increments 0.02 --reconcile-every 1s"
    )]
    Measure(MeasureArgs),
    /// One row per design: single key, shards, buffers, sharded buffers, a log.
    #[command(after_help = "Examples:
  shardplan compare
  shardplan compare --wide      # every column
  shardplan compare --scenario interview --format json")]
    Compare(CompareArgs),
    /// How far the count drifts from the like rows, and the nightly job that closes it.
    #[command(after_help = "Examples:
  shardplan reconcile
  shardplan reconcile --daily-likes 100000000 --peak 14000 --timeout-share 0.001 \\
      --retry once --increment-fail-share 0.0001
  shardplan reconcile --reels 1000 --likes-per-reel 100 --timeout-share 0.05 --format json")]
    Reconcile(ReconcileArgs),
    /// Print the JSON Schema of a command's --format json output.
    #[command(after_help = "Examples:
  shardplan schema size > size.schema.json")]
    Schema(SchemaArgs),
    /// Print a shell completion script to stdout.
    #[command(
        after_help = "The script asks shardplan (on your PATH) for the candidates at each Tab.

Install:
  shardplan completions bash \\
      > ~/.local/share/bash-completion/completions/shardplan
  # zsh: with fpath+=~/.zfunc before compinit
  shardplan completions zsh > ~/.zfunc/_shardplan
  shardplan completions fish > ~/.config/fish/completions/shardplan.fish"
    )]
    Completions(CompletionsArgs),
    /// Print a man page (roff) to stdout, or write them all to a folder.
    #[command(after_help = "Examples:
  shardplan man | man -l -            # read shardplan(1)
  shardplan man simulate | man -l -   # one command, every flag
  # install them all, then: man shardplan-size
  shardplan man -o ~/.local/share/man/man1")]
    Man(ManArgs),
}

impl Command {
    /// The subcommand's name as typed (`size`), for the JSON header.
    pub fn name(&self) -> &'static str {
        match self {
            Command::Size(_) => "size",
            Command::Simulate(_) => "simulate",
            Command::Risk(_) => "risk",
            Command::Sweep(_) => "sweep",
            Command::Scenarios(_) => "scenarios",
            Command::Chart(_) => "chart",
            Command::Report(_) => "report",
            Command::Resize(_) => "resize",
            Command::Keys(_) => "keys",
            Command::Partitions(_) => "partitions",
            Command::Stores(_) => "stores",
            Command::Fleet(_) => "fleet",
            Command::Measure(_) => "measure",
            Command::Compare(_) => "compare",
            Command::Reconcile(_) => "reconcile",
            Command::Schema(_) => "schema",
            Command::Completions(_) => "completions",
            Command::Man(_) => "man",
        }
    }

    /// The paths the command writes, each with its flag, as typed: `-o`
    /// (a folder for `report` and `man`) and `--per-second`.
    pub fn outputs(&self) -> Vec<(&'static str, &std::path::Path)> {
        let files = match self {
            Command::Size(a) => &a.out.output,
            Command::Simulate(a) => &a.out.output,
            Command::Risk(a) => &a.out.output,
            Command::Sweep(a) => &a.out.output,
            Command::Scenarios(a) => &a.out.output,
            Command::Chart(a) => &a.output,
            Command::Report(a) => &a.output,
            Command::Resize(a) => &a.out.output,
            Command::Keys(a) => &a.out.output,
            Command::Partitions(a) => &a.out.output,
            Command::Stores(a) => &a.out.output,
            Command::Fleet(a) => &a.out.output,
            Command::Measure(a) => &a.out.output,
            Command::Compare(a) => &a.out.output,
            Command::Reconcile(a) => &a.out.output,
            Command::Man(a) => &a.output,
            Command::Schema(_) | Command::Completions(_) => return Vec::new(),
        };
        let mut paths: Vec<_> = files
            .output
            .iter()
            .map(|p| ("--output", p.as_path()))
            .collect();
        if let Command::Simulate(a) = self {
            paths.extend(a.per_second.as_deref().map(|p| ("--per-second", p)));
        }
        paths
    }

    /// `--threads` as typed, where the command offers it.
    pub fn threads(&self) -> Option<u64> {
        match self {
            Command::Simulate(a) => a.sim.threads.threads,
            Command::Chart(a) => a.sim.threads.threads,
            Command::Report(a) => a.sim.threads.threads,
            Command::Fleet(a) => a.threads.threads,
            _ => None,
        }
    }
}

/// Parses the command line. Help and version print and exit here; any
/// other clap error becomes one [`InputError`] line built from its kind and
/// context (`usage.rs`): what clap says, the accepted values and its tips
/// ("a similar argument exists: '--peak'").
pub fn parse() -> Result<Cli, InputError> {
    use clap::FromArgMatches;
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(page) = pages::requested(&args).and_then(|name| pages::page(&name)) {
        pages::print(&page, &args);
        std::process::exit(0);
    }
    let cmd = summary::command();
    let parsed = cmd
        .clone()
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m));
    match parsed {
        Ok(cli) => Ok(cli),
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(
                e.kind(),
                ErrorKind::DisplayHelp
                    | ErrorKind::DisplayVersion
                    | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            ) {
                e.exit();
            }
            Err(InputError::new(
                "usage",
                format!("{} (see --help)", usage::one_line(&e, &cmd, &args)),
            ))
        }
    }
}

#[cfg(test)]
mod tests;
