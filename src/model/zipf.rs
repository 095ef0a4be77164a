//! Zipf popularity and the generalized harmonic numbers behind it: the one
//! place `fleet` (the whole table of reels) and `compare` (the Count-Min
//! hot-reel detector) get their per-reel rates, sums over rank ranges and
//! counts at or above a threshold.
//!
//! Rank i of n gets a share i^-s / H(n, s), with H(n, s) = sum_{i=1}^{n} i^-s
//! the generalized harmonic number. H is summed term by term for the first
//! [`EXACT_TERMS`] terms, then by Euler–Maclaurin: a direct sum of a million
//! terms costs a million powers and collects rounding (about 1e-14 relative
//! at s = 0.8), while the closed-form tail is exact to double precision at
//! any n, so 100,000,000 reels cost what 10,000 do.

/// Terms summed one by one before Euler–Maclaurin takes over.
pub const EXACT_TERMS: u64 = 10_000;

/// sum_{i=a}^{b} i^-s for 1 <= a (0 when b < a or a = 0): exact for the
/// first [`EXACT_TERMS`] terms, then Euler–Maclaurin with the f' and f'''
/// terms (Abramowitz & Stegun 23.1.30). From m = a + 10,000 on the next
/// term is below 1e-20 relative, so the sum is good to double precision.
/// s = 0 is the count of terms, exactly.
pub fn power_sum(a: u64, b: u64, s: f64) -> f64 {
    if b < a || a == 0 {
        return 0.0;
    }
    if s == 0.0 {
        // Every term is 1: the tail's integral would round (b - a + 1).
        return (b - a + 1) as f64;
    }
    let direct_end = b.min(a.saturating_add(EXACT_TERMS - 1));
    // Smallest terms first: less rounding.
    let mut sum: f64 = (a..=direct_end).rev().map(|i| (i as f64).powf(-s)).sum();
    if direct_end == b {
        return sum;
    }
    let m = (direct_end + 1) as f64;
    let bf = b as f64;
    let f = |x: f64| x.powf(-s);
    let d1 = |x: f64| -s * x.powf(-s - 1.0);
    let d3 = |x: f64| -s * (s + 1.0) * (s + 2.0) * x.powf(-s - 3.0);
    // Integral of x^-s from m to b, stable near s = 1.
    let t = (1.0 - s) * (bf / m).ln();
    let integral = if (1.0 - s).abs() < 1e-300 {
        (bf / m).ln()
    } else {
        m.powf(1.0 - s) * t.exp_m1() / (1.0 - s)
    };
    sum += integral + (f(m) + f(bf)) / 2.0 + (d1(bf) - d1(m)) / 12.0 - (d3(bf) - d3(m)) / 720.0;
    sum
}

/// The generalized harmonic number H(n, s) = sum_{i=1}^{n} i^-s: the Zipf
/// law's normaliser.
pub fn harmonic(n: u64, s: f64) -> f64 {
    power_sum(1, n, s)
}

/// Zipf(s) over ranks 1..=n, with its normaliser H(n, s) computed once.
/// Callers check n >= 1 and s (finite, 0 to 10) with the flag names of
/// their own command.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Zipf {
    n: u64,
    s: f64,
    h: f64,
}

impl Zipf {
    /// Zipf with exponent `s` over `n` ranks.
    pub fn new(n: u64, s: f64) -> Self {
        Zipf {
            n,
            s,
            h: harmonic(n, s),
        }
    }

    /// The exponent s.
    pub fn exponent(&self) -> f64 {
        self.s
    }

    /// The rate of rank `k` (1-based) when all ranks share `total`:
    /// total x k^-s / H(n, s).
    pub fn rate(&self, k: u64, total: f64) -> f64 {
        total * (k as f64).powf(-self.s) / self.h
    }

    /// Every rank's rate, rank 1 first.
    pub fn rates(&self, total: f64) -> Vec<f64> {
        (1..=self.n).map(|k| self.rate(k, total)).collect()
    }

    /// Ranks whose rate (of `total`) is at least `threshold`: the first k,
    /// k = floor((total / (H threshold))^(1/s)), nudged by one where
    /// rounding put it on the wrong side.
    pub fn count_at_least(&self, total: f64, threshold: f64) -> u64 {
        if self.s == 0.0 {
            return if total / self.h >= threshold {
                self.n
            } else {
                0
            };
        }
        let x = (total / (self.h * threshold)).powf(1.0 / self.s);
        let mut k = if x >= self.n as f64 {
            self.n
        } else {
            x.floor() as u64
        };
        while k < self.n && self.rate(k + 1, total) >= threshold {
            k += 1;
        }
        while k > 0 && self.rate(k, total) < threshold {
            k -= 1;
        }
        k
    }

