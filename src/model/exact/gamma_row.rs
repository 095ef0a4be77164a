//! Gamma-poisson traffic's risk row (`risk`, each `sweep` row, the risk
//! chart and the report) without the table (issue 37).
//!
//! A row needs five figures of the busiest shard's law, not the law: the
//! chance over the cap (one integral, `Point::mixed_sf`), the mean, and four
//! quantiles (99.9% of a second, 1%, 50% and 99% of the run's peak). The
//! table behind them held every count from `P(max <= c) = 1e-30` to
//! `P(max > c) = 1e-17`, two integrals over the second's rate each:
//! thousands of integrals a row (1.7 s for 22,231.5 likes/s over 57 shards
//! at K = 6.9). Here:
//!
//! - **The mean** is one integral: given the second's rate the shards are
//!   independent Poissons, so `E[max] = E[m_S(Lambda / S)]` with `m_S(mu) =
//!   sum_c (1 - F(c; mu)^S)` the mean busiest of `S` Poisson(mu) shards,
//!   a smooth increasing function of `mu` summed at each node ([`mean_max`]).
//! - **A quantile** is a search over `c` for the first count that meets it,
//!   each step an integral over a block of eight neighbouring cuts at once
//!   (`gamma_blocks.rs`): the nodes are shared, and at each node the eight
//!   tails are one Poisson tail and seven pmf steps. A search starts from
//!   a guess (the mean, the quantile before it, the previous row's answer)
//!   and steps by the secant of `ln(-ln P(max <= c))` (about linear in `c`
//!   in the upper tail), so it usually needs one or two blocks.
//! - Blocks are aligned (`[8k, 8k + 7]`), so a cut's value is the same
//!   whichever search asked for it: a row's figures do not depend on the
//!   guess, the sweep around it or the thread count. A first read starts
//!   from a peak fitted for a neighbouring block or row, where one is
//!   near: its sums differ in their last digits, but its bound is honest,
//!   and the cuts it leaves in doubt are read again in full on fitted
//!   peaks, so the answers do not move (the sweep of 10..1000 shards gave
//!   the same bytes with and without, at K = 0.3, 2, 6.9, 50 and 300).
//!
//! Each value is the integral the table held, to the same tolerance (1e-12
//! relative in the quadrature, `MIX_REL_ERROR` claimed); the upper tail is
//! integrated as `P(max > c)`, never `1 -` the integrated CDF, where the
//! quantile's threshold is above 1/2, and the CDF where it is below.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};

use rayon::prelude::*;

use super::gamma_blocks::{first_form_tails, Block, Side, BLOCK};
use super::gamma_mix::{GammaMix, MIX_REL_ERROR};
use super::gamma_parts;
use super::point::Point;
use super::poisson_max::{mean_max, staircase};
use super::row::{validate_seconds, Risk, RowFigures};
use super::special::ln_1m_exp;
use super::trapezoid::{Accuracy, Peak};
use crate::error::ParamResult;
use crate::model::law::{Split, TrafficModel};
use crate::model::validate;

/// A quantile search reads a block first to this relative error (the
/// trapezoidal rule's first sums, about half the nodes of full accuracy).
const COARSE: f64 = 1e-3;

/// `ln(ln 2)`: a quantile whose threshold on `-ln P(max <= c)` is below
/// `ln 2` (the CDF above 1/2) compares the upper tail.
const LN_LN_2: f64 = -0.366_512_920_581_664_3;

/// A row's quantiles, kept to start the next row's searches from: the
/// 99.9% of a second, then the run's median, 1% and 99%; and the peaks of
/// the blocks' integrands it fitted or was given, for the next row's
/// first reads.
#[derive(Debug, Clone)]
pub(super) struct Answers {
    shards: u64,
    quantiles: [u64; 4],
    peaks: Vec<KnownPeak>,
}

