//! `simulate --traffic-from FILE --replay`: the trace itself as the time
//! line's rate, so the user sees what the observed evening would have done
//! with S shards (burst, monitor, rejected writes).

use super::{Resolver, Source, Sourced};
use crate::cli::{SimInputs, TimelineArgs};
use crate::error::{InputError, InputResult};
use crate::model::law::TrafficModel;
use crate::model::timeline::curve::RateCurve;

pub use crate::model::defaults::MAX_REPLAY_PERIODS;

impl Resolver {
    /// The replayed curve and its traffic law, or `None` without `--replay`.
    /// Each period is a step at its observed rate (two points: its start and
    /// just before the next period), so a per-second trace under fixed
    /// traffic gives each second exactly its observed count; a gap is
    /// bridged by a straight line from the period before it to the one
    /// after. The law: per-second data replays its counts (fixed traffic)
    /// unless `--traffic` or `--dispersion` says otherwise; coarser data
    /// takes the law observed traffic chooses (Poisson within each period,
    /// or gamma-poisson with a `--dispersion`).
    pub fn replay(
        &mut self,
        sim: &SimInputs,
        t: &TimelineArgs,
    ) -> InputResult<Option<(RateCurve, TrafficModel)>> {
        if !t.replay {
            return Ok(None);
        }
        let Some(observed) = self.observed.as_deref() else {
            return Err(InputError::new(
                "--replay",
                "needs --traffic-from FILE (or a scenario's traffic_from): the trace to replay",
            ));
        };
        super::refuse(
            sim.rate.rate.is_some(),
            "--rate",
            "with --replay, which takes the rate from the trace second by second",
        )?;
        let named = observed.named();
        // The trace is kept only where `--replay` is offered (simulate).
        let Some(trace) = observed.trace.as_ref() else {
            return Err(InputError::new("--replay", "is offered by simulate only"));
        };
        if trace.times.len() > MAX_REPLAY_PERIODS {
            return Err(InputError::new(
                named,
                format!(
                    "has {} periods; --replay follows at most {MAX_REPLAY_PERIODS} (about six \
                     days of seconds): cut the file to the evening to replay",
                    trace.times.len()
                ),
            ));
        }
        let period = trace.period_seconds as f64;
        let mut points = Vec::with_capacity(2 * trace.times.len());
        for (&time, &rate) in trace.times.iter().zip(&trace.per_second) {
            let t0 = (time - trace.start) as f64;
            points.push((t0, rate));
            points.push((t0 + period * (1.0 - 1e-9), rate));
        }
        let per_second = trace.period_seconds == 1;
        let files = observed.files.clone();
        let curve = RateCurve::new(points).map_err(|e| InputError::new(&named, e.problem))?;
        self.inputs
            .record("replay", &Sourced::new(files, Source::Flag("--replay")));
        let law = if per_second && sim.traffic.traffic.is_none() && sim.traffic.dispersion.is_none()
        {
            let fixed = Sourced::new("fixed", Source::Derived("each observed second's count"));
            self.inputs.record("traffic", &fixed);
            TrafficModel::Fixed
        } else {
            self.traffic(sim.traffic.traffic, sim.traffic.dispersion)?
        };
        Ok(Some((curve, law)))
    }
}
