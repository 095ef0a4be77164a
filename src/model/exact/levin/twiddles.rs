//! Twiddle factors for the grid sums of Levin's representation, built once
//! and shared.
//!
//! `P(W = L)` is read off a circular grid of `M` points (see the parent
//! module): every frequency `j` walks the factors `e^{-2 pi i r / M}`,
//! `r = 0..M`. Building them costs one `sin_cos` per point, which for a
//! single `P(W = L)` is more than the sum itself; a table of many `c`
//! (the quietest shard's, a sweep, range blocks) should build each grid
//! once. Two pieces:
//!
//! - [`Twiddles`]: the factors for one `M`, and the weighted walks over
//!   them that give `sum_k w_k e^{-2 pi i j k / M}` for one frequency.
//! - [`TwiddleCache`]: grids by size, with sizes rounded up by
//!   [`TwiddleCache::grid_size`] to one of eight per octave, so the nearby
//!   `M`s of neighbouring `c` share one grid. Rounding `M` up never loses
//!   accuracy: the grid sum is exact once `M` exceeds `W`'s support and
//!   otherwise aliases only mass more than `M/2` from the centre, which a
//!   larger `M` makes smaller still. It costs at most 1/8 more terms per
//!   frequency.
//!
//! Any code that sums `psi_j^S` on a grid (e.g. `range.rs`'s blocks) can
//! take its factors from a `TwiddleCache` the same way.

use std::f64::consts::TAU;

/// `e^{-2 pi i r / M}` for `r = 0..M`, as (cos, sin) pairs.
#[derive(Debug, Clone)]
pub struct Twiddles {
    factors: Vec<(f64, f64)>,
}

impl Twiddles {
    /// The grid of `m >= 1` points. Each angle is computed from its own `r`
    /// (no recurrence), so every factor is correct to one rounding.
    pub fn new(m: u64) -> Self {
        assert!(m >= 1, "a grid has at least one point");
        let mf = m as f64;
        Twiddles {
            factors: (0..m)
                .map(|r| {
                    let a = -TAU * r as f64 / mf;
                    (a.cos(), a.sin())
                })
                .collect(),
        }
    }

    /// `e^{-2 pi i r / M}` for `r < M`.
    pub fn factor(&self, r: u64) -> (f64, f64) {
        self.factors[r as usize]
    }

    /// `M`, the number of grid points.
    pub fn grid(&self) -> u64 {
        self.factors.len() as u64
    }

    /// `sum_k w_k f[(start + k step) mod M]` as (re, im), in order: one
    /// chain of additions, so each sum waits for the last.
    pub fn weighted_sum_in_order(&self, w: &[f64], start: u64, step: u64) -> (f64, f64) {
        walk(self.grid(), w, start, step, |r| self.factors[r as usize])
    }

    /// The same sum in four interleaved partial sums (terms `k = 4q + l`
    /// go to lane `l`), joined pairwise at the end: four independent
    /// chains keep the floating-point units busy, and the result differs
    /// from the in-order sum only by rounding (each partial sum has a
    /// quarter of the terms, so its error bound is smaller, not larger).
    pub fn weighted_sum(&self, w: &[f64], start: u64, step: u64) -> (f64, f64) {
        let m = self.grid();
        let step = step % m;
        let step4 = (4 * step) % m;
        let mut idx = [0u64; 4];
        idx[0] = start % m;
        for l in 1..4 {
            idx[l] = (idx[l - 1] + step) % m;
        }
        let (mut re, mut im) = ([0.0f64; 4], [0.0f64; 4]);
        let mut quads = w.chunks_exact(4);
        for quad in &mut quads {
            for l in 0..4 {
                let (c, s) = self.factors[idx[l] as usize];
                re[l] += quad[l] * c;
                im[l] += quad[l] * s;
                idx[l] += step4;
                if idx[l] >= m {
                    idx[l] -= m;
                }
            }
        }
        // The last (fewer than four) terms: term 4q + l is at lane l's index.
        for (l, &p) in quads.remainder().iter().enumerate() {
            let (c, s) = self.factors[idx[l] as usize];
            re[l] += p * c;
            im[l] += p * s;
        }
        (
            (re[0] + re[1]) + (re[2] + re[3]),
            (im[0] + im[1]) + (im[2] + im[3]),
        )
    }
}

/// `e^{-2 pi i r / M}` for any `r < M` from two small tables, `r = h 2^b +
/// l`: `e^{-2 pi i h 2^b / M} e^{-2 pi i l / M}`, each factor correct to
/// one rounding, so the product is good to about two ulps. About `2
/// sqrt(M)` `sin_cos` to build and 32 sqrt(M) bytes (36 KB for a grid of a
/// million points, which fits in cache), where a full table costs `M`
/// `sin_cos` and 16 M bytes (16 MB) and its strided walks miss the cache
/// at every step: Levin's blocks at a billion likes a second.
#[derive(Debug, Clone)]
pub struct SplitTwiddles {
    m: u64,
    bits: u32,
    coarse: Vec<(f64, f64)>,
    fine: Vec<(f64, f64)>,
}

