//! One module per subcommand: each turns raw flags (plus a scenario) into a
//! validated plan, runs it, and hands a [`crate::output::Report`] to the
//! output set.

pub mod chart;
pub mod compare;
pub mod docs;
pub mod fleet;
pub mod measure;
pub mod placement;
pub mod report;
pub mod risk;
pub mod scenarios;
pub mod simulate;
pub mod size;
pub mod timeline;

use crate::cli::{Cli, Command};

/// Runs the parsed command line.
pub fn dispatch(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Size(a) => size::run(a),
        Command::Simulate(a) => simulate::run(a),
        Command::Risk(a) => risk::run_risk(a),
        Command::Sweep(a) => risk::run_sweep(a),
        Command::Scenarios(a) => scenarios::run(a),
        Command::Chart(a) => chart::run(a),
        Command::Report(a) => report::run(a),
        Command::Resize(a) => timeline::run_resize(a),
        Command::Keys(a) => placement::run_keys(a),
        Command::Partitions(a) => placement::run_partitions(a),
        Command::Stores(a) => placement::run_stores(a),
        Command::Fleet(a) => fleet::run(a),
        Command::Measure(a) => measure::run(a),
        Command::Compare(a) => compare::run(a),
        Command::Completions(a) => docs::completions(a),
        Command::Man => docs::man(),
    }
}