/// The [`Risk`] row of `point` (gamma-poisson traffic) at `cap` over
/// `seconds`, its quantiles searched from `before`'s (a neighbouring
/// row's), scaled to this row's shards, or else from the mean. Refuses, as
/// the table does, a spread over `MAX_MIXED_ROWS` counts (naming
/// `dispersion`), then a bad `cap` or `seconds`.
pub(super) fn risk(
    point: Point,
    cap: f64,
    seconds: f64,
    before: Option<Answers>,
) -> ParamResult<(Risk, Answers)> {
    let Split::GammaRate { mean, shape } = point.model.split(point.rate) else {
        unreachable!("a gamma row is for a Poisson count at a Gamma rate");
    };
    point.check_mixed_spread()?;
    let cap = validate::non_negative("cap", cap)?;
    let seconds = validate_seconds(seconds)?;
    let c = cap.floor().min(u64::MAX as f64) as u64;
    let mut row = GammaRow::new(mean, shape, point.shards);
    if let Some(b) = &before {
        row.peaks = RefCell::new(b.peaks.clone());
    }
    let mean = row.mean();
    let asked = [
        (1.0, 0.999),
        (seconds, 0.5),
        (seconds, 0.01),
        (seconds, 0.99),
    ];
    let guesses = match &before {
        Some(b) => b
            .quantiles
            .map(|q| (q as f64 * b.shards as f64 / point.shards as f64).round() as u64),
        None => [mean.round() as u64; 4],
    };
    // In the order of their cuts, each from the one before when there is
    // no neighbouring row (its blocks are kept: the search starts there).
    let mut order = [0, 1, 2, 3];
    order.sort_by(|&a, &b| threshold(asked[b]).total_cmp(&threshold(asked[a])));
    let mut quantiles = [0; 4];
    let mut last = None;
    for i in order {
        let guess = match (&before, last) {
            (None, Some(c)) => c,
            _ => guesses[i],
        };
        quantiles[i] = row.run_quantile(asked[i].0, asked[i].1, guess);
        last = Some(quantiles[i]);
    }
    let figures = RowFigures {
        ln_p: over_cap(&point, c),
        rel_error: MIX_REL_ERROR,
        mean,
        p999: quantiles[0],
        run: [quantiles[1], quantiles[2], quantiles[3]],
    };
    let answers = Answers {
        shards: point.shards,
        quantiles,
        peaks: row.peaks.into_inner(),
    };
    Ok((Risk::from_figures(point, cap, seconds, figures), answers))
}

/// `ln(-ln q) - ln T`: the quantile's threshold on `ln(-ln P(max <= c))`
/// (larger for a lower cut).
fn threshold((seconds, q): (f64, f64)) -> f64 {
    (-q.ln()).ln() - seconds.ln()
}

/// `ln P(max > c)` as the table gave it: the tail's own integral, but
/// below the table (`P(max <= c) < 1e-30`) `ln(1 - P(max <= c))`.
fn over_cap(point: &Point, c: u64) -> f64 {
    let ln_sf = point.mixed_sf(c);
    if ln_sf < -1e-9 {
        return ln_sf;
    }
    let ln_cdf = point.mixed_cdf(c);
    if ln_cdf < super::point::LN_TABLE_LO {
        ln_1m_exp(ln_cdf)
    } else {
        ln_sf
    }
}

/// Rows a sweep computes in turn, each searching from the one before (a
/// fixed number, so the chunks and every figure are the same on any
/// number of cores).
const SWEEP_CHUNK: usize = 8;

