//! The quietest shard in one second: `P(min >= c)`, exact, for the same two
//! traffic models as the busiest shard.
//!
//! - Poisson count: shards are independent Poisson(L/S), so
//!   `P(min >= c) = P(X >= c)^S`.
//! - Fixed count: Levin's (1981) representation holds for any box
//!   `N_i in A_i`, not only `[0, c]`; with `A = [c, inf)`,
//!   `P(min >= c) = L! / (s^L e^-s) x P(X >= c)^S x P(W = L)` where `W` sums
//!   `S` copies of `X ~ Poisson(s / S)` conditioned on `X >= c`. The tilt
//!   `s` is chosen so that `E[W] = L`, and `P(W = L)` comes from the same
//!   frequency sum as the busiest shard's (`levin::prob_sum_is`).
//!
//! The table spans the values the quietest shard takes with probability
//! above 1e-30 per second; below its start `P(min < c) <= S P(N_1 < c) <
//! 1e-17` (the union bound, which is also used for the lower tail itself
//! where it is below 1e-8, so tiny tails keep their digits).

use std::cell::RefCell;
use std::collections::HashMap;

use super::gamma_mix::GammaMix;
use super::levin::twiddles::TwiddleCache;
use super::levin::{prob_sum_is_cached, truncated_between, Truncated};
use super::special::{ln_1m_exp, ln_binom_sf, ln_dpois, ln_pois_sf};
use crate::error::ParamResult;
use crate::model::law::{Split, TrafficModel};

/// `ln` of the smallest probability kept in the table.
const LN_TABLE_HI: f64 = -69.0; // about 1e-30
/// `ln` of the tail below which `P(min < c)` is 0 to double precision.
const LN_TABLE_LO: f64 = -39.1; // about 1e-17
/// Below this the union bound is the lower tail to 1e-8 relative.
const LN_UNION_EXACT: f64 = -18.4; // about 1e-8

/// Per-second distribution of the quietest shard's writes.
#[derive(Debug, Clone)]
pub struct QuietestShard {
    /// First `c` in the table.
    lo: u64,
    /// `ln P(min <= c)` for `c = lo, lo + 1, ...`.
    ln_cdf: Vec<f64>,
    /// `ln P(min > c)`.
    ln_sf: Vec<f64>,
}

/// Poisson(lambda) conditioned on `X >= c`, on its significant support.
fn truncated_below(lambda: f64, c: u64) -> Truncated {
    truncated_between(lambda, c, None)
}

/// The Poisson mean that makes `E[X | X >= c] = L / S` (needs `c < L/S`):
/// Newton on `ln lambda` (`dE/d ln lambda = Var`), kept inside a bracket.
fn tilt_below(likes: u64, shards: u64, c: u64) -> f64 {
    let mu = likes as f64 / shards as f64;
    let (mut lo, mut hi) = (f64::NEG_INFINITY, f64::NAN);
    let mut x = mu.ln();
    for _ in 0..200 {
        let t = truncated_below(x.exp(), c);
        if (t.mean - mu).abs() * (shards as f64).sqrt() <= 0.05 * t.var.sqrt().max(1e-300) {
            break;
        }
        if t.mean < mu {
            lo = x;
        } else {
            hi = x;
        }
        let mut next = x + (mu - t.mean) / t.var.max(1e-12);
        let outside = next.is_nan() || next <= lo || (hi.is_finite() && next >= hi);
        if outside {
            next = match (lo.is_finite(), hi.is_finite()) {
                (true, true) => 0.5 * (lo + hi),
                (true, false) => lo + 1.0,
                _ => hi - 1.0,
            };
        }
        x = next;
    }
    x.exp()
}