impl SplitTwiddles {
    /// The grid of `m >= 1` points.
    pub fn new(m: u64) -> Self {
        assert!(m >= 1, "a grid has at least one point");
        let bits = (64 - m.leading_zeros()).div_ceil(2);
        let mf = m as f64;
        // Each angle reduced to (-pi, pi] first: its rounding (half an
        // ulp of the angle) is then at most ~4e-16.
        let unit = |r: u64| {
            let near = if 2 * r > m { r as f64 - mf } else { r as f64 };
            let a = -TAU * near / mf;
            (a.cos(), a.sin())
        };
        SplitTwiddles {
            m,
            bits,
            coarse: (0..m.div_ceil(1 << bits))
                .map(|h| unit(h << bits))
                .collect(),
            fine: (0..(1u64 << bits).min(m)).map(unit).collect(),
        }
    }

    /// `M`, the number of grid points.
    pub fn grid(&self) -> u64 {
        self.m
    }

    /// `e^{-2 pi i r / M}` for `r < M`.
    #[inline]
    pub fn factor(&self, r: u64) -> (f64, f64) {
        let (a, b) = self.coarse[(r >> self.bits) as usize];
        let (c, d) = self.fine[(r & ((1 << self.bits) - 1)) as usize];
        (a * c - b * d, a * d + b * c)
    }

    /// `sum_k w_k e^{-2 pi i (start + k step) / M}` as (re, im), in order.
    pub fn weighted_sum(&self, w: &[f64], start: u64, step: u64) -> (f64, f64) {
        walk(self.m, w, start, step, |r| self.factor(r))
    }
}

/// A grid's factors for Levin's blocks: the full table where earlier
/// builds' values must stay to their last bits (past 256 shards, whose
/// `psi^S` amplifies a factor's rounding S-fold, up to [`FULL_TABLE_MAX`]
/// points), else the split tables.
#[derive(Debug, Clone)]
pub enum GridFactors {
    /// Every factor, each from its own angle.
    Full(std::sync::Arc<Twiddles>),
    /// Two small tables.
    Split(SplitTwiddles),
}

/// The largest grid kept as a full table (4 MB).
pub const FULL_TABLE_MAX: u64 = 1 << 18;

impl GridFactors {
    /// The factors of a grid of `m` points for `shards` shards.
    pub fn new(m: u64, shards: u64) -> Self {
        if shards > 256 && m <= FULL_TABLE_MAX {
            GridFactors::Full(shared_full_table(m))
        } else {
            GridFactors::Split(SplitTwiddles::new(m))
        }
    }

    /// `M`, the number of grid points.
    pub fn grid(&self) -> u64 {
        match self {
            GridFactors::Full(t) => t.grid(),
            GridFactors::Split(t) => t.grid(),
        }
    }

    /// `e^{-2 pi i r / M}` for `r < M`.
    pub fn factor(&self, r: u64) -> (f64, f64) {
        match self {
            GridFactors::Full(t) => t.factor(r),
            GridFactors::Split(t) => t.factor(r),
        }
    }

    /// `sum_k w_k e^{-2 pi i (start + k step) / M}` as (re, im), in order.
    pub fn weighted_sum(&self, w: &[f64], start: u64, step: u64) -> (f64, f64) {
        match self {
            GridFactors::Full(t) => t.weighted_sum_in_order(w, start, step),
            GridFactors::Split(t) => t.weighted_sum(w, start, step),
        }
    }
}

/// Full tables kept for reuse, the most recent last: the blocks of a
/// table, and the rows of a sweep, whose grids (rounded by
/// [`TwiddleCache::grid_size`]) mostly share a size. At most
/// `SHARED_TABLES` of at most 4 MB each.
static SHARED: std::sync::Mutex<Vec<std::sync::Arc<Twiddles>>> = std::sync::Mutex::new(Vec::new());
const SHARED_TABLES: usize = 8;

/// The full table of `m` points, from the shared ones or built (and kept).
pub(super) fn shared_full_table(m: u64) -> std::sync::Arc<Twiddles> {
    let mut shared = SHARED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(i) = shared.iter().position(|t| t.grid() == m) {
        let t = shared.remove(i);
        shared.push(t.clone());
        return t;
    }
    // Built under the lock: another block wanting the same grid waits for
    // it rather than building its own.
    let t = std::sync::Arc::new(Twiddles::new(m));
    if shared.len() == SHARED_TABLES {
        shared.remove(0);
    }
    shared.push(t.clone());
    t
}

