//! `shardplan measure --postgres URL`: three counter designs on a real
//! PostgreSQL. The plan ([`PostgresOptions`]) holds the validated
//! [`PgConfig`], the run gives a report, the view renders it.

use crate::config::options::PostgresOptions;
use crate::error::CountMismatch;
use crate::measure::postgres::{self, PgConfig};
use crate::model::defaults::PG_WATCHDOG_SLACK;
use crate::views::measure_postgres::PgMeasureView;

/// Runs `shardplan measure --postgres URL`; a password in any error is
/// scrubbed.
pub fn run(o: PostgresOptions) -> anyhow::Result<()> {
    let secrets = o.secrets.clone();
    run_with(o).map_err(|e| secrets.scrub(e))
}

fn run_with(o: PostgresOptions) -> anyhow::Result<()> {
    let config = &o.config;
    // Ctrl-C stops the load; the schema is dropped before the exit.
    crate::output::interrupt::defer_exit();
    let spinner = crate::output::progress::spinner(
        format!(
            "measuring PostgreSQL for at most about {}: three designs of at most {} s each",
            crate::output::fmt::rough_duration(3.0 * config.duration.as_secs_f64()),
            config.duration.as_secs_f64()
        ),
        !o.output.quiet,
    );
    let watchdog = watchdog(config);
    let report = postgres::run(config);
    drop(watchdog);
    spinner.finish_and_clear();
    let report = report?;
    let mismatch = (!report.counts_match).then(|| {
        let said: Vec<String> = report
            .designs
            .iter()
            .filter(|d| !d.counts_match)
            .map(|d| {
                format!(
                    "{} read {} for {} writes acknowledged",
                    d.design.name(),
                    d.count_read,
                    d.writes_acknowledged
                )
            })
            .collect();
        CountMismatch(format!(
            "{}; another client wrote the schema's tables, or a write was lost",
            said.join(", ")
        ))
    });
    super::emit(
        o.output.set,
        &PgMeasureView(report),
        &o.inputs,
        o.output.explain,
    )?;
    match mismatch {
        Some(m) => Err(m.into()),
        None => Ok(()),
    }
}

/// A server that stops answering without closing its connections (a frozen
/// postmaster and backends: the kernel still acknowledges the packets, so
/// neither the TCP user timeout nor `statement_timeout` fires) would leave
/// the run blocked in a read for ever. The run is bounded: three phases of
/// `--duration`, and set-up, reads and the drop, each step within
/// `--timeout`; past 3 x duration + 20 x timeout + [`PG_WATCHDOG_SLACK`]
/// the process gives up with one line and exit 1. Dropping the returned
/// sender ends the watch.
fn watchdog(config: &PgConfig) -> std::sync::mpsc::Sender<()> {
    let bound = config.duration * 3 + config.timeout * 20 + PG_WATCHDOG_SLACK;
    let schema = config.schema.clone().unwrap_or("shardplan_<run id>".into());
    let (tx, rx) = std::sync::mpsc::channel::<()>();
    std::thread::spawn(move || {
        if let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = rx.recv_timeout(bound) {
            eprintln!(
                "shardplan: --postgres: the server stopped answering: the run passed {} s, its \
                 bound (3 x --duration + 20 x --timeout + {} s); its schema {schema} may be left \
                 on the server (DROP SCHEMA ... CASCADE removes it)",
                bound.as_secs_f64(),
                PG_WATCHDOG_SLACK.as_secs()
            );
            std::process::exit(1);
        }
    });
    tx
}
