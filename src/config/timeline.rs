//! A time line: the rate curve, burst capacity per shard key and the
//! hot-key monitor, from flags over the scenario's `[curve]`, `[store]` and
//! `[monitor]` sections over store presets over defaults.

use super::scenario::Scenario;
use super::sizing::Sizing;
use super::{refuse, Resolver, Sourced};
use crate::cli::{SimInputs, TimelineArgs};
use crate::error::InputResult;
use crate::model::defaults::{
    DEFAULT_BURST_SECONDS, DEFAULT_SERVERS, DEFAULT_SETTINGS_TTL_SECONDS, DEFAULT_TARGET_SHARDS,
    DEFAULT_THRESHOLD, DEFAULT_WINDOW_SECONDS,
};
use crate::model::law::TrafficModel;
use crate::model::timeline::bucket::{BurstStart, StoreConfig};
use crate::model::timeline::curve::{CurveConfig, RateCurve};
use crate::model::timeline::monitor::MonitorConfig;
use crate::model::timeline::resize::ResizeOrder;
use crate::model::timeline::TimelinePlan;

/// Why a flag has no effect on a time line.
const ON_A_TIME_LINE: &str = "on a time-line simulation";

/// Refuses the flags only a flat simulation reads.
fn refuse_flat_flags(sim: &SimInputs) -> InputResult<()> {
    let r = &sim.reads;
    for (given, flag) in [
        (sim.sampler.is_some(), "--sampler"),
        (r.views.is_some(), "--views"),
        (r.cache.cache_seconds.is_some(), "--cache-seconds"),
        (r.batch_size.is_some(), "--batch-size"),
        (r.read_cap.is_some(), "--read-cap"),
    ] {
        refuse(given, flag, ON_A_TIME_LINE)?;
    }
    Ok(())
}

impl Resolver {
    /// The curve's highest rate, to size for when nothing names a peak;
    /// its source is the scenario's `curve.points`.
    pub fn curve_peak(&self) -> Option<Sourced<f64>> {
        let curve = self.scenario.scenario.curve.as_ref()?;
        let peak = curve.points.iter().map(|p| p[1]).fold(0.0, f64::max);
        (peak.is_finite() && peak > 0.0)
            .then(|| Sourced::new(peak, self.scenario.source("curve.points")))
    }

    /// A time-line plan from the simulation's flags and the time-line flags.
    /// Flags that only a flat simulation reads are refused.
    pub fn timeline(&mut self, sim: &SimInputs, t: &TimelineArgs) -> InputResult<TimelinePlan> {
        refuse_flat_flags(sim)?;
        let s = self.scenario.scenario.clone();
        self.refuse_empirical_on_timeline(sim.traffic.traffic)?;
        let (replayed, traffic) = match self.replay(sim, t)? {
            Some((curve, law)) => (Some(curve), law),
            None => (
                None,
                self.traffic(sim.traffic.traffic, sim.traffic.dispersion)?,
            ),
        };
        let curve = self.rate_curve(sim, replayed, &s)?;
        let store = self.burst(sim, t)?;
        let monitor = self.monitor(sim, t)?;
        let (start, sizing) = self.start_shards(sim, &s, &curve, monitor.is_some())?;
        self.inputs.record("shards", &start);
        // A replay runs the trace's length (a --seconds flag still wins;
        // the scenario's seconds, like its rate, yield to the trace).
        let seconds = if t.replay && sim.seconds.seconds.is_none() {
            let end = Sourced::derived(curve.end_seconds(), "the trace's length");
            self.inputs.take("seconds", end)
        } else {
            self.seconds(
                sim.seconds.seconds,
                match curve.end_seconds() {
                    0 => None,
                    end => Some(Sourced::derived(end, "the curve's last point")),
                },
            )
        };
        let seed = self.seed(sim.seed.seed);
        let curve = self.curve_of_writes(curve, traffic)?;
        let plan = TimelinePlan::new(
            curve,
            traffic,
            sizing.plan.cap,
            seconds,
            seed,
            start.value,
            store,
            monitor,
        )
        .map_err(|e| self.inputs.attach(e))?;
        // A run the cost model puts over a day is refused before it starts.
        plan.cost()
            .within_limit("seconds")
            .map_err(|e| self.inputs.attach(e))?;
        Ok(plan)
    }

