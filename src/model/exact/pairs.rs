//! Two shards over `c` at once: `q2(c) = P(N_1 > c, N_2 > c)` for
//! Multinomial(L; 1/S, ...), the pair term of the Bonferroni bracket
//! (`upper_tail`). One value costs a sum over O(sigma) terms; a whole band of
//! the table costs O(1) per value by a recurrence in `c`.

use rayon::prelude::*;

use super::special::{ln_add, ln_binom_sf, ln_dbinom};

/// A band is cut into at most this many pieces, one rayon task each, each
/// starting from a direct sum (fixed, so results do not depend on the
/// thread count)...
pub(super) const PIECES: u64 = 8;
/// ...of at least this many values.
const PIECE_MIN: u64 = 256;

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
pub(super) fn ln_two_over(likes: u64, shards: u64, c: u64) -> f64 {
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

/// [`ln_two_over`] for every `c` in `lo..=hi` (`S >= 3`, `lo` at or above
/// the mean, `2 (hi + 1) <= L`), O(1) per value after one direct sum per
/// piece.
///
/// Stepping `c` down by one splits the new event by which shard sits at
/// exactly `c` (the three parts are disjoint):
///
/// `{N_1 >= c, N_2 >= c} = {N_1 > c, N_2 > c} + {N_1 = c, N_2 >= c} +
/// {N_1 > c, N_2 = c}`,
///
/// and given one shard's count `c` the other is Binomial(L - c, 1/(S-1)),
/// so with `d(c) = P(N_1 = c)`, `b_n(c) = P(Bin(n, 1/(S-1)) = c)` and
/// `U(c) = P(Bin(L - c, 1/(S-1)) > c)`:
///
/// `q2(c - 1) = q2(c) + d(c) (2 U(c) + b_{L-c}(c))`,
/// `U(c - 1) = U(c) + p b_{L-c}(c) + b_{L-c+1}(c)`
///
/// (the second from `P(Bin(n+1) > c) = P(Bin(n) > c) + p P(Bin(n) = c)`).
/// Every step adds positive terms, so nothing cancels.
///
/// The band is cut in at most `most` pieces for rayon: [`PIECES`] in the
/// table, one for a risk row (a sweep runs rows in parallel already), which
/// then pays one direct sum.
pub(super) fn ln_two_over_range_in(
    likes: u64,
    shards: u64,
    (lo, hi): (u64, u64),
    most: u64,
) -> Vec<f64> {
    debug_assert!(shards >= 3 && lo <= hi);
    let s = shards as f64;
    let (p1, q1) = (1.0 / s, (s - 1.0) / s);
    let (p2, q2) = (1.0 / (s - 1.0), (s - 2.0) / (s - 1.0));
    let (ln_p2, ln_q2) = (p2.ln(), q2.ln());
    let piece = PIECE_MIN.max((hi - lo + 1).div_ceil(most));
    let tops: Vec<u64> = (0..=(hi - lo) / piece).map(|k| hi - k * piece).collect();
    let pieces: Vec<Vec<f64>> = tops
        .par_iter()
        .map(|&top| {
            let bottom = top.saturating_sub(piece - 1).max(lo);
            let mut out = Vec::with_capacity((top - bottom + 1) as usize);
            // The sums run in linear scale, relative to their values at the
            // top (they only grow downwards), with Neumaier's compensation:
            // their rounding stays a few ulps however long the piece.
            let mut pair = Sum::anchored(ln_two_over(likes, shards, top));
            let mut u = Sum::anchored(ln_binom_sf(top, likes - top, p2, q2));
            let mut c = top;
            loop {
                out.push(pair.ln());
                if c == bottom {
                    break;
                }
                let n = likes - c; // > c in the band
                let ln_d = ln_dbinom(c, likes, p1, q1);
                let ln_b = ln_dbinom(c, n, p2, q2);
                // b_{n+1}(c) = b_n(c) (n + 1) q / (n + 1 - c).
                let ln_b_next = ln_b + ((n + 1) as f64 / (n + 1 - c) as f64).ln() + ln_q2;
                let ln_u = u.ln();
                pair.add(ln_d + ln_add(std::f64::consts::LN_2 + ln_u, ln_b));
                u.add(ln_p2 + ln_b);
                u.add(ln_b_next);
                c -= 1;
            }
            out.reverse();
            out
        })
        .collect();
    // Pieces were made top first; the table runs bottom up.
    pieces.into_iter().rev().flatten().collect()
}

/// A growing sum of positive terms given by their logs, kept as
/// `e^scale * (value + compensation)` (Neumaier's summation).
struct Sum {
    scale: f64,
    value: f64,
    compensation: f64,
}

impl Sum {
    /// Starts at `e^ln_start` (`-inf` starts at 0, on the scale of the
    /// first term added).
    fn anchored(ln_start: f64) -> Sum {
        if ln_start == f64::NEG_INFINITY {
            Sum {
                scale: f64::NAN,
                value: 0.0,
                compensation: 0.0,
            }
        } else {
            Sum {
                scale: ln_start,
                value: 1.0,
                compensation: 0.0,
            }
        }
    }

    fn add(&mut self, ln_term: f64) {
        if ln_term == f64::NEG_INFINITY {
            return;
        }
        if self.scale.is_nan() {
            self.scale = ln_term;
        }
        let t = (ln_term - self.scale).exp();
        let sum = self.value + t;
        self.compensation += if self.value.abs() >= t.abs() {
            (self.value - sum) + t
        } else {
            (t - sum) + self.value
        };
        self.value = sum;
        if self.value > 1e200 {
            // Keep far from overflow (a band spans ~100 nats, so rarely).
            self.scale += self.value.ln();
            self.compensation /= self.value;
            self.value = 1.0;
        }
    }

    fn ln(&self) -> f64 {
        if self.scale.is_nan() {
            return f64::NEG_INFINITY;
        }
        self.scale + (self.value + self.compensation).ln()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The recurrence against the direct sum at every value of a band,
    /// across an anchor, for few and many shards.
    #[test]
    fn band_recurrence_matches_direct_sums() {
        for &(likes, shards, lo, hi) in &[
            (14_000u64, 20u64, 740u64, 860u64),
            (1_000, 3, 345, 420),
            (200_000, 286, 740, 830),
            (1_000_000, 3, 334_500, 334_500 + 5_000),
        ] {
            let band = ln_two_over_range_in(likes, shards, (lo, hi), PIECES);
            assert_eq!(band.len() as u64, hi - lo + 1);
            for (i, &got) in band.iter().enumerate() {
                let want = ln_two_over(likes, shards, lo + i as u64);
                // A log difference of 1e-12 is 1e-12 relative in q2.
                assert!(
                    (got - want).abs() <= 1e-12,
                    "L={likes} S={shards} c={}: {got} vs {want}",
                    lo + i as u64
                );
            }
        }
    }
}
