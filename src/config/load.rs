//! The load on one counter: rate, shards, traffic law, the hot spell's
//! length, seconds simulated, the seed and the accepted risk.

use super::{Inputs, Resolver, Source, Sourced};
use crate::error::InputResult;
use crate::model::defaults::{
    DEFAULT_DURATION_SECONDS, DEFAULT_SECONDS, DEFAULT_SEED, MAX_THREADS,
};
use crate::model::law::{LawNeeds, TrafficKind, TrafficModel};
use crate::model::validate;

use crate::model::recommendation::planned_rate;

/// The traffic law from its resolved kind and dispersion (recorded in
/// `inputs`): a dispersion under a law other than gamma-poisson is refused,
/// naming where it was given; gamma-poisson without one is refused too.
pub fn traffic_law(
    inputs: &mut Inputs,
    t: Sourced<TrafficKind>,
    d: Option<Sourced<f64>>,
) -> InputResult<TrafficModel> {
    inputs.record("traffic", &t.clone().map(TrafficKind::name));
    // (`Resolver::traffic` builds empirical from a trace: here none is read.)
    match TrafficModel::build(t.value, d.as_ref().map(|d| d.value), None) {
        Ok(model) => match &d {
            // The dispersion's errors name where it was given.
            Some(d) => {
                let model = model.map_err(|e| d.error(e.problem))?;
                inputs.record("dispersion", d);
                Ok(model)
            }
            None => Ok(model?),
        },
        Err(LawNeeds::Dispersion) => Err(t.error(
            "gamma-poisson needs a dispersion (the Gamma shape K: --dispersion or the \
             scenario's dispersion; a second's count then has variance rate + rate^2 / K)",
        )),
        Err(LawNeeds::NoDispersion(kind)) => {
            Err(d.expect("a dispersion was given").error(format!(
                "has no effect with {} traffic; it is gamma-poisson's shape \
             (--traffic gamma-poisson)",
                kind.name()
            )))
        }
        Err(LawNeeds::Trace) => Err(t.error(
            "empirical needs a per-second trace to draw seconds from, which only size, \
             risk, sweep, simulate and report read (--traffic-from)",
        )),
    }
}

impl Resolver {
    /// The traffic law: `--traffic`, the scenario's, else what observed
    /// traffic says ([`super::observed::Observed::law_inputs`]), else fixed; for
    /// gamma-poisson with its shape, `--dispersion` or the scenario's
    /// `dispersion`. A dispersion under another law is refused, naming
    /// where it was given; gamma-poisson without one is refused too.
    pub fn traffic(
        &mut self,
        flag: Option<TrafficKind>,
        dispersion: Option<f64>,
    ) -> InputResult<TrafficModel> {
        // A trace given by --traffic-from outranks the scenario's law, as
        // any flag does; only --traffic and --dispersion flags outrank it.
        let s = match &self.observed {
            Some(o) if matches!(o.by, Source::Flag(_)) => Default::default(),
            _ => self.scenario.scenario.clone(),
        };
        let t = Sourced::flag("--traffic", flag).or(self.field("traffic", &s.traffic));
        let d =
            Sourced::flag("--dispersion", dispersion).or(self.field("dispersion", &s.dispersion));
        // Observed traffic chooses the law when none is given.
        let (t, d) = match self.observed.as_deref_mut() {
            Some(o) => o.law_inputs(t, d)?,
            None => (t.unwrap_or(Sourced::default(TrafficKind::default())), d),
        };
        let law = match (t.value, d) {
            // The observed seconds themselves (`empirical.rs`).
            (TrafficKind::Empirical, None) => self.empirical_law(&t)?,
            (_, d) => traffic_law(&mut self.inputs, t, d)?,
        };
        if let Some((model, ..)) = self.observed.as_mut().and_then(|o| o.law.as_mut()) {
            *model = law;
        }
        Ok(law)
    }

    /// How long the hot spell lasts, seconds: `--duration`, the scenario's
    /// `duration_seconds`, else four hours.
    pub fn duration(&mut self, flag: Option<f64>) -> InputResult<f64> {
        let d = Sourced::flag("--duration", flag)
            .or(self.field("duration_seconds", &self.scenario.scenario.duration_seconds))
            .unwrap_or(Sourced::default(DEFAULT_DURATION_SECONDS));
        d.check(|v| validate::positive("duration", *v))?;
        Ok(self.inputs.take("duration_seconds", d))
    }

