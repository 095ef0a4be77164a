//! The time-line simulation: one hot reel, second by second, with a like
//! rate that follows a curve, a burst bucket per shard key, and optionally
//! the hot-key monitor that raises the reel's shard count while every likes
//! server caches the settings.
//!
//! A time-line is sequential (buckets, window and caches carry state), so it
//! runs on one thread with one RNG stream, `chunk_rng(seed, 0)`: the output
//! is byte-identical for a seed. Memory is O(shards + servers + window),
//! never O(seconds): per-second rows go to a callback.
//!
//! Within second s (1-based), in this order:
//! 1. likes L arrive (fixed or Poisson around the curve, see [`curve`]);
//! 2. the servers split L evenly: the m of n servers that already write over
//!    the new write_shards take floor(L x m / n), the rest go to the old
//!    shards; each group's likes go to uniformly random shards of its set;
//! 3. each shard key applies its writes to its cap and burst bucket
//!    ([`bucket`]); rejected writes are lost (no retry);
//! 4. the monitor adds L to its window and may decide the raise ([`monitor`]);
//! 5. the row is emitted: the displayed total is what the worst reader
//!    shows (the sum of the shards in the smallest read_shards any server
//!    holds); the true total is every accepted like on every shard.

pub mod bucket;
pub mod curve;
pub mod grid;
pub mod monitor;
mod report;
pub mod resize;

pub use report::{TimelineReport, TimelineRow};

pub use grid::{monitor_grid, MonitorGridRow};

use crate::error::{ParamError, ParamResult};
use crate::model::defaults::MAX_SECONDS;
use crate::model::sampler::{chunk_rng, split_uniform};
use crate::model::traffic::TrafficModel;
use crate::model::validate;

use bucket::{BurstBucket, StoreConfig};
use curve::{CurveTraffic, RateCurve};
use monitor::{Monitor, RaiseSchedule, RateWindow, SettingsCaches};

/// A validated time-line run.
///
/// Build it with [`TimelinePlan::new`], which checks every field; the fields
/// are public to read, and a plan assembled by hand skips those checks.
#[derive(Debug, Clone)]
pub struct TimelinePlan {
    /// The reel's like rate over time, likes/s; second k gets the curve's
    /// mean over `[k - 1, k)` ([`curve::RateCurve::second_mean`]).
    pub curve: RateCurve,
    /// How a second's likes follow the curve: its mean exactly (fixed, the
    /// fractional remainder carried to later seconds) or a Poisson count.
    pub traffic: TrafficModel,
    /// The write cap of every shard key, writes/s: a whole number from 1 to
    /// [`MAX_RATE`](crate::model::defaults::MAX_RATE).
    pub cap: u64,
    /// Run length: seconds 1 to `seconds` are simulated (1 to
    /// [`MAX_SECONDS`]).
    pub seconds: u64,
    /// Seed of the run's one RNG stream, `chunk_rng(seed, 0)`: the same plan
    /// and seed give the same rows and report.
    pub seed: u64,
    /// Shards every reel starts with (1 in the design).
    pub start_shards: u64,
    /// Every shard key's burst bucket: how many seconds of cap it keeps and
    /// how full it starts.
    pub store: StoreConfig,
    /// The hot-key monitor that raises the reel to its `target_shards`
    /// (above `start_shards`); `None` keeps `start_shards` for the whole run.
    pub monitor: Option<Monitor>,
}

impl TimelinePlan {
    /// What the run will cost, by the cost model: every second over the
    /// most shard keys the reel will have.
    pub fn cost(&self) -> crate::model::cost::Estimate {
        let keys = self
            .start_shards
            .max(self.monitor.as_ref().map_or(0, |m| m.target_shards));
        crate::model::cost::timeline(self.seconds, keys, self.monitor.is_some())
    }

