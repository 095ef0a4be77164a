//! `shardplan measure --reconcile`: the write path's drift and the job
//! that closes it, on a real Redis and PostgreSQL. The plan
//! ([`MeasureReconcileOptions`]) holds the validated config, the run gives a
//! report, the view renders it.

use crate::config::options::MeasureReconcileOptions;
use crate::error::CountMismatch;
use crate::measure::reconcile;
use crate::views::measure_reconcile::ReconcileMeasureView;

/// Runs the writes and the jobs (a spinner on a terminal), writes the
/// report to every output, then exits 1 when the final job left the
/// counter off the rows or a like is not accounted for.
pub fn run(o: MeasureReconcileOptions) -> anyhow::Result<()> {
    let config = &o.config;
    // Ctrl-C stops the writes; the keys and the schema go before the exit.
    crate::output::interrupt::defer_exit();
    let spinner = crate::output::progress::spinner(
        format!(
            "measuring reconciliation on Redis and PostgreSQL: {} s of writes at {} likes/s, then \
             the final job",
            config.redis.duration.as_secs_f64(),
            crate::output::fmt::num(config.rate)
        ),
        !o.output.quiet,
    );
    let report = reconcile::run(config);
    spinner.finish_and_clear();
    let report = report?;
    let c = &report.reconciliation;
    let mismatch = (c.drift_after != 0 || !c.explained).then(|| {
        CountMismatch(format!(
            "after the final job the shards sum to {} for {} like rows (drift before {}, the \
             faults' {}): another client wrote the keys or the table",
            c.counted_after, c.rows, c.drift_before, report.writes.fault_drift
        ))
    });
    super::emit(
        o.output.set,
        &ReconcileMeasureView(report),
        &o.inputs,
        o.output.explain,
    )?;
    match mismatch {
        Some(m) => Err(m.into()),
        None => Ok(()),
    }
}