    /// The rate in likes/s and in the writes/s they make: the likes as
    /// given (`--rate`, the scenario's `rate`), else the planned peak's
    /// likes; the writes as [`Resolver::rate`] resolves them (with
    /// unlikes, and whole under fixed traffic). The likes are never
    /// recomputed from the rounded writes.
    pub fn rate_in_likes(
        &mut self,
        flag: Option<f64>,
        peak: &super::sizing::Peak,
        traffic: TrafficModel,
    ) -> InputResult<(f64, f64)> {
        let given = Sourced::flag("--rate", flag)
            .or(self.field("rate", &self.scenario.scenario.rate))
            .map(|s| s.value);
        let writes = self.rate(flag, peak.peak, traffic)?;
        let likes = match (traffic.empirical(), given) {
            // The law's mean is writes: its likes by the unlike share.
            (Some(_), _) => self.unlike_plan.map_or(writes, |u| u.likes(writes)),
            (None, Some(likes)) => likes,
            (None, None) => peak.likes,
        };
        Ok((likes, writes))
    }

    /// The like rate: `--rate`, the scenario's `rate`, else the planned
    /// peak (whole under fixed traffic).
    pub fn rate(
        &mut self,
        flag: Option<f64>,
        peak: f64,
        traffic: TrafficModel,
    ) -> InputResult<f64> {
        let given =
            Sourced::flag("--rate", flag).or(self.field("rate", &self.scenario.scenario.rate));
        if let Some(law) = traffic.empirical() {
            return self.empirical_rate(given, law);
        }
        let Some(r) = given else {
            let r = Sourced::derived(planned_rate(peak, traffic), "the planned peak");
            return Ok(self.inputs.take("rate", r));
        };
        r.check(|v| validate::rate("rate", *v))?;
        // A rate given in likes/s: with unlikes, the writes it makes.
        let likes = self.inputs.take("rate", r.clone());
        let writes = self.like_rate_as_writes(likes, traffic);
        if writes != likes {
            let w = Sourced::derived(writes, "rate x (1 + unlike share)");
            w.check(|v| validate::rate("rate", *v))?;
            return Ok(self.inputs.take("write_rate", w));
        }
        Ok(likes)
    }

    /// The shard count: `--shards`, the scenario's `shards`, else `sized`
    /// (what the sizing gives).
    pub fn shards(&mut self, flag: Option<u64>, sized: Sourced<u64>) -> u64 {
        let s = Sourced::flag("--shards", flag)
            .or(self.field("shards", &self.scenario.scenario.shards))
            .unwrap_or(sized);
        self.inputs.take("shards", s)
    }

    /// Simulated seconds: `--seconds`, the scenario's `seconds`, else `default`.
    pub fn seconds(&mut self, flag: Option<u64>, default: Option<Sourced<u64>>) -> u64 {
        let s = Sourced::flag("--seconds", flag)
            .or(self.field("seconds", &self.scenario.scenario.seconds))
            .or(default)
            .unwrap_or(Sourced::default(DEFAULT_SECONDS));
        self.inputs.take("seconds", s)
    }

    /// The master seed: `--seed`, the scenario's, else 2026.
    pub fn seed(&mut self, flag: Option<u64>) -> u64 {
        let s = Sourced::flag("--seed", flag)
            .or(self.field("seed", &self.scenario.scenario.seed))
            .unwrap_or(Sourced::default(DEFAULT_SEED));
        self.inputs.take("seed", s)
    }

    /// The accepted risk: `--risk`, else the scenario's `risk`, else `default`.
    pub fn risk(&mut self, flag: Option<f64>, default: Option<f64>) -> InputResult<Option<f64>> {
        let r = Sourced::flag("--risk", flag)
            .or(self.field("risk", &self.scenario.scenario.risk))
            .or(default.map(Sourced::default));
        let Some(r) = r else {
            return Ok(None);
        };
        r.check(|v| validate::probability_open("risk", *v))?;
        Ok(Some(self.inputs.take("risk", r)))
    }
}

/// Worker threads: `--threads`, else one per core (0 tells rayon so).
pub fn threads(flag: Option<u64>) -> InputResult<usize> {
    match Sourced::flag("--threads", flag) {
        Some(t) => Ok(t.check(|v| validate::count("threads", *v, MAX_THREADS))? as usize),
        None => Ok(0),
    }
}