/// `sum_k w_k factor((start + k step) mod m)` as (re, im), in order: one
/// chain of additions (the same bits whichever table gives the factors).
#[inline]
fn walk(
    m: u64,
    w: &[f64],
    start: u64,
    step: u64,
    factor: impl Fn(u64) -> (f64, f64),
) -> (f64, f64) {
    let (mut idx, step) = (start % m, step % m);
    let (mut re, mut im) = (0.0, 0.0);
    for &p in w {
        let (c, s) = factor(idx);
        re += p * c;
        im += p * s;
        idx += step;
        if idx >= m {
            idx -= m;
        }
    }
    (re, im)
}

/// Grids by size, built on first use. Hold one across a table (or a
/// sweep) and ask it for every `c`'s grid.
#[derive(Debug, Clone, Default)]
pub struct TwiddleCache {
    grids: Vec<Twiddles>,
}

impl TwiddleCache {
    /// An empty cache.
    pub fn new() -> Self {
        Self::default()
    }

    /// The grid size this cache uses for a sum that needs at least `m`
    /// points: `m` rounded up to 4 significant bits (8 sizes per octave),
    /// so at most 12.5% larger. Small grids are kept exact.
    pub fn grid_size(m: u64) -> u64 {
        if m <= 16 {
            return m.max(1);
        }
        let shift = 64 - m.leading_zeros() - 4;
        m.div_ceil(1 << shift) << shift
    }

    /// The grid for a sum that needs at least `m` points (of size
    /// [`TwiddleCache::grid_size`]`(m)`).
    pub fn for_at_least(&mut self, m: u64) -> &Twiddles {
        let size = Self::grid_size(m);
        let at = match self.grids.iter().position(|t| t.grid() == size) {
            Some(at) => at,
            None => {
                self.grids.push(Twiddles::new(size));
                self.grids.len() - 1
            }
        };
        &self.grids[at]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_round_up_by_at_most_an_eighth() {
        for m in 1..5000u64 {
            let g = TwiddleCache::grid_size(m);
            assert!(g >= m && (g - m) * 8 <= m, "{m} -> {g}");
            assert_eq!(TwiddleCache::grid_size(g), g, "{g} is a size");
        }
    }

    #[test]
    fn interleaved_sum_is_the_in_order_sum() {
        let t = Twiddles::new(97);
        for len in [0usize, 1, 3, 4, 5, 8, 130] {
            let w: Vec<f64> = (0..len).map(|k| 1.0 / (1.0 + k as f64)).collect();
            for (start, step) in [(0u64, 1u64), (5, 13), (96, 96), (40, 200)] {
                let (a, b) = t.weighted_sum(&w, start, step);
                let (c, d) = t.weighted_sum_in_order(&w, start, step);
                assert!(
                    (a - c).abs() < 1e-13 && (b - d).abs() < 1e-13,
                    "{len} {start} {step}"
                );
            }
        }
    }

    #[test]
    fn split_factors_are_the_table_factors() {
        for m in [1u64, 2, 7, 97, 1024, 1_000_003] {
            let split = SplitTwiddles::new(m);
            for r in (0..m).step_by((m / 997).max(1) as usize) {
                let (a, b) = split.factor(r);
                // The reference from the angle nearest zero (its rounding
                // is smallest there).
                let near = if 2 * r > m {
                    r as f64 - m as f64
                } else {
                    r as f64
                };
                let x = -TAU * near / m as f64;
                let (c, d) = (x.cos(), x.sin());
                assert!(
                    (a - c).abs() < 1e-15 && (b - d).abs() < 1e-15,
                    "{m} {r}: {a} {b} vs {c} {d}"
                );
            }
        }
        let w: Vec<f64> = (0..50).map(|k| 1.0 / (1.0 + k as f64)).collect();
        let (a, b) = SplitTwiddles::new(97).weighted_sum(&w, 5, 13);
        let (c, d) = Twiddles::new(97).weighted_sum_in_order(&w, 5, 13);
        assert!((a - c).abs() < 1e-14 && (b - d).abs() < 1e-14);
    }

    #[test]
    fn factors_are_the_roots_of_unity() {
        let t = Twiddles::new(12);
        assert_eq!(t.grid(), 12);
        let (c, s) = t.weighted_sum_in_order(&[1.0], 3, 0); // e^{-i pi / 2}
        assert!(c.abs() < 1e-15 && (s + 1.0).abs() < 1e-15);
        let mut cache = TwiddleCache::new();
        let a = cache.for_at_least(1000).grid();
        let b = cache.for_at_least(1010).grid();
        assert_eq!((a, b, cache.grids.len()), (1024, 1024, 1));
    }
}
