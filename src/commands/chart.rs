//! `shardplan chart`: one SVG chart to a file, for users who assemble their
//! own design doc.

use std::io::Write;

use super::simulate;
use crate::chart;
use crate::cli::{ChartArgs, ChartKind};
use crate::error::InputError;
use crate::output::sink::AtomicFile;

pub fn run(args: ChartArgs) -> anyhow::Result<()> {
    if args.output.extension().and_then(|e| e.to_str()) != Some("svg") {
        return Err(InputError::new(
            "--output",
            format!(
                "charts are SVG; give a file ending in .svg (got {})",
                args.output.display()
            ),
        )
        .into());
    }
    let mut file = AtomicFile::create("--output", &args.output)?;
    let svg = match args.kind {
        ChartKind::Busiest => {
            let resolved = simulate::resolve(&args.sim, false)?;
            let tally = resolved.execute(false, None)?;
            let p = &resolved.plan;
            chart::busiest_histogram(
                &tally.busiest,
                p.cap as f64,
                Some(resolved.sizing.safe_per_shard()),
                &format!(
                    "Busiest of {} shards per second at {} likes/s ({} s simulated)",
                    p.shards, p.rate, p.seconds
                ),
            )?
        }
    };
    file.writer().write_all(svg.as_bytes())?;
    file.commit()
}
