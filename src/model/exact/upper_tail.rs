//! The upper tail `P(max > c)` of the busiest shard straight from
//! inclusion-exclusion (Bonferroni) bounds, where `1 - P(max <= c)` would
//! cancel: one shard's tail, two shards' joint tail, and independent shards.

use super::gamma_mix::MIX_REL_ERROR;
use rayon::prelude::*;

use super::pairs::{ln_two_over, ln_two_over_range_in};
use super::point::{Point, LN_TABLE_HI};
// Where busiest.rs has always found it.
pub(super) use super::special::ln_sf_independent;
use crate::model::law::Split;

/// The two-term Bonferroni value is used once its relative error is this
/// small, or smaller than that of `1 - P(max <= c)` by Levin's formula.
const BONFERRONI_REL_GAP: f64 = 1e-12;
/// `ln(1 - 1e-3)`: three shards take the exact two-term formula where
/// `P(max <= c) >= 1e-3` (see [`Point::tail_with_pairs`]).
const THREE_SHARDS_LN_SF_MAX: f64 = -0.001_000_500_333_583_533_5;
/// Rounding of the log-space tail sums, relative.
const TAIL_ROUNDING: f64 = 1e-14;

impl Point {
    /// `ln P(max > c)` with its relative error bound where a direct tail
    /// formula beats `1 - P(max <= c)`, else `None`.
    ///
    /// Poisson: `1 - F(c)^S` with `ln F` accurate, always.
    /// Fixed: inclusion-exclusion over the shards over `c`,
    /// `S q1 - C(S,2) q2 <= P(max > c) <= S q1 - C(S,2) q2 + C(S,3) q3`
    /// (Bonferroni), `q_k = P(N_1 > c, ..., N_k > c)`. Multinomial counts are
    /// negatively associated (Joag-Dev & Proschan 1983), so `q3 <= q1 q2`
    /// bounds the bracket's width; its relative width is about
    /// `(S q1)^2 / 6`. The midpoint is returned (error at most half the
    /// width).
    pub(super) fn ln_sf_tail(&self, c: u64) -> Option<(f64, f64)> {
        match self.model.split(self.rate) {
            Split::GammaRate { .. } => return Some((self.mixed_sf(c), MIX_REL_ERROR)),
            Split::Counts(law) => return Some(self.mix_ln_sf(law, c)),
            _ => {}
        }
        let ln_q1 = match self.model.split(self.rate) {
            Split::Count(_) if c >= self.likes() || c < self.c_min() || self.shards == 1 => {
                f64::NAN // not needed
            }
            _ => self.ln_one_sf(c),
        };
        match self.tail_stage(c, ln_q1) {
            Stage::Done(tail) => tail,
            Stage::NeedsPairs => {
                self.tail_with_pairs(c, ln_q1, ln_two_over(self.likes(), self.shards, c))
            }
        }
    }

    /// How far [`Point::ln_sf_tail`] gets at `c` with `ln P(N_1 > c)` known:
    /// the answer, or the word that it needs the pair term `q2(c)` (a table
    /// computes those for its whole band at once).
    pub(super) fn tail_stage(&self, c: u64, ln_q1: f64) -> Stage {
        match self.model.split(self.rate) {
            Split::Poisson(_) => {
                Stage::Done(Some((ln_sf_independent(ln_q1, self.shards), TAIL_ROUNDING)))
            }
            // Its own integral over the second's rate (a table does not
            // come here: it fills its rows by blocks, `gamma_blocks::table_tails`).
            Split::GammaRate { .. } => Stage::Done(Some((self.mixed_sf(c), MIX_REL_ERROR))),
            // The mixture of the fixed counts' tails (`empirical_mix`).
            Split::Counts(law) => Stage::Done(Some(self.mix_ln_sf(law, c))),
            Split::Count(_) => {
                let (l, s) = (self.likes(), self.shards);
                if c >= l {
                    return Stage::Done(Some((f64::NEG_INFINITY, 0.0)));
                }
                if c < self.c_min() || s == 1 {
                    // Some shard must exceed c (with one shard, it has all L).
                    return Stage::Done(Some((0.0, 0.0)));
                }
                let ln_s = (s as f64).ln();
                // Two shards cannot both exceed c: the first term is exact.
                if 2 * (c + 1) > l {
                    return Stage::Done(Some((ln_s + ln_q1, TAIL_ROUNDING)));
                }
                // C(S,2) q2 <= C(S,2) q1^2 (negative association), so below
                // (S-1) q1 / 2 < 1e-17 the first term is exact to double
                // precision and q2 need not be summed.
                if ((s as f64 - 1.0) / 2.0).ln() + ln_q1 < LN_TABLE_HI {
                    return Stage::Done(Some((ln_s + ln_q1, TAIL_ROUNDING)));
                }
                // S q1 > 1e-2: the bracket is at least ~1e-5 wide, while
                // Levin's 1 - P(max <= c) is good to ~1e-11 relative. Not
                // for three shards: no three can all exceed c >= L/3, so
                // 3 q1 - 3 q2 is P(max > c) exactly, wherever it is.
                // (At c = L/3 exactly, Levin's closed form is exact.)
                if ln_s + ln_q1 > -4.6 && (s != 3 || 3 * c == l) {
                    return Stage::Done(None);
                }
                Stage::NeedsPairs
            }
        }
    }