/// One [`Risk`] row per shard count (gamma-poisson traffic): chunks of
/// neighbouring counts in parallel, each row's quantile searches starting
/// from the row before's answers. `done` is called once per finished row.
pub(super) fn sweep(
    rate: f64,
    shard_counts: &[u64],
    (cap, seconds): (f64, f64),
    model: TrafficModel,
    done: &(dyn Fn() + Sync),
) -> ParamResult<Vec<Risk>> {
    let chunks: Vec<ParamResult<Vec<Risk>>> = shard_counts
        .par_chunks(SWEEP_CHUNK)
        .map(|chunk| {
            let mut before = None;
            let mut rows = Vec::with_capacity(chunk.len());
            for &shards in chunk {
                let point = Point::new(rate, shards, model)?;
                let (row, answers) = risk(point, cap, seconds, before)?;
                before = Some(answers);
                rows.push(row);
                done();
            }
            Ok(rows)
        })
        .collect();
    let mut rows = Vec::with_capacity(shard_counts.len());
    for chunk in chunks {
        rows.extend(chunk?);
    }
    Ok(rows)
}

/// One row's law: the second's Gamma rate over `shards` shards, with the
/// blocks integrated so far and the peaks fitted so far (its own and the
/// rows' before it in a sweep).
pub(super) struct GammaRow {
    shards: u64,
    mix: GammaMix,
    blocks: RefCell<HashMap<(u64, Side), Block>>,
    peaks: RefCell<Vec<KnownPeak>>,
}

/// A fitted peak of a block's integrand by parts (`gamma_parts.rs`): the
/// block's lead cut, the row's shards, the side.
#[derive(Debug, Clone, Copy)]
pub(super) struct KnownPeak {
    lead: u64,
    shards: u64,
    side: Side,
    peak: Peak,
}

/// A known peak is carried to another block or row only this far in `d`
/// (the shift itself; what it misses is a small part of it, a fraction of
/// the radius).
const MAX_PEAK_SHIFT: f64 = 0.25;

impl KnownPeak {
    /// How far this peak moves for the cut `lead` over `shards` shards:
    /// the bump of `w_c` sits where the shard rate `Lambda / S` makes `c`
    /// the busiest count, about in proportion to `c`, so `d = ln(Lambda /
    /// rate)` moves by `ln(c' / c) + ln(S' / S)` (within a tenth of that
    /// on the sweep's rows).
    fn shift(&self, lead: u64, shards: u64) -> f64 {
        let ratio = (lead as f64 + 0.5) / (self.lead as f64 + 0.5);
        ratio.ln() + (shards as f64 / self.shards as f64).ln()
    }
}

impl GammaRow {
    /// `rate` likes/s at Gamma shape `shape` over `shards` shards (checked
    /// by the caller).
    pub(super) fn new(rate: f64, shape: f64, shards: u64) -> Self {
        GammaRow {
            shards,
            mix: GammaMix::new(rate, shape),
            blocks: RefCell::new(HashMap::new()),
            peaks: RefCell::new(Vec::new()),
        }
    }

    /// The mean busiest shard: `E[m_S(Lambda / S)]`, one integral.
    pub(super) fn mean(&self) -> f64 {
        let (s, shards) = (self.shards as f64, self.shards);
        let ripple = staircase(self.mix.rate() / s, shards);
        self.mix
            .ln_expect_smooth(|l| mean_max(l / s, shards), ripple)
            .exp()
    }

