//! `ln P(max <= c)` for a whole range of cuts `c` at once: consecutive cuts
//! share one tilt and update the frequency sums in O(1) each (see
//! [`ln_cdf_fixed_range`]).

use super::frequencies::{frequency_sums, phasor_refresh, phasors, smooth_size};
use super::twiddles::GridFactors;
use super::{
    ln_cdf_fixed, ln_pmf_ratio, psi_pow, tilt_aimed, Aim, GRID_HALF_SDS, LN_F_SMALL, QUIET,
};
use crate::model::exact::special::{ln_dpois, ln_pois_cdf, neumaier};

/// How far `W`'s standard deviation may grow within a block before a new
/// one starts. The grid is sized for it, and the frequencies a block sums
/// grow with the grid (the 1,000-count sweep at 200,000 likes/s: 0.43 s of
/// CPU with grids for half, the pmf floor at 1e-30 and a quiet run of 16;
/// 0.33 s with these, before blocks were led). Past
/// `ROUNDED_GRID_MAX_SHARDS` blocks keep the half and the grid of earlier
/// builds (see `Block::start`: another grid moves their last digits by
/// ~1e-11, 7e-12 in the pinned log at 1e7 likes/s over 100,000 shards).
fn sd_growth(shards: u64) -> f64 {
    if shards > ROUNDED_GRID_MAX_SHARDS {
        1.5
    } else {
        1.1
    }
}

/// Past this many shards a block's grid keeps its own size (see
/// `Block::start`).
const ROUNDED_GRID_MAX_SHARDS: u64 = 10_000;

/// Whether grids for `shards` shards are rounded to one of 8 sizes an
/// octave and take their factors from the shared full tables: from 257
/// shards (where full tables serve) to `ROUNDED_GRID_MAX_SHARDS`.
pub(super) fn rounds_grid(shards: u64) -> bool {
    shards > 256 && shards <= ROUNDED_GRID_MAX_SHARDS
}

/// `ln P(max <= c)` for every `c` in `from..=to`: the same values as
/// [`ln_cdf_fixed`], much faster for long ranges.
///
/// Consecutive `c` share one tilt `lambda` while it keeps `E[W]` within one
/// standard deviation of `L` (a block), so the truncated pmf only gains the
/// term `k = c` and each frequency's sum is updated in O(1): a block costs
/// min(O(K J), O(M log M)) once (direct sums or one FFT, see
/// `frequencies.rs`) and then O(J) per `c` instead of O(K J) per `c`.
/// (Equal to the point formula within Levin's error, not bit for bit: the
/// grid is rounded up to an FFT-friendly size for up to 256 shards, and to
/// one of 8 sizes an octave up to 10,000.)
pub fn ln_cdf_fixed_range(likes: u64, shards: u64, from: u64, to: u64) -> Vec<f64> {
    ln_cdf_fixed_range_within(likes, shards, (from, to), Blocks::TABLE)
}

/// How long a range's blocks keep their tilt, and where they aim it.
#[derive(Debug, Clone, Copy)]
pub struct Blocks {
    /// A block keeps its tilt while `E[W]` is within this many standard
    /// deviations of `L`.
    pub drift: f64,
    /// Whether a block starts `E[W]` nearly `drift` deviations below `L`
    /// (it rises with the cut, so the block drifts across `L` to `drift`
    /// above it, twice as far as from `L`), its search starting from the
    /// last block's tilt.
    pub lead: bool,
}

impl Blocks {
    /// The full table's: within one deviation, from `L` (its figures are
    /// pinned, see [`super::Aim`]).
    pub const TABLE: Blocks = Blocks {
        drift: 1.0,
        lead: false,
    };

    /// A risk row's (`BusiestShard::for_row`): within two deviations, led.
    /// The grid sum at `L` then reads a point e^-2 of `W`'s peak, so its
    /// rounding is at most e^2 times larger, about 1e-15 relative, and a
    /// block covers more cuts. (Three deviations broke the stated error on
    /// P(over the cap).)
    pub const ROW: Blocks = Blocks {
        drift: 2.0,
        lead: true,
    };

    /// The aim of a block's tilt after a block at `last` (if any).
    fn aim(self, last: Option<f64>) -> Aim {
        if !self.lead {
            return Aim::CENTRED;
        }
        // Within the search's tolerance (0.05) of the start, and a little
        // more: a block's first cut is inside `drift`.
        Aim {
            from: last,
            below: self.drift - 0.1,
        }
    }
}