/// `ln P(min >= c)` for exactly `likes` likes over `shards` shards. The
/// grid sums take their twiddles from `cache`: a table's neighbouring `c`
/// need nearly the same grid, so it is built a few times, not once per `c`.
fn ln_min_at_least_fixed(likes: u64, shards: u64, c: u64, cache: &mut TwiddleCache) -> f64 {
    if c == 0 {
        return 0.0;
    }
    let sc = shards as u128 * c as u128;
    if sc > likes as u128 {
        return f64::NEG_INFINITY;
    }
    if shards == 1 {
        return 0.0; // the one shard holds every like, and c <= likes
    }
    if sc == likes as u128 {
        // Every shard holds exactly c: the same event as max <= c.
        return super::levin::ln_cdf_fixed(likes, shards, c);
    }
    let lambda = tilt_below(likes, shards, c);
    let y = truncated_below(lambda, c);
    let p_w = prob_sum_is_cached(likes, shards, &y, cache);
    shards as f64 * ln_pois_sf(c - 1, lambda) + p_w.ln() - ln_dpois(likes, shards as f64 * lambda)
}

/// Gamma-poisson traffic's blocks of cuts by their index: one shard's
/// `ln P(N_1 <= c)` and `ln P(min > c)` for each cut of the block.
type GammaBlocks = HashMap<u64, (Vec<f64>, Vec<f64>)>;

/// One second's tails for the table: one shard's lower tail and the
/// quietest shard's, under one traffic model (not empirical).
struct Tails {
    rate: f64,
    shards: u64,
    model: TrafficModel,
    /// `shards` as a float.
    s: f64,
    /// Likes a second (fixed traffic; 0 otherwise).
    likes: u64,
    /// Likes a second per shard.
    mean: f64,
    /// The grid sums' twiddles (fixed traffic).
    cache: TwiddleCache,
    /// Gamma-poisson traffic's blocks of eight cuts integrated so far.
    blocks: RefCell<GammaBlocks>,
}

impl Tails {
    fn new(rate: f64, shards: u64, model: TrafficModel) -> Self {
        let s = shards as f64;
        let (likes, mean) = match model.split(rate) {
            Split::Count(_) => (rate as u64, rate / s),
            _ => (0, rate / s),
        };
        Tails {
            rate,
            shards,
            model,
            s,
            likes,
            mean,
            cache: TwiddleCache::new(),
            blocks: RefCell::new(HashMap::new()),
        }
    }

    /// ln P(N_1 < c): one shard's lower tail.
    fn ln_one_below(&self, c: u64) -> f64 {
        let (rate, shards, s, likes, mean) =
            (self.rate, self.shards, self.s, self.likes, self.mean);
        if c == 0 {
            return f64::NEG_INFINITY;
        }
        match self.model.split(rate) {
            // P(N < c) = P(N' > L - c) with N' ~ Binomial(L, 1 - 1/S).
            Split::Count(_) if shards == 1 => {
                if c > likes {
                    0.0
                } else {
                    f64::NEG_INFINITY
                }
            }
            Split::Count(_) => {
                let p = 1.0 / s;
                if c > likes {
                    0.0
                } else {
                    ln_binom_sf(likes - c, likes, 1.0 - p, p)
                }
            }
            Split::Poisson(_) => ln_1m_exp(ln_pois_sf(c - 1, mean)),
            // Gamma-poisson: the Poisson formula integrated over the
            // second's rate (`gamma_mix`), eight cuts an integral.
            Split::GammaRate { shape, .. } => self.gamma_block(shape, c - 1).0,
            Split::Counts(_) => unreachable!("refused by for_minimum_over"),
        }
    }

    /// `ln P(min >= c)`.
    fn ln_at_least(&mut self, c: u64) -> f64 {
        let (rate, shards, s, likes, mean) =
            (self.rate, self.shards, self.s, self.likes, self.mean);
        match self.model.split(rate) {
            Split::Count(_) => ln_min_at_least_fixed(likes, shards, c, &mut self.cache),
            Split::Poisson(_) | Split::GammaRate { .. } if c == 0 => 0.0,
            Split::Poisson(_) => s * ln_pois_sf(c - 1, mean),
            Split::GammaRate { shape, .. } => self.gamma_block(shape, c - 1).1,
            Split::Counts(_) => unreachable!("refused by for_minimum_over"),
        }
    }

