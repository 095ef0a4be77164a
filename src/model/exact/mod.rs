//! The exact distribution of the busiest shard's writes in one second, and
//! the risk figures built on it (issue 3).
//!
//! - Fixed traffic (exactly `L` likes a second): the shard counts are
//!   Multinomial(L; 1/S, ..., 1/S). `P(max <= c)` comes from Levin's (1981)
//!   representation (see [`levin`]); the upper tail `P(max > c)` from the
//!   inclusion-exclusion (Bonferroni) bounds where they pin it to double
//!   precision, because `1 - P(max <= c)` cancels when it is tiny.
//! - Poisson traffic (a Poisson(rate) count a second): the shard counts are
//!   independent Poisson(rate / S), so `P(max <= c) = F(c)^S` in closed form.
//!
//! Everything is computed as a logarithm, so probabilities far below 1e-300
//! keep their value (`ln_sf`), and figures are exact (no simulation).

mod levin;
mod quietest;
mod special;

pub use quietest::QuietestShard;

use rayon::prelude::*;
use serde::Serialize;

use crate::error::{InputError, InputResult};
use crate::model::traffic::TrafficModel;
use crate::model::validate;

use special::{ln_1m_exp, ln_add, ln_binom_sf, ln_dbinom, ln_dpois, ln_pois_cdf, ln_pois_sf};

/// The table starts where `P(max <= c)` drops below this (ln 1e-30): no
/// mean, quantile (q >= 1e-30) or run quantile needs less; smaller values
/// are computed on demand.
const LN_TABLE_LO: f64 = -69.077_552_789_821_37;
/// ...and ends where `P(max > c)` is below this (ln 1e-17): beyond it the
/// CDF is 1 to double precision.
const LN_TABLE_HI: f64 = -39.143_946_580_898_75;
/// Levin's formula fills the table in pieces of at least this many `c`
/// values, one rayon task each.
const LEVIN_PIECE: usize = 64;
/// Most pieces a Levin run is cut into (fixed, so results are the same on
/// any number of cores).
const LEVIN_PIECES: usize = 8;
/// The two-term Bonferroni value is used once its relative error is this
/// small, or smaller than that of `1 - P(max <= c)` by Levin's formula.
const BONFERRONI_REL_GAP: f64 = 1e-12;

/// Per-second distribution of the busiest shard's writes.
#[derive(Debug, Clone)]
pub struct BusiestShard {
    rate: f64,
    shards: u64,
    model: TrafficModel,
    /// First value of `c` in the table.
    lo: u64,
    /// `ln P(max <= c)` for `c = lo, lo + 1, ...`.
    ln_cdf: Vec<f64>,
    /// `ln P(max > c)`, accurate also when tiny.
    ln_sf: Vec<f64>,
}

