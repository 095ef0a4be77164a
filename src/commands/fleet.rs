//! `shardplan fleet`: the whole table of reels: hot reels, items and reads
//! per policy, and the load on the busiest partition.

use crate::config::options::FleetOptions;
use crate::views::fleet::FleetView;

pub fn run(o: FleetOptions) -> anyhow::Result<()> {
    let quiet = o.output.quiet;
    super::announce(
        crate::model::cost::fleet(o.plan.placement_work(), o.plan.trials),
        quiet,
    );
    // Some tables take most of a minute (every reel hot): show it working.
    let spinner = crate::output::progress::spinner(
        "placing the reels' shard keys and searching the plan".into(),
        !quiet,
    );
    let report = o.plan.evaluate();
    spinner.finish_and_clear();
    let costs = report
        .policies
        .iter()
        .map(|p| crate::model::price::policy_costs(&o.prices, o.item_bytes, report.total_rate, p))
        .collect();
    let view = FleetView {
        beside: o.beside,
        scenario: o.resolved.scenario,
        report,
        costs,
    };
    super::emit(o.output.set, &view, &o.resolved.inputs, o.output.explain)
}
