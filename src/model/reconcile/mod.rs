//! Reconciliation (issue 59, the model): how far a sharded counter drifts
//! from the like rows, what the job that closes it costs, the gap it
//! leaves, the correction it writes, and the designs that need no job.
//!
//! Drift: an increment is not idempotent. A write whose reply is lost
//! (share F of writes) had been applied with chance A. Retried once, an
//! applied write counts twice (over); not retried, an unapplied one is
//! missing (under). An increment refused after the like row was saved
//! (share G) is never counted, whatever the policy: the retry finds the row
//! and stops. An unlike is a decrement, so each fault moves the count the
//! other way. Every figure is a rational function of the inputs; nothing
//! here is sampled.

pub mod law;
#[cfg(test)]
mod tests;

use serde::Serialize;

use crate::error::{ParamError, ParamResult, Problem};
use crate::model::compare::exactly_once::{shards_for_conflicts, transactional_cap};
use crate::model::defaults::{MAX_REEL_DRIFT_MEAN, MAX_SHARDS};
use crate::model::validate;
use law::NetLaw;

/// What the service does after a write whose reply was lost.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Retry {
    /// Gives up: a write the store had not applied is missing.
    None,
    /// Sends it again: a write the store had applied counts twice.
    Once,
}

/// `--retry`'s values: the names and help once.
pub const RETRIES: &[(Retry, &str, &str)] = &[
    (
        Retry::None,
        "none",
        "give up after a lost reply: a write the store had not applied is missing",
    ),
    (
        Retry::Once,
        "once",
        "retry once after a lost reply: a write the store had applied counts twice",
    ),
];

impl Retry {
    /// Its name as typed (`once`).
    pub fn name(self) -> &'static str {
        RETRIES
            .iter()
            .find(|(r, _, _)| *r == self)
            .map_or("", |(_, name, _)| name)
    }
}

/// The faults of the write path.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Faults {
    /// Share of writes whose reply is lost, F.
    pub timeout_share: f64,
    /// Of those, the share the store had applied, A.
    pub applied_share: f64,
    /// What the service does then.
    pub retry: Retry,
    /// Share of increments refused after the like row was saved, G.
    pub increment_fail_share: f64,
}

/// The day's load and the job's settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ReconcileInputs {
    /// Likes a day over all reels.
    pub daily_likes: f64,
    /// Unlikes per like.
    pub unlike_share: f64,
    /// Reels the job counts.
    pub reels: u64,
    /// Like rows the job counts per reel.
    pub likes_per_reel: f64,
    /// The faults.
    pub faults: Faults,
    /// Rows a second the job reads.
    pub scan_rate: f64,
    /// Seconds between runs.
    pub every_seconds: f64,
    /// Price per million read units (one row read = one unit).
    pub read_price: Option<f64>,
    /// Price per million write units.
    pub write_price: Option<f64>,
    /// The plan: peak likes/s on the hottest reel, its shards, the cap per
    /// key and the safe rate (writes/s), the transactional write cost.
    pub plan: PlanFigures,
    /// The alternatives' settings.
    pub alternatives: AlternativeInputs,
}

/// What the plan gives the model.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlanFigures {
    /// Peak likes/s on the hottest reel.
    pub peak_likes: f64,
    /// Its shard keys.
    pub shards: u64,
    /// Writes/s one key accepts.
    pub cap: f64,
    /// Writes/s planned per key.
    pub safe: f64,
    /// The store preset in force (its transactional write cost).
    pub store: Option<crate::model::store::Store>,
}

/// The alternatives' own settings (defaults, stated in docs/reconcile.md).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AlternativeInputs {
    /// Milliseconds a transaction holds its shard (compare's conflict model).
    pub txn_ms: f64,
    /// Seconds an idempotency key is kept.
    pub retry_window_seconds: f64,
    /// Bytes one idempotency key takes.
    pub key_bytes: f64,
    /// Seconds between the log consumer's commits.
    pub log_commit_seconds: f64,
}

