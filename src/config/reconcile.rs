//! `reconcile`'s inputs: the day's likes and the write path's faults, the
//! job's reels, rows, scan rate and interval (flags over the scenario's
//! `[reconcile]` section over defaults), the plan's peak and shards, and
//! the prices.

use super::plan::PlanFlags;
use super::{refuse, Resolver, Sourced};
use crate::cli::{ReadArgs, ReconcileArgs};
use crate::error::InputResult;
use crate::model::defaults as d;
use crate::model::reconcile::{
    share, AlternativeInputs, Faults, PlanFigures, ReconcileInputs, Retry,
};
use crate::model::validate;

/// A positive number at most `max`, checked where it came from.
fn bounded(v: &Sourced<f64>, param: &'static str, max: f64) -> InputResult<()> {
    let x = v.check(|x| validate::positive(param, *x))?;
    if x > max {
        return Err(v.error(format!("must be at most {max:e} (got {x})")));
    }
    Ok(())
}

impl Resolver {
    /// Everything `reconcile` models, resolved once and checked.
    pub fn reconciliation(&mut self, a: &ReconcileArgs) -> InputResult<ReconcileInputs> {
        refused_flags(a)?;
        let plan = self.plan(&a.sizing, &ReadArgs::default(), PlanFlags::default())?;
        let shards = match a.shards.one()? {
            Some(n) => Sourced::from_flag("--shards", n),
            None => self
                .field("shards", &self.scenario.scenario.shards)
                .unwrap_or(Sourced::derived(
                    plan.recommendation.shards,
                    "the recommendation (shardplan size)",
                )),
        };
        shards.check(|n| validate::count("shards", *n, d::MAX_SHARDS))?;
        let faults = self.faults(a)?;
        let load = self.job_inputs(a)?;
        let prices = self.reconcile_prices(&a.prices)?;
        let sizing = &plan.sizing;
        let alternatives = AlternativeInputs {
            txn_ms: self
                .inputs
                .take("txn_ms", Sourced::default(d::DEFAULT_TXN_MS)),
            retry_window_seconds: self.inputs.take(
                "retry_window_seconds",
                Sourced::default(d::DEFAULT_RETRY_WINDOW_SECONDS),
            ),
            key_bytes: self
                .inputs
                .take("key_bytes", Sourced::default(d::DEFAULT_ITEM_BYTES)),
            log_commit_seconds: self.inputs.take(
                "log_commit_seconds",
                Sourced::default(d::DEFAULT_LOG_COMMIT_SECONDS),
            ),
        };
        ReconcileInputs {
            daily_likes: load.daily_likes,
            unlike_share: sizing.unlikes.map_or(0.0, |u| u.unlikes.share),
            reels: load.reels,
            likes_per_reel: load.likes_per_reel,
            faults,
            scan_rate: load.scan_rate,
            every_seconds: load.every_seconds,
            read_price: prices.read_per_million,
            write_price: prices.write_per_million,
            plan: PlanFigures {
                peak_likes: sizing.peak.likes,
                shards: self.inputs.take("shards", shards),
                cap: sizing.plan.cap,
                safe: sizing.plan.safe_per_shard(),
                store: sizing.store,
            },
            alternatives,
        }
        .validate()
        .map_err(|e| self.blame(e))
    }