impl BusiestShard {
    /// `rate` likes/s over `shards` shards. Fixed traffic needs a whole
    /// number rate. Errors name the flags `--rate` and `--shards`.
    pub fn new(rate: f64, shards: u64, model: TrafficModel) -> InputResult<Self> {
        let point = Point::new(rate, shards, model)?;
        let hi = point.table_hi();
        let lo = point.table_lo(hi);
        let (ln_q1, ln_f1) = point.one_shard_tails(lo, hi);
        let pairs: Vec<(f64, f64)> = match model {
            TrafficModel::Poisson => {
                let s = shards as f64;
                ln_q1
                    .iter()
                    .zip(&ln_f1)
                    .map(|(&ln_q, &ln_f)| (s * ln_f, ln_sf_independent(ln_q, shards)))
                    .collect()
            }
            TrafficModel::Fixed => {
                // The tail formula serves the upper part of the table...
                let tails: Vec<Option<(f64, f64)>> = ln_q1
                    .par_iter()
                    .enumerate()
                    .map(|(i, &ln_q)| point.ln_sf_tail_given(lo + i as u64, ln_q))
                    .collect();
                // ...and Levin's formula the rest, a run at the bottom (the
                // tail formula only gets better as c grows). The run is cut
                // in a few pieces for rayon; each piece updates its sums
                // from one c to the next.
                let run = tails.iter().take_while(|t| t.is_none()).count();
                // Starting a piece costs about one point evaluation. Each
                // piece restarts its running sums, so the cut points must not
                // depend on the thread count (the last bits would): at most
                // LEVIN_PIECES pieces, whatever the machine.
                let piece = LEVIN_PIECE.max(run.div_ceil(LEVIN_PIECES));
                let pieces = run.div_ceil(piece).max(1);
                let levin: Vec<f64> = (0..pieces)
                    .into_par_iter()
                    .flat_map_iter(|k| {
                        let from = lo + (k * piece) as u64;
                        let to = (lo + run as u64).min(from + piece as u64);
                        if from >= to {
                            Vec::new()
                        } else {
                            levin::ln_cdf_fixed_range(point.likes(), shards, from, to - 1)
                        }
                    })
                    .collect();
                tails
                    .iter()
                    .enumerate()
                    .map(|(i, tail)| match (tail, levin.get(i)) {
                        (Some((ln_sf, _)), _) => (ln_1m_exp(*ln_sf), *ln_sf),
                        (None, Some(&ln_cdf)) => (ln_cdf, ln_1m_exp(ln_cdf)),
                        // A gap above the run (not expected): point formula.
                        (None, None) => {
                            let ln_cdf = point.ln_cdf_levin(lo + i as u64);
                            (ln_cdf, ln_1m_exp(ln_cdf))
                        }
                    })
                    .collect()
            }
        };
        let (ln_cdf, ln_sf) = pairs.into_iter().unzip();
        Ok(BusiestShard {
            rate: point.rate,
            shards: point.shards,
            model,
            lo,
            ln_cdf,
            ln_sf,
        })
    }

    pub fn rate(&self) -> f64 {
        self.rate
    }

    pub fn shards(&self) -> u64 {
        self.shards
    }

    pub fn model(&self) -> TrafficModel {
        self.model
    }

    fn point(&self) -> Point {
        Point {
            rate: self.rate,
            shards: self.shards,
            model: self.model,
        }
    }

    fn index(&self, c: u64) -> Option<usize> {
        let i = c.checked_sub(self.lo)? as usize;
        (i < self.ln_cdf.len()).then_some(i)
    }

    /// The range of `c` held in the table: below it `P(max <= c) < 1e-30`,
    /// above it `P(max > c) < 1e-17`. Other values are computed on demand.
    pub fn table_range(&self) -> (u64, u64) {
        (self.lo, self.lo + self.ln_cdf.len() as u64 - 1)
    }

    /// `ln P(max <= c)`; `-inf` where it is exactly 0.
    pub fn ln_cdf(&self, c: u64) -> f64 {
        match self.index(c) {
            Some(i) => self.ln_cdf[i],
            None if c < self.lo => self.point().ln_cdf(c),
            None => ln_1m_exp(self.ln_sf(c)),
        }
    }

    /// `ln P(max > c)`, finite however small the probability; `-inf` only
    /// where it is exactly 0 (fixed traffic, `c >= rate`).
    pub fn ln_sf(&self, c: u64) -> f64 {
        match self.index(c) {
            Some(i) => self.ln_sf[i],
            None if c < self.lo => ln_1m_exp(self.point().ln_cdf(c)),
            None => self.point().ln_sf(c),
        }
    }

    /// `P(max <= c)`.
    pub fn cdf(&self, c: u64) -> f64 {
        self.ln_cdf(c).exp()
    }

    /// `P(max > c)`, to full relative precision when tiny (0 only below
    /// f64's range: use [`BusiestShard::ln_sf`] there).
    pub fn sf(&self, c: u64) -> f64 {
        self.ln_sf(c).exp()
    }

    /// The mean busiest shard: `sum over c >= 0 of P(max > c)`; below the
    /// table that probability is 1 to double precision, above it < 1e-17.
    pub fn mean(&self) -> f64 {
        self.lo as f64 + self.ln_sf.iter().map(|x| x.exp()).sum::<f64>()
    }

    /// The smallest `c` with `P(max <= c) >= q`, for `q` in (0, 1); `q <= 0`
    /// gives the table start and `q >= 1` its end (the first `c` with
    /// `P(max > c) < 1e-17`).
    pub fn quantile(&self, q: f64) -> u64 {
        self.run_quantile(1.0, q)
    }