    /// The smallest `c` with `P(max <= c)^seconds >= q`, for `q` in (0, 1)
    /// and `seconds >= 1`, searched from `guess`.
    ///
    /// The search reads each block at first to `COARSE` (a few dozen nodes,
    /// with the bound the trapezoidal rule carries), each cut's `x` an
    /// interval: a cut meets for sure where the interval's top is at or
    /// below the threshold, fails for sure where its bottom is above. The
    /// answer is a sure meet whose cut below fails for sure; where that cut
    /// is in doubt, its block is read again to full accuracy (as a point
    /// value, as before). So the answer is the one full accuracy gives.
    pub(super) fn run_quantile(&self, seconds: f64, q: f64, guess: u64) -> u64 {
        // c meets the quantile when x(c) = ln(-ln P(max <= c)) <= x_star;
        // x falls as c grows.
        let x_star = (-q.ln()).ln() - seconds.ln();
        let side = if x_star < LN_LN_2 {
            Side::Sf
        } else {
            Side::Cdf
        };
        let mut seen: BTreeMap<u64, (f64, f64)> = BTreeMap::new();
        let read = |k: u64, full: bool, seen: &mut BTreeMap<u64, (f64, f64)>| {
            for (i, x) in self.block_x(k, side, full).into_iter().enumerate() {
                seen.insert(k * BLOCK + i as u64, x);
            }
        };
        let mut k = guess / BLOCK;
        let mut last_step = BLOCK;
        let mid = |(lo, hi): (f64, f64)| 0.5 * (lo + hi);
        loop {
            read(k, false, &mut seen);
            let meet = seen.iter().find(|(_, x)| x.1 <= x_star).map(|(&c, _)| c);
            let fail = seen
                .range(..meet.unwrap_or(u64::MAX))
                .next_back()
                .map(|(&c, &x)| (c, x));
            let next = match (fail, meet) {
                (_, Some(0)) => return 0,
                (Some((f, x)), Some(m)) if m == f + 1 => {
                    if x.0 > x_star {
                        return m;
                    }
                    // In doubt: read the cut below to full accuracy.
                    read(f / BLOCK, true, &mut seen);
                    continue;
                }
                // Bracketed: the secant between the two, else halfway.
                (Some((f, xf)), Some(m)) => secant((f, mid(xf)), (m, mid(seen[&m])), x_star)
                    .unwrap_or(f + (m - f) / 2)
                    .clamp(f + 1, m - 1),
                (Some(_), None) => {
                    last_step = step(&seen, x_star, true, last_step);
                    seen.keys().next_back().expect("a block was seen") + last_step
                }
                (None, Some(m)) => {
                    last_step = step(&seen, x_star, false, last_step);
                    m.saturating_sub(last_step)
                }
                (None, None) => unreachable!("a block has eight cuts"),
            };
            k = next / BLOCK;
        }
    }

    /// `x(c) = ln(-ln P(max <= c))` for the cuts of block `k`, as the
    /// interval the block's error bound leaves (a point at full accuracy),
    /// from the side integrated (the upper tail's `-ln(1 - P(max > c))`
    /// keeps its digits when tiny).
    fn block_x(&self, k: u64, side: Side, full: bool) -> Vec<(f64, f64)> {
        let (values, bound) = self.block(k, side, full);
        // |ln(1 +- e)| < 2e for e <= COARSE, and twice that for safety.
        let spread = 4.0 * bound;
        let x = |v: f64| match side {
            Side::Cdf => (-v).ln(),
            Side::Sf => (-ln_1m_exp(v)).ln(),
        };
        values
            .iter()
            .map(|&v| {
                let (a, b) = (x(v - spread), x((v + spread).min(0.0)));
                (a.min(b), a.max(b))
            })
            .collect()
    }

    /// `ln P(max <= c)` or `ln P(max > c)` for the cuts `8k..8k + 7`, one
    /// integral for the block, to full accuracy or to `COARSE`, with its
    /// relative error bound (0 at full accuracy); kept for the row's other
    /// searches.
    fn block(&self, k: u64, side: Side, full: bool) -> (Vec<f64>, f64) {
        if let Some(v) = self.blocks.borrow().get(&(k, side)) {
            if !full || v.1 == 0.0 {
                return v.clone();
            }
        }
        let accuracy = if full {
            Accuracy::Full
        } else {
            Accuracy::Bounded(COARSE)
        };
        let values = self
            .by_parts(k, side, accuracy)
            .unwrap_or_else(|| (first_form_tails(&self.mix, self.shards, k, side), 0.0));
        self.blocks.borrow_mut().insert((k, side), values.clone());
        values
    }