/// The drift per day over all reels, and one reel's over an interval.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct Drift {
    /// Writes a day: likes x (1 + unlike share).
    pub writes_per_day: f64,
    /// Likes counted too many a day (the counter reads high by these).
    pub over_per_day: f64,
    /// Likes counted too few a day.
    pub under_per_day: f64,
    /// over - under: positive when the counter reads high.
    pub net_per_day: f64,
    /// Chance one write is over-counted: over / writes.
    pub p_over: f64,
    /// Chance one write is under-counted: under / writes.
    pub p_under: f64,
    /// One reel over one interval.
    pub per_reel: ReelDrift,
}

/// One reel's drift over one interval, and the largest among the reels.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct ReelDrift {
    /// Writes one reel takes in an interval: writes a day / reels x the
    /// interval's share of a day, rounded to whole writes.
    pub writes: u64,
    /// Mean net drift: writes x (p_over - p_under).
    pub mean_net: f64,
    /// Its standard deviation: sqrt(writes x (p_over + p_under - (p_over - p_under)^2)).
    pub sd_net: f64,
    /// The exact law's figures; `None` past [`MAX_REEL_DRIFT_MEAN`].
    pub exact: Option<ReelLaw>,
}

/// Figures read from the exact law of one reel's net drift.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct ReelLaw {
    /// P(a reel's count is off after an interval): P(net != 0).
    pub p_off: f64,
    /// Reels expected off: reels x p_off.
    pub reels_off: f64,
    /// The median of the largest |net| among the reels.
    pub largest_abs_net_median: u64,
    /// Its 99th percentile.
    pub largest_abs_net_p99: u64,
    /// The 99th percentile of the largest net (the reel reading highest):
    /// the largest negative difference the job writes.
    pub largest_net_p99: i64,
}

/// The job: rows read, time, cost.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct Job {
    /// Rows read a run: reels x rows per reel.
    pub rows: f64,
    /// Seconds a run takes at the scan rate.
    pub seconds: f64,
    /// Seconds between runs.
    pub every_seconds: f64,
    /// Whether a run ends before the next starts.
    pub fits: bool,
    /// Runs in 30 days.
    pub runs_per_month: f64,
    /// Read cost of a run: rows x price / 1e6 (`None` without a price).
    pub cost_per_run: Option<f64>,
    /// The same over 30 days.
    pub cost_per_month: Option<f64>,
}

/// The gap a run leaves on the hottest reel.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct Gap {
    /// Seconds counting one reel's rows takes: rows per reel / scan rate.
    pub count_seconds: f64,
    /// Peak likes/s on the hottest reel.
    pub peak_likes: f64,
    /// Likes landing on it while its rows are counted: peak x seconds.
    pub likes: f64,
}

/// The correction: one increment of the difference on one shard.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct Correction {
    /// The plan's shards a reel's count is spread over.
    pub shards: u64,
    /// A shard's expected value: rows per reel / shards.
    pub shard_expected: f64,
    /// The largest decrease written (the largest net's 99th percentile
    /// among the reels; 0 when no reel reads high).
    pub largest_decrease: f64,
    /// Whether that decrease, on one shard, can take it below zero.
    pub can_go_below_zero: bool,
    /// P(one reel's net drift is above its shard's expected value), exact.
    pub p_reel_below_zero: Option<f64>,
    /// Each shard's part when the decrease is spread over all of them.
    pub spread_per_shard: f64,
}

/// The designs that need no job, beside it.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct Alternatives {
    /// Likes/s one key takes when each like is a transaction.
    pub transaction_cap_per_key: f64,
    /// Milliseconds each transaction holds its shard.
    pub txn_ms: f64,
    /// Shards transactions need at the peak, conflicts' retries included
    /// (compare's model); `None` past the largest count.
    pub transaction_shards: Option<u64>,
    /// Seconds an idempotency key is kept.
    pub retry_window_seconds: f64,
    /// Keys held at the peak: (the hottest reel's peak writes/s + the
    /// day's mean writes/s) x window.
    pub idempotency_keys: f64,
    /// Their memory: keys x bytes per key.
    pub idempotency_bytes: f64,
    /// Extra writes a day: one key a write.
    pub idempotency_writes_per_day: f64,
    /// Their cost a month at the write price.
    pub idempotency_cost_per_month: Option<f64>,
    /// The log design's lag: its commit period.
    pub log_lag_seconds: f64,
}

