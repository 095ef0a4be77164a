//! `fleet`'s plan: the whole table of reels and the prices its policies
//! are weighed at.

use super::{Output, Resolved};
use crate::cli::FleetArgs;
use crate::config::{Kind, Resolver, Run};
use crate::error::InputResult;
use crate::model::fleet::FleetPlan;
use crate::model::price::Prices;

/// `shardplan fleet`, resolved.
pub struct FleetOptions {
    /// The reels, the policies' settings and the search.
    pub plan: FleetPlan,
    /// Where the fleet answers another question than `size`.
    pub beside: crate::model::fleet::BesideSize,
    /// The user's prices.
    pub prices: Prices,
    /// The bytes billed per stored item (`--item-bytes`).
    pub item_bytes: f64,
    /// The inputs, frozen.
    pub resolved: Resolved,
    /// Where the result goes.
    pub output: Output,
}

impl FleetOptions {
    pub fn new(args: FleetArgs, run: &Run) -> InputResult<Self> {
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
        let (plan, beside) = r.fleet(&args)?;
        // Over an hour on the run's workers, only with --long-run.
        crate::model::cost::fleet(plan.placement_work(), plan.trials)
            .on_workers()
            .within_short_run("trials", args.long_run.long_run)
            .map_err(|e| r.blame(e))?;
        let (prices, item_bytes) = r.fleet_prices(&args.prices, args.item_bytes)?;
        let output = Output::new(run, &args.out, false)?;
        Ok(FleetOptions {
            plan,
            beside,
            prices,
            item_bytes,
            resolved: r.finish(),
            output,
        })
    }
}