    /// The rate curve of likes/s, recorded with its source.
    fn rate_curve(
        &mut self,
        sim: &SimInputs,
        replayed: Option<RateCurve>,
        s: &Scenario,
    ) -> InputResult<RateCurve> {
        // The rate: the trace replayed, else --rate (flat), else the
        // scenario's curve, else a flat line at the scenario's rate or the
        // planned peak.
        let curve = match (replayed, Sourced::flag("--rate", sim.rate.one()?), &s.curve) {
            (Some(curve), ..) => curve,
            (None, Some(rate), _) => {
                let curve = RateCurve::flat(rate.value).map_err(|e| rate.error(e.problem))?;
                self.inputs.record("rate", &rate);
                curve
            }
            (None, None, Some(c)) => {
                let points = Sourced::new(c.points.clone(), self.scenario.source("curve.points"));
                self.inputs.record("curve.points", &points);
                CurveConfig {
                    points: c.points.clone(),
                }
                .validate()
                .map_err(|e| points.error(e.problem))?
            }
            (None, None, None) => {
                let rate = match self.field("rate", &s.rate) {
                    Some(rate) => rate,
                    None => {
                        let sized = self.sizing(&sim.sizing, None)?;
                        Sourced::derived(sized.peak.likes, "the planned peak")
                    }
                };
                let curve = RateCurve::flat(rate.value).map_err(|e| rate.error(e.problem))?;
                self.inputs.record("rate", &rate);
                curve
            }
        };
        Ok(curve)
    }

    /// The shards at the start and the sizing whose cap the time line
    /// runs at.
    fn start_shards(
        &mut self,
        sim: &SimInputs,
        s: &Scenario,
        curve: &RateCurve,
        monitored: bool,
    ) -> InputResult<(Sourced<u64>, Sizing)> {
        // Shards at the start: --shards, the scenario's, 1 with a monitor,
        // else what the sizing gives at the curve's highest rate.
        let start = Sourced::flag("--shards", sim.shards.one()?)
            .or(self.field("shards", &s.shards))
            .or(monitored
                .then(|| Sourced::derived(1, "a reel starts on 1 shard under the monitor")));
        match start {
            Some(start) => {
                let sizing = self.sizing_for_cap(sim, &start)?;
                Ok((start, sizing))
            }
            None => {
                // Size for the highest rate the time line reaches.
                let peak = match self.inputs.source("curve.points") {
                    Some(src) => Sourced::new(curve.peak_rate(), src.clone()),
                    None => Sourced::derived(curve.peak_rate(), "the time line's rate"),
                };
                let sizing = self.sizing(&sim.sizing, Some(peak))?;
                let sized =
                    Sourced::derived(sizing.plan.size().shards, "peak / safe rate, rounded up");
                Ok((sized, sizing))
            }
        }
    }

    /// The curve in writes/s: with unlikes, each second's likes/s grown by
    /// the unlikes' writes.
    fn curve_of_writes(&self, curve: RateCurve, traffic: TrafficModel) -> InputResult<RateCurve> {
        // Unlikes are writes: the curve of likes/s becomes writes/s (a
        // replayed trace already counts them).
        match self.unlike_plan {
            Some(u) if !u.counted_in_trace => {
                let points = curve
                    .points()
                    .iter()
                    .map(|&(t, r)| (t, self.like_rate_as_writes(r, traffic)))
                    .collect();
                RateCurve::new(points).map_err(|e| self.inputs.attach(e))
            }
            _ => Ok(curve),
        }
    }

    /// The sizing when the start shards are given: only the cap matters, so
    /// the flags that size by peak and safe rate have no effect.
    fn sizing_for_cap(&mut self, sim: &SimInputs, start: &Sourced<u64>) -> InputResult<Sizing> {
        let a = &sim.sizing;
        let why = format!(
            "on this time line: it starts on {} shards from {}",
            start.value, start.source
        );
        for (given, flag) in [
            (a.peak.is_some(), "--peak"),
            (a.observed.is_some(), "--observed"),
            (a.growth.is_some(), "--growth"),
            (a.safe.is_some(), "--safe"),
            (a.headroom.is_some(), "--headroom"),
        ] {
            refuse(given, flag, &why)?;
        }
        let fallback = Some(Sourced::derived(1.0, "unused: the start shards are given"));
        let sizing = self.sizing(a, self.curve_peak().or(fallback))?;
        // Only the cap is an input of this time line.
        for key in ["peak", "observed", "growth", "safe", "headroom"] {
            self.inputs.forget(key);
        }
        Ok(sizing)
    }