/// Everything `reconcile` reports.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct Reconciliation {
    /// How far the count drifts.
    pub drift: Drift,
    /// The job.
    pub job: Job,
    /// The gap it leaves.
    pub gap: Gap,
    /// The correction it writes.
    pub correction: Correction,
    /// The alternatives.
    pub alternatives: Alternatives,
}

/// A share in `[0, 1]`.
pub fn share(param: &'static str, v: f64) -> ParamResult<f64> {
    if !v.is_finite() || !(0.0..=1.0).contains(&v) {
        return Err(ParamError::new(param, Problem::NotShare(v)));
    }
    Ok(v)
}

impl Faults {
    /// Checks the shares: each in `[0, 1]`, a lost reply and a refused
    /// increment being different outcomes of one write, at most 1 together.
    pub fn validate(self) -> ParamResult<Self> {
        share("timeout_share", self.timeout_share)?;
        share("applied_share", self.applied_share)?;
        share("increment_fail_share", self.increment_fail_share)?;
        let room = 1.0 - self.timeout_share;
        if self.increment_fail_share > room {
            return Err(ParamError::new(
                "increment_fail_share",
                Problem::NumberOutside {
                    got: self.increment_fail_share,
                    lo: 0.0,
                    hi: room,
                },
            ));
        }
        Ok(self)
    }

    /// (over, under) per like and per unlike.
    fn per_write(&self) -> ((f64, f64), (f64, f64)) {
        let (f, a, g) = (
            self.timeout_share,
            self.applied_share,
            self.increment_fail_share,
        );
        // A lost reply: retried, an applied write is doubled; not retried,
        // an unapplied one is missing.
        let (doubled, missing) = match self.retry {
            Retry::Once => (f * a, 0.0),
            Retry::None => (0.0, f * (1.0 - a)),
        };
        // A like doubled reads high; an unlike (a decrement) doubled reads low.
        ((doubled, missing + g), (missing + g, doubled))
    }
}

impl ReconcileInputs {
    /// Checks the inputs (errors name the parameters).
    pub fn validate(self) -> ParamResult<Self> {
        validate::positive("daily_likes", self.daily_likes)?;
        share("unlike_share", self.unlike_share)?;
        validate::count("reels", self.reels, u64::MAX)?;
        validate::positive("likes_per_reel", self.likes_per_reel)?;
        self.faults.validate()?;
        validate::positive("scan_rate", self.scan_rate)?;
        validate::positive("every", self.every_seconds)?;
        Ok(self)
    }

    /// The drift per day and per reel.
    pub fn drift(&self) -> Drift {
        let ((like_over, like_under), (unlike_over, unlike_under)) = self.faults.per_write();
        let (likes, unlikes) = (self.daily_likes, self.daily_likes * self.unlike_share);
        let over = likes * like_over + unlikes * unlike_over;
        let under = likes * like_under + unlikes * unlike_under;
        let writes = likes + unlikes;
        let (p_over, p_under) = (over / writes, under / writes);
        let reel_writes = (writes / self.reels as f64 * self.every_seconds / 86_400.0).round();
        Drift {
            writes_per_day: writes,
            over_per_day: over,
            under_per_day: under,
            net_per_day: over - under,
            p_over,
            p_under,
            per_reel: reel_drift(reel_writes as u64, p_over, p_under, self.reels),
        }
    }

    /// The job's rows, time and cost.
    pub fn job(&self) -> Job {
        let rows = self.reels as f64 * self.likes_per_reel;
        let seconds = rows / self.scan_rate;
        let runs_per_month = 30.0 * 86_400.0 / self.every_seconds;
        let cost_per_run = self.read_price.map(|p| rows * p / 1e6);
        Job {
            rows,
            seconds,
            every_seconds: self.every_seconds,
            fits: seconds <= self.every_seconds,
            runs_per_month,
            cost_per_run,
            cost_per_month: cost_per_run.map(|c| c * runs_per_month),
        }
    }

