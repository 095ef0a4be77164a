//! The command line: clap derive structs only (the low-level flags). Each
//! subcommand's flags go to `commands::<name>::run`, which resolves them
//! with the scenario into validated plans ([`crate::config`]).

mod commands;
mod designs;
mod groups;
mod parse;
mod values;

pub use commands::*;
pub use designs::*;
pub use groups::*;

use clap::{Parser, Subcommand};

use crate::error::InputError;

#[derive(Debug, Parser)]
#[command(
    name = "shardplan",
    version,
    about = "Capacity planner and load simulator for sharded counters",
    long_about = "How many shards does a hot counter need, how likely is the busiest shard to go \
                  over the store's per-key cap, and what do reads cost? Exact where the math \
                  allows, Monte Carlo (reproducible from --seed) where it does not."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// How many shards: one recommendation over every constraint (rule of thumb, risk, partitions, nodes, reads).
    Size(SizeArgs),
    /// Monte Carlo of the busiest shard, second by second.
    Simulate(SimulateArgs),
    /// Exact over-cap risk per second and over a long run.
    Risk(RiskArgs),
    /// Exact risk over a range of shard counts (and rates): the design-doc table.
    Sweep(SweepArgs),
    /// List the bundled scenarios.
    Scenarios(ScenariosArgs),
    /// Draw one SVG chart to a file.
    Chart(ChartArgs),
    /// Write a Markdown design-doc report with SVG charts to a folder.
    Report(ReportArgs),
    /// What readers see while the shard count grows or shrinks.
    Resize(ResizeArgs),
    /// Where shard keys land: Redis Cluster slots and nodes, or sorted-store order.
    Keys(KeysArgs),
    /// Hashed store with P partitions: do shards share one?
    Partitions(PartitionsArgs),
    /// List the store presets and their sources.
    Stores(StoresArgs),
    /// The whole table: hot reels, items and reads per policy, partition load.
    Fleet(FleetArgs),
    /// Drive a real Redis (standalone or cluster) with one key, then the shard keys.
    Measure(MeasureArgs),
    /// One row per design: single key, shards, buffers, sharded buffers, a log.
    Compare(CompareArgs),
    /// Print a shell completion script to stdout.
    Completions(CompletionsArgs),
    /// Print the man page (roff) to stdout.
    Man,
}

/// Parses the command line. Help and version print and exit here; any
/// other clap error becomes one [`InputError`] line: clap's first paragraph
/// (which names the flag, and keeps its "a similar argument exists" tip),
/// and the accepted values.
pub fn parse() -> Result<Cli, InputError> {
    match Cli::try_parse() {
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
            let text = e.render().to_string();
            let first: Vec<&str> = text
                .lines()
                .take_while(|l| !l.trim().is_empty())
                .map(str::trim)
                .collect();
            let first = first.join(" ");
            let first = first.strip_prefix("error: ").unwrap_or(&first);
            let accepted = text
                .lines()
                .map(str::trim)
                .find(|l| l.starts_with("[possible values:") && !first.contains(l))
                .map(|l| format!(" {l}"))
                .unwrap_or_default();
            Err(InputError::new(
                "usage",
                format!("{first}{accepted} (see --help)"),
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_is_well_formed() {
        Cli::command().debug_assert();
    }
}