    /// Burst capacity per shard key: flags, the scenario's `[store]`, the
    /// store preset in force, the default.
    fn burst(&mut self, sim: &SimInputs, t: &TimelineArgs) -> InputResult<StoreConfig> {
        let section = self.scenario.scenario.store.clone().unwrap_or_default();
        let preset = self
            .presets(sim.sizing.store.store)
            .map(|(p, src)| Sourced::new(p.burst_seconds as u64, src));
        let burst_seconds = Sourced::flag("--burst-seconds", t.burst_seconds)
            .or(self.field_or_preset(
                self.field("store.burst_seconds", &section.burst_seconds),
                preset,
            ))
            .unwrap_or(Sourced::default(DEFAULT_BURST_SECONDS));
        let burst_start = Sourced::flag("--burst-start", t.burst_start)
            .or(self.field("store.burst_start", &section.burst_start))
            .unwrap_or(Sourced::default(BurstStart::Full));
        self.inputs.record("store.burst_seconds", &burst_seconds);
        self.inputs.record("store.burst_start", &burst_start);
        let store = StoreConfig {
            burst_seconds: burst_seconds.value,
            burst_start: burst_start.value,
        };
        store.validate().map_err(|e| self.inputs.attach(e))?;
        Ok(store)
    }

    /// The hot-key monitor, when the scenario has a `[monitor]` or a
    /// monitor flag is given.
    fn monitor(
        &mut self,
        sim: &SimInputs,
        t: &TimelineArgs,
    ) -> InputResult<Option<crate::model::timeline::monitor::Monitor>> {
        let wanted = t.monitor
            || t.monitor_at.threshold.is_some()
            || t.window.is_some()
            || t.settings_ttl.settings_ttl.is_some()
            || t.monitor_at.target_shards.is_some();
        let Some(m) = self
            .scenario
            .scenario
            .monitor
            .clone()
            .or(wanted.then(Default::default))
        else {
            return Ok(None);
        };
        let s = self.scenario.scenario.clone();
        let threshold = Sourced::flag("--threshold", t.monitor_at.threshold)
            .or(self.field("monitor.threshold", &m.threshold))
            .unwrap_or(Sourced::default(DEFAULT_THRESHOLD));
        let window = Sourced::flag("--window", t.window)
            .or(self.field("monitor.window_seconds", &m.window_seconds))
            .unwrap_or(Sourced::default(DEFAULT_WINDOW_SECONDS));
        let ttl = Sourced::flag("--settings-ttl", t.settings_ttl.settings_ttl)
            .or(self.field("monitor.settings_ttl_seconds", &m.settings_ttl_seconds))
            .unwrap_or(Sourced::default(DEFAULT_SETTINGS_TTL_SECONDS));
        let target = Sourced::flag("--target-shards", t.monitor_at.target_shards)
            .or(self.field("monitor.target_shards", &m.target_shards))
            .unwrap_or(Sourced::default(DEFAULT_TARGET_SHARDS));
        let servers = Sourced::flag("--servers", sim.reads.cache.servers.servers)
            .or(self.field("monitor.servers", &m.servers))
            .or(self.field("servers", &s.servers))
            .unwrap_or(Sourced::default(DEFAULT_SERVERS));
        let delay = self
            .field("monitor.delay_seconds", &m.delay_seconds)
            .unwrap_or(Sourced::default(0));
        let order = self
            .field("monitor.order", &m.order)
            .unwrap_or(Sourced::default(ResizeOrder::ReadsFirst));
        let config = MonitorConfig {
            threshold: self.inputs.take("monitor.threshold", threshold),
            window_seconds: self.inputs.take("monitor.window_seconds", window),
            target_shards: self.inputs.take("monitor.target_shards", target),
            settings_ttl_seconds: self.inputs.take("monitor.settings_ttl_seconds", ttl),
            servers: Some(self.inputs.take("monitor.servers", servers)),
            delay_seconds: self.inputs.take("monitor.delay_seconds", delay),
            order: self.inputs.take("monitor.order", order),
        };
        config
            .validate(None)
            .map(Some)
            .map_err(|e| self.inputs.attach(e))
    }
}