    /// Checks the inputs and builds the plan.
    ///
    /// `cap` (writes/s per shard key) must be a whole number from 1 to
    /// [`MAX_RATE`](crate::model::defaults::MAX_RATE); `seconds` from 1 to
    /// [`MAX_SECONDS`]; `start_shards` from 1 to
    /// [`MAX_SHARDS`](crate::model::defaults::MAX_SHARDS); the store's
    /// `burst_seconds` at most
    /// [`MAX_BURST_SECONDS`](crate::model::defaults::MAX_BURST_SECONDS); the
    /// curve's expected likes over the run at most
    /// [`MAX_TOTAL_LIKES`](crate::model::defaults::MAX_TOTAL_LIKES); and a
    /// monitor's `target_shards` above `start_shards`. The error names the
    /// parameter: `cap`, `seconds`, `shards`, `store.burst_seconds` or
    /// `monitor.target_shards`.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        curve: RateCurve,
        traffic: TrafficModel,
        cap: f64,
        seconds: u64,
        seed: u64,
        start_shards: u64,
        store: StoreConfig,
        monitor: Option<Monitor>,
    ) -> ParamResult<Self> {
        let cap = validate::whole_cap("cap", cap)?;
        validate::count("seconds", seconds, MAX_SECONDS)?;
        validate::count("shards", start_shards, crate::model::defaults::MAX_SHARDS)?;
        store.validate()?;
        // Counts are u64: keep the expected total well inside it.
        let expected = curve.likes_until(seconds as f64);
        if expected > crate::model::defaults::MAX_TOTAL_LIKES {
            return Err(ParamError::other(
                "seconds",
                format!(
                    "the curve gives about {expected:.3e} likes over {seconds} s; a time-line holds at most {:e}",
                    crate::model::defaults::MAX_TOTAL_LIKES
                ),
            ));
        }
        if let Some(m) = &monitor {
            if m.target_shards <= start_shards {
                return Err(ParamError::other(
                    "monitor.target_shards",
                    format!(
                        "must be above the starting shard count {start_shards} (got {})",
                        m.target_shards
                    ),
                ));
            }
        }
        Ok(TimelinePlan {
            curve,
            traffic,
            cap,
            seconds,
            seed,
            start_shards,
            store,
            monitor,
        })
    }

    /// The same plan with another monitor (for grids).
    pub fn with_monitor(&self, monitor: Option<Monitor>) -> ParamResult<Self> {
        let mut p = self.clone();
        p.monitor = monitor;
        Self::new(
            p.curve,
            p.traffic,
            p.cap as f64,
            p.seconds,
            p.seed,
            p.start_shards,
            p.store,
            p.monitor,
        )
    }
}

/// Runs a time-line without per-second rows.
pub fn run(plan: &TimelinePlan) -> TimelineReport {
    match run_with_rows(plan, |_| Ok::<(), std::convert::Infallible>(())) {
        Ok(r) => r,
        Err(never) => match never {},
    }
}