    /// Gamma-poisson traffic at cut `c`: `(ln P(N_1 <= c), ln P(min >
    /// c))`, from the block of eight cuts holding it (integrated once,
    /// `gamma_blocks::quietest_block`).
    fn gamma_block(&self, shape: f64, c: u64) -> (f64, f64) {
        use super::gamma_blocks::BLOCK;
        let (k, i) = (c / BLOCK, (c % BLOCK) as usize);
        let mut blocks = self.blocks.borrow_mut();
        let (one, all) = blocks.entry(k).or_insert_with(|| {
            super::gamma_blocks::quietest_block(&GammaMix::new(self.rate, shape), self.shards, k)
        });
        (one[i], all[i])
    }

    /// The table's first `c`.
    fn table_lo(&self) -> u64 {
        let ln_s = self.s.ln();
        // Start: the largest c whose lower tail is still below 1e-17.
        let top = match self.model.split(self.rate) {
            Split::Count(_) => self.likes / self.shards,
            _ => self.mean.ceil() as u64,
        };
        // The tail grows with c: gallop down from the top to a cut below
        // the bound, then halve the gap (a few dozen tails, not one a cut:
        // under gamma-poisson traffic each is an integral).
        let above = |c: u64| c > 0 && ln_s + self.ln_one_below(c) >= LN_TABLE_LO;
        if !above(top) {
            return top;
        }
        // `high` is above the bound; `low` is 0 or below it.
        let (mut high, mut step) = (top, 1);
        let low = loop {
            let c = high.saturating_sub(step);
            if !above(c) {
                break c;
            }
            (high, step) = (c, 2 * step);
        };
        super::point::bisect_last(low, high, |c| !above(c))
    }
}

impl QuietestShard {
    /// `rate` likes/s over `shards` shards (checked like the busiest shard).
    pub fn new(rate: f64, shards: u64, model: TrafficModel) -> ParamResult<Self> {
        Self::for_minimum_over(rate, shards, model, 1)
    }

    /// The per-second table as far as the minimum over `seconds`
    /// independent seconds needs it: `P(min over them > c) = P(min > c)^n`,
    /// so the table stops where that falls below 1e-30 (for one second,
    /// the whole table). The values it holds are the same as [`Self::new`]'s;
    /// past its end, `cdf` and `sf` answer 1 and 0, which is right for the
    /// minimum over `seconds`, not for one second.
    pub fn for_minimum_over(
        rate: f64,
        shards: u64,
        model: TrafficModel,
        seconds: u64,
    ) -> ParamResult<Self> {
        let n = seconds.max(1) as f64;
        // The same checks (and error names) as the busiest shard.
        super::point::Point::new(rate, shards, model)?;
        if model.empirical().is_some() {
            // Only the exact-table sampler asks, and it is not offered for
            // empirical traffic (`SimPlan::with_sampler`).
            let none = super::ExactProblem::NoQuietestTable;
            return Err(crate::error::ParamError::new("sampler", none.into()));
        }
        let ln_s = (shards as f64).ln();
        let mut tails = Tails::new(rate, shards, model);
        let lo = tails.table_lo();
        // ln P(min <= c) = ln P(min < c + 1), ln P(min > c) = ln P(min >= c + 1).
        let mut ln_cdf = Vec::new();
        let mut ln_sf = Vec::new();
        let mut c = lo;
        loop {
            let union = ln_s + tails.ln_one_below(c + 1);
            // Where the union bound is the lower tail to 1e-8 relative,
            // `1 - P(min <= c)` from it is right to 1e-16 absolute, closer
            // than Levin's sum gives it (no frequency sum needed there).
            let (ln_below, ln_above) = if union < LN_UNION_EXACT {
                (union, ln_1m_exp(union))
            } else {
                let ln_above = tails.ln_at_least(c + 1);
                (ln_1m_exp(ln_above), ln_above)
            };
            ln_cdf.push(ln_below.min(0.0));
            ln_sf.push(ln_above.min(0.0));
            if n * ln_above < LN_TABLE_HI || ln_above == f64::NEG_INFINITY {
                break;
            }
            c += 1;
        }
        Ok(QuietestShard { lo, ln_cdf, ln_sf })
    }