/// [`ln_cdf_fixed_range`] with its blocks kept and aimed as `blocks` says.
pub fn ln_cdf_fixed_range_within(
    likes: u64,
    shards: u64,
    (from, to): (u64, u64),
    blocks: Blocks,
) -> Vec<f64> {
    let mut out = Vec::with_capacity(to.saturating_sub(from) as usize + 1);
    let mut c = from;
    let mut last_tilt = None;
    while c <= to {
        let sc = shards as u128 * c as u128;
        if c >= likes || shards == 1 || sc <= likes as u128 {
            out.push(ln_cdf_fixed(likes, shards, c));
            c += 1;
            continue;
        }
        let mut block = Block::start(likes, shards, c, blocks.aim(last_tilt));
        last_tilt = Some(block.lambda);
        out.push(block.ln_cdf());
        c += 1;
        while c <= to && c < likes && block.extend(c, blocks.drift) {
            out.push(block.ln_cdf());
            c += 1;
        }
    }
    out
}

/// The running sums for one tilt (see [`ln_cdf_fixed_range`]).
struct Block {
    likes: u64,
    shards: u64,
    lambda: f64,
    c: u64,
    /// Sums of the unnormalised weights `w_k` over `k <= c`: `w`, `w k`, `w k^2`.
    z: f64,
    zk: f64,
    zk2: f64,
    /// The last weight, for the ratio step `w_{c+1} = w_c lambda / (c+1)`.
    w_last: f64,
    /// `ln P(X <= c)` of the block's first cut, and the weights added
    /// since, with Neumaier's compensation: `P(X <= c) / P(X <= c_0)` is
    /// `1 + added` (in the weights' units, `e^ln_unit` times the start's),
    /// so `ln P(X <= c)` costs O(1) a cut instead of a tail sum of
    /// O(sigma) terms (which was most of a block's time with many shards).
    ln_f_start: f64,
    ln_unit: f64,
    added: (f64, f64),
    /// `ln P(Poisson(S lambda) = L)`, the same for every cut of the block.
    ln_norm: f64,
    sd_w_start: f64,
    m: u64,
    /// `k_r`, the integer shift near the mean.
    k_r: u64,
    /// The grid's factors.
    tw: GridFactors,
    /// Per frequency j = 1..=J: running sum `sum_k w_k e^{-i w_j (k - k_r)}`,
    /// the phasor `e^{-i w_j (c - k_r)}` of the current cut, and the phase
    /// `e^{-i w_j (k_r - L/S)}`.
    phi: Vec<(f64, f64)>,
    rot: Vec<(f64, f64)>,
    frac: Vec<(f64, f64)>,
    /// The cuts since the phasors were last set to exact factors (one
    /// cut turns phasor j by `e^{-i w_j}`, the grid's factor j).
    since: u64,
}

impl Block {
    fn start(likes: u64, shards: u64, c: u64, aim: Aim) -> Block {
        let (lambda, y) = tilt_aimed(likes, shards, c, aim);
        let sd_w = (shards as f64 * y.var).sqrt();
        // The point formula's grid, with room for W's sd to grow by
        // `sd_growth` before the block must end: to its last cut, the grid
        // keeps `GRID_HALF_SDS` of W's sd each side, as the point formula.
        let m = 2 * (GRID_HALF_SDS * sd_growth(shards) * sd_w).ceil() as u64 + 64;
        // An FFT-friendly grid where the FFT may serve (few shards; even,
        // for the real-to-complex FFT). Past 256 shards the direct sums
        // always do, on full factor tables: up to 10,000 shards on grids
        // rounded to 8 sizes an octave, so the blocks of a table and the
        // rows of a sweep share a few tables (a larger grid only aliases
        // less); past that on the grid of earlier builds, as S amplifies
        // the rounding of another grid's factors to ~1e-11 there, past the
        // 1e-12 the pinned values (tests/stats/exact_grid.rs) hold to.
        let m = if rounds_grid(shards) {
            super::twiddles::TwiddleCache::grid_size(m)
        } else if shards > 256 {
            m
        } else {
            2 * smooth_size(m / 2)
        };
        let mf = m as f64;
        let k_r = (likes + shards / 2) / shards;
        let gauss_j = 9.1 * mf / (std::f64::consts::TAU * sd_w.max(1e-300));
        let (s, l) = (shards as i128, likes as i128);
        let tw = GridFactors::new(m, shards);
        let phi = frequency_sums(&y, k_r, shards, gauss_j, &tw);
        let frac = (1..=phi.len() as i128)
            .map(|j| {
                let num = ((s * k_r as i128 - l) * j).rem_euclid(s * m as i128);
                let a = -std::f64::consts::TAU * num as f64 / (s as f64 * mf);
                (a.cos(), a.sin())
            })
            .collect();
        let rot = phasors(phi.len(), c as i128 - k_r as i128, &tw);
        let (mut zk, mut zk2) = (0.0, 0.0);
        for (i, p) in y.w.iter().enumerate() {
            let k = (y.first + i as u64) as f64;
            zk += p * k;
            zk2 += p * k * k;
        }
        // truncated() stops early once terms fall below the floor; carry on
        // the ratio from the top term it kept.
        let top = y.first + y.w.len() as u64 - 1;
        let mut w_last = *y.w.last().unwrap_or(&1.0);
        for k in top..c {
            w_last *= lambda / (k + 1) as f64;
        }
        Block {
            likes,
            shards,
            lambda,
            c,
            z: 1.0,
            zk,
            zk2,
            w_last,
            ln_f_start: ln_pois_cdf(c, lambda),
            ln_unit: 0.0,
            added: (0.0, 0.0),
            ln_norm: ln_dpois(likes, shards as f64 * lambda),
            sd_w_start: sd_w,
            m,
            k_r,
            tw,
            phi,
            rot,
            frac,
            since: 0,
        }
    }