/// Runs a time-line; `on_row` gets every second in order (stop by
/// returning an error, which is passed through).
pub fn run_with_rows<E>(
    plan: &TimelinePlan,
    mut on_row: impl FnMut(&TimelineRow) -> Result<(), E>,
) -> Result<TimelineReport, E> {
    let mut rng = chunk_rng(plan.seed, 0);
    let mut traffic = CurveTraffic::new(plan.curve.clone(), plan.traffic);
    let s0 = plan.start_shards as usize;
    let target = plan
        .monitor
        .as_ref()
        .map_or(s0, |m| m.target_shards as usize);
    let keys = s0.max(target);
    let mut buckets: Vec<BurstBucket> = (0..keys)
        .map(|_| BurstBucket::new(plan.cap, &plan.store))
        .collect();
    let mut stored = vec![0u64; keys];
    let mut writes = vec![0u64; keys];
    let mut scratch = vec![0u64; keys];
    let caches = plan
        .monitor
        .as_ref()
        .map(|m| SettingsCaches::new(m.servers, m.settings_ttl_seconds));
    let mut window = plan
        .monitor
        .as_ref()
        .map(|m| RateWindow::new(m.window_seconds));
    let mut raise: Option<RaiseSchedule> = None;

    let mut r = TimelineReport {
        seconds: plan.seconds,
        seed: plan.seed,
        traffic: plan.traffic,
        cap: plan.cap,
        burst_seconds: plan.store.burst_seconds,
        total_writes: 0,
        accepted_writes: 0,
        rejected_writes: 0,
        rejected_share: 0.0,
        seconds_with_rejections: 0,
        first_rejection_second: None,
        last_rejection_second: None,
        peak_rate: 0.0,
        peak_likes: 0,
        busiest_max: 0,
        start_shards: plan.start_shards,
        final_shards: plan.start_shards,
        raise: None,
        rejected_before_raise: 0,
        rejected_after_raise: 0,
        min_displayed_ratio: 1.0,
        undercount_seconds: 0,
        final_displayed_total: 0,
        final_true_total: 0,
    };

    for s in 1..=plan.seconds {
        let rate = plan.curve.second_mean(s);
        let likes = traffic.likes(&mut rng, s);

        let (servers, new_writers, new_readers) = match (&raise, &caches) {
            (Some(sched), Some(c)) => (
                c.servers(),
                sched.writers_on_new(s),
                sched.readers_on_new(s),
            ),
            _ => (1, 0, 0),
        };
        let new_likes = (likes as u128 * new_writers as u128 / servers as u128) as u64;
        writes.iter_mut().for_each(|w| *w = 0);
        split_uniform(&mut rng, likes - new_likes, &mut scratch[..s0]);
        for (w, x) in writes.iter_mut().zip(&scratch[..s0]) {
            *w += x;
        }
        if new_likes > 0 {
            split_uniform(&mut rng, new_likes, &mut scratch[..target]);
            for (w, x) in writes.iter_mut().zip(&scratch[..target]) {
                *w += x;
            }
        }

        let mut rejected = 0;
        let mut busiest = 0;
        for ((b, &w), st) in buckets.iter_mut().zip(&writes).zip(stored.iter_mut()) {
            let k = b.second(w);
            *st += k.accepted;
            rejected += k.rejected;
            busiest = busiest.max(w);
        }

        if let (Some(win), Some(m), Some(c)) = (window.as_mut(), &plan.monitor, &caches) {
            let mean = win.push(likes);
            if raise.is_none() && mean >= m.threshold {
                raise = Some(RaiseSchedule::new(m, c, s));
            }
        }

        let all_spread = raise.as_ref().is_some_and(|sc| s >= sc.all_write_second);
        let shards_now = if new_writers > 0 { target } else { s0 } as u64;
        let read = if servers > 0 && new_readers == servers {
            target
        } else {
            s0
        };
        let displayed: u64 = stored[..read].iter().sum();
        let truth: u64 = stored.iter().sum();

        r.total_writes += likes;
        r.rejected_writes += rejected;
        if rejected > 0 {
            r.seconds_with_rejections += 1;
            r.first_rejection_second.get_or_insert(s);
            r.last_rejection_second = Some(s);
            if all_spread {
                r.rejected_after_raise += rejected;
            } else {
                r.rejected_before_raise += rejected;
            }
        }
        if rate > r.peak_rate {
            r.peak_rate = rate;
        }
        r.peak_likes = r.peak_likes.max(likes);
        r.busiest_max = r.busiest_max.max(busiest);
        r.final_shards = shards_now;
        if displayed < truth {
            r.undercount_seconds += 1;
            r.min_displayed_ratio = r.min_displayed_ratio.min(displayed as f64 / truth as f64);
        }
        r.final_displayed_total = displayed;
        r.final_true_total = truth;

        on_row(&TimelineRow {
            second: s,
            rate,
            likes,
            shards: shards_now,
            busiest,
            rejected,
            displayed_total: displayed,
            true_total: truth,
        })?;
    }
    r.accepted_writes = r.total_writes - r.rejected_writes;
    if r.total_writes > 0 {
        r.rejected_share = r.rejected_writes as f64 / r.total_writes as f64;
    }
    r.raise = raise;
    Ok(r)
}

#[cfg(test)]
mod tests;
