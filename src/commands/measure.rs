//! `shardplan measure`: a bounded load on a real Redis. Flags become a
//! [`MeasureConfig`], the run gives a report, the view renders it.

use crate::cli::MeasureArgs;
use crate::config::Run;
use crate::config::{Inputs, Source, Sourced};
use crate::error::InputResult;
use crate::measure::{self, MeasureConfig};
use crate::model::defaults::{
    DEFAULT_MEASURE_CLIENTS, DEFAULT_MEASURE_DURATION, DEFAULT_MEASURE_PIPELINE,
    DEFAULT_MEASURE_RUNS, DEFAULT_MEASURE_SHARDS, DEFAULT_MEASURE_TEMPLATE,
    DEFAULT_MEASURE_TIMEOUT,
};
use crate::output::OutputSet;
use crate::views::measure::MeasureView;

/// The password and where it came from, when the URL has none.
fn password(
    args: &MeasureArgs,
    redis: &str,
    run: &Run,
) -> crate::error::InputResult<Option<(String, Source)>> {
    use crate::error::InputError;
    if measure::redact(redis) != redis {
        return Ok(None); // the URL carries one
    }
    if let Some(path) = &args.password_file {
        let bytes = crate::config::input_file::read_bounded(
            &run.claims,
            "--password-file",
            path,
            4096,
            "a password is a line",
        )?;
        let text = String::from_utf8(bytes).map_err(|_| {
            InputError::new(
                "--password-file",
                format!("cannot read {}: not UTF-8 text", path.display()),
            )
        })?;
        let pw = text.lines().next().unwrap_or("").to_string();
        if pw.is_empty() {
            return Err(InputError::new(
                "--password-file",
                format!("{} has an empty first line", path.display()),
            ));
        }
        return Ok(Some((
            pw,
            Source::File {
                flag: "--password-file",
                path: path.display().to_string(),
                field: "first line",
            },
        )));
    }
    match std::env::var("REDISCLI_AUTH") {
        Ok(pw) if !pw.is_empty() => Ok(Some((pw, Source::Env("REDISCLI_AUTH")))),
        _ => Ok(None),
    }
}

/// Runs `shardplan measure`: validate the flags, say any placement warning,
/// run the warm-up, the alternating phases and the read path (with progress
/// on a terminal), and write the report to every output.
pub fn run(args: MeasureArgs, run: &Run) -> anyhow::Result<()> {
    if let Some(url) = args.postgres.clone() {
        return super::measure_postgres::run(args, url, run);
    }
    // clap requires --redis or --postgres.
    let redis = args.redis.clone().unwrap_or_default();
    // The password: in the URL, else --password-file, else REDISCLI_AUTH
    // (redis-cli's convention), so it need not show in `ps` or history.
    let (url, password_source) = match password(&args, &redis, run)? {
        Some((pw, source)) => (measure::with_password(&redis, &pw), Some(source)),
        None => (redis.clone(), None),
    };
    let mut config = MeasureConfig::new(
        &url,
        args.cluster,
        shards(&args)?,
        args.clients,
        measure::parse_duration("--duration", &duration(&args))?,
        args.max_ops,
        args.pipeline,
        args.template.template.as_deref(),
    )?;
    config.runs = args.runs;
    config.keep = args.keep;
    config.overwrite = args.overwrite;
    config.timeout = measure::parse_duration("--timeout", &args.timeout)?;
    config.validate()?;
    // Every input of a measurement is a flag (or its default); the URL is
    // recorded without its password.
    let mut inputs = Inputs::default();
    inputs.record(
        "redis",
        &Sourced::from_flag("--redis", measure::redact(&redis)),
    );
    if let Some(source) = password_source {
        inputs.record("password", &Sourced::new("***", source));
    }
    // clap fills the other flags from model::defaults: a value equal to
    // the default is reported as the default.
    inputs.record("cluster", &sourced("--cluster", args.cluster, false));
    record_load(&mut inputs, &args)?;
    inputs.record("runs", &sourced("--runs", args.runs, DEFAULT_MEASURE_RUNS));
    inputs.record(
        "timeout",
        &sourced(
            "--timeout",
            args.timeout.clone(),
            DEFAULT_MEASURE_TIMEOUT.into(),
        ),
    );
    inputs.record(
        "pipeline",
        &sourced("--pipeline", args.pipeline, DEFAULT_MEASURE_PIPELINE),
    );
    inputs.record(
        "template",
        &match &args.template.template {
            Some(t) => Sourced::from_flag("--template", t.clone()),
            None => Sourced::new(DEFAULT_MEASURE_TEMPLATE.to_string(), Source::Default),
        },
    );
    if let Some(m) = args.max_ops {
        inputs.record("max_ops", &Sourced::from_flag("--max-ops", m));
    }
    let out = OutputSet::prepare(run, args.out.format, &args.out.output.output)?;
    // Ctrl-C stops the load; the keys are deleted before the exit.
    crate::output::interrupt::defer_exit();
    let spinner = crate::output::progress::spinner(
        format!(
            "measuring: {} runs of two phases of at most {} s each, then the read path",
            config.runs,
            config.duration.as_secs_f64()
        ),
        !args.out.quiet.quiet,
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
    let report = measure::run_with(&config, &watch);
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
    super::emit(out, &MeasureView(report), &inputs, args.out.explain.explain)?;
    match mismatch {
        Some(m) => Err(m.into()),
        None => Ok(()),
    }
}

/// Where the run is, for the spinner: phase, run i/N, ops/s so far.
fn progress_line(p: &measure::Progress) -> String {
    let ops = crate::output::fmt::num(p.ops_per_second.round());
    match p.stage {
        measure::Stage::Warmup => format!("warm-up: {ops} INCR/s"),
        measure::Stage::Single => format!("run {}/{}, one key: {ops} INCR/s", p.run, p.runs),
        measure::Stage::Sharded => format!("run {}/{}, shard keys: {ops} INCR/s", p.run, p.runs),
    }
}

/// A flag's value with its source: the default when it equals clap's
/// default, else the flag.
/// The load both stores' runs share, in `inputs`: shards, clients and
/// each phase's duration.
pub(super) fn record_load(inputs: &mut Inputs, args: &MeasureArgs) -> InputResult<()> {
    inputs.record(
        "shards",
        &sourced("--shards", shards(args)?, DEFAULT_MEASURE_SHARDS),
    );
    inputs.record(
        "clients",
        &sourced("--clients", args.clients, DEFAULT_MEASURE_CLIENTS),
    );
    inputs.record(
        "duration",
        &sourced(
            "--duration",
            duration(args),
            DEFAULT_MEASURE_DURATION.into(),
        ),
    );
    Ok(())
}

/// `--shards` (one count), else the default.
pub(super) fn shards(args: &MeasureArgs) -> InputResult<u64> {
    Ok(args.shards.one()?.unwrap_or(DEFAULT_MEASURE_SHARDS))
}

/// `--duration` as typed, else the default (each phase's length).
pub(super) fn duration(args: &MeasureArgs) -> String {
    args.duration
        .duration
        .as_ref()
        .map_or(DEFAULT_MEASURE_DURATION.to_string(), |d| d.text.clone())
}

pub(super) fn sourced<T: PartialEq>(flag: &'static str, value: T, default: T) -> Sourced<T> {
    let source = if value == default {
        Source::Default
    } else {
        Source::Flag(flag)
    };
    Sourced::new(value, source)
}
