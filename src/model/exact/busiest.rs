//! The busiest shard's per-second distribution as a table: `ln P(max <= c)`
//! and `ln P(max > c)` for every `c` that matters, filled by Levin's formula
//! at the bottom and the upper-tail bounds above it.

use rayon::prelude::*;

use super::joint;
use super::levin;
use super::point::Point;
use super::special::ln_1m_exp;
use super::upper_tail::ln_sf_independent;
use super::upper_tail::tails_fixed;
use super::ExactProblem;
use crate::error::{ParamError, ParamResult};
use crate::model::law::{Split, TrafficModel};

/// Levin's formula fills the table in pieces of at least this many `c`
/// values, one rayon task each.
const LEVIN_PIECE: usize = 64;
/// Most pieces a Levin run is cut into (fixed, so results are the same on
/// any number of cores).
const LEVIN_PIECES: usize = 8;

/// How a fixed-traffic table's rows are laid out: in how many pieces its
/// Levin run and its pair band are cut for rayon, and how Levin's blocks
/// keep and aim their tilt.
#[derive(Debug, Clone, Copy)]
struct Layout {
    levin_pieces: usize,
    pair_pieces: u64,
    blocks: levin::Blocks,
}

/// The full table's (its values are pinned by `tests/stats/exact_grid.rs`).
const TABLE: Layout = Layout {
    levin_pieces: LEVIN_PIECES,
    pair_pieces: super::pairs::PIECES,
    blocks: levin::Blocks::TABLE,
};

/// A risk row's (`BusiestShard::for_row`).
const ROW: Layout = Layout {
    levin_pieces: 1,
    pair_pieces: 1,
    blocks: levin::Blocks::ROW,
};

pub use crate::model::defaults::MAX_MIXED_ROWS;

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
    /// Below this index `ln_cdf` holds `ln(1 - P(max > c))` from
    /// inclusion-exclusion, good to an absolute error of `bottom_error` but
    /// not relatively when tiny: exact values there are computed on demand
    /// (few-shard tables, whose bottom would cost Theta(sigma^2) by
    /// Levin's formula; the mean, the sampler and every quantile from
    /// about 1e-2 up need only these).
    exact_from: usize,
    /// The absolute error bound of those `P(max <= c)` values.
    bottom_error: f64,
}

impl BusiestShard {
    /// The table of a second that is one count law: a fixed count, or a
    /// Poisson count at a known or a Gamma rate (a mixture of counts mixes
    /// these: `empirical_mix`; `BusiestShard::new` in `table.rs` chooses).
    pub(super) fn single(point: Point) -> ParamResult<Self> {
        let shards = point.shards;
        let split = point.model.split(point.rate);
        let hi = point.table_hi();
        let lo = point.table_lo(hi);
        if matches!(split, Split::GammaRate { .. }) && hi - lo >= MAX_MIXED_ROWS {
            let too_long = ExactProblem::MixedRowsAbove { lo, hi };
            return Err(ParamError::new("dispersion", too_long.into()));
        }
        let (pairs, exact_from, bottom_error) = match split {
            // Two integrals over the second's rate a block of eight rows.
            Split::GammaRate { mean, shape } => {
                let pairs = super::gamma_blocks::table_tails((mean, shape), shards, (lo, hi));
                (pairs, 0, 0.0)
            }
            Split::Poisson(_) => {
                let (ln_q1, ln_f1) = point.one_shard_tails(lo, hi);
                let s = shards as f64;
                let pairs = ln_q1
                    .iter()
                    .zip(&ln_f1)
                    .map(|(&ln_q, &ln_f)| (s * ln_f, ln_sf_independent(ln_q, shards)))
                    .collect();
                (pairs, 0, 0.0)
            }
            Split::Counts(_) => unreachable!("a mixture of counts is built by empirical_mix"),
            Split::Count(_) => fixed_rows(&point, (lo, hi), TABLE),
        };
        Ok(Self::from_parts(point, lo, pairs, exact_from, bottom_error))
    }

