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

use crate::error::{ParamError, ParamResult, Problem};
use crate::model::defaults::MAX_SECONDS;
use crate::model::law::TrafficModel;
use crate::model::sampler::{chunk_rng, split_uniform};
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
            return Err(ParamError::new(
                "seconds",
                Problem::TooManyLikes {
                    expected,
                    seconds,
                    max: crate::model::defaults::MAX_TOTAL_LIKES,
                },
            ));
        }
        if let Some(m) = &monitor {
            if m.target_shards <= start_shards {
                return Err(ParamError::new(
                    "monitor.target_shards",
                    Problem::NotAboveStart {
                        got: m.target_shards,
                        start: start_shards,
                    },
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
    let mut run = Run::new(plan);
    let mut r = TimelineReport::before_the_first_second(plan);
    for s in 1..=plan.seconds {
        let (row, all_spread) = run.second(s);
        r.add_second(&row, all_spread);
        on_row(&row)?;
    }
    r.accepted_writes = r.total_writes - r.rejected_writes;
    if r.total_writes > 0 {
        r.rejected_share = r.rejected_writes as f64 / r.total_writes as f64;
    }
    r.raise = run.raise;
    Ok(r)
}

/// Which servers write and read over the new shards in one second.
#[derive(Clone, Copy)]
struct Servers {
    /// Every likes server (1 before a raise, or without a monitor).
    all: u64,
    /// Those writing over the new write_shards.
    new_writers: u64,
    /// Those reading over the new read_shards.
    new_readers: u64,
}

/// What a time-line carries from one second to the next: the RNG stream,
/// the likes to come, every shard key's bucket and stored likes, and the
/// monitor's window, caches and raise.
struct Run<'a> {
    plan: &'a TimelinePlan,
    rng: crate::model::rng::ChunkRng,
    traffic: CurveTraffic,
    /// Shards before the raise.
    s0: usize,
    /// Shards after it (`s0` without a monitor).
    target: usize,
    buckets: Vec<BurstBucket>,
    /// Likes each shard key has accepted so far.
    stored: Vec<u64>,
    /// Writes to each shard key in this second.
    writes: Vec<u64>,
    scratch: Vec<u64>,
    caches: Option<SettingsCaches>,
    window: Option<RateWindow>,
    raise: Option<RaiseSchedule>,
}

impl<'a> Run<'a> {
    fn new(plan: &'a TimelinePlan) -> Self {
        let s0 = plan.start_shards as usize;
        let target = plan
            .monitor
            .as_ref()
            .map_or(s0, |m| m.target_shards as usize);
        let keys = s0.max(target);
        Run {
            plan,
            rng: chunk_rng(plan.seed, 0),
            traffic: CurveTraffic::new(plan.curve.clone(), plan.traffic),
            s0,
            target,
            buckets: (0..keys)
                .map(|_| BurstBucket::new(plan.cap, &plan.store))
                .collect(),
            stored: vec![0u64; keys],
            writes: vec![0u64; keys],
            scratch: vec![0u64; keys],
            caches: plan
                .monitor
                .as_ref()
                .map(|m| SettingsCaches::new(m.servers, m.settings_ttl_seconds)),
            window: plan
                .monitor
                .as_ref()
                .map(|m| RateWindow::new(m.window_seconds)),
            raise: None,
        }
    }

    /// Second `s`, steps 1 to 5 of the module's list: its row, and whether
    /// every server writes over the new shards by then.
    fn second(&mut self, s: u64) -> (TimelineRow, bool) {
        let (s0, target) = (self.s0, self.target);
        // Step 1: the likes arrive.
        let rate = self.plan.curve.second_mean(s);
        let likes = self.traffic.likes(&mut self.rng, s);
        let servers = self.split(s, likes);
        let (rejected, busiest) = self.apply_writes();
        self.watch(s, likes);

        // Step 5: the row, with what the worst reader shows.
        let all_spread = self
            .raise
            .as_ref()
            .is_some_and(|sc| s >= sc.all_write_second);
        let shards_now = if servers.new_writers > 0 { target } else { s0 } as u64;
        let read = if servers.all > 0 && servers.new_readers == servers.all {
            target
        } else {
            s0
        };
        let displayed: u64 = self.stored[..read].iter().sum();
        let truth: u64 = self.stored.iter().sum();
        let row = TimelineRow {
            second: s,
            rate,
            likes,
            shards: shards_now,
            busiest,
            rejected,
            displayed_total: displayed,
            true_total: truth,
        };
        (row, all_spread)
    }

    /// Step 2: the servers split the second's likes over the shards, into
    /// `writes`.
    fn split(&mut self, s: u64, likes: u64) -> Servers {
        let (s0, target) = (self.s0, self.target);
        let (servers, new_writers, new_readers) = match (&self.raise, &self.caches) {
            (Some(sched), Some(c)) => (
                c.servers(),
                sched.writers_on_new(s),
                sched.readers_on_new(s),
            ),
            _ => (1, 0, 0),
        };
        let new_likes = (likes as u128 * new_writers as u128 / servers as u128) as u64;
        let (rng, writes, scratch) = (&mut self.rng, &mut self.writes, &mut self.scratch);
        writes.iter_mut().for_each(|w| *w = 0);
        split_uniform(rng, likes - new_likes, &mut scratch[..s0]);
        for (w, x) in writes.iter_mut().zip(&scratch[..s0]) {
            *w += x;
        }
        if new_likes > 0 {
            split_uniform(rng, new_likes, &mut scratch[..target]);
            for (w, x) in writes.iter_mut().zip(&scratch[..target]) {
                *w += x;
            }
        }
        Servers {
            all: servers,
            new_writers,
            new_readers,
        }
    }

    /// Step 3: each shard key applies its writes to its cap and burst
    /// bucket: the writes rejected, and the most any key got.
    fn apply_writes(&mut self) -> (u64, u64) {
        let mut rejected = 0;
        let mut busiest = 0;
        let keys = self.buckets.iter_mut().zip(&self.writes);
        for ((b, &w), st) in keys.zip(self.stored.iter_mut()) {
            let k = b.second(w);
            *st += k.accepted;
            rejected += k.rejected;
            busiest = busiest.max(w);
        }
        (rejected, busiest)
    }

    /// Step 4: the monitor adds the likes to its window and may decide the
    /// raise.
    fn watch(&mut self, s: u64, likes: u64) {
        let monitor = (self.window.as_mut(), &self.plan.monitor, &self.caches);
        if let (Some(win), Some(m), Some(c)) = monitor {
            let mean = win.push(likes);
            if self.raise.is_none() && mean >= m.threshold {
                self.raise = Some(RaiseSchedule::new(m, c, s));
            }
        }
    }
}

impl TimelineReport {
    /// The report of a plan's run before any second is counted.
    fn before_the_first_second(plan: &TimelinePlan) -> Self {
        TimelineReport {
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
        }
    }

    /// Counts one second's row (`all_spread`: every server wrote over the
    /// new shards in it).
    fn add_second(&mut self, row: &TimelineRow, all_spread: bool) {
        let r = self;
        let (s, rejected) = (row.second, row.rejected);
        let (displayed, truth) = (row.displayed_total, row.true_total);
        r.total_writes += row.likes;
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
        if row.rate > r.peak_rate {
            r.peak_rate = row.rate;
        }
        r.peak_likes = r.peak_likes.max(row.likes);
        r.busiest_max = r.busiest_max.max(row.busiest);
        r.final_shards = row.shards;
        if displayed < truth {
            r.undercount_seconds += 1;
            r.min_displayed_ratio = r.min_displayed_ratio.min(displayed as f64 / truth as f64);
        }
        r.final_displayed_total = displayed;
        r.final_true_total = truth;
    }
}

#[cfg(test)]
mod tests;
