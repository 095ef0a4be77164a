//! `shardplan measure`: a bounded load on a real Redis. The plan
//! ([`RedisOptions`]) holds the validated [`MeasureConfig`](crate::measure::MeasureConfig),
//! the run gives a report, the view renders it.

use crate::config::options::{
    DurabilityOptions, MeasureOptions, PgDurabilityOptions, RedisOptions,
};
use crate::measure;
use crate::views::measure::MeasureView;

/// Runs `shardplan measure` on its store.
pub fn run(o: MeasureOptions) -> anyhow::Result<()> {
    match o {
        #[cfg(feature = "redis")]
        MeasureOptions::Redis(o) => run_redis(o),
        #[cfg(feature = "postgres")]
        MeasureOptions::Postgres(o) => super::measure_postgres::run(o),
        #[cfg(feature = "redis")]
        MeasureOptions::Durability(o) => run_durability(o),
        #[cfg(feature = "postgres")]
        MeasureOptions::PgDurability(o) => {
            let secrets = o.secrets.clone();
            run_pg_durability(o).map_err(|e| secrets.scrub(e))
        }
        #[cfg(all(feature = "redis", feature = "postgres"))]
        MeasureOptions::Reconcile(o) => {
            let secrets = o.secrets.clone();
            super::measure_reconcile::run(o).map_err(|e| secrets.scrub(e))
        }
        // A build without a client refuses its URL while the options are
        // resolved; this says the same should a run get this far.
        #[allow(unreachable_patterns)]
        other => Err(unbuilt(&other).into()),
    }
}

/// The error of a run whose server client this build left out.
#[allow(dead_code)]
fn unbuilt(o: &MeasureOptions) -> crate::error::InputError {
    match o {
        MeasureOptions::Redis(_) | MeasureOptions::Durability(_) => {
            crate::error::missing_feature("--redis", "redis")
        }
        MeasureOptions::Postgres(_) | MeasureOptions::PgDurability(_) => {
            crate::error::missing_feature("--postgres", "postgres")
        }
        MeasureOptions::Reconcile(_) if cfg!(feature = "redis") => {
            crate::error::missing_feature("--postgres", "postgres")
        }
        MeasureOptions::Reconcile(_) => crate::error::missing_feature("--redis", "redis"),
    }
}

#[cfg(feature = "redis")]
/// One design's durability run (progress on a terminal), its report to
/// every output, then exit 1 when the count cannot be reconciled with the
/// likes sent.
fn run_durability(o: DurabilityOptions) -> anyhow::Result<()> {
    let config = &o.config;
    // Ctrl-C stops the writes; the keys are deleted before the exit.
    crate::output::interrupt::defer_exit();
    let fault = config.fault.as_ref().map(|f| f.at);
    let spinner = durability_spinner(
        (config.design, "Redis"),
        (config.base.duration, config.rate, fault),
        o.output.quiet,
    );
    let report = measure::durability::run(config);
    spinner.finish_and_clear();
    emit_durability(report?, o.output, &o.inputs)
}

#[cfg(any(feature = "redis", feature = "postgres"))]
/// The progress line of a durability run: the design and store, the
/// writes and the fault's moment.
fn durability_spinner(
    (design, store): (measure::durability::Design, &str),
    (duration, rate, fault): (std::time::Duration, f64, Option<std::time::Duration>),
    quiet: bool,
) -> indicatif::ProgressBar {
    crate::output::progress::spinner(
        format!(
            "measuring the {} design on {store}: {} s of writes at {} likes/s{}",
            design.name(),
            duration.as_secs_f64(),
            crate::output::fmt::num(rate),
            match fault {
                Some(at) => format!(", a fault at {} s", at.as_secs_f64()),
                None => String::new(),
            }
        ),
        !quiet,
    )
}

