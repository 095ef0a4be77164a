//! `measure`'s plan: the load on a real Redis or PostgreSQL, the password
//! (from the URL, a file or the environment), and every input recorded with
//! its source (the URL without its password).

use super::Output;
use crate::cli::MeasureArgs;
use crate::config::{Inputs, Run, Source, Sourced};
use crate::error::{InputError, InputResult};
use crate::measure::durability::{
    Design, DurabilityConfig, Fault, FaultAction, FaultKind, DEFAULT_DURABILITY_RATE,
};
use crate::measure::postgres::{self, PgConfig, PgDurabilityConfig};
use crate::measure::{self, MeasureConfig};
use crate::model::defaults::{
    DEFAULT_MEASURE_CLIENTS, DEFAULT_MEASURE_DURATION, DEFAULT_MEASURE_PIPELINE,
    DEFAULT_MEASURE_RUNS, DEFAULT_MEASURE_SHARDS, DEFAULT_MEASURE_TEMPLATE,
    DEFAULT_MEASURE_TIMEOUT,
};
use crate::model::picker::Picker;

mod reconcile;

use reconcile::refuse_without_reconcile;
pub use reconcile::MeasureReconcileOptions;

/// `shardplan measure`, resolved: one store's run.
pub enum MeasureOptions {
    /// `--redis URL`.
    Redis(RedisOptions),
    /// `--postgres URL`.
    Postgres(PostgresOptions),
    /// `--redis URL --design D`: one design's durability run.
    Durability(DurabilityOptions),
    /// `--postgres URL --design D`: one design's durability run.
    PgDurability(PgDurabilityOptions),
    /// `--redis URL --postgres URL --reconcile`: the write path's drift and
    /// the job that closes it.
    Reconcile(MeasureReconcileOptions),
}

impl MeasureOptions {
    pub fn new(args: MeasureArgs, run: &Run) -> InputResult<Self> {
        if args.reconcile {
            return Ok(MeasureOptions::Reconcile(MeasureReconcileOptions::new(
                args, run,
            )?));
        }
        refuse_without_reconcile(&args)?;
        if args.rate.rate.is_some() && args.design.is_none() {
            return Err(InputError::new(
                "--rate",
                "sets the writes of a durability or --reconcile run; add --design or \
                 --reconcile (the other runs write as fast as the server takes)",
            ));
        }
        Ok(match args.postgres.clone() {
            Some(url) if args.design.is_some() => {
                MeasureOptions::PgDurability(PgDurabilityOptions::new(args, url, run)?)
            }
            Some(url) => MeasureOptions::Postgres(PostgresOptions::new(args, url, run)?),
            None if args.design.is_some() => {
                MeasureOptions::Durability(DurabilityOptions::new(args, run)?)
            }
            None => MeasureOptions::Redis(RedisOptions::new(args, run)?),
        })
    }
}

/// `measure --redis`, resolved.
pub struct RedisOptions {
    /// The run, password included.
    pub config: MeasureConfig,
    /// Every input, with its source.
    pub inputs: Inputs,
    /// Where the result goes.
    pub output: Output,
}

impl RedisOptions {
    fn new(args: MeasureArgs, run: &Run) -> InputResult<Self> {
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
        config.picker = picker(&args).value;
        config.keep = args.keep;
        config.overwrite = args.overwrite;
        config.timeout = measure::parse_duration("--timeout", &args.timeout)?;
        config.validate()?;
        let durability = args.design.is_some() || args.reconcile;
        let inputs = redis_inputs(&args, &redis, password_source, durability)?;
        Ok(RedisOptions {
            config,
            inputs,
            output: Output::new(run, &args.out, false)?,
        })
    }
}

