//! Unlikes (`--unlike-share`, a scenario's `unlike_share`) and the
//! cool-down the negative-shard chance covers (`--cool-down`,
//! `--cool-down-rate`). Resolved once, with the sizing: every rate the user
//! gives in likes/s becomes writes/s here, so `size`, `risk`, `sweep`,
//! `simulate` and `report` all plan for likes x (1 + share).

use super::{Resolver, Sourced};
use crate::cli::SizingArgs;
use crate::error::InputResult;
use crate::model::defaults::{DEFAULT_COOL_DOWN_RATE, DEFAULT_COOL_DOWN_SECONDS};
use crate::model::law::TrafficModel;
use crate::model::unlikes::Unlikes;
use crate::model::validate;

/// The resolved unlikes: the share, whether the trace already counts them,
/// and the cool-down of the negative-shard chance.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct UnlikePlan {
    /// Unlikes per like.
    pub unlikes: Unlikes,
    /// A `--traffic-from` trace is of write units, unlikes already in it:
    /// the share then only splits the writes into likes and unlikes.
    pub counted_in_trace: bool,
    /// Seconds of the cool-down.
    pub cool_down_seconds: f64,
    /// Likes/s during it.
    pub cool_down_rate: f64,
}

impl UnlikePlan {
    /// Writes/s from likes/s: x (1 + share), unless the trace counts them.
    pub fn writes(&self, likes: f64) -> f64 {
        match self.counted_in_trace {
            true => likes,
            false => snap(likes * self.unlikes.writes_per_like()),
        }
    }

    /// Likes/s from writes/s: a trace's writes split by the share.
    pub fn likes(&self, writes: f64) -> f64 {
        snap(writes / self.unlikes.writes_per_like())
    }
}

/// `x` to a millionth of a write a second when that is within 1e-12 of it:
/// 14,000 x 1.1 is 15,400, not 15,400.000000000002 (which a ceil would
/// turn into one more shard).
fn snap(x: f64) -> f64 {
    let r = (x * 1e6).round() / 1e6;
    match (r - x).abs() <= 1e-12 * x.abs() {
        true => r,
        false => x,
    }
}

impl Resolver {
    /// The unlike share and cool-down: flags over the scenario. Without a
    /// share, a cool-down (flag or scenario field) has no effect and is
    /// refused. Remembered, so [`Resolver::like_rate_as_writes`] scales
    /// `--rate` and a time line's curve the same way.
    pub fn unlikes(&mut self, a: &SizingArgs) -> InputResult<Option<UnlikePlan>> {
        let s = self.scenario.scenario.clone();
        let share = Sourced::flag("--unlike-share", a.unlike_share)
            .or(self.field("unlike_share", &s.unlike_share));
        let cool_down = Sourced::flag("--cool-down", a.cool_down)
            .or(self.field("cool_down_seconds", &s.cool_down_seconds));
        let cool_down_rate = Sourced::flag("--cool-down-rate", a.cool_down_rate)
            .or(self.field("cool_down_rate", &s.cool_down_rate));
        let Some(share) = share else {
            if let Some(given) = cool_down.as_ref().or(cool_down_rate.as_ref()) {
                return Err(given.error(
                    "has no effect without an unlike share (--unlike-share or the scenario's \
                     unlike_share)",
                ));
            }
            return Ok(None);
        };
        let unlikes = share.check(|v| Unlikes::new(*v))?;
        self.inputs.record("unlike_share", &share);
        let cool_down = cool_down.unwrap_or(Sourced::default(DEFAULT_COOL_DOWN_SECONDS));
        cool_down.check(|v| validate::positive("cool_down", *v))?;
        let cool_down_rate = cool_down_rate.unwrap_or(Sourced::default(DEFAULT_COOL_DOWN_RATE));
        cool_down_rate.check(|v| validate::rate("cool_down_rate", *v))?;
        let plan = UnlikePlan {
            unlikes,
            counted_in_trace: self.observed.is_some(),
            cool_down_seconds: self.inputs.take("cool_down_seconds", cool_down),
            cool_down_rate: self.inputs.take("cool_down_rate", cool_down_rate),
        };
        self.unlike_plan = Some(plan);
        Ok(Some(plan))
    }

    /// A like rate the user gave (`--rate`, a scenario's `rate` or curve)
    /// as the writes/s the model plans for: x (1 + share) when unlikes are
    /// planned, rounded up to whole writes under fixed traffic.
    pub fn like_rate_as_writes(&self, likes: f64, traffic: TrafficModel) -> f64 {
        match self.unlike_plan {
            Some(u) if !u.counted_in_trace => {
                let w = u.writes(likes);
                match traffic.law().whole_rate() {
                    true => w.ceil(),
                    false => w,
                }
            }
            _ => likes,
        }
    }
}