#[cfg(feature = "postgres")]
/// One design's durability run on PostgreSQL.
fn run_pg_durability(o: PgDurabilityOptions) -> anyhow::Result<()> {
    let config = &o.config;
    crate::output::interrupt::defer_exit();
    let fault = config.fault.as_ref().map(|f| f.at);
    let spinner = durability_spinner(
        (config.design, "PostgreSQL"),
        (config.base.duration, config.rate, fault),
        o.output.quiet,
    );
    let report = measure::postgres::durability::run(config);
    spinner.finish_and_clear();
    emit_durability(report?, o.output, &o.inputs)
}

#[cfg(any(feature = "redis", feature = "postgres"))]
/// A durability run's report to every output; exit 1 when the count
/// cannot be reconciled with the likes sent.
fn emit_durability(
    report: measure::durability::DurabilityReport,
    output: crate::config::options::Output,
    inputs: &crate::config::Inputs,
) -> anyhow::Result<()> {
    let d = report.durability;
    super::emit(
        output.set,
        &crate::views::durability::DurabilityView(report),
        inputs,
        output.explain,
    )?;
    if !d.reconciled {
        // Exit 1: the run itself is in error (not measure's count check).
        return Err(anyhow::anyhow!(
            "the server counted {} likes, more than the {} acknowledged and {} unknown together: \
             likes were applied twice or another client wrote the keys",
            d.counted,
            d.acknowledged,
            d.unknown
        ));
    }
    Ok(())
}

#[cfg(feature = "redis")]
/// Says any placement warning, runs the warm-up, the alternating phases
/// and the read path (with progress on a terminal), and writes the report
/// to every output.
fn run_redis(o: RedisOptions) -> anyhow::Result<()> {
    let config = &o.config;
    // Ctrl-C stops the load; the keys are deleted before the exit.
    crate::output::interrupt::defer_exit();
    // The phases bound the run: its expected time, said with its progress.
    let phases = 2.0 * config.runs as f64 * config.duration.as_secs_f64();
    let spinner = crate::output::progress::spinner(
        format!(
            "measuring for about {}: {} runs of two phases of at most {} s each, then the read path",
            crate::output::fmt::rough_duration(phases),
            config.runs,
            config.duration.as_secs_f64()
        ),
        !o.output.quiet,
    );
    // Shard keys that miss nodes are said before the load, not only after.
    let before = |warnings: &[measure::MeasureWarning]| {
        for w in warnings {
            spinner.suspend(|| {
                eprintln!(
                    "shardplan: warning: {}",
                    crate::views::measure::warning_text(w)
                )
            });
        }
    };
    let progress = |p: &measure::Progress| spinner.set_message(progress_line(p));
    let watch = measure::Watch {
        before: &before,
        progress: &progress,
    };
    let report = measure::run_with(config, &watch);
    spinner.finish_and_clear();
    let report = report?;
    let mismatch = (!report.counts_match).then(|| {
        crate::error::CountMismatch(format!(
            "the single key holds {} for {} INCRs sent and the shard keys sum to {} for {}; \
             a client re-sent timed-out INCRs or another client wrote the keys",
            report.single_value,
            report.single_incr_sent,
            report.shard_sum,
            report.incr_sent + report.warmup_incr_sent
        ))
    });
    super::emit(
        o.output.set,
        &MeasureView(report),
        &o.inputs,
        o.output.explain,
    )?;
    match mismatch {
        Some(m) => Err(m.into()),
        None => Ok(()),
    }
}

#[cfg(feature = "redis")]
/// Where the run is, for the spinner: phase, run i/N, ops/s so far.
fn progress_line(p: &measure::Progress) -> String {
    let ops = crate::output::fmt::num(p.ops_per_second.round());
    match p.stage {
        measure::Stage::Warmup => format!("warm-up: {ops} INCR/s"),
        measure::Stage::Single => format!("run {}/{}, one key: {ops} INCR/s", p.run, p.runs),
        measure::Stage::Sharded => format!("run {}/{}, shard keys: {ops} INCR/s", p.run, p.runs),
    }
}