    /// sum of rate_k^power over ranks a..=b (a >= 1, b <= n) when all ranks
    /// share `total`: (total / H)^power x sum k^(-s power), in closed form.
    pub fn sum_rate_pow(&self, a: u64, b: u64, total: f64, power: i32) -> f64 {
        (total / self.h).powi(power) * power_sum(a, b, self.s * power as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn power_sum_matches_a_direct_sum_at_a_million() {
        for s in [0.5, 0.8, 1.0, 1.2, 2.0] {
            let n = 1_000_000u64;
            let direct: f64 = (1..=n).rev().map(|i| (i as f64).powf(-s)).sum();
            let em = harmonic(n, s);
            assert!(
                ((em - direct) / direct).abs() < 1e-12,
                "s = {s}: {em} vs {direct}"
            );
            // A range that starts past the exact terms too.
            let direct: f64 = (50_000..=n).rev().map(|i| (i as f64).powf(-s)).sum();
            let em = power_sum(50_000, n, s);
            assert!(((em - direct) / direct).abs() < 1e-12, "s = {s}: range");
        }
        // Known values: H(n, 1) = ln n + gamma + 1/(2n) - ..., zeta(2) = pi^2 / 6.
        let h = harmonic(100_000_000, 1.0);
        let approx = (1e8f64).ln() + 0.577_215_664_901_532_9 + 0.5e-8;
        assert!((h - approx).abs() < 1e-12, "{h}");
        let z2 = harmonic(100_000_000, 2.0);
        assert!((z2 - (std::f64::consts::PI.powi(2) / 6.0 - 1e-8)).abs() < 1e-13);
        assert_eq!(power_sum(5, 4, 1.0), 0.0);
        assert_eq!(power_sum(0, 4, 1.0), 0.0);
        assert_eq!(harmonic(3, 1.0), 1.0 + 0.5 + 1.0 / 3.0);
    }

    #[test]
    fn euler_maclaurin_beats_the_direct_sum() {
        // H(1e6, 1) to 20 digits (mpmath.harmonic): 14.392726722865723631.
        // Euler–Maclaurin lands within an ulp; the direct sum of a million
        // terms is 27 ulps off.
        let truth = 14.392_726_722_865_724_f64;
        let em = harmonic(1_000_000, 1.0);
        let direct: f64 = (1..=1_000_000u64).rev().map(|k| 1.0 / k as f64).sum();
        assert!((em - truth).abs() <= 2.0 * f64::EPSILON * truth, "{em}");
        assert!((direct - truth).abs() > (em - truth).abs(), "{direct}");
        // s = 0 counts the terms exactly, past the exact terms too.
        assert_eq!(harmonic(1_000_000, 0.0), 1e6);
        assert_eq!(power_sum(10, 100_009, 0.0), 100_000.0);
    }

    #[test]
    fn normalisation_by_hand() {
        // H(3, 1) = 1 + 1/2 + 1/3 = 11/6.
        assert!((harmonic(3, 1.0) - 11.0 / 6.0).abs() < 1e-15);
        // s = 0 is uniform: H(n, 0) = n.
        assert_eq!(harmonic(1000, 0.0), 1000.0);
        // H(4, 2) = 1 + 1/4 + 1/9 + 1/16 = 205/144.
        assert!((harmonic(4, 2.0) - 205.0 / 144.0).abs() < 1e-15);
        let r = Zipf::new(3, 1.0).rates(110.0);
        // 110 x (6/11) x (1, 1/2, 1/3) = 60, 30, 20.
        for (got, want) in r.iter().zip([60.0, 30.0, 20.0]) {
            assert!((got - want).abs() < 1e-12, "{got} vs {want}");
        }
        let total: f64 = Zipf::new(100_000, 1.1).rates(1157.0).iter().sum();
        assert!((total - 1157.0).abs() < 1e-9, "{total}");
    }

    #[test]
    fn rates_sum_to_the_total() {
        let z = Zipf::new(100_000, 1.0);
        let direct: f64 = (1..=100_000).rev().map(|i| z.rate(i, 2_314.8)).sum();
        assert!((direct - 2_314.8).abs() < 1e-9, "{direct}");
        assert!((z.sum_rate_pow(1, 100_000, 2_314.8, 1) - 2_314.8).abs() < 1e-9);
        // s = 0: every rank the same.
        let flat = Zipf::new(1000, 0.0);
        assert!((flat.rate(1, 50.0) - 0.05).abs() < 1e-15);
        assert!((flat.rate(1000, 50.0) - 0.05).abs() < 1e-15);
        assert_eq!(flat.count_at_least(50.0, 0.05), 1000);
        assert_eq!(flat.count_at_least(50.0, 0.06), 0);
    }

    #[test]
    fn threshold_count_matches_brute_force() {
        for s in [0.7, 1.0, 1.5] {
            let z = Zipf::new(10_000, s);
            for t in [0.01, 0.5, 1.0, 7.3, 100.0, 1e4] {
                let brute = (1..=10_000).filter(|&i| z.rate(i, 5_000.0) >= t).count() as u64;
                assert_eq!(z.count_at_least(5_000.0, t), brute, "s {s} t {t}");
            }
            // Exactly on a rate: that rank counts.
            let r7 = z.rate(7, 5_000.0);
            assert_eq!(z.count_at_least(5_000.0, r7), 7);
        }
    }
}
