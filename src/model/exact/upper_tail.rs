//! The upper tail `P(max > c)` of the busiest shard straight from
//! inclusion-exclusion (Bonferroni) bounds, where `1 - P(max <= c)` would
//! cancel: one shard's tail, two shards' joint tail, and independent shards.

use super::point::{Point, LN_TABLE_HI};
use super::special::{ln_1m_exp, ln_add, ln_binom_sf, ln_dbinom};
use crate::model::traffic::TrafficModel;

/// The two-term Bonferroni value is used once its relative error is this
/// small, or smaller than that of `1 - P(max <= c)` by Levin's formula.
const BONFERRONI_REL_GAP: f64 = 1e-12;

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
        let ln_q1 = match self.model {
            TrafficModel::Fixed if c >= self.likes() || c < self.c_min() || self.shards == 1 => {
                f64::NAN // not needed
            }
            _ => self.ln_one_sf(c),
        };
        self.ln_sf_tail_given(c, ln_q1)
    }

    /// [`Point::ln_sf_tail`] with `ln P(N_1 > c)` already known.
    pub(super) fn ln_sf_tail_given(&self, c: u64, ln_q1: f64) -> Option<(f64, f64)> {
        // Rounding of the log-space tail sums, relative.
        const TAIL_ROUNDING: f64 = 1e-14;
        match self.model {
            TrafficModel::Poisson => Some((ln_sf_independent(ln_q1, self.shards), TAIL_ROUNDING)),
            TrafficModel::Fixed => {
                let (l, s) = (self.likes(), self.shards);
                if c >= l {
                    return Some((f64::NEG_INFINITY, 0.0));
                }
                if c < self.c_min() || s == 1 {
                    // Some shard must exceed c (with one shard, it has all L).
                    return Some((0.0, 0.0));
                }
                let ln_s = (s as f64).ln();
                // Two shards cannot both exceed c: the first term is exact.
                if 2 * (c + 1) > l {
                    return Some((ln_s + ln_q1, TAIL_ROUNDING));
                }
                // S q1 > 1e-2: the bracket is at least ~1e-5 wide, while
                // Levin's 1 - P(max <= c) is good to ~1e-11 relative.
                if ln_s + ln_q1 > -4.6 {
                    return None;
                }
                let sf = s as f64;
                // C(S,2) q2 <= C(S,2) q1^2 (negative association), so below
                // (S-1) q1 / 2 < 1e-17 the first term is exact to double
                // precision and q2 need not be summed.
                if ((sf - 1.0) / 2.0).ln() + ln_q1 < LN_TABLE_HI {
                    return Some((ln_s + ln_q1, TAIL_ROUNDING));
                }
                let ln_q2 = ln_two_over(l, s, c);
                let ln_pairs = (sf * (sf - 1.0) / 2.0).ln();
                let ln_triples = (sf * (sf - 1.0) * (sf - 2.0) / 6.0).ln();
                // S q1 - C(S,2) q2 = S q1 (1 - C(S,2) q2 / (S q1)).
                let ratio = (ln_pairs + ln_q2 - ln_s - ln_q1).exp();
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
                (err <= BONFERRONI_REL_GAP.max(levin_err))
                    .then(|| (ln_low + (0.5 * gap).ln_1p(), err))
            }
        }
    }
}

/// `ln P(N_1 > c, N_2 > c)` for Multinomial(L; 1/S, ...), `S >= 2`:
/// `sum_{a > c} P(N_1 = a) P(N_2 > c | N_1 = a)` with
/// `N_2 | N_1 = a ~ Binomial(L - a, 1/(S-1))`. Called only with `c` above
/// the mean, where both factors fall as `a` grows, so the first term is the
/// largest and terms below e^-40 of it are dropped (q2 only corrects the
/// result by a relative <= S q1 / 2 <= 5e-3).
///
/// The sum runs from the last `a` down, so the binomial tail can grow by
/// the recurrence `P(Bin(n+1) > c) = P(Bin(n) > c) + p P(Bin(n) = c)`
/// (additions only): O(1) per term instead of a tail sum each.
fn ln_two_over(likes: u64, shards: u64, c: u64) -> f64 {
    let s = shards as f64;
    let (p1, q1) = (1.0 / s, (s - 1.0) / s);
    let (p2, q2) = (1.0 / (s - 1.0), (s - 2.0) / (s - 1.0));
    // Both shards over c needs a >= c + 1 and L - a >= c + 1.
    if likes < 2 * (c + 1) {
        return f64::NEG_INFINITY;
    }
    let a_lo = c + 1;
    let a_top = likes - c - 1;
    let ln_first = ln_dbinom(a_lo, likes, p1, q1);
    let mut a_hi = a_lo;
    while a_hi < a_top && ln_dbinom(a_hi + 1, likes, p1, q1) > ln_first - 40.0 {
        a_hi += 1;
    }
    let mut total = f64::NEG_INFINITY;
    let mut ln_tail = if shards == 2 {
        0.0 // N_2 = L - a > c
    } else {
        ln_binom_sf(c, likes - a_hi, p2, q2)
    };
    let mut a = a_hi;
    loop {
        total = ln_add(total, ln_dbinom(a, likes, p1, q1) + ln_tail);
        if a == a_lo {
            break;
        }
        if shards > 2 {
            // n = L - a grows by one as a steps down.
            let n = likes - a;
            ln_tail = ln_add(ln_tail, p2.ln() + ln_dbinom(c, n, p2, q2));
        }
        a -= 1;
    }
    total
}

/// `ln P(max > c) = ln(1 - (1 - Q)^S)` for `S` independent shards each over
/// `c` with probability `Q = e^ln_q`.
pub(super) fn ln_sf_independent(ln_q: f64, shards: u64) -> f64 {
    let s = shards as f64;
    if ln_q + s.ln() < -40.0 {
        // S Q < 4e-18: 1 - (1-Q)^S = S Q (1 - (S-1) Q / 2 + ...) to double
        // precision, and this stays finite below f64's range.
        return s.ln() + ln_q;
    }
    ln_1m_exp(s * ln_1m_exp(ln_q))
}