    /// The values held in the table.
    pub fn table_range(&self) -> (u64, u64) {
        (self.lo, self.lo + self.ln_cdf.len() as u64 - 1)
    }

    /// `P(min <= c)`.
    pub fn cdf(&self, c: u64) -> f64 {
        match c.checked_sub(self.lo).map(|i| i as usize) {
            None => 0.0,
            Some(i) if i < self.ln_cdf.len() => self.ln_cdf[i].exp(),
            Some(_) => 1.0,
        }
    }

    /// `P(min > c)`.
    pub fn sf(&self, c: u64) -> f64 {
        match c.checked_sub(self.lo).map(|i| i as usize) {
            None => 1.0,
            Some(i) if i < self.ln_sf.len() => self.ln_sf[i].exp(),
            Some(_) => 0.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The mean quietest shard: `sum over c >= 0 of P(min > c)`, which is 1
    /// below the table.
    fn mean(q: &QuietestShard) -> f64 {
        q.lo as f64 + q.ln_sf.iter().map(|x| x.exp()).sum::<f64>()
    }

    /// P(min >= c) by enumerating every assignment of `likes` likes.
    fn brute_min_at_least(likes: u64, shards: u64, c: u64) -> f64 {
        let total = shards.pow(likes as u32);
        let mut hits = 0u64;
        for code in 0..total {
            let mut counts = vec![0u64; shards as usize];
            let mut x = code;
            for _ in 0..likes {
                counts[(x % shards) as usize] += 1;
                x /= shards;
            }
            if counts.iter().all(|&n| n >= c) {
                hits += 1;
            }
        }
        hits as f64 / total as f64
    }

    #[test]
    fn fixed_matches_enumeration() {
        for (likes, shards) in [(6u64, 3u64), (8, 2), (9, 3), (10, 4)] {
            for c in 0..=likes {
                let want = brute_min_at_least(likes, shards, c);
                let got = ln_min_at_least_fixed(likes, shards, c, &mut TwiddleCache::new()).exp();
                assert!(
                    (got - want).abs() <= 1e-12 * want.max(1e-300) + 1e-15,
                    "L={likes} S={shards} c={c}: {got} vs {want}"
                );
            }
        }
    }

    #[test]
    fn shared_twiddles_agree_with_a_grid_per_c() {
        // The cached grids are up to 1/8 larger than each c needs; the sums
        // must still agree with the one-grid-per-c ones (the values before
        // the cache) to 1e-12 relative.
        for (likes, shards) in [
            (14_000u64, 20u64),
            (200_000, 286),
            (50, 3),
            (1_000_000, 1_430),
        ] {
            let mut cache = TwiddleCache::new();
            let top = likes / shards;
            for c in (top.saturating_sub(top / 4)..top).step_by(7) {
                let shared = ln_min_at_least_fixed(likes, shards, c, &mut cache);
                let alone = {
                    let lambda = tilt_below(likes, shards, c);
                    let y = truncated_below(lambda, c);
                    let p_w = super::super::levin::prob_sum_is(likes, shards, &y);
                    shards as f64 * ln_pois_sf(c - 1, lambda) + p_w.ln()
                        - ln_dpois(likes, shards as f64 * lambda)
                };
                if alone.exp() > 1e-300 {
                    assert!(
                        (shared.exp() / alone.exp() - 1.0).abs() < 1e-12,
                        "L={likes} S={shards} c={c}: {shared} vs {alone}"
                    );
                }
            }
        }
    }

    #[test]
    fn table_is_a_distribution() {
        for model in [TrafficModel::Fixed, TrafficModel::Poisson] {
            for (rate, shards) in [(14_000.0, 20), (200_000.0, 286), (50.0, 3)] {
                let q = QuietestShard::new(rate, shards, model).unwrap();
                let (lo, hi) = q.table_range();
                assert!(q.cdf(hi) > 1.0 - 1e-12, "{rate}/{shards}");
                if lo > 0 {
                    assert!(q.sf(lo - 1) >= 1.0 - 1e-12);
                }
                for c in lo..=hi {
                    assert!(
                        (q.cdf(c) + q.sf(c) - 1.0).abs() < 1e-9,
                        "{rate}/{shards} c={c}"
                    );
                }
                // The quietest holds at most the average.
                assert!(mean(&q) <= rate / shards as f64 + 1e-9);
            }
        }
    }

    /// Gamma-poisson traffic: the table's start and every value against
    /// the integrals with the plain Poisson tails (`ln_pois_sf`, a cut at a
    /// time, the start walked down one cut at a time), to the mixture's
    /// 1e-10 (the table's quick tails are a few ulps from those).
    /// Each integral is its own here: a few hundred.
    #[test]
    fn gamma_table_is_the_plain_integrals() {
        use crate::model::law::Dispersion;
        for (rate, k, shards) in [(1_500.0, 21.0, 8), (200.0, 2.0, 5), (60.0, 3.0, 3)] {
            let model = TrafficModel::GammaPoisson(Dispersion::new_unchecked(k));
            let q = QuietestShard::new(rate, shards, model).unwrap();
            let (s, mix) = (shards as f64, GammaMix::new(rate, k));
            let below = |c: u64| mix.ln_expect(|l| ln_1m_exp(ln_pois_sf(c - 1, l / s)));
            let mut lo = (rate / s).ceil() as u64;
            while lo > 0 && s.ln() + below(lo) >= LN_TABLE_LO {
                lo -= 1;
            }
            assert_eq!(q.lo, lo, "rate {rate} K {k} S {shards}");
            for (i, &got) in q.ln_sf.iter().enumerate() {
                let c = q.lo + i as u64 + 1;
                let union = s.ln() + below(c);
                let want = if union < LN_UNION_EXACT {
                    ln_1m_exp(union)
                } else {
                    mix.ln_expect(|l| s * ln_pois_sf(c - 1, l / s))
                };
                // 1e-10 of the probability: that much on its log.
                assert!(
                    (got - want).abs() <= 1e-10,
                    "rate {rate} K {k} S {shards} c {c}: {got} vs {want}"
                );
            }
        }
    }

    #[test]
    fn minimum_over_many_seconds_is_a_prefix() {
        // The shorter table holds the same values as the whole one, and
        // stops where the minimum over n seconds passes 1e-30.
        for model in [TrafficModel::Fixed, TrafficModel::Poisson] {
            let full = QuietestShard::new(14_000.0, 20, model).unwrap();
            for n in [576u64, 4_096] {
                let q = QuietestShard::for_minimum_over(14_000.0, 20, model, n).unwrap();
                let (lo, hi) = q.table_range();
                assert_eq!(lo, full.lo);
                assert!(hi < full.table_range().1, "{model:?} n={n}");
                assert_eq!(q.ln_sf[..], full.ln_sf[..q.ln_sf.len()]);
                assert!(n as f64 * q.ln_sf[q.ln_sf.len() - 1] < LN_TABLE_HI);
                assert!(n as f64 * q.ln_sf[q.ln_sf.len() - 2] >= LN_TABLE_HI);
            }
        }
    }

    #[test]
    fn union_bound_region_agrees_with_levin() {
        // Where the table takes P(min > c) = 1 - (union bound), Levin's
        // value (which the table used before) agrees to its rounding.
        let q = QuietestShard::new(14_000.0, 20, TrafficModel::Fixed).unwrap();
        let mut cache = TwiddleCache::new();
        let mut checked = 0;
        for (i, &cdf) in q.ln_cdf.iter().enumerate() {
            let c = q.lo + i as u64;
            if cdf < LN_UNION_EXACT && cdf > -30.0 {
                let levin = ln_min_at_least_fixed(14_000, 20, c + 1, &mut cache);
                assert!((levin - q.ln_sf[i]).abs() < 1e-13, "c={c}");
                checked += 1;
            }
        }
        assert!(checked > 10);
    }

    #[test]
    fn one_shard_is_the_whole_count() {
        let q = QuietestShard::new(9_000.0, 1, TrafficModel::Fixed).unwrap();
        assert_eq!(mean(&q), 9_000.0);
    }
}