    /// Adds `k = c` (the next cut); false when this tilt is no longer
    /// centred within `drift` standard deviations of `W`, or W has widened
    /// beyond the grid's margin.
    fn extend(&mut self, c: u64, drift: f64) -> bool {
        debug_assert_eq!(c, self.c + 1);
        let w = self.w_last * self.lambda / c as f64;
        let (z, zk, zk2) = (
            self.z + w,
            self.zk + w * c as f64,
            self.zk2 + w * (c as f64).powi(2),
        );
        let mean = zk / z;
        let var = (zk2 / z - mean * mean).max(0.0);
        let mu = self.likes as f64 / self.shards as f64;
        let sf = self.shards as f64;
        let off = (mean - mu).abs() * sf.sqrt() > drift * var.sqrt();
        if off || (sf * var).sqrt() > sd_growth(self.shards) * self.sd_w_start {
            return false;
        }
        self.c = c;
        self.w_last = w;
        self.z = z;
        self.zk = zk;
        self.zk2 = zk2;
        self.added = neumaier(self.added, w);
        self.since += 1;
        if self.since == phasor_refresh(self.shards) {
            let d = c as i128 - self.k_r as i128;
            self.rot = phasors(self.phi.len(), d, &self.tw);
            self.since = 0;
        } else {
            for (j, r) in (1..).zip(self.rot.iter_mut()) {
                let (co, si) = self.tw.factor(j);
                // e^{-i w_j (c - k_r)} = e^{-i w_j (c - 1 - k_r)} e^{-i w_j}.
                *r = (r.0 * co - r.1 * si, r.0 * si + r.1 * co);
            }
        }
        for ((re, im), &(co, si)) in self.phi.iter_mut().zip(&self.rot) {
            *re += w * co;
            *im += w * si;
        }
        if let Some(&(re, im)) = self.phi.last() {
            let j = self.phi.len() as u64;
            if 2 * j < self.m && psi_pow(re / self.z, im / self.z, self.shards) >= QUIET {
                // The last frequency kept is no longer negligible: new block.
                return false;
            }
        }
        if self.z > 1e200 {
            let r = 1.0 / self.z;
            self.z = 1.0;
            self.zk *= r;
            self.zk2 *= r;
            self.w_last *= r;
            self.added = (self.added.0 * r, self.added.1 * r);
            self.ln_unit -= r.ln();
            for p in &mut self.phi {
                p.0 *= r;
                p.1 *= r;
            }
        }
        true
    }

    fn ln_cdf(&self) -> f64 {
        let sf = self.shards as f64;
        let mut total = 1.0;
        for (j, (&(re, im), &(co, si))) in self.phi.iter().zip(&self.frac).enumerate() {
            let (re, im) = (re / self.z, im / self.z);
            let (re, im) = (re * co - im * si, re * si + im * co);
            let weight = if 2 * (j as u64 + 1) == self.m {
                1.0
            } else {
                2.0
            };
            total += weight * real_power(re, im, self.shards);
        }
        let p_w = total / self.m as f64;
        let growth = self.ln_growth();
        let ln_f = self.ln_f_start + growth;
        if ln_f < LN_F_SMALL {
            // F(c) / p(c) = (F(c) / F(c_0)) / (p(c) / F(c_0)), each known
            // to a few ulps (not by way of ln F(c), which is large here).
            let ln_f_over_p = growth - (self.w_last.ln() + self.ln_unit);
            sf * ln_f_over_p + ln_pmf_ratio(self.likes, self.shards, self.c, self.lambda) + p_w.ln()
        } else {
            sf * ln_f + p_w.ln() - self.ln_norm
        }
    }

