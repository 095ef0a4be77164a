//! `measure --reconcile`'s plan: both stores' flags, the rate, the faults
//! and the job's interval; and the flags that mean something only with it.

use super::{PostgresOptions, RedisOptions, Secrets};
use crate::cli::MeasureArgs;
use crate::config::options::Output;
use crate::config::{Inputs, Run, Source, Sourced};
use crate::error::{InputError, InputResult};
use crate::measure;
use crate::measure::durability::DEFAULT_DURABILITY_RATE;
use crate::measure::postgres;
use crate::measure::reconcile::ReconcileConfig;

/// The flags that mean something only with `--reconcile`, and the two
/// stores together.
pub(super) fn refuse_without_reconcile(args: &MeasureArgs) -> InputResult<()> {
    for (flag, given, what) in [
        (
            "--lost-replies",
            args.lost_replies.is_some(),
            "the share of replies the writers drop",
        ),
        (
            "--retry",
            args.retry.retry.is_some(),
            "what the writers do after a dropped reply",
        ),
        (
            "--failed-increments",
            args.failed_increments.is_some(),
            "the share of increments the writers skip",
        ),
        (
            "--reconcile-every",
            args.reconcile_every.is_some(),
            "how often the job runs during the writes",
        ),
    ] {
        if given {
            return Err(InputError::new(
                flag,
                format!(
                    "is {what} in a --reconcile run; add --reconcile (with --redis and --postgres)"
                ),
            ));
        }
    }
    if args.redis.is_some() && args.postgres.is_some() {
        return Err(InputError::new(
            "--redis",
            "with --postgres measures both stores only with --reconcile (like rows in \
             PostgreSQL, the shard keys in Redis); add --reconcile or give one store",
        ));
    }
    if args.postgres.is_some() && args.keep {
        return Err(InputError::new(
            "--keep",
            "leaves a Redis run's keys (and --reconcile's table); measure --postgres always \
             drops its schema",
        ));
    }
    Ok(())
}

/// `measure --redis URL --postgres URL --reconcile`, resolved.
pub struct MeasureReconcileOptions {
    /// The run, passwords included.
    pub config: ReconcileConfig,
    /// The passwords no message may show (PostgreSQL's).
    pub secrets: Secrets,
    /// Every input, with its source.
    pub inputs: Inputs,
    /// Where the result goes.
    pub output: Output,
}

impl MeasureReconcileOptions {
    /// Both stores' flags, then the run's own: the rate, the faults and
    /// the job's interval.
    pub(super) fn new(args: MeasureArgs, run: &Run) -> InputResult<Self> {
        let (Some(_), Some(url)) = (&args.redis, args.postgres.clone()) else {
            return Err(InputError::new(
                "--reconcile",
                "needs --redis URL (the counter's shard keys) and --postgres URL (the like rows)",
            ));
        };
        let redis = RedisOptions::new(args.clone(), run)?;
        // The outputs are claimed once, by the Redis side.
        let mut pg_args = args.clone();
        pg_args.out.output.output.clear();
        let pg = PostgresOptions::new(pg_args, url.clone(), run)?;
        let secrets = pg.secrets.clone();
        let mut inputs = redis.inputs;
        inputs.record(
            "postgres",
            &Sourced::from_flag("--postgres", postgres::redact(&url)),
        );
        let rate = args.rate.one()?;
        let share = |flag: &'static str, v: Option<f64>| match v {
            Some(x) => Sourced::from_flag(flag, x),
            None => Sourced::new(0.0, Source::Default),
        };
        let lost = share("--lost-replies", args.lost_replies);
        let failed = share("--failed-increments", args.failed_increments);
        let retry = match args.retry.retry {
            Some(r) => Sourced::from_flag("--retry", r),
            None => Sourced::new(crate::model::defaults::DEFAULT_RETRY, Source::Default),
        };
        let every = match &args.reconcile_every {
            Some(e) => Some(measure::parse_duration("--reconcile-every", e)?),
            None => None,
        };
        let config = ReconcileConfig {
            redis: redis.config,
            pg: pg.config,
            rate: rate.unwrap_or(DEFAULT_DURABILITY_RATE),
            lost_replies: lost.value,
            retry: retry.value,
            failed_increments: failed.value,
            every,
        };
        config.validate().map_err(|e| secrets.scrub_input(e))?;
        inputs.record(
            "rate",
            &match rate {
                Some(r) => Sourced::from_flag("--rate", r),
                None => Sourced::new(DEFAULT_DURABILITY_RATE, Source::Default),
            },
        );
        inputs.record("lost_replies", &lost);
        inputs.record(
            "retry",
            &Sourced::new(retry.value.name(), retry.source.clone()),
        );
        inputs.record("failed_increments", &failed);
        if let Some(e) = &args.reconcile_every {
            inputs.record(
                "reconcile_every",
                &Sourced::from_flag("--reconcile-every", e.clone()),
            );
        }
        Ok(MeasureReconcileOptions {
            config,
            secrets,
            inputs,
            output: redis.output,
        })
    }
}
