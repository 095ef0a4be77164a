//! Fixed traffic: exactly `rate` likes every second (a whole number), each
//! to a uniformly random shard, so the shard counts are multinomial.

use super::{Share, Split, TrafficKind, TrafficLaw};
use crate::error::{ParamError, ParamResult, Problem};
use crate::model::exact::special::{ln_1m_exp, ln_binom_sf, ln_dbinom};
use crate::model::rng::ChunkRng;

/// Exactly the rate every second.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Fixed;

impl TrafficLaw for Fixed {
    fn kind(&self) -> TrafficKind {
        TrafficKind::Fixed
    }

    /// A positive rate, whole: every second sends exactly that many likes.
    fn check_rate(&self, param: &'static str, rate: f64) -> ParamResult<f64> {
        let rate = super::check_rate(param, rate)?;
        if rate.fract() != 0.0 {
            return Err(ParamError::new(param, Problem::FractionalFixedRate(rate)));
        }
        Ok(rate)
    }

    fn whole_rate(&self) -> bool {
        true
    }

    fn variance(&self, _rate: f64) -> f64 {
        0.0
    }

    fn split(&self, rate: f64) -> Split {
        Split::Count(rate as u64)
    }

    fn fewest(&self, rate: f64) -> u64 {
        rate as u64
    }

    /// A binomial tail; all of the second's likes when the group is every
    /// shard.
    fn ln_share_sf(&self, rate: f64, share: Share, c: u64) -> f64 {
        let likes = rate as u64;
        if share.whole() && !share.one {
            return if likes > c { 0.0 } else { f64::NEG_INFINITY };
        }
        ln_binom_sf(c, likes, share.p(), share.q())
    }

    fn ln_share_pmf(&self, rate: f64, share: Share, c: u64) -> f64 {
        ln_dbinom(c, rate as u64, share.p(), share.q())
    }

    fn ln_share_cdf(&self, rate: f64, share: Share, c: u64) -> f64 {
        ln_1m_exp(ln_binom_sf(c, rate as u64, share.p(), share.q()))
    }

    /// The curve's likes to the second's end, rounded (halves up), less
    /// those given before: the seconds add up to the curve's total to
    /// within one like.
    fn second_on_curve(
        &self,
        _mean: f64,
        likes_until: f64,
        given: &mut u64,
        _: &mut ChunkRng,
    ) -> u64 {
        let upto = ((likes_until + 0.5).floor() as u64).max(*given);
        let likes = upto - *given;
        *given = upto;
        likes
    }
}
