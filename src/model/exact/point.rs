//! The per-`c` formulas for the busiest shard, one value of `c` at a time
//! (no table): `P(max <= c)`, `P(max > c)` with its error bound, one shard's
//! tails, and where the busiest shard's table starts and ends.

use rayon::prelude::*;

use super::gamma_mix::GammaMix;
use super::gamma_parts;
use super::levin;
use super::special::{ln_1m_exp, ln_add};
use super::ExactProblem;
use crate::error::{ParamError, ParamResult};
use crate::model::defaults::MAX_MIXED_ROWS;
use crate::model::law::{Share, Split, TrafficModel};
use crate::model::validate;

/// The table starts where `P(max <= c)` drops below this (ln 1e-30): no
/// mean, quantile (q >= 1e-30) or run quantile needs less; smaller values
/// are computed on demand.
pub(super) const LN_TABLE_LO: f64 = -69.077_552_789_821_37;
/// ...and ends where `P(max > c)` is below this (ln 1e-17): beyond it the
/// CDF is 1 to double precision.
pub(super) const LN_TABLE_HI: f64 = -39.143_946_580_898_75;

/// The per-`c` formulas, without a table.
#[derive(Debug, Clone, Copy)]
pub(super) struct Point {
    /// Likes per second (a whole number for fixed traffic).
    pub(super) rate: f64,
    /// Shards the likes spread over.
    pub(super) shards: u64,
    /// How the likes in a second are counted.
    pub(super) model: TrafficModel,
}

impl Point {
    /// Checks the inputs; errors name `--rate` and `--shards`.
    pub(super) fn new(rate: f64, shards: u64, model: TrafficModel) -> ParamResult<Self> {
        // Empirical traffic's rate is its law's mean, whatever is passed.
        let rate = model.rate("rate", rate)?;
        let shards = validate::count("shards", shards, crate::model::defaults::MAX_SHARDS)?;
        Ok(Point {
            rate,
            shards,
            model,
        })
    }

    /// The likes in every second (fixed traffic).
    pub(super) fn likes(&self) -> u64 {
        self.rate as u64
    }

    /// The smallest possible busiest count.
    pub(super) fn c_min(&self) -> u64 {
        // The fewest likes a second can have, spread as evenly as they go.
        self.model.law().fewest(self.rate).div_ceil(self.shards)
    }

    /// `ln P(N_1 > c)` for one shard's count.
    pub(super) fn ln_one_sf(&self, c: u64) -> f64 {
        let one = Share::one(self.shards);
        self.model.law().ln_share_sf(self.rate, one, c)
    }

    /// The second's Gamma law (gamma-poisson traffic only).
    fn gamma_mix(&self) -> GammaMix {
        let Split::GammaRate { mean, shape } = self.model.split(self.rate) else {
            unreachable!("a mixed figure is for a Poisson count at a Gamma rate");
        };
        GammaMix::new(mean, shape)
    }

    /// Gamma-poisson traffic: `ln P(max <= c)`, alone (a point that needs
    /// only one side costs one integral, not two).
    pub(super) fn mixed_cdf(&self, c: u64) -> f64 {
        gamma_parts::ln_tail(&self.gamma_mix(), self.shards, c, false).min(0.0)
    }

    /// Gamma-poisson traffic: `ln P(max > c)`, alone.
    pub(super) fn mixed_sf(&self, c: u64) -> f64 {
        gamma_parts::ln_tail(&self.gamma_mix(), self.shards, c, true).min(0.0)
    }