    /// Block `k` by parts (`gamma_parts.rs`), or `None` where the rule
    /// cannot vouch for it (the caller then integrates the first form). A
    /// first read (`COARSE`) starts from the nearest known peak moved to
    /// this block ([`KnownPeak::shift`]), saving the dozen values a fit
    /// costs: its sums check themselves from any start, and its bound is
    /// honest, so the search's answer is the same; where that read fails,
    /// it is tried once more on a fitted peak. A full read, which settles a
    /// cut in doubt, fits its peak, as does a first read with no known peak
    /// near; those fitted peaks are kept.
    fn by_parts(&self, k: u64, side: Side, accuracy: Accuracy) -> Option<Block> {
        let (lead, upper) = (k * BLOCK + BLOCK / 2, side == Side::Sf);
        let cuts = (k * BLOCK, BLOCK as usize);
        let read = |peak: Peak| {
            gamma_parts::ln_tails_at(&self.mix, self.shards, cuts, upper, (peak, accuracy))
        };
        let near = match accuracy {
            Accuracy::Full => None,
            _ => self.nearest_peak(lead, side),
        };
        let (values, bound) = match near.and_then(read) {
            Some(read) => read,
            None => {
                let peak = gamma_parts::tails_peak(&self.mix, self.shards, lead, upper)?;
                if near.is_none() {
                    self.peaks.borrow_mut().push(KnownPeak {
                        lead,
                        shards: self.shards,
                        side,
                        peak,
                    });
                }
                read(peak)?
            }
        };
        Some((values.into_iter().map(|v| v.min(0.0)).collect(), bound))
    }

    /// The known peak on `side` that moves least to the cut `lead`, moved
    /// there; `None` if none is within `MAX_PEAK_SHIFT`.
    fn nearest_peak(&self, lead: u64, side: Side) -> Option<Peak> {
        let peaks = self.peaks.borrow();
        let (known, shift) = peaks
            .iter()
            .filter(|known| known.side == side)
            .map(|known| (known, known.shift(lead, self.shards)))
            .min_by(|a, b| a.1.abs().total_cmp(&b.1.abs()))?;
        (shift.abs() <= MAX_PEAK_SHIFT).then_some(Peak {
            at: known.peak.at + shift,
            radius: known.peak.radius,
        })
    }
}

/// How far past the cuts seen to look next (`up`: above the highest,
/// else below the lowest): the secant of the outermost block's ends, at
/// least a block and at most four times the last step (twice it where the
/// secant says nothing).
fn step(seen: &BTreeMap<u64, (f64, f64)>, x_star: f64, up: bool, last: u64) -> u64 {
    let take = |it: &mut dyn Iterator<Item = (&u64, &(f64, f64))>| -> Vec<(u64, f64)> {
        it.take(BLOCK as usize)
            .map(|(&c, &(lo, hi))| (c, 0.5 * (lo + hi)))
            .collect()
    };
    let ends = if up {
        take(&mut seen.iter().rev())
    } else {
        take(&mut seen.iter())
    };
    let (near, far) = (ends[0], ends[ends.len() - 1]);
    let wanted = match secant(far, near, x_star) {
        Some(c) if up => c.saturating_sub(near.0),
        Some(c) => near.0.saturating_sub(c),
        None => 2 * last,
    };
    wanted.clamp(BLOCK, (4 * last).max(4 * BLOCK))
}

/// Where the line through `a` and `b` (cuts and their `x`) reaches
/// `x_star`, as a cut; `None` when the line does not fall (or an end is
/// infinite: a probability of exactly 0 or 1).
fn secant(a: (u64, f64), b: (u64, f64), x_star: f64) -> Option<u64> {
    let slope = (b.1 - a.1) / (b.0 as f64 - a.0 as f64);
    if !(slope < 0.0 && slope.is_finite() && b.1.is_finite()) {
        return None;
    }
    let c = b.0 as f64 + (x_star - b.1) / slope;
    Some(if c <= 0.0 {
        0
    } else {
        c.min(u64::MAX as f64 / 2.0).round() as u64
    })
}

#[cfg(test)]
#[path = "gamma_row_tests.rs"]
mod tests;