    /// `ln(P(X <= c) / P(X <= c_0))` for the current cut `c`: `ln(1 +
    /// added)` in the start's units, without losing a small `added`.
    fn ln_growth(&self) -> f64 {
        let (hi, lo) = self.added;
        let added = hi + lo;
        if added == 0.0 {
            return 0.0;
        }
        let ln_added = added.ln() + self.ln_unit;
        if ln_added < 0.0 {
            ln_added.exp().ln_1p()
        } else {
            ln_added + (-ln_added).exp().ln_1p()
        }
    }
}

/// `Re((re + i im)^n)` by repeated squaring: a few multiplications instead
/// of `|psi|^S cos(S arg psi)` by log, exp, atan2 and cos, which cost ten
/// times as much and are paid for every frequency of every cut. Each
/// squaring doubles the relative error of the angle, so the result carries
/// about `n` ulps of the angle, as `S * atan2` does.
///
/// Past `ROUNDED_GRID_MAX_SHARDS` shards the log form is kept: a block
/// there has few cuts, and `tests/stats/exact_grid.rs` pins its values to 1e-12,
/// which both forms carry (n ulps of the angle) but not the same ones. Up to
/// there the squarings are a sweep's main cost per cut (`ln`, `exp`,
/// `atan2` and `cos` were 13% of `sweep --shards 10..1000`).
fn real_power(re: f64, im: f64, mut n: u64) -> f64 {
    if n > ROUNDED_GRID_MAX_SHARDS {
        let mag = (n as f64 * 0.5 * (re * re + im * im).ln()).exp();
        return if mag == 0.0 {
            0.0
        } else {
            mag * (n as f64 * im.atan2(re)).cos()
        };
    }
    let (mut br, mut bi) = (re, im);
    let (mut rr, mut ri) = (1.0, 0.0);
    loop {
        if n & 1 == 1 {
            (rr, ri) = (rr * br - ri * bi, rr * bi + ri * br);
        }
        n >>= 1;
        if n == 0 {
            return rr;
        }
        (br, bi) = (br * br - bi * bi, 2.0 * br * bi);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn range_matches_point_by_point() {
        for &(l, s, from, to) in &[
            (14_000u64, 20u64, 700u64, 900u64),
            (6, 3, 0, 7),
            (1000, 2, 490, 700),
            (200_000, 286, 700, 760),
            (1_000_000, 10, 100_000, 100_060),
        ] {
            let range = ln_cdf_fixed_range(l, s, from, to);
            assert_eq!(range.len() as u64, to - from + 1);
            for (i, got) in range.iter().enumerate() {
                let c = from + i as u64;
                let want = ln_cdf_fixed(l, s, c);
                let err = if want == *got {
                    0.0
                } else {
                    (got - want).abs()
                };
                assert!(
                    err < 1e-12 * want.abs().max(1.0),
                    "L={l} S={s} c={c}: {got} vs {want}"
                );
            }
        }
    }

    /// A risk row's blocks (led across `L`, two deviations each side,
    /// started from the last block's tilt) give the point formula's values
    /// too, from the table's bottom, where blocks are short, up. Each value
    /// carries about S ulps of the grid's angles (see `real_power`), so the
    /// two agree to 1e-12 or `3e-15 S` relative, whichever is larger: at
    /// 1,000 shards the table's blocks (drift 1, centred) are off the point
    /// formula by up to 9.8e-13, a row's by 1.3e-12.
    #[test]
    fn led_blocks_match_point_by_point() {
        for &(l, s, from, to) in &[
            (200_000u64, 20u64, 10_011u64, 10_400u64),
            (200_000, 500, 430, 510),
            (200_000, 1_000, 225, 275),
            (14_000, 20, 700, 900),
        ] {
            let range = ln_cdf_fixed_range_within(l, s, (from, to), Blocks::ROW);
            for (i, got) in range.iter().enumerate() {
                let want = ln_cdf_fixed(l, s, from + i as u64);
                let tolerance = 1e-12_f64.max(3e-15 * s as f64);
                assert!(
                    (got - want).abs() < tolerance * want.abs().max(1.0),
                    "L={l} S={s} c={}: {got} vs {want}",
                    from + i as u64
                );
            }
        }
    }

    #[test]
    fn long_ranges_stay_finite_and_monotone() {
        // 3,001 cuts over 10 shards of 100,000 likes each (mean + 9.5 sd);
        // its speed is shown by `cargo bench --bench exact`, not timed here.
        let v = ln_cdf_fixed_range(1_000_000, 10, 100_000, 103_000);
        // ln P(max <= c) near 0 in the far tail: a probability, up to
        // rounding (Levin's terms are each good to ~1e-13 relative).
        assert!(
            v.iter().all(|x| x.is_finite() && *x <= 1e-12),
            "{:?}",
            v.iter().cloned().fold(f64::MIN, f64::max)
        );
        assert!(v.windows(2).all(|w| w[1] >= w[0] - 1e-12));
    }
}