    /// The busiest shard over a run of `seconds` independent seconds: the
    /// smallest `c` with `P(max <= c)^seconds >= q`. `seconds = 1` is
    /// [`BusiestShard::quantile`]; `seconds` need not be whole.
    pub fn run_quantile(&self, seconds: f64, q: f64) -> u64 {
        let (lo, hi) = self.table_range();
        if q.is_nan() || q <= 0.0 {
            return lo;
        }
        if q >= 1.0 || !seconds.is_finite() || seconds <= 0.0 {
            // A run must be a positive, finite length ([`Risk`] checks it).
            return hi;
        }
        let ln_q = q.ln();
        let ok = |ln_cdf: f64| seconds * ln_cdf >= ln_q;
        // First index whose CDF reaches q (the table is monotone).
        let i = self.ln_cdf.partition_point(|&x| !ok(x));
        if i == 0 {
            // q below 1e-30: the answer can lie under the table.
            let (mut c, c_min) = (lo, self.point().c_min());
            while c > c_min && ok(self.ln_cdf(c - 1)) {
                c -= 1;
            }
            return c;
        }
        if i < self.ln_cdf.len() {
            return lo + i as u64;
        }
        // A very long run can need c beyond the table.
        let mut c = hi + 1;
        while !ok(self.ln_cdf(c)) && c < u64::MAX {
            c += 1;
        }
        c
    }
}

/// The per-`c` formulas, without a table.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Point {
    rate: f64,
    shards: u64,
    model: TrafficModel,
}

impl Point {
    pub(crate) fn new(rate: f64, shards: u64, model: TrafficModel) -> InputResult<Self> {
        let rate = validate::traffic_rate("--rate", rate, model)?;
        let shards = validate::count("--shards", shards, crate::model::defaults::MAX_SHARDS)?;
        Ok(Point {
            rate,
            shards,
            model,
        })
    }

    fn likes(&self) -> u64 {
        self.rate as u64
    }

    /// The smallest possible busiest count.
    fn c_min(&self) -> u64 {
        match self.model {
            TrafficModel::Fixed => self.likes().div_ceil(self.shards),
            TrafficModel::Poisson => 0,
        }
    }

    /// `ln P(N_1 > c)` for one shard's count.
    fn ln_one_sf(&self, c: u64) -> f64 {
        match self.model {
            TrafficModel::Fixed => {
                let s = self.shards as f64;
                ln_binom_sf(c, self.likes(), 1.0 / s, (s - 1.0) / s)
            }
            TrafficModel::Poisson => ln_pois_sf(c, self.rate / self.shards as f64),
        }
    }

    /// `ln P(max <= c)`.
    fn ln_cdf(&self, c: u64) -> f64 {
        match self.model {
            TrafficModel::Fixed => {
                if c < self.c_min() {
                    return f64::NEG_INFINITY;
                }
                match self.ln_sf_tail(c) {
                    Some((ln_sf, _)) => ln_1m_exp(ln_sf),
                    None => self.ln_cdf_levin(c),
                }
            }
            TrafficModel::Poisson => {
                self.shards as f64 * ln_pois_cdf(c, self.rate / self.shards as f64)
            }
        }
    }

    /// `ln P(max <= c)` by Levin's formula (fixed traffic), or the closed
    /// form (Poisson traffic), without trying the tail formula first.
    fn ln_cdf_levin(&self, c: u64) -> f64 {
        match self.model {
            TrafficModel::Fixed if c >= self.c_min() => {
                levin::ln_cdf_fixed(self.likes(), self.shards, c)
            }
            _ => self.ln_cdf(c),
        }
    }

    /// `ln P(max > c)`.
    fn ln_sf(&self, c: u64) -> f64 {
        self.ln_sf_with_error(c).0
    }

    /// `ln P(max > c)` and a bound on its relative error (as a
    /// probability, not as a log).
    fn ln_sf_with_error(&self, c: u64) -> (f64, f64) {
        match self.ln_sf_tail(c) {
            Some(x) => x,
            None => {
                let ln_sf = ln_1m_exp(self.ln_cdf(c));
                (ln_sf, self.levin_abs_error() / ln_sf.exp())
            }
        }
    }

