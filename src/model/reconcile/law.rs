//! The exact law of one reel's drift over an interval, and of the largest
//! among many reels.
//!
//! A reel's `W` writes are each, independently, over-counted with chance
//! `p`, under-counted with chance `q`, or counted right (a trinomial). Its
//! over-counted writes are `O ~ Binomial(W, p)`, and given `O = i` its
//! under-counted ones are `U ~ Binomial(W - i, q / (1 - p))`; the net drift
//! is `O - U`. The pmf of the net is summed exactly from those two
//! binomials (each walked outward from its mode by the ratio of successive
//! terms, so no term is computed twice), leaving out terms below
//! `NEGLIGIBLE_LN` (e^-60) of their largest. Reels are independent, so the
//! largest `|net|` of `R` reels has `P(max <= x) = P(|net| <= x)^R`.

use crate::model::exact::special::ln_dbinom;

/// Terms below this fraction of the largest are left out: e^-60 = 1e-26,
/// far below the 1e-12 tail the largest of a billion reels reads.
const NEGLIGIBLE_LN: f64 = -60.0;

/// One reel's net drift: its pmf from `lo` upward.
#[derive(Debug, Clone, PartialEq)]
pub struct NetLaw {
    /// The smallest net drift with a term kept.
    pub lo: i64,
    /// `pmf[k] = P(net = lo + k)`.
    pub pmf: Vec<f64>,
}

/// The binomial's terms above the cut, walked outward from its mode: the
/// first count kept and the terms.
fn binomial_terms(n: u64, p: f64) -> (u64, Vec<f64>) {
    if n == 0 || p <= 0.0 {
        return (0, vec![1.0]);
    }
    if p >= 1.0 {
        return (n, vec![1.0]);
    }
    let q = 1.0 - p;
    let mode = (((n + 1) as f64) * p).floor().min(n as f64) as u64;
    let top = ln_dbinom(mode, n, p, q).exp();
    let odds = p / q;
    let cut = top * NEGLIGIBLE_LN.exp();
    // Upward: P(k + 1) / P(k) = (n - k) / (k + 1) x p / q.
    let mut up = Vec::new();
    let (mut k, mut t) = (mode, top);
    while k < n {
        t *= (n - k) as f64 / (k + 1) as f64 * odds;
        k += 1;
        if t < cut {
            break;
        }
        up.push(t);
    }
    // Downward: P(k - 1) / P(k) = k / (n - k + 1) x q / p.
    let mut down = Vec::new();
    let (mut k, mut t) = (mode, top);
    while k > 0 {
        t *= k as f64 / (n - k + 1) as f64 / odds;
        k -= 1;
        if t < cut {
            break;
        }
        down.push(t);
    }
    let first = mode - down.len() as u64;
    let mut terms: Vec<f64> = down.into_iter().rev().collect();
    terms.push(top);
    terms.extend(up);
    (first, terms)
}

impl NetLaw {
    /// The net drift of `writes` writes, each over with chance `p_over`
    /// and under with chance `p_under` (`p_over + p_under <= 1`).
    pub fn new(writes: u64, p_over: f64, p_under: f64) -> NetLaw {
        let (first_over, over) = binomial_terms(writes, p_over);
        // Given O = i, each of the other W - i writes is under with q / (1 - p).
        let q_given = match p_over < 1.0 {
            true => (p_under / (1.0 - p_over)).min(1.0),
            false => 0.0,
        };
        let parts: Vec<(i64, Vec<f64>)> = over
            .iter()
            .enumerate()
            .map(|(k, &a)| {
                let i = first_over + k as u64;
                let (first_under, under) = binomial_terms(writes - i, q_given);
                let terms = under.iter().map(|b| a * b).collect();
                // net = i - j: its largest j gives its lowest net.
                (i as i64 - first_under as i64, terms)
            })
            .collect();
        let lo = parts
            .iter()
            .map(|(top, t)| top - (t.len() as i64 - 1))
            .min()
            .unwrap_or(0);
        let hi = parts.iter().map(|(top, _)| *top).max().unwrap_or(0);
        let mut pmf = vec![0.0; (hi - lo + 1) as usize];
        for (top, terms) in &parts {
            for (j, t) in terms.iter().enumerate() {
                pmf[(top - j as i64 - lo) as usize] += t;
            }
        }
        NetLaw { lo, pmf }
    }

    /// P(net = x).
    pub fn p(&self, x: i64) -> f64 {
        usize::try_from(x - self.lo)
            .ok()
            .and_then(|k| self.pmf.get(k))
            .copied()
            .unwrap_or(0.0)
    }

    /// The largest net kept.
    pub fn hi(&self) -> i64 {
        self.lo + self.pmf.len() as i64 - 1
    }

    /// P(net > x), summed from the far end so a small tail keeps its digits.
    pub fn above(&self, x: i64) -> f64 {
        // Folded from +0.0: an empty f64 `sum` is -0.0.
        ((x + 1).max(self.lo)..=self.hi())
            .rev()
            .fold(0.0, |sum, k| sum + self.p(k))
    }