    /// Gamma-poisson traffic: refuses, as the table does, a law whose
    /// busiest shard spreads over `MAX_MIXED_ROWS` counts or more (from
    /// `P(max <= c) = 1e-30` to `P(max > c) = 1e-17`), naming `dispersion`.
    /// Finding those two ends takes a few dozen integrals, so a bound comes
    /// first: the table starts at 0 or above, and ends at or below any `c`
    /// with `S P(N_1 > c) < 1e-17` (the union bound it is found by). Where
    /// the cost model's count of rows puts such a `c` under the limit (one
    /// integral checks it), the law passes; otherwise both ends are found.
    pub(super) fn check_mixed_spread(&self) -> ParamResult<()> {
        let Split::GammaRate { mean, shape } = self.model.split(self.rate) else {
            return Ok(());
        };
        let rows = crate::model::cost::gamma_table_rows(mean, self.shards, shape);
        let top = (rows + mean / self.shards as f64).ceil();
        if top < MAX_MIXED_ROWS as f64 {
            let ln_s = (self.shards as f64).ln();
            if top < MAX_MIXED_ROWS as f64 / 4.0 || ln_s + self.ln_one_sf(top as u64) < LN_TABLE_HI
            {
                return Ok(());
            }
        }
        let hi = self.table_hi();
        let lo = self.table_lo(hi);
        if hi - lo >= MAX_MIXED_ROWS {
            let too_long = ExactProblem::MixedRowsAbove { lo, hi };
            return Err(ParamError::new("dispersion", too_long.into()));
        }
        Ok(())
    }

    /// `ln P(max <= c)`.
    pub(super) fn ln_cdf(&self, c: u64) -> f64 {
        match self.model.split(self.rate) {
            Split::Count(_) => {
                if c < self.c_min() {
                    return f64::NEG_INFINITY;
                }
                match self.ln_sf_tail(c) {
                    Some((ln_sf, _)) => ln_1m_exp(ln_sf),
                    None => self.ln_cdf_levin(c),
                }
            }
            Split::Poisson(_) => {
                let one = Share::one(self.shards);
                self.shards as f64 * self.model.law().ln_share_cdf(self.rate, one, c)
            }
            Split::GammaRate { .. } => self.mixed_cdf(c),
            Split::Counts(law) => self.mix_ln_cdf(law, c),
        }
    }

    /// `ln P(max <= c)` by Levin's formula (fixed traffic), or the closed
    /// form (Poisson traffic), without trying the tail formula first.
    pub(super) fn ln_cdf_levin(&self, c: u64) -> f64 {
        match self.model.split(self.rate) {
            // Few shards: one block of the range form, whose frequency sums
            // come from an FFT where every frequency matters (a wide
            // spread), which the point form would sum one by one. Past 256
            // shards few frequencies matter: the point form, as before.
            Split::Count(_) if c >= self.c_min() && self.shards <= 256 => {
                levin::ln_cdf_fixed_range(self.likes(), self.shards, c, c)[0]
            }
            Split::Count(_) if c >= self.c_min() => {
                levin::ln_cdf_fixed(self.likes(), self.shards, c)
            }
            _ => self.ln_cdf(c),
        }
    }

    /// `ln P(max > c)`.
    pub(super) fn ln_sf(&self, c: u64) -> f64 {
        self.ln_sf_with_error(c).0
    }