    /// Absolute error of Levin's `ln P(max <= c)`, hence of
    /// `1 - P(max <= c)`: the grid sum raises each shard's characteristic
    /// function to the power S, so rounding grows with S. Measured against
    /// exact rationals, mpmath and an f64 shard-by-shard recursion
    /// (docs/exact.md): <= 2e-15 for S = 7, 10; <= 4e-14 for S = 100;
    /// <= 3e-13 for S = 200 (partly the reference's own rounding). This is
    /// about twice those.
    fn levin_abs_error(&self) -> f64 {
        2e-15 * (self.shards as f64).max(5.0)
    }

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
    fn ln_sf_tail(&self, c: u64) -> Option<(f64, f64)> {
        let ln_q1 = match self.model {
            TrafficModel::Fixed if c >= self.likes() || c < self.c_min() || self.shards == 1 => {
                f64::NAN // not needed
            }
            _ => self.ln_one_sf(c),
        };
        self.ln_sf_tail_given(c, ln_q1)
    }

    /// [`Point::ln_sf_tail`] with `ln P(N_1 > c)` already known.
    fn ln_sf_tail_given(&self, c: u64, ln_q1: f64) -> Option<(f64, f64)> {
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

    /// Per-shard `ln P(N_1 > c)` and `ln P(N_1 <= c)` for `c` in
    /// `lo..=hi` by the pmf recurrences `Q(c-1) = Q(c) + p(c)` and
    /// `F(c+1) = F(c) + p(c+1)`: O(1) per value instead of a tail sum of
    /// O(sd) terms, which matters when one shard's sd is in the thousands.
    /// A direct tail sum re-anchors every `ANCHOR_EVERY` values, so the
    /// rounding of the sums (relative, ~1e-16 per step) cannot build up.
    fn one_shard_tails(&self, lo: u64, hi: u64) -> (Vec<f64>, Vec<f64>) {
        const ANCHOR_EVERY: u64 = 1024;
        let (s, l) = (self.shards as f64, self.likes());
        let lambda = self.rate / s;
        let ln_pmf = |c: u64| match self.model {
            TrafficModel::Fixed => ln_dbinom(c, l, 1.0 / s, (s - 1.0) / s),
            TrafficModel::Poisson => ln_dpois(c, lambda),
        };
        let ln_one_cdf = |c: u64| match self.model {
            TrafficModel::Fixed => ln_1m_exp(ln_binom_sf(c, l, 1.0 / s, (s - 1.0) / s)),
            TrafficModel::Poisson => ln_pois_cdf(c, lambda),
        };
        let starts: Vec<u64> = (lo..=hi).step_by(ANCHOR_EVERY as usize).collect();
        let chunks: Vec<(Vec<f64>, Vec<f64>)> = starts
            .par_iter()
            .map(|&a| {
                let b = (a + ANCHOR_EVERY - 1).min(hi);
                let n = (b - a + 1) as usize;
                let mut q = vec![0.0; n];
                q[n - 1] = self.ln_one_sf(b);
                for i in (0..n - 1).rev() {
                    q[i] = ln_add(q[i + 1], ln_pmf(a + i as u64 + 1));
                }
                let mut f = vec![0.0; n];
                if self.model == TrafficModel::Poisson {
                    f[0] = ln_one_cdf(a);
                    for i in 1..n {
                        f[i] = ln_add(f[i - 1], ln_pmf(a + i as u64));
                    }
                }
                (q, f)
            })
            .collect();
        let mut ln_q = Vec::with_capacity((hi - lo + 1) as usize);
        let mut ln_f = Vec::with_capacity((hi - lo + 1) as usize);
        for (q, f) in chunks {
            ln_q.extend(q);
            ln_f.extend(f);
        }
        (ln_q, ln_f)
    }

    /// Top of the table: the smallest `c` with `S P(N_1 > c) < 1e-17`, an
    /// upper bound on `P(max > c)` (union bound).
    fn table_hi(&self) -> u64 {
        let ln_s = (self.shards as f64).ln();
        let small = |c: u64| ln_s + self.ln_one_sf(c) < LN_TABLE_HI;
        let mut lo = self.c_min();
        if small(lo) {
            return lo;
        }
        let mut hi = lo.max(1);
        while !small(hi) {
            lo = hi;
            hi = hi.saturating_mul(2);
        }
        // small(hi) and !small(lo): bisect.
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if small(mid) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        hi
    }

    /// Bottom of the table: the largest `c <= hi` with
    /// `P(max <= c) < 1e-30`, or the smallest possible count if none.
    fn table_lo(&self, hi: u64) -> u64 {
        let c_min = self.c_min();
        let tiny = |c: u64| self.ln_cdf(c) < LN_TABLE_LO;
        if !tiny(c_min) {
            return c_min;
        }
        let (mut lo, mut hi) = (c_min, hi);
        // tiny(lo), !tiny(hi): bisect to the last tiny value.
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if tiny(mid) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        lo
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
fn ln_sf_independent(ln_q: f64, shards: u64) -> f64 {
    let s = shards as f64;
    if ln_q + s.ln() < -40.0 {
        // S Q < 4e-18: 1 - (1-Q)^S = S Q (1 - (S-1) Q / 2 + ...) to double
        // precision, and this stays finite below f64's range.
        return s.ln() + ln_q;
    }
    ln_1m_exp(s * ln_1m_exp(ln_q))
}

/// `ln(1 - (1 - p)^T)` from `ln p`: the chance that at least one of
/// `seconds` independent seconds goes over, finite however small `p` is.
pub fn ln_p_any_over(ln_p: f64, seconds: f64) -> f64 {
    if ln_p == f64::NEG_INFINITY {
        return ln_p;
    }
    if ln_p + seconds.ln() < -40.0 {
        // T p < 4e-18: 1 - (1-p)^T = T p (1 - (T-1) p / 2 + ...) to double
        // precision.
        return seconds.ln() + ln_p;
    }
    ln_1m_exp(seconds * ln_1m_exp(ln_p))
}

/// One row of risk figures: what `risk`, `sweep` and `size --risk` print.
#[derive(Debug, Clone, Serialize)]
pub struct Risk {
    /// Likes per second.
    pub rate: f64,
    pub shards: u64,
    /// Writes per second one shard may take.
    pub cap: f64,
    /// Length of the run the "any second" figures cover.
    pub seconds: f64,
    pub traffic: TrafficModel,
    /// P(the busiest shard goes over the cap in one second).
    pub p_over_cap_per_second: f64,
    /// Its natural log: finite even where the probability underflows f64.
    pub ln_p_over_cap_per_second: f64,
    /// P(at least one second over the cap during the run).
    pub p_any_over_cap: f64,
    pub ln_p_any_over_cap: f64,
    /// True when a probability above is positive but below f64's range
    /// (printed as 0): read the `ln_` field.
    pub underflow: bool,
    /// Mean writes on the busiest shard in one second.
    pub busiest_mean_per_second: f64,
    /// 99.9% quantile of the busiest shard in one second.
    pub busiest_p999_per_second: u64,
    /// The busiest shard over the whole run: median and 1% / 99% quantiles.
    pub busiest_over_run_median: u64,
    pub busiest_over_run_q01: u64,
    pub busiest_over_run_q99: u64,
    /// Bound on the relative error of `p_over_cap_per_second` (and of
    /// `p_any_over_cap` when that is small): the figures come from the exact
    /// distribution, this is only floating-point and Bonferroni-bracket error.
    pub p_over_cap_rel_error: f64,
    /// `p_over_cap_rel_error <= 1e-9`: the probabilities are good to all the
    /// digits anyone prints. Every other figure is exact regardless.
    pub exact: bool,
}

impl Risk {
    /// Builds the distribution and the row. Errors name `--rate`,
    /// `--shards`, `--cap` and `--duration`.
    pub fn compute(
        rate: f64,
        shards: u64,
        cap: f64,
        seconds: f64,
        model: TrafficModel,
    ) -> InputResult<Risk> {
        let busiest = BusiestShard::new(rate, shards, model)?;
        Risk::from_busiest(&busiest, cap, seconds)
    }

    /// The row for an already built distribution (a sweep reuses nothing
    /// across shard counts, but `risk` with several caps can).
    pub fn from_busiest(busiest: &BusiestShard, cap: f64, seconds: f64) -> InputResult<Risk> {
        let cap = validate::non_negative("--cap", cap)?;
        let seconds = validate_seconds(seconds)?;
        // The busiest count is whole: over a cap of 1000.5 means over 1000.
        let c = cap.floor().min(u64::MAX as f64) as u64;
        let ln_p = busiest.ln_sf(c);
        let (_, rel_error) = busiest.point().ln_sf_with_error(c);
        let ln_any = ln_p_any_over(ln_p, seconds);
        let (p, p_any) = (ln_p.exp(), ln_any.exp());
        let underflow = (p == 0.0 && ln_p.is_finite()) || (p_any == 0.0 && ln_any.is_finite());
        Ok(Risk {
            rate: busiest.rate,
            shards: busiest.shards,
            cap,
            seconds,
            traffic: busiest.model,
            p_over_cap_per_second: p,
            ln_p_over_cap_per_second: ln_p,
            p_any_over_cap: p_any,
            ln_p_any_over_cap: ln_any,
            underflow,
            busiest_mean_per_second: busiest.mean(),
            busiest_p999_per_second: busiest.quantile(0.999),
            busiest_over_run_median: busiest.run_quantile(seconds, 0.5),
            busiest_over_run_q01: busiest.run_quantile(seconds, 0.01),
            busiest_over_run_q99: busiest.run_quantile(seconds, 0.99),
            p_over_cap_rel_error: rel_error,
            exact: rel_error <= 1e-9,
        })
    }
}

fn validate_seconds(seconds: f64) -> InputResult<f64> {
    if !seconds.is_finite() || seconds < 1.0 {
        return Err(InputError::new(
            "--duration",
            format!("must be at least 1 second (got {seconds} s)"),
        ));
    }
    Ok(seconds)
}

/// One [`Risk`] row per shard count, in the order given (for `sweep`).
/// Rows are independent, so they are computed on rayon.
pub fn sweep(
    rate: f64,
    shard_counts: &[u64],
    cap: f64,
    seconds: f64,
    model: TrafficModel,
) -> InputResult<Vec<Risk>> {
    shard_counts
        .par_iter()
        .map(|&shards| Risk::compute(rate, shards, cap, seconds, model))
        .collect()
}

/// `ln P(any second over the cap during the run)` for `shards` shards:
/// needs only the one point `c = cap`, not the whole table.
pub fn ln_p_any_over_cap(
    rate: f64,
    shards: u64,
    cap: f64,
    seconds: f64,
    model: TrafficModel,
) -> InputResult<f64> {
    let point = Point::new(rate, shards, model)?;
    let cap = validate::non_negative("--cap", cap)?;
    let seconds = validate_seconds(seconds)?;
    let c = cap.floor().min(u64::MAX as f64) as u64;
    Ok(ln_p_any_over(point.ln_sf(c), seconds))
}

/// The fewest shards (at most `max_shards`) for which
/// `P(any second over the cap during the run) <= risk`. The risk falls as
/// shards are added, so an exponential then binary search finds the edge.
pub fn shards_for_risk(
    rate: f64,
    cap: f64,
    seconds: f64,
    risk: f64,
    model: TrafficModel,
    max_shards: u64,
) -> InputResult<u64> {
    let risk = validate::probability_open("--risk", risk)?;
    let max_shards = validate::count(
        "--max-shards",
        max_shards,
        crate::model::defaults::MAX_SHARDS,
    )?;
    let ln_risk = risk.ln();
    let found = crate::model::search::fewest_shards(max_shards, |s| {
        Ok::<_, InputError>(ln_p_any_over_cap(rate, s, cap, seconds, model)? <= ln_risk)
    })?;
    found.ok_or_else(|| {
        InputError::new(
            "--risk",
            format!(
                "cannot be met with at most {max_shards} shards at {rate} likes/s and cap {cap} \
                 over {seconds} s (got {risk}); raise the cap or the shard limit"
            ),
        )
    })
}

#[cfg(test)]
mod tests;
