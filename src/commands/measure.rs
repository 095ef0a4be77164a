//! `shardplan measure`: a bounded load on a real Redis. Flags become a
//! [`MeasureConfig`], the run gives a report, the view renders it.

use crate::cli::MeasureArgs;
use crate::measure::{self, MeasureConfig};
use crate::output::OutputSet;
use crate::views::measure::MeasureView;

/// Runs `shardplan measure`: validate the flags, run both phases and the
/// read path, and write the report to every output.
pub fn run(args: MeasureArgs) -> anyhow::Result<()> {
    let mut config = MeasureConfig::new(
        &args.redis,
        args.cluster,
        args.shards,
        args.clients,
        measure::parse_duration("--duration", &args.duration)?,
        args.max_ops,
        args.pipeline,
        &args.template,
    )?;
    config.keep = args.keep;
    config.overwrite = args.overwrite;
    let out = OutputSet::prepare(args.out.format, &args.out.output)?;
    let report = measure::run(&config)?;
    out.emit(&MeasureView(report))
}