/// The password and where it came from, when the URL has none.
fn password(args: &MeasureArgs, redis: &str, run: &Run) -> InputResult<Option<(String, Source)>> {
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

/// Every input of a Redis measurement: each is a flag (or its default);
/// the URL is recorded without its password.
fn redis_inputs(
    args: &MeasureArgs,
    redis: &str,
    password_source: Option<Source>,
    durability: bool,
) -> InputResult<Inputs> {
    let mut inputs = Inputs::default();
    inputs.record(
        "redis",
        &Sourced::from_flag("--redis", measure::redact(redis)),
    );
    if let Some(source) = password_source {
        inputs.record("password", &Sourced::new("***", source));
    }
    // clap fills the other flags from model::defaults: a value equal to
    // the default is reported as the default.
    inputs.record("cluster", &sourced("--cluster", args.cluster, false));
    record_load(&mut inputs, args)?;
    record_timeout(&mut inputs, args);
    if !durability {
        inputs.record("runs", &sourced("--runs", args.runs, DEFAULT_MEASURE_RUNS));
        inputs.record(
            "pipeline",
            &sourced("--pipeline", args.pipeline, DEFAULT_MEASURE_PIPELINE),
        );
    }
    inputs.record(
        "template",
        &match &args.template.template {
            Some(t) => Sourced::from_flag("--template", t.clone()),
            None => Sourced::new(DEFAULT_MEASURE_TEMPLATE.to_string(), Source::Default),
        },
    );
    record_max_ops(&mut inputs, args);
    Ok(inputs)
}

/// `measure --redis URL --design D`, resolved.
pub struct DurabilityOptions {
    /// The run, password included.
    pub config: DurabilityConfig,
    /// Every input, with its source.
    pub inputs: Inputs,
    /// Where the result goes.
    pub output: Output,
}

impl DurabilityOptions {
    /// The Redis run's flags, then the durability run's own; a flag with no
    /// effect on the chosen design is refused.
    fn new(args: MeasureArgs, run: &Run) -> InputResult<Self> {
        let design = args.design.unwrap_or(Design::Sharded);
        refuse_unused(&args, design)?;
        let redis = RedisOptions::new(args.clone(), run)?;
        let mut inputs = redis.inputs;
        let mut config = DurabilityConfig::new(redis.config, design)?;
        inputs.record("design", &Sourced::from_flag("--design", design.name()));
        let rate = args.rate.one()?;
        if let Some(rate) = rate {
            config.rate = rate;
        }
        inputs.record(
            "rate",
            &match rate {
                Some(r) => Sourced::from_flag("--rate", r),
                None => Sourced::new(DEFAULT_DURABILITY_RATE, Source::Default),
            },
        );
        if let Some(f) = &args.flush {
            config.flush = measure::parse_duration("--flush", f)?;
            inputs.record("flush", &Sourced::from_flag("--flush", f.clone()));
        }
        config.fault = fault(&args)?;
        config.wait_replicas = args.wait_replicas;
        config.rebuild = args.rebuild;
        for (name, flag, given) in [
            ("fault_at", "--fault-at", args.fault_at.clone()),
            (
                "fault_command",
                "--fault-command",
                args.fault_command.clone(),
            ),
            (
                "wait_replicas",
                "--wait-replicas",
                args.wait_replicas.map(|n| n.to_string()),
            ),
        ] {
            if let Some(v) = given {
                inputs.record(name, &Sourced::from_flag(flag, v));
            }
        }
        config.validate()?;
        Ok(DurabilityOptions {
            config,
            inputs,
            output: redis.output,
        })
    }
}

/// `measure --postgres URL --design D`, resolved.
pub struct PgDurabilityOptions {
    /// The run, password included.
    pub config: PgDurabilityConfig,
    /// The passwords no message may show.
    pub secrets: Secrets,
    /// Every input, with its source.
    pub inputs: Inputs,
    /// Where the result goes.
    pub output: Output,
}

impl PgDurabilityOptions {
    /// The PostgreSQL run's flags, then the durability run's own.
    fn new(args: MeasureArgs, url: String, run: &Run) -> InputResult<Self> {
        let design = args.design.unwrap_or(Design::Sharded);
        refuse_unused(&args, design)?;
        let pg = PostgresOptions::new(args.clone(), url, run)?;
        let secrets = pg.secrets.clone();
        let mut inputs = pg.inputs;
        let mut config =
            PgDurabilityConfig::new(pg.config, design).map_err(|e| secrets.scrub_input(e))?;
        inputs.record("design", &Sourced::from_flag("--design", design.name()));
        let rate = args.rate.one()?;
        config.rate = rate.unwrap_or(DEFAULT_DURABILITY_RATE);
        inputs.record(
            "rate",
            &match rate {
                Some(r) => Sourced::from_flag("--rate", r),
                None => Sourced::new(DEFAULT_DURABILITY_RATE, Source::Default),
            },
        );
        config.fault = fault(&args)?;
        if let Some(at) = &args.fault_at {
            inputs.record("fault_at", &Sourced::from_flag("--fault-at", at.clone()));
        }
        if let Some(c) = &args.fault_command {
            inputs.record(
                "fault_command",
                &Sourced::from_flag("--fault-command", c.clone()),
            );
        }
        config.validate().map_err(|e| secrets.scrub_input(e))?;
        Ok(PgDurabilityOptions {
            config,
            secrets,
            inputs,
            output: pg.output,
        })
    }
}

/// The flags `design` has no use for.
fn refuse_unused(args: &MeasureArgs, design: Design) -> InputResult<()> {
    if design == Design::Single && args.shards.shards.is_some() {
        return Err(InputError::new(
            "--shards",
            "the single design writes one key; drop --shards or pick another --design",
        ));
    }
    if design != Design::Buffered && args.flush.is_some() {
        return Err(InputError::new(
            "--flush",
            "is how often a buffered writer sends what it holds; add --design buffered",
        ));
    }
    Ok(())
}

/// `--fault-at` with its fault.
fn fault(args: &MeasureArgs) -> InputResult<Option<Fault>> {
    let Some(at) = &args.fault_at else {
        return Ok(None);
    };
    let at = measure::parse_duration("--fault-at", at)?;
    let action = match (&args.fault_command, args.fault) {
        (Some(c), _) => FaultAction::Command(c.clone()),
        (None, Some(FaultKind::KillWriter)) => FaultAction::KillWriter,
        (None, None) => {
            return Err(InputError::new(
                "--fault-at",
                "needs the fault: --fault-command CMD or --fault kill-writer",
            ))
        }
    };
    Ok(Some(Fault { at, action }))
}

/// `measure --postgres`, resolved.
pub struct PostgresOptions {
    /// The run, password included.
    pub config: PgConfig,
    /// The passwords no message may show.
    pub secrets: Secrets,
    /// Every input, with its source.
    pub inputs: Inputs,
    /// Where the result goes.
    pub output: Output,
}

impl PostgresOptions {
    /// clap refuses the Redis-only flags with `--postgres`; a password in
    /// any refusal is scrubbed.
    fn new(args: MeasureArgs, url: String, run: &Run) -> InputResult<Self> {
        let secrets = Secrets::of(&url);
        Self::resolve(args, &url, run, secrets.clone()).map_err(|e| secrets.scrub_input(e))
    }

    fn resolve(args: MeasureArgs, url: &str, run: &Run, secrets: Secrets) -> InputResult<Self> {
        let mut config = PgConfig::new(
            url,
            shards(&args)?,
            args.clients,
            measure::parse_duration("--duration", &duration(&args))?,
            args.max_ops,
        )?;
        // The password: in the URL, else PGPASSWORD (libpq's convention), so
        // it need not show in `ps` or the shell's history.
        let url_has_password = postgres::url_password(url).is_some();
        let env_password = std::env::var("PGPASSWORD").ok().filter(|p| !p.is_empty());
        if !url_has_password {
            config.password = env_password.clone();
        }
        config.schema = args.schema.clone();
        config.picker = picker(&args).value;
        config.synchronous_commit = args.synchronous_commit;
        config.timeout = measure::parse_duration("--timeout", &args.timeout)?;
        config.validate()?;
        let mut inputs = Inputs::default();
        if let Some(sc) = args.synchronous_commit {
            inputs.record(
                "synchronous_commit",
                &Sourced::from_flag("--synchronous-commit", sc.name()),
            );
        }
        inputs.record(
            "postgres",
            &Sourced::from_flag("--postgres", postgres::redact(url)),
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
        record_timeout(&mut inputs, &args);
        record_max_ops(&mut inputs, &args);
        Ok(PostgresOptions {
            config,
            secrets,
            inputs,
            output: Output::new(run, &args.out, false)?,
        })
    }
}

/// The passwords that must never show: the URL's and `PGPASSWORD`.
#[derive(Clone)]
pub struct Secrets(Vec<String>);

impl Secrets {
    /// The password in `url`, and `PGPASSWORD`'s.
    fn of(url: &str) -> Self {
        let from_url = postgres::url_password(url);
        Secrets(
            from_url
                .into_iter()
                .chain(std::env::var("PGPASSWORD").ok())
                .filter(|p| !p.is_empty())
                .collect(),
        )
    }

    /// `text` with every password replaced by `***`.
    fn clean(&self, text: &str) -> String {
        self.0
            .iter()
            .fold(text.to_string(), |t, s| t.replace(s.as_str(), "***"))
    }

    /// An input error without any password.
    pub fn scrub_input(&self, e: InputError) -> InputError {
        InputError::new(self.clean(&e.what), self.clean(&e.message))
    }

    /// `e` with any password replaced by `***`: no message is built with one,
    /// but a server or a library could echo it. An input error stays one (exit
    /// code 2); other errors are rebuilt only when a password shows.
    pub fn scrub(&self, e: anyhow::Error) -> anyhow::Error {
        let text = format!("{e:#}");
        if !self.0.iter().any(|s| text.contains(s.as_str())) {
            return e;
        }
        match e.downcast::<InputError>() {
            Ok(input) => self.scrub_input(input).into(),
            Err(e) => anyhow::anyhow!(self.clean(&format!("{e:#}"))),
        }
    }
}

/// The load both stores' runs share, in `inputs`: shards, clients, each
/// phase's duration and the picker.
fn record_load(inputs: &mut Inputs, args: &MeasureArgs) -> InputResult<()> {
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
    inputs.record("picker", &picker(args));
    Ok(())
}

/// `--picker`, else random (measure reads no scenario): how each client,
/// as one app server, picks a shard.
fn picker(args: &MeasureArgs) -> Sourced<Picker> {
    match args.picker.picker {
        Some(p) => Sourced::from_flag("--picker", p),
        None => Sourced::new(Picker::default(), Source::Default),
    }
}

/// `--timeout`, in `inputs`.
fn record_timeout(inputs: &mut Inputs, args: &MeasureArgs) {
    inputs.record(
        "timeout",
        &sourced(
            "--timeout",
            args.timeout.clone(),
            DEFAULT_MEASURE_TIMEOUT.into(),
        ),
    );
}

/// `--max-ops`, in `inputs` when given.
fn record_max_ops(inputs: &mut Inputs, args: &MeasureArgs) {
    if let Some(m) = args.max_ops {
        inputs.record("max_ops", &Sourced::from_flag("--max-ops", m));
    }
}

/// `--shards` (one count), else the default.
fn shards(args: &MeasureArgs) -> InputResult<u64> {
    Ok(args.shards.one()?.unwrap_or(DEFAULT_MEASURE_SHARDS))
}

/// `--duration` as typed, else the default (each phase's length).
fn duration(args: &MeasureArgs) -> String {
    args.duration
        .duration
        .as_ref()
        .map_or(DEFAULT_MEASURE_DURATION.to_string(), |d| d.text.clone())
}

/// A flag's value with its source: the default when it equals clap's
/// default, else the flag.
fn sourced<T: PartialEq>(flag: &'static str, value: T, default: T) -> Sourced<T> {
    let source = if value == default {
        Source::Default
    } else {
        Source::Flag(flag)
    };
    Sourced::new(value, source)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_in_any_message_is_scrubbed_and_input_errors_stay_input_errors() {
        let secrets = Secrets(vec!["hunter2".to_string()]);
        let e = secrets.scrub(InputError::new("--postgres", "bad hunter2 url").into());
        let input = e
            .downcast_ref::<InputError>()
            .expect("still an input error");
        assert_eq!(input.message, "bad *** url");
        let e = secrets.scrub(anyhow::anyhow!("login hunter2 refused"));
        assert_eq!(e.to_string(), "login *** refused");
        let e = secrets.scrub(anyhow::anyhow!("nothing secret"));
        assert_eq!(e.to_string(), "nothing secret");
        let e = secrets.scrub_input(InputError::new("--schema", "hunter2 is taken"));
        assert_eq!(e.message, "*** is taken");
        assert_eq!(secrets_of_url("postgres://u:pw9@h/db"), ["pw9"]);
    }

    fn secrets_of_url(url: &str) -> Vec<String> {
        // PGPASSWORD may be set where the tests run: only the URL's here.
        Secrets::of(url)
            .0
            .into_iter()
            .filter(|s| std::env::var("PGPASSWORD").ok().as_ref() != Some(s))
            .collect()
    }
}