    /// The table one risk row needs (each row of a `sweep`, a risk chart,
    /// the report's risk table), built for a sweep of many: fixed traffic's
    /// starts where the saddlepoint estimate of Levin's formula puts `P(max
    /// <= c)` under 1e-17, not at an exact search for 1e-30 (a row's mean
    /// adds 1 a count below, to double precision, and its quantiles, from
    /// `P(max <= c) = 0.01` up, lie above), and runs its Levin run and pair
    /// band in one piece each (the rows run in parallel) with a block's
    /// tilt let drift across `L`, from two standard deviations of `W` below
    /// to two above (see `levin::Blocks::ROW`). Its figures agree with the full
    /// table's to Levin's error (tested); other laws build the full table.
    pub fn for_row(rate: f64, shards: u64, model: TrafficModel) -> ParamResult<Self> {
        let point = Point::new(rate, shards, model)?;
        if !matches!(model.split(point.rate), Split::Count(_)) {
            return BusiestShard::new(rate, shards, model);
        }
        let hi = point.table_hi();
        let lo = point.row_lo(hi);
        let (pairs, exact_from, bottom_error) = fixed_rows(&point, (lo, hi), ROW);
        Ok(Self::from_parts(point, lo, pairs, exact_from, bottom_error))
    }

    /// The table `(ln P(max <= c), ln P(max > c))` from `c = lo` up, whose
    /// `P(max <= c)` below index `exact_from` is good only to the absolute
    /// `bottom_error`.
    pub(super) fn from_parts(
        point: Point,
        lo: u64,
        pairs: Vec<(f64, f64)>,
        exact_from: usize,
        bottom_error: f64,
    ) -> Self {
        let (ln_cdf, ln_sf) = pairs.into_iter().unzip();
        let (rate, shards, model) = (point.rate, point.shards, point.model);
        BusiestShard {
            rate,
            shards,
            model,
            lo,
            ln_cdf,
            ln_sf,
            exact_from,
            bottom_error,
        }
    }

    /// The row at `c` as stored: `(ln P(max <= c), ln P(max > c), whether
    /// the first is exact)`; `None` off the table.
    pub(super) fn stored(&self, c: u64) -> Option<(f64, f64, bool)> {
        let i = self.index(c)?;
        Some((self.ln_cdf[i], self.ln_sf[i], i >= self.exact_from))
    }

    /// Likes per second (a whole number for fixed traffic).
    pub fn rate(&self) -> f64 {
        self.rate
    }

    /// Shards the likes spread over.
    pub fn shards(&self) -> u64 {
        self.shards
    }

    /// How the likes in a second are counted.
    pub fn model(&self) -> TrafficModel {
        self.model
    }

