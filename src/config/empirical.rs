//! Empirical traffic (`--traffic empirical`, a scenario's `traffic =
//! "empirical"`): the law of a second's count is the observed per-second
//! distribution of a `--traffic-from` trace (or the scenario's
//! `traffic_from`), grown to the plan.
//!
//! The planned seconds are the observed seconds scaled by one factor, `g =
//! planned peak / observed peak`: a second with `n` observed likes carries
//! `round(n g)` (halves away from 0), so the busiest observed second
//! becomes the planned peak (writes/s: with unlikes the peak already
//! counts them). The rate is that law's mean, derived; a `--rate` (or the
//! scenario's `rate`) beside it is refused, as is a dispersion.

use serde::Serialize;

use super::{Resolver, Sourced};
use crate::error::InputResult;
use crate::model::law::empirical::EmpiricalLaw;
use crate::model::law::{TrafficKind, TrafficModel};
use crate::model::observed::fit::{Empirical, PerSecond};

/// What `inputs.empirical` records: a summary, never the whole table.
#[derive(Debug, Clone, Serialize)]
struct Summary {
    /// Distinct planned counts.
    distinct_counts: usize,
    /// Observed seconds the law is built from.
    seconds: u64,
    /// Its mean, likes (writes) per second: the rate.
    mean: f64,
    /// The factor each observed count is grown by.
    growth: f64,
    /// The busiest planned second.
    max: u64,
}

impl Resolver {
    /// The empirical law from the observed trace, grown to the planned
    /// peak (resolved by the sizing before). Errors name `t`'s source
    /// (`--traffic` or the scenario's `traffic`): no trace, a trace coarser
    /// than a second, fractional counts, no likes.
    pub(super) fn empirical_law(&mut self, t: &Sourced<TrafficKind>) -> InputResult<TrafficModel> {
        let Some(o) = self.observed.as_deref() else {
            return Err(t.error(match self.observe_called {
                true => {
                    "empirical needs a per-second trace to draw seconds from: pass \
                     --traffic-from FILE (or set the scenario's traffic_from)"
                }
                false => {
                    "empirical needs a per-second trace to draw seconds from, which only size, \
                     risk, sweep, simulate and report read (--traffic-from)"
                }
            }));
        };
        let table = match &o.fit.per_second {
            PerSecond::Fitted(s) => match &s.empirical {
                Empirical::Counts(c) => c,
                Empirical::NotWholeNumbers { time, value } => {
                    return Err(t.error(format!(
                        "empirical needs whole per-second counts; {} has {value} at {time}",
                        o.named()
                    )))
                }
            },
            PerSecond::CoarserThanSecond => {
                return Err(t.error(format!(
                    "empirical needs per-second counts; {} is per {} s (a period's count does \
                     not say how its seconds vary): use --traffic gamma-poisson --dispersion K \
                     or --traffic poisson",
                    o.named(),
                    o.fit.period_seconds
                )))
            }
            PerSecond::NoLikes => {
                return Err(t.error(format!(
                    "empirical needs likes to draw; every second of {} has 0",
                    o.named()
                )))
            }
        };
        let Some(peak) = self.planned_peak else {
            return Err(t.error(
                "empirical plans a flat load from the trace; this command has no planned peak",
            ));
        };
        let growth = peak / o.fit.peak_rate;
        let law = match self.empirical {
            Some((g, law)) if g.to_bits() == growth.to_bits() => law,
            _ => {
                let law = EmpiricalLaw::grown(table, growth)
                    .map_err(|e| t.error(e.problem))?
                    .leak();
                self.empirical = Some((growth, law));
                law
            }
        };
        let summary = Summary {
            distinct_counts: law.distinct(),
            seconds: law.seconds(),
            mean: law.mean(),
            growth,
            max: law.max(),
        };
        let how = "the observed seconds x (planned peak / observed peak)";
        self.inputs
            .record("traffic", &t.clone().map(TrafficKind::name));
        self.inputs
            .record("empirical", &Sourced::derived(summary, how));
        Ok(TrafficModel::Empirical(law))
    }

    /// A time line takes no empirical traffic: its rate comes second by
    /// second from its curve, and `--replay` already replays the observed
    /// counts themselves.
    pub(super) fn refuse_empirical_on_timeline(
        &self,
        flag: Option<TrafficKind>,
    ) -> InputResult<()> {
        let given = Sourced::flag("--traffic", flag)
            .or(self.field("traffic", &self.scenario.scenario.traffic))
            .filter(|t| t.value == TrafficKind::Empirical);
        match given {
            Some(t) => Err(t.error(
                "empirical plans a flat load; a time line takes its rate second by second from \
                 its curve (and --replay already replays the observed counts): use fixed, \
                 poisson or gamma-poisson",
            )),
            None => Ok(()),
        }
    }

    /// Empirical traffic's rate: the law's mean, derived; one given is
    /// refused (it would have no effect).
    pub(super) fn empirical_rate(
        &mut self,
        given: Option<Sourced<f64>>,
        law: &EmpiricalLaw,
    ) -> InputResult<f64> {
        if let Some(r) = given {
            return Err(r.error(
                "has no effect with --traffic empirical: the rate is the mean of the observed \
                 seconds grown to the planned peak; drop it (or choose another --traffic)",
            ));
        }
        let r = Sourced::derived(law.mean(), "the mean of the empirical law");
        Ok(self.inputs.take("rate", r))
    }
}
