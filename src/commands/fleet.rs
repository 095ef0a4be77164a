//! `shardplan fleet`: the whole table of reels: hot reels, items and reads
//! per policy, and the load on the busiest partition.

use crate::cli::FleetArgs;
use crate::config::Run;
use crate::config::{Kind, Resolver};
use crate::output::OutputSet;
use crate::views::fleet::FleetView;

pub fn run(args: FleetArgs, run: &Run) -> anyhow::Result<()> {
    // Standard input can be read once: say so before the scenario reads it.
    crate::config::input_file::one_stdin(&[
        (
            "--scenario",
            args.scenario.scenario.as_deref().map(std::path::Path::new),
        ),
        ("--rates-csv", args.rates_csv.as_deref()),
    ])?;
    let mut r = Resolver::load(
        run,
        args.scenario.scenario.as_deref(),
        None,
        "fleet",
        &[Kind::Fleet],
    )?;
    let plan = r.fleet(&args)?;
    let (prices, item_bytes) = r.fleet_prices(&args.prices, args.item_bytes)?;
    let out = OutputSet::prepare(run, args.out.format, &args.out.output.output)?;
    super::announce(
        crate::model::cost::fleet(plan.placement_work(), plan.trials),
        args.out.quiet.quiet,
    );
    // Some tables take most of a minute (every reel hot): show it working.
    let spinner = crate::output::progress::spinner(
        "placing the reels' shard keys and searching the plan".into(),
        !args.out.quiet.quiet,
    );
    let report = plan.evaluate();
    spinner.finish_and_clear();
    let costs = report
        .policies
        .iter()
        .map(|p| crate::model::price::policy_costs(&prices, item_bytes, report.total_rate, p))
        .collect();
    let view = FleetView {
        scenario: r.scenario.name.clone(),
        report,
        costs,
    };
    super::emit(out, &view, &r.inputs, args.out.explain.explain)
}