    /// The per-`c` formulas for the same inputs (for values off the table).
    pub(super) fn point(&self) -> Point {
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
            Some(i) if i < self.exact_from => self.point().ln_cdf_levin(c),
            Some(i) => self.ln_cdf[i],
            None if c < self.lo => self.point().ln_cdf(c),
            None => ln_1m_exp(self.ln_sf(c)),
        }
    }

    /// `ln P(max > c)`, finite however small the probability; `-inf` only
    /// where it is exactly 0 (fixed traffic, `c >= rate`).
    pub fn ln_sf(&self, c: u64) -> f64 {
        match self.index(c) {
            // (An empirical table's tails are exact on every row.)
            Some(i) if i < self.exact_from && self.model.empirical().is_none() => {
                ln_1m_exp(self.point().ln_cdf_levin(c))
            }
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

    /// `(P(max <= c), P(max > c))` for every `c` of the table, as
    /// tabulated: for sampling. For few shards at high rates the bottom
    /// of the table (`P(max <= c)` below about 1e-2) holds `1 - P(max > c)`
    /// from inclusion-exclusion, good to an absolute error of at most
    /// ~1e-12 (so a draw differs from the exact table's for at most that
    /// fraction of uniforms), where [`BusiestShard::cdf`] computes the
    /// exact value by Levin's formula, one `c` at a time.
    pub fn tabulated(&self) -> (Vec<f64>, Vec<f64>) {
        (
            self.ln_cdf.iter().map(|x| x.exp()).collect(),
            self.ln_sf.iter().map(|x| x.exp()).collect(),
        )
    }

    /// The bound on the absolute error of [`BusiestShard::tabulated`]'s
    /// `P(max <= c)` (0 where every value is exact).
    pub fn tabulated_error(&self) -> f64 {
        self.bottom_error
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
        // First index whose CDF reaches q (the table is monotone). Below
        // `exact_from` the tabulated CDF is only close: search there with
        // exact values (a few Levin points), only if the answer lies there.
        let e = self.exact_from;
        let i = if e == 0 || (e < self.ln_cdf.len() && !ok(self.ln_cdf[e])) {
            e + self.ln_cdf[e..].partition_point(|&x| !ok(x))
        } else {
            let (mut a, mut b) = (0, e);
            while a < b {
                let mid = a + (b - a) / 2;
                if ok(self.ln_cdf(lo + mid as u64)) {
                    b = mid;
                } else {
                    a = mid + 1;
                }
            }
            a
        };
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

/// Few shards (4 to [`joint::MAX_SHARDS`]) with a long Levin run: fills
/// that run by inclusion-exclusion over every joint tail `q_j(c)`
/// (`joint.rs`, O(1) a value), where Levin's grid sums would need every
/// frequency for every `c` (Theta(sigma^2) in all). Where its error bound
/// is within 1e-12 of both `P(max <= c)` and `P(max > c)` (or Levin's own
/// absolute error for the latter), the values are the table's: the middle,
/// down to `P(max <= c)` of about 1e-2. Below that its `P(max <= c)` is
/// good only to an absolute error (the second value returned, at most
/// ~1e-12): the table keeps it for sums and sampling, and exact values
/// there are computed on demand. Returns the index where exact values
/// start (0: all) and that error.
fn inclusion_exclusion_fixed(
    point: &Point,
    lo: u64,
    tails: &mut [Option<(f64, f64)>],
) -> (usize, f64) {
    let shards = point.shards;
    let run = tails.iter().take_while(|t| t.is_none()).count();
    if !(4..=joint::MAX_SHARDS).contains(&shards) || run < JOINT_MIN_RUN {
        return (0, 0.0);
    }
    let hi = lo + tails.len() as u64 - 1;
    let band = joint::joint_tails_band(point.likes(), shards, lo, hi);
    let width = (shards - 1) as usize;
    let levin_err = point.levin_abs_error();
    let (mut exact_from, mut bottom_error) = (0, 0.0_f64);
    for i in (0..run).rev() {
        let q = &band[i * width..][..width];
        let (sf, cdf, err) = joint::inclusion_exclusion(shards, q);
        let ok = err <= 1e-12 * cdf && err <= (1e-12 * sf).max(levin_err);
        if !ok && exact_from == 0 {
            exact_from = i + 1;
        }
        if exact_from > 0 {
            bottom_error = bottom_error.max(err);
        }
        // The table takes ln P(max <= c) as ln(1 - P(max > c)), which is
        // `cdf` to rounding (and 0 where rounding took it below).
        let sf = sf.min(1.0);
        tails[i] = Some((sf.ln(), err / sf));
    }
    (exact_from, bottom_error)
}

/// Inclusion-exclusion pays (one pass over the whole table) only for a
/// Levin run at least this long.
const JOINT_MIN_RUN: usize = 512;

/// The rows `(ln P(max <= c), ln P(max > c))` of a fixed-traffic table
/// from `lo` to `hi`, with the index below which `P(max <= c)` is good
/// only to the absolute error returned last.
fn fixed_rows(
    point: &Point,
    (lo, hi): (u64, u64),
    layout: Layout,
) -> (Vec<(f64, f64)>, usize, f64) {
    let (ln_q1, _) = point.one_shard_tails(lo, hi);
    // The tail formula serves the upper part of the table...
    let mut tails = tails_fixed(point, lo, &ln_q1, layout.pair_pieces);
    // ...inclusion-exclusion the middle, for a few shards...
    let (exact_from, bottom_error) = inclusion_exclusion_fixed(point, lo, &mut tails);
    // ...and Levin's formula the rest, a run at the bottom (the
    // tail formula only gets better as c grows). The run is cut
    // in a few pieces for rayon; each piece updates its sums
    // from one c to the next.
    let run = tails.iter().take_while(|t| t.is_none()).count();
    let levin = levin_run(point, lo, run, layout);
    let pairs = tails
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
        .collect();
    (pairs, exact_from, bottom_error)
}

/// `ln P(max <= c)` by Levin's formula for the `run` values of `c` from
/// `lo`, in a few pieces run in parallel.
fn levin_run(point: &Point, lo: u64, run: usize, layout: Layout) -> Vec<f64> {
    // Starting a piece costs about one point evaluation. Each
    // piece restarts its running sums, so the cut points must not
    // depend on the thread count (the last bits would): at most
    // `layout.levin_pieces` pieces, whatever the machine.
    let piece = LEVIN_PIECE.max(run.div_ceil(layout.levin_pieces));
    let pieces = run.div_ceil(piece).max(1);
    (0..pieces)
        .into_par_iter()
        .flat_map_iter(|k| {
            let from = lo + (k * piece) as u64;
            let to = (lo + run as u64).min(from + piece as u64);
            if from >= to {
                Vec::new()
            } else {
                let cuts = (from, to - 1);
                levin::ln_cdf_fixed_range_within(point.likes(), point.shards, cuts, layout.blocks)
            }
        })
        .collect()
}