    /// The faults: each share a flag over the section over its default.
    /// `--applied-share` with no lost reply has no effect and is refused.
    fn faults(&mut self, a: &ReconcileArgs) -> InputResult<Faults> {
        let s = self.scenario.scenario.reconcile.clone().unwrap_or_default();
        let timeout = Sourced::flag("--timeout-share", a.timeout_share)
            .or(self.field("reconcile.timeout_share", &s.timeout_share))
            .unwrap_or(Sourced::default(d::DEFAULT_TIMEOUT_RATE));
        timeout.check(|v| share("timeout_share", *v))?;
        let applied = Sourced::flag("--applied-share", a.applied_share.applied_share)
            .or(self.field("reconcile.applied_share", &s.applied_share));
        if let Some(given) = applied.as_ref().filter(|_| timeout.value == 0.0) {
            return Err(given.error(format!(
                "has no effect when no reply is lost ({} is 0)",
                timeout.source
            )));
        }
        let applied = applied.unwrap_or(Sourced::default(d::DEFAULT_APPLIED_SHARE));
        applied.check(|v| share("applied_share", *v))?;
        let retry = Sourced::flag("--retry", a.retry.retry)
            .or(self.field("reconcile.retry", &s.retry))
            .unwrap_or(Sourced::default(d::DEFAULT_RETRY));
        let fail = Sourced::flag("--increment-fail-share", a.increment_fail_share)
            .or(self.field("reconcile.increment_fail_share", &s.increment_fail_share))
            .unwrap_or(Sourced::default(d::DEFAULT_INCREMENT_FAIL_SHARE));
        fail.check(|v| share("increment_fail_share", *v))?;
        Ok(Faults {
            timeout_share: self.inputs.take("timeout_share", timeout),
            applied_share: self.inputs.take("applied_share", applied),
            retry: self.inputs.take::<Retry>("retry", retry),
            increment_fail_share: self.inputs.take("increment_fail_share", fail),
        })
    }

    /// The day's likes, the reels and rows the job counts, its scan rate
    /// and its interval.
    fn job_inputs(&mut self, a: &ReconcileArgs) -> InputResult<JobLoad> {
        let s = self.scenario.scenario.reconcile.clone().unwrap_or_default();
        let daily = Sourced::flag("--daily-likes", a.prices.daily_likes)
            .or(self.field("reconcile.daily_likes", &s.daily_likes))
            .unwrap_or(Sourced::default(d::DEFAULT_LIKES_PER_DAY));
        bounded(&daily, "daily_likes", d::MAX_DAILY_LIKES)?;
        let reels = Sourced::flag("--reels", a.reels.reels)
            .or(self.field("reconcile.reels", &s.reels))
            .unwrap_or(Sourced::default(d::DEFAULT_REELS));
        reels.check(|v| validate::count("reels", *v, d::MAX_REELS))?;
        let rows = Sourced::flag("--likes-per-reel", a.likes_per_reel)
            .or(self.field("reconcile.likes_per_reel", &s.likes_per_reel))
            .unwrap_or(Sourced::default(d::DEFAULT_LIKES_PER_REEL));
        bounded(&rows, "likes_per_reel", d::MAX_RECONCILE_ROWS)?;
        let scan = Sourced::flag("--scan-rate", a.scan_rate)
            .or(self.field("reconcile.scan_rate", &s.scan_rate))
            .unwrap_or(Sourced::default(d::DEFAULT_SCAN_ROWS_PER_SECOND));
        bounded(&scan, "scan_rate", d::MAX_RECONCILE_ROWS)?;
        let every = Sourced::flag("--every", a.every)
            .or(self.field("reconcile.every_seconds", &s.every_seconds))
            .unwrap_or(Sourced::default(d::DEFAULT_RECONCILE_EVERY_SECONDS));
        bounded(&every, "every", d::MAX_RECONCILE_EVERY_SECONDS)?;
        Ok(JobLoad {
            daily_likes: self.inputs.take("daily_likes", daily),
            reels: self.inputs.take("reels", reels),
            likes_per_reel: self.inputs.take("likes_per_reel", rows),
            scan_rate: self.inputs.take("scan_rate", scan),
            every_seconds: self.inputs.take("every_seconds", every),
        })
    }
}

/// The job's load, resolved.
struct JobLoad {
    daily_likes: f64,
    reels: u64,
    likes_per_reel: f64,
    scan_rate: f64,
    every_seconds: f64,
}

/// The flags `reconcile` offers through shared groups that change none of
/// its figures.
fn refused_flags(a: &ReconcileArgs) -> InputResult<()> {
    refuse(
        a.sizing.transactional,
        "--transactional",
        "on reconcile: transactions are shown beside the job (their cap per key and shards), \
         not sized as the plan",
    )?;
    for (given, flag) in [
        (a.sizing.cool_down.is_some(), "--cool-down"),
        (a.sizing.cool_down_rate.is_some(), "--cool-down-rate"),
    ] {
        refuse(
            given,
            flag,
            "on reconcile: it sets the negative-shard chance of size and risk, not the job's",
        )?;
    }
    Ok(())
}