    /// `ln P(max > c)` and a bound on its relative error (as a
    /// probability, not as a log).
    pub(super) fn ln_sf_with_error(&self, c: u64) -> (f64, f64) {
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
    pub(super) fn levin_abs_error(&self) -> f64 {
        2e-15 * (self.shards as f64).max(5.0)
    }

    /// Per-shard `ln P(N_1 > c)` and `ln P(N_1 <= c)` for `c` in
    /// `lo..=hi` by the pmf recurrences `Q(c-1) = Q(c) + p(c)` and
    /// `F(c+1) = F(c) + p(c+1)`: O(1) per value instead of a tail sum of
    /// O(sd) terms, which matters when one shard's sd is in the thousands.
    /// A direct tail sum re-anchors every `ANCHOR_EVERY` values, so the
    /// rounding of the sums (relative, ~1e-16 per step) cannot build up.
    pub(super) fn one_shard_tails(&self, lo: u64, hi: u64) -> (Vec<f64>, Vec<f64>) {
        const ANCHOR_EVERY: u64 = 1024;
        // (An empirical table mixes fixed ones: it never comes here.)
        let (law, one) = (self.model.law(), Share::one(self.shards));
        let ln_pmf = |c: u64| law.ln_share_pmf(self.rate, one, c);
        let ln_one_cdf = |c: u64| law.ln_share_cdf(self.rate, one, c);
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
                if self.model.is_poisson_given_rate() {
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
        // Summed pmf terms can round a log a few ulps above 0 where the
        // probability is 1 (low c); a log of a probability is at most 0, and
        // ln(1 - e^x) of x > 0 is NaN (the NaN busiest mean of one Poisson
        // shard at 300 likes/s).
        for (q, f) in chunks {
            ln_q.extend(q.into_iter().map(|x| x.min(0.0)));
            ln_f.extend(f.into_iter().map(|x| x.min(0.0)));
        }
        (ln_q, ln_f)
    }

    /// Top of the table: the smallest `c` with `S P(N_1 > c) < 1e-17`, an
    /// upper bound on `P(max > c)` (union bound).
    pub(super) fn table_hi(&self) -> u64 {
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
        // small(hi) and !small(lo): the first small value is one past the
        // last that is not.
        bisect_last(lo, hi, |c| !small(c)) + 1
    }

    /// Bottom of the table: the largest `c <= hi` with
    /// `P(max <= c) < 1e-30`, or the smallest possible count if none.
    pub(super) fn table_lo(&self, hi: u64) -> u64 {
        let c_min = self.c_min();
        let tiny = |c: u64| self.ln_cdf(c) < LN_TABLE_LO;
        if !tiny(c_min) {
            return c_min;
        }
        // Start from an estimate (fixed traffic: the saddlepoint value of
        // Levin's formula, no grid; each exact point builds one), then
        // gallop away from it until the answer is bracketed: usually two
        // exact points, `tiny(g)` and `!tiny(g + 1)`. Poisson traffic's
        // points are closed forms, and galloping from `c_min` is as cheap.
        let guess = match self.model.split(self.rate) {
            Split::Count(_) if self.shards > 1 => {
                let estimate = |c: u64| {
                    c > c_min
                        && levin::ln_cdf_fixed_estimate(self.likes(), self.shards, c) < LN_TABLE_LO
                };
                last_where(c_min, hi, estimate)
            }
            _ => c_min,
        };
        let (lo, hi) = if tiny(guess) {
            gallop(guess, hi, |c| !tiny(c))
        } else {
            gallop_down(guess, c_min, tiny)
        };
        bisect_last(lo, hi, tiny)
    }
}

impl Point {
    /// A risk row's table bottom (fixed traffic): about where `P(max <= c)`
    /// falls under 1e-17, by the saddlepoint estimate of Levin's formula
    /// alone (a few hundredths in the log, so the value there is under
    /// 1.1e-17; no exact point). Searched from the normal approximation's
    /// count, `Phi(z)^S = 1e-17` for one shard's mean and standard
    /// deviation, by steps that double until bracketed, then bisection.
    pub(super) fn row_lo(&self, hi: u64) -> u64 {
        let c_min = self.c_min();
        if self.shards == 1 || hi <= c_min {
            return c_min;
        }
        let (l, s) = (self.likes(), self.shards);
        let below = |c: u64| c > c_min && levin::ln_cdf_fixed_estimate(l, s, c) < LN_TABLE_HI;
        let sf = s as f64;
        let mean = l as f64 / sf;
        let sd = (mean * (1.0 - 1.0 / sf)).sqrt();
        // Phi(z) = e^{ln(1e-17) / S}: z = sqrt(2) erf^-1(2 Phi - 1).
        let phi = (LN_TABLE_HI / sf).exp();
        let z = std::f64::consts::SQRT_2 * statrs::function::erf::erf_inv(2.0 * phi - 1.0);
        // Not below c_min + 1: with few shards the normal guess can fall
        // under the smallest count, where `below` is false by definition,
        // and galloping down from there found nothing, so the table began
        // at c_min (e^-78 at 200,000 likes over 20 shards, not 1e-17).
        let guess = (mean + z * sd).clamp((c_min + 1) as f64, hi as f64) as u64;
        let (a, b) = if below(guess) {
            gallop(guess, hi, |c| !below(c))
        } else {
            gallop_down(guess, c_min, below)
        };
        if !below(a) {
            return c_min;
        }
        bisect_last(a, b, below)
    }
}

/// The last `c` in `lo..=hi` where `pred` holds, for a `pred` that holds
/// up to some point and not after (`lo` if it never holds past `lo`).
fn last_where(lo: u64, hi: u64, pred: impl Fn(u64) -> bool) -> u64 {
    if pred(hi) {
        hi
    } else {
        bisect_last(lo, hi, pred)
    }
}

/// The last `c` where `pred` holds, given `pred(lo)` and `!pred(hi)`.
pub(super) fn bisect_last(mut lo: u64, mut hi: u64, pred: impl Fn(u64) -> bool) -> u64 {
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if pred(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

/// From `from` (where `done` is false), steps of 1, 2, 4, ... up to `top`
/// until `done`: returns `(last step where it was false, first where true
/// or top)`.
fn gallop(from: u64, top: u64, done: impl Fn(u64) -> bool) -> (u64, u64) {
    let (mut lo, mut step) = (from, 1u64);
    loop {
        let next = lo.saturating_add(step).min(top);
        if next >= top || done(next) {
            return (lo, next.min(top));
        }
        lo = next;
        step = step.saturating_mul(2);
    }
}

/// From `from` (where `found` is false), steps of 1, 2, 4, ... down to
/// `bottom` until `found`: returns `(first where true or bottom, last step
/// where it was false)`.
fn gallop_down(from: u64, bottom: u64, found: impl Fn(u64) -> bool) -> (u64, u64) {
    let (mut hi, mut step) = (from, 1u64);
    loop {
        let next = hi.saturating_sub(step).max(bottom);
        if next <= bottom || found(next) {
            return (next, hi);
        }
        hi = next;
        step = step.saturating_mul(2);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table's bottom found from the saddlepoint estimate is the one a
    /// plain walk up from the smallest possible count finds (the estimate
    /// only chooses where the exact search starts), and the estimate is
    /// close: within 0.5 of the exact log at the answer.
    #[test]
    fn table_bottom_is_the_walks_answer() {
        for (likes, shards) in [
            (14_000u64, 20u64),
            (18_000, 20),
            (1_000, 7),
            (100_000, 3),
            (200_000, 286),
            (1_000_000, 1_430),
            (5_000, 2_000),
        ] {
            let p = Point::new(likes as f64, shards, TrafficModel::Fixed).unwrap();
            let hi = p.table_hi();
            let walked = (p.c_min()..=hi)
                .take_while(|&c| p.ln_cdf(c) < LN_TABLE_LO)
                .last()
                .unwrap_or(p.c_min());
            let found = p.table_lo(hi);
            assert_eq!(found, walked, "L={likes} S={shards}");
            if found > p.c_min() {
                let est = levin::ln_cdf_fixed_estimate(likes, shards, found);
                assert!(
                    (est - p.ln_cdf(found)).abs() < 0.5,
                    "L={likes} S={shards}: {est}"
                );
            }
        }
    }

    /// A risk row's bottom is the last count whose saddlepoint estimate is
    /// under 1e-17, as a walk up from the smallest count finds it, from
    /// few shards (where the normal guess falls under the smallest count)
    /// to many.
    #[test]
    fn row_bottom_is_the_walks_answer() {
        for (likes, shards) in [
            (200_000u64, 10u64),
            (200_000, 20),
            (200_000, 57),
            (200_000, 100),
            (14_000, 20),
            (1_000, 7),
            (200_000, 1_000),
        ] {
            let p = Point::new(likes as f64, shards, TrafficModel::Fixed).unwrap();
            let hi = p.table_hi();
            let walked = (p.c_min() + 1..=hi)
                .take_while(|&c| levin::ln_cdf_fixed_estimate(likes, shards, c) < LN_TABLE_HI)
                .last()
                .unwrap_or(p.c_min());
            assert_eq!(p.row_lo(hi), walked, "L={likes} S={shards}");
        }
    }
}