    /// The Bonferroni bracket at `c` (fixed traffic, where
    /// [`Point::tail_stage`] says it needs pairs) from `ln q1` and `ln q2`.
    pub(super) fn tail_with_pairs(&self, c: u64, ln_q1: f64, ln_q2: f64) -> Option<(f64, f64)> {
        debug_assert!(matches!(self.tail_stage(c, ln_q1), Stage::NeedsPairs));
        let (s, sf) = (self.shards, self.shards as f64);
        let ln_s = sf.ln();
        let ln_pairs = (sf * (sf - 1.0) / 2.0).ln();
        let ln_triples = (sf * (sf - 1.0) * (sf - 2.0) / 6.0).ln();
        // S q1 - C(S,2) q2 = S q1 (1 - C(S,2) q2 / (S q1)).
        let ratio = (ln_pairs + ln_q2 - ln_s - ln_q1).exp();
        if s == 3 {
            // Exact: P(max > c) = 3 q1 - 3 q2 (q3 = 0 for c >= L/3). Its
            // rounding is a few ulps of 3 q1, so 1 - P(max > c) keeps 1e-12
            // relative only down to P(max <= c) ~ 1e-3: below that (c
            // close to L/3, where Levin's sums are short), Levin's formula.
            let ln_sf = ln_s + ln_q1 + (-ratio).ln_1p();
            return (ln_sf < THREE_SHARDS_LN_SF_MAX).then_some((ln_sf, TAIL_ROUNDING));
        }
        if ratio >= 0.5 {
            return None;
        }
        let ln_low = ln_s + ln_q1 + (-ratio).ln_1p();
        let gap = if s >= 3 {
            (ln_triples + ln_q1 + ln_q2 - ln_low).exp()
        } else {
            0.0
        };
        let err = 0.5 * gap + TAIL_ROUNDING;
        let levin_err = self.levin_abs_error() / ln_low.exp();
        (err <= BONFERRONI_REL_GAP.max(levin_err)).then(|| (ln_low + (0.5 * gap).ln_1p(), err))
    }
}

/// Where the upper-tail formula stands at one `c`.
pub(super) enum Stage {
    /// The tail and its relative error, or `None`: use Levin's
    /// `1 - P(max <= c)`.
    Done(Option<(f64, f64)>),
    /// The Bonferroni bracket, which needs `q2(c)`.
    NeedsPairs,
}

/// The upper-tail formula at every `c` of a fixed-traffic table (`None`
/// where Levin's formula must serve). The Bonferroni band, where the
/// bracket needs the pair term `q2(c)`, is one run of `c` (`q1` falls as
/// `c` grows), so its pair terms come from one recurrence in O(1) each,
/// not a sum of O(sigma) terms each.
/// `pieces` is how many pieces the pair band may be cut into (8 for the
/// table; 1 for a risk row, which also runs in order: a sweep's rows run
/// in parallel already).
pub(super) fn tails_fixed(
    point: &Point,
    lo: u64,
    ln_q1: &[f64],
    pieces: u64,
) -> Vec<Option<(f64, f64)>> {
    let stage = |(i, &ln_q): (usize, &f64)| point.tail_stage(lo + i as u64, ln_q);
    let stages: Vec<Stage> = match pieces {
        1 => ln_q1.iter().enumerate().map(stage).collect(),
        _ => ln_q1.par_iter().enumerate().map(stage).collect(),
    };
    let needs = |st: &Stage| matches!(st, Stage::NeedsPairs);
    let band = match (
        stages.iter().position(needs),
        stages.iter().rposition(needs),
    ) {
        (Some(a), Some(b)) => {
            let band = (lo + a as u64, lo + b as u64);
            let pairs = ln_two_over_range_in(point.likes(), point.shards, band, pieces);
            Some((a, pairs))
        }
        _ => None,
    };
    stages
        .into_iter()
        .enumerate()
        .map(|(i, stage)| match stage {
            Stage::Done(tail) => tail,
            Stage::NeedsPairs => {
                let (a, pairs) = band.as_ref().expect("a band holds every pair stage");
                point.tail_with_pairs(lo + i as u64, ln_q1[i], pairs[i - a])
            }
        })
        .collect()
}