    /// The likes landing on the hottest reel while its rows are counted.
    pub fn gap(&self) -> Gap {
        let count_seconds = self.likes_per_reel / self.scan_rate;
        Gap {
            count_seconds,
            peak_likes: self.plan.peak_likes,
            likes: self.plan.peak_likes * count_seconds,
        }
    }

    /// The correction on one shard, against the shard's expected value.
    pub fn correction(&self, drift: &Drift, law: Option<&NetLaw>) -> Correction {
        let shards = self.plan.shards;
        let shard_expected = self.likes_per_reel / shards as f64;
        let largest = drift
            .per_reel
            .exact
            .as_ref()
            .map_or(drift.per_reel.mean_net + 3.0 * drift.per_reel.sd_net, |l| {
                l.largest_net_p99 as f64
            })
            .max(0.0);
        Correction {
            shards,
            shard_expected,
            largest_decrease: largest,
            can_go_below_zero: largest > shard_expected,
            p_reel_below_zero: law.map(|l| l.above(shard_expected.floor() as i64)),
            spread_per_shard: largest / shards as f64,
        }
    }

    /// Transactions, idempotency keys and the log beside the job.
    pub fn alternatives(&self, drift: &Drift) -> Alternatives {
        let (p, a) = (&self.plan, &self.alternatives);
        let cost = crate::model::store::Store::transactional_write_cost(p.store);
        let writes_per_like = 1.0 + self.unlike_share;
        let peak_writes = p.peak_likes * writes_per_like;
        // Keys are kept for every reel's writes: the hottest reel at its
        // peak on top of the day's mean over all reels (which counts the
        // hottest reel's mean twice: an upper figure).
        let held_rate = peak_writes + drift.writes_per_day / 86_400.0;
        let keys = held_rate * a.retry_window_seconds;
        let extra = drift.writes_per_day;
        Alternatives {
            // compare's figures, from compare's functions: cap / cost, and
            // the fewest shards whose write units with retries stay safe.
            transaction_cap_per_key: transactional_cap(p.cap, p.store),
            txn_ms: a.txn_ms,
            transaction_shards: shards_for_conflicts(
                peak_writes,
                a.txn_ms,
                cost,
                p.safe,
                MAX_SHARDS,
            ),
            retry_window_seconds: a.retry_window_seconds,
            idempotency_keys: keys,
            idempotency_bytes: keys * a.key_bytes,
            idempotency_writes_per_day: extra,
            idempotency_cost_per_month: self.write_price.map(|w| extra * 30.0 * w / 1e6),
            log_lag_seconds: a.log_commit_seconds,
        }
    }

    /// The whole answer.
    pub fn reconcile(&self) -> Reconciliation {
        let drift = self.drift();
        let law = exact_law(&drift.per_reel, drift.p_over, drift.p_under);
        Reconciliation {
            job: self.job(),
            gap: self.gap(),
            correction: self.correction(&drift, law.as_ref()),
            alternatives: self.alternatives(&drift),
            drift,
        }
    }
}

/// The exact law of one reel's net, when its mean drift is within reach.
fn exact_law(r: &ReelDrift, p_over: f64, p_under: f64) -> Option<NetLaw> {
    let mean_drift = r.writes as f64 * (p_over + p_under);
    (mean_drift <= MAX_REEL_DRIFT_MEAN).then(|| NetLaw::new(r.writes, p_over, p_under))
}

/// One reel's drift over an interval, with the exact law's figures.
fn reel_drift(writes: u64, p_over: f64, p_under: f64, reels: u64) -> ReelDrift {
    let w = writes as f64;
    let d = p_over - p_under;
    let mut r = ReelDrift {
        writes,
        mean_net: w * d,
        sd_net: (w * (p_over + p_under - d * d)).max(0.0).sqrt(),
        exact: None,
    };
    r.exact = exact_law(&r, p_over, p_under).map(|law| {
        let p_off = law.abs_above(0);
        ReelLaw {
            p_off,
            reels_off: reels as f64 * p_off,
            largest_abs_net_median: law.largest_abs(reels, 0.5),
            largest_abs_net_p99: law.largest_abs(reels, 0.99),
            largest_net_p99: law.largest(reels, 0.99),
        }
    });
    r
}
