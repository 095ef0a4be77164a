//! `shardplan fleet`: the whole table of reels: hot reels, items and reads
//! per policy, and the load on the busiest partition.

use crate::cli::FleetArgs;
use crate::config::{Kind, Resolver};
use crate::output::OutputSet;
use crate::views::fleet::FleetView;

pub fn run(args: FleetArgs) -> anyhow::Result<()> {
    // Standard input can be read once: say so before the scenario reads it.
    if args.scenario.scenario.as_deref() == Some("-")
        && args.rates_csv.as_deref() == Some(std::path::Path::new("-"))
    {
        return Err(crate::error::InputError::new(
            "--rates-csv",
            "reads standard input (-), which --scenario already reads; give one of them a file",
        )
        .into());
    }
    let mut r = Resolver::load(
        args.scenario.scenario.as_deref(),
        None,
        "fleet",
        &[Kind::Fleet],
    )?;
    let plan = r.fleet(&args)?;
    let threads = crate::config::load::threads(args.threads)?;
    let out = OutputSet::prepare(args.out.format, &args.out.output)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let report = pool.install(|| plan.evaluate());
    let view = FleetView {
        scenario: r.scenario.name.clone(),
        report,
    };
    super::emit(out, &view, &r.inputs, args.out.explain)
}