    /// P(|net| > x) for x >= 0, summed from both far ends.
    pub fn abs_above(&self, x: u64) -> f64 {
        let x = x as i64;
        let below = (self.lo..-x).fold(0.0, |sum, k| sum + self.p(k));
        self.above(x) + below
    }

    /// The largest `|net|` a reel can have among the kept terms.
    pub fn abs_max(&self) -> u64 {
        self.lo.unsigned_abs().max(self.hi().unsigned_abs())
    }

    /// The smallest `x >= 0` with `P(|net| <= x)^reels >= level`: the
    /// `level` quantile of the largest `|net|` among `reels` reels. Walked
    /// down from the largest kept, the tail growing a term a step.
    pub fn largest_abs(&self, reels: u64, level: f64) -> u64 {
        let (mut x, mut tail) = (self.abs_max(), 0.0);
        while x > 0 {
            let k = x as i64;
            let wider = tail + self.p(k) + self.p(-k);
            if !meets(wider, reels, level) {
                break;
            }
            (x, tail) = (x - 1, wider);
        }
        x
    }

    /// The same for the largest net (the reel whose counter reads highest).
    pub fn largest(&self, reels: u64, level: f64) -> i64 {
        let (mut x, mut tail) = (self.hi(), 0.0);
        while x > self.lo {
            let wider = tail + self.p(x);
            if !meets(wider, reels, level) {
                break;
            }
            (x, tail) = (x - 1, wider);
        }
        x
    }
}

/// `(1 - tail)^reels >= level`, in logs: `reels x ln(1 - tail) >= ln level`.
fn meets(tail: f64, reels: u64, level: f64) -> bool {
    reels as f64 * (-tail).ln_1p() >= level.ln()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every outcome of `writes` writes, each over, under or neither,
    /// enumerated: the pmf of the net by brute force.
    fn brute(writes: u32, p: f64, q: f64) -> Vec<(i64, f64)> {
        let mut pmf = std::collections::BTreeMap::new();
        for code in 0..3u64.pow(writes) {
            let (mut c, mut net, mut chance) = (code, 0i64, 1.0);
            for _ in 0..writes {
                match c % 3 {
                    0 => (net, chance) = (net + 1, chance * p),
                    1 => (net, chance) = (net - 1, chance * q),
                    _ => chance *= 1.0 - p - q,
                }
                c /= 3;
            }
            *pmf.entry(net).or_insert(0.0) += chance;
        }
        pmf.into_iter().collect()
    }

    #[test]
    fn net_law_matches_every_outcome_of_small_reels() {
        for writes in 0..=7 {
            for (p, q) in [
                (0.1, 0.2),
                (0.5, 0.0),
                (0.0, 0.3),
                (0.3, 0.3),
                (0.01, 0.002),
            ] {
                let law = NetLaw::new(writes as u64, p, q);
                let total: f64 = law.pmf.iter().sum();
                assert!((total - 1.0).abs() < 1e-12, "{writes} {p} {q}: {total}");
                for (x, want) in brute(writes, p, q) {
                    let got = law.p(x);
                    assert!(
                        (got - want).abs() <= 1e-14 + 1e-12 * want,
                        "W={writes} p={p} q={q} net={x}: {got} vs {want}"
                    );
                }
            }
        }
    }

    #[test]
    fn largest_of_many_reels_is_the_power_of_one() {
        let law = NetLaw::new(5, 0.2, 0.1);
        let brute = brute(5, 0.2, 0.1);
        let within = |x: i64| -> f64 {
            brute
                .iter()
                .filter(|(n, _)| n.abs() <= x)
                .map(|(_, p)| p)
                .sum()
        };
        for reels in [1u64, 3, 100] {
            for level in [0.5, 0.99] {
                let x = law.largest_abs(reels, level);
                assert!(within(x as i64).powf(reels as f64) >= level - 1e-12);
                if x > 0 {
                    assert!(within(x as i64 - 1).powf(reels as f64) < level);
                }
            }
        }
    }

    #[test]
    fn a_large_reel_keeps_its_mean_and_variance() {
        let (w, p, q) = (200_000u64, 0.0005, 0.0001);
        let law = NetLaw::new(w, p, q);
        let mean: f64 = law
            .pmf
            .iter()
            .enumerate()
            .map(|(k, t)| (law.lo + k as i64) as f64 * t)
            .sum();
        let var: f64 = law
            .pmf
            .iter()
            .enumerate()
            .map(|(k, t)| ((law.lo + k as i64) as f64 - mean).powi(2) * t)
            .sum();
        let want_mean = w as f64 * (p - q);
        let want_var = w as f64 * (p + q - (p - q).powi(2));
        assert!((mean - want_mean).abs() < 1e-9 * want_mean, "{mean}");
        assert!((var - want_var).abs() < 1e-9 * want_var, "{var}");
    }
}
