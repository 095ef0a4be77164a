//! The command line: clap derive structs only. Each subcommand's raw flags
//! go to `commands::<name>::run`, which validates them into a plan.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::output::Format;
use crate::traffic::TrafficModel;

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
    /// How many shards: peak / safe rate per key, rounded up, and the read cost.
    Size(SizeArgs),
    /// Monte Carlo of the busiest shard, second by second.
    Simulate(SimulateArgs),
    /// List the bundled scenarios.
    Scenarios(ScenariosArgs),
    /// Draw one SVG chart to a file.
    Chart(ChartArgs),
    /// Print a shell completion script to stdout.
    Completions(CompletionsArgs),
    /// Print the man page (roff) to stdout.
    Man,
}

#[derive(Debug, Clone, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// Which scenario supplies the defaults.
#[derive(Debug, Clone, Args)]
pub struct ScenarioArgs {
    /// A bundled scenario name (see `shardplan scenarios`) or a path to a TOML file.
    #[arg(long, value_name = "NAME|FILE")]
    pub scenario: Option<String>,
}

/// The inputs of the rule-of-thumb sizing.
#[derive(Debug, Clone, Args)]
pub struct SizingArgs {
    /// Planned peak likes/s on the hot counter.
    #[arg(
        long,
        value_name = "LIKES_PER_S",
        allow_negative_numbers = true,
        conflicts_with = "observed"
    )]
    pub peak: Option<f64>,
    /// The highest rate seen so far, likes/s (peak = observed x growth).
    #[arg(long, value_name = "LIKES_PER_S", allow_negative_numbers = true)]
    pub observed: Option<f64>,
    /// Planning factor over the observed rate (default 1.5).
    #[arg(long, value_name = "FACTOR", allow_negative_numbers = true)]
    pub growth: Option<f64>,
    /// The store's write cap per key (partition), writes/s (default 1000).
    #[arg(long, value_name = "WRITES_PER_S", allow_negative_numbers = true)]
    pub cap: Option<f64>,
    /// Safe writes/s to plan per key, at most the cap.
    #[arg(
        long,
        value_name = "WRITES_PER_S",
        allow_negative_numbers = true,
        conflicts_with = "headroom"
    )]
    pub safe: Option<f64>,
    /// Share of the cap kept free, in [0, 1): safe = cap x (1 - headroom) (default 0.3).
    #[arg(long, value_name = "SHARE", allow_negative_numbers = true)]
    pub headroom: Option<f64>,
}

/// How the count is read.
#[derive(Debug, Clone, Args)]
pub struct ReadArgs {
    /// Views of the count per second (default 50000).
    #[arg(long, value_name = "PER_S", allow_negative_numbers = true)]
    pub views: Option<f64>,
    /// Likes servers, each caching the sum (default 40).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number)]
    pub servers: Option<u64>,
    /// Seconds each server caches the sum; 0 = no cache (default 2).
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    pub cache_seconds: Option<f64>,
    /// Items one batch read fetches (default 100, DynamoDB BatchGetItem).
    #[arg(long, value_name = "ITEMS", allow_negative_numbers = true, value_parser = whole_number)]
    pub batch_size: Option<u64>,
    /// The store's read cap per key, reads/s (default 3000).
    #[arg(long, value_name = "READS_PER_S", allow_negative_numbers = true)]
    pub read_cap: Option<f64>,
}

/// Where and how results are written.
#[derive(Debug, Clone, Args)]
pub struct OutputArgs {
    /// Output format (default: table on stdout; for --output, the file's extension).
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Write to FILE instead of stdout (.csv, .json, .md, .txt, .tsv); repeat for several files.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Vec<PathBuf>,
    /// No progress bar.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

#[derive(Debug, Clone, Args)]
pub struct SizeArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    #[command(flatten)]
    pub sizing: SizingArgs,
    #[command(flatten)]
    pub reads: ReadArgs,
    #[command(flatten)]
    pub out: OutputArgs,
}

/// What to simulate (shared by `simulate`, `chart` and `report`).
#[derive(Debug, Clone, Args)]
pub struct SimInputs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    /// Likes/s to simulate (default: the planned peak).
    #[arg(long, value_name = "LIKES_PER_S", allow_negative_numbers = true)]
    pub rate: Option<f64>,
    /// Shard count (default: what `size` gives).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number)]
    pub shards: Option<u64>,
    /// Simulated seconds (default 2000).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number)]
    pub seconds: Option<u64>,
    /// Likes per second: exactly the rate, or Poisson with that mean.
    #[arg(long, value_enum)]
    pub traffic: Option<TrafficModel>,
    /// Master seed: the same seed gives the same output for any --threads.
    #[arg(long, allow_negative_numbers = true, value_parser = whole_number)]
    pub seed: Option<u64>,
    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number)]
    pub threads: Option<u64>,
    #[command(flatten)]
    pub sizing: SizingArgs,
    #[command(flatten)]
    pub reads: ReadArgs,
}

#[derive(Debug, Clone, Args)]
pub struct SimulateArgs {
    #[command(flatten)]
    pub sim: SimInputs,
    /// Stream one CSV row per simulated second to FILE.
    #[arg(long, value_name = "FILE")]
    pub per_second: Option<PathBuf>,
    #[command(flatten)]
    pub out: OutputArgs,
}

/// The charts `shardplan chart` draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ChartKind {
    /// Histogram of the per-second busiest shard, cap and safe rate marked.
    Busiest,
}

#[derive(Debug, Clone, Args)]
pub struct ChartArgs {
    /// Which chart.
    #[arg(long, value_enum, default_value = "busiest")]
    pub kind: ChartKind,
    /// The SVG file to write.
    #[arg(long, short = 'o', value_name = "FILE.svg")]
    pub output: PathBuf,
    #[command(flatten)]
    pub sim: SimInputs,
}

/// A whole number as typed on the command line (0 passes here; each
/// command says whether it accepts 0).
pub fn whole_number(text: &str) -> Result<u64, String> {
    let t = text.trim();
    if t.starts_with('-') {
        return Err(format!("must be a whole number >= 0 (got {t})"));
    }
    t.replace('_', "")
        .parse::<u64>()
        .map_err(|e| match e.kind() {
            std::num::IntErrorKind::PosOverflow => {
                format!("{t} is too large (at most {})", u64::MAX)
            }
            _ => format!("must be a whole number (got {t:?})"),
        })
}

#[derive(Debug, Clone, Args)]
pub struct ScenariosArgs {
    #[command(flatten)]
    pub out: OutputArgs,
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
