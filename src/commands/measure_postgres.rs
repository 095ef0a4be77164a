//! `shardplan measure --postgres URL`: three counter designs on a real
//! PostgreSQL. Flags become a [`PgConfig`], the run gives a report, the
//! view renders it. clap refuses the Redis-only flags with `--postgres`.

use crate::cli::MeasureArgs;
use crate::config::Run;
use crate::config::{Inputs, Source, Sourced};
use crate::error::{CountMismatch, InputError};
use crate::measure::postgres::{self, PgConfig};
use crate::model::defaults::{DEFAULT_MEASURE_TIMEOUT, PG_WATCHDOG_SLACK};
use crate::output::OutputSet;
use crate::views::measure_postgres::PgMeasureView;

use super::measure::{record_load, sourced};

/// Runs `shardplan measure --postgres URL`.
pub fn run(args: MeasureArgs, url: String, run: &Run) -> anyhow::Result<()> {
    let secrets = secrets(&url);
    run_with(args, url, run).map_err(|e| scrub(e, &secrets))
}

fn run_with(args: MeasureArgs, url: String, run: &Run) -> anyhow::Result<()> {
    let mut config = PgConfig::new(
        &url,
        super::measure::shards(&args)?,
        args.clients,
        crate::measure::parse_duration("--duration", &super::measure::duration(&args))?,
        args.max_ops,
    )?;
    // The password: in the URL, else PGPASSWORD (libpq's convention), so
    // it need not show in `ps` or the shell's history.
    let url_has_password = url
        .parse::<::postgres::Config>()
        .is_ok_and(|c| c.get_password().is_some());
    let env_password = std::env::var("PGPASSWORD").ok().filter(|p| !p.is_empty());
    if !url_has_password {
        config.password = env_password.clone();
    }
    config.schema = args.schema.clone();
    config.timeout = crate::measure::parse_duration("--timeout", &args.timeout)?;
    config.validate()?;

    let mut inputs = Inputs::default();
    inputs.record(
        "postgres",
        &Sourced::from_flag("--postgres", postgres::redact(&url)),
    );
    if !url_has_password && env_password.is_some() {
        inputs.record("password", &Sourced::new("***", Source::Env("PGPASSWORD")));
    }
    inputs.record(
        "schema",
        &match &args.schema {
            Some(s) => Sourced::from_flag("--schema", s.clone()),
            None => Sourced::new("shardplan_<run id>".to_string(), Source::Default),
        },
    );
    record_load(&mut inputs, &args)?;
    inputs.record(
        "timeout",
        &sourced(
            "--timeout",
            args.timeout.clone(),
            DEFAULT_MEASURE_TIMEOUT.into(),
        ),
    );
    if let Some(m) = args.max_ops {
        inputs.record("max_ops", &Sourced::from_flag("--max-ops", m));
    }
    let out = OutputSet::prepare(run, args.out.format, &args.out.output.output)?;
    // Ctrl-C stops the load; the schema is dropped before the exit.
    crate::output::interrupt::defer_exit();
    let spinner = crate::output::progress::spinner(
        format!(
            "measuring PostgreSQL: three designs of at most {} s each",
            config.duration.as_secs_f64()
        ),
        !args.out.quiet.quiet,
    );
    let watchdog = watchdog(&config);
    let report = postgres::run(&config);
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
        out,
        &PgMeasureView(report),
        &inputs,
        args.out.explain.explain,
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

/// The passwords that must never show: the URL's and `PGPASSWORD`.
fn secrets(url: &str) -> Vec<String> {
    let from_url = url.parse::<::postgres::Config>().ok().and_then(|c| {
        c.get_password()
            .map(|p| String::from_utf8_lossy(p).into_owned())
    });
    from_url
        .into_iter()
        .chain(std::env::var("PGPASSWORD").ok())
        .filter(|p| !p.is_empty())
        .collect()
}

/// `e` with any password replaced by `***`: no message is built with one,
/// but a server or a library could echo it. An input error stays one (exit
/// code 2); other errors are rebuilt only when a password shows.
fn scrub(e: anyhow::Error, secrets: &[String]) -> anyhow::Error {
    let text = format!("{e:#}");
    if !secrets.iter().any(|s| text.contains(s.as_str())) {
        return e;
    }
    let clean = |t: &str| {
        secrets
            .iter()
            .fold(t.to_string(), |t, s| t.replace(s.as_str(), "***"))
    };
    match e.downcast::<InputError>() {
        Ok(input) => InputError::new(clean(&input.what), clean(&input.message)).into(),
        Err(e) => anyhow::anyhow!(clean(&format!("{e:#}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_in_any_message_is_scrubbed_and_input_errors_stay_input_errors() {
        let secrets = vec!["hunter2".to_string()];
        let e = scrub(
            InputError::new("--postgres", "bad hunter2 url").into(),
            &secrets,
        );
        let input = e
            .downcast_ref::<InputError>()
            .expect("still an input error");
        assert_eq!(input.message, "bad *** url");
        let e = scrub(anyhow::anyhow!("login hunter2 refused"), &secrets);
        assert_eq!(e.to_string(), "login *** refused");
        let e = scrub(anyhow::anyhow!("nothing secret"), &secrets);
        assert_eq!(e.to_string(), "nothing secret");
        assert_eq!(secrets_of_url("postgres://u:pw9@h/db"), ["pw9"]);
    }

    fn secrets_of_url(url: &str) -> Vec<String> {
        // PGPASSWORD may be set where the tests run: only the URL's here.
        secrets(url)
            .into_iter()
            .filter(|s| std::env::var("PGPASSWORD").ok().as_ref() != Some(s))
            .collect()
    }
}
