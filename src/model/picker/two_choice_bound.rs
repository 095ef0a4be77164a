//! Two-choice's own upper bound on `P(busiest > cap)` in a second: the
//! union over the shards of one shard's tail, that shard's likes being the
//! sum of the servers' independent contributions, each drawn from the
//! server's own law ([`super::two_choice_law`], an upper bound in the
//! stochastic order).
//!
//! - **Poisson traffic:** each of the `K` servers gets an independent
//!   Poisson(`rate / K`) count, so one shard's likes are the `K`-fold
//!   convolution of the mixture over the server's count.
//! - **A fixed count** `n`: the servers' counts are multinomial, which is
//!   `K` independent Poisson(`mu`) counts given that they sum to `n` (for
//!   any `mu`). The joint law of (count, shard likes) is raised to the
//!   `K`-th power and read where the counts sum to `n`, by a Fourier sum
//!   over the count: `M` points on the circle, `M` twelve standard
//!   deviations of the total or more (the terms folded in are under
//!   e^-72 of the one read), and only the frequencies whose terms are over
//!   1e-40 of the largest (about 50: the rest cannot move a digit).
//!   Without the conditioning, a Poisson count per server adds the
//!   servers' own spread (`rate / S^2` of variance) to the shard's and
//!   overstates its tail many times over: at 14,000 likes/s from 40
//!   servers over 15 shards, cap 950, the Poisson figure is 0.598 and the
//!   doubled one round-robin uses would say 1, where this says 0.0169 and
//!   a simulation 0.0166.
//!
//! The shard's likes are convolved by FFT, under an exponential tilt that
//! puts the cap near the tilted law's middle, so its tail keeps its digits
//! far below 1e-16. What is not covered (a server's count outside the
//! walked range, mass the law lost) is counted over the cap: `K` times its
//! chance is added. So the figure is an upper bound at every input; where
//! the chance is small (where sizing works) the union over shards is
//! within `1 / (1 - p)` of the truth, and the raised mass of the server's
//! law (3e-4 of a 480-like second at 15 shards) adds a few per cent.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use rustfft::num_complex::Complex64;
use rustfft::FftPlanner;

use super::two_choice_law::{shard_laws, ShardLaws};
use crate::model::exact::special::{ln_dbinom, ln_dpois, ln_pois_cdf, ln_pois_sf};

/// Most moves a server's law is walked with (about half a second: 18
/// shards at 350 likes a server).
pub const MAX_MOVES: u64 = 80_000_000;

/// Most points the shard's law is convolved on.
const MAX_POINTS: usize = 1 << 22;

/// Standard deviations of a server's count the law is walked over.
const REACH: f64 = 8.0;

/// The shard's law over the servers at one frequency of their counts: the
/// per-server law, each count `m` turned by `phase(m)`, transformed and
/// raised to the `K`-th power.
type Powered<'a> = dyn Fn(&dyn Fn(u64) -> Complex64) -> Vec<Complex64> + 'a;

/// A second's likes: a fixed count, or Poisson at a mean.
#[derive(Debug, Clone, Copy)]
pub enum Second {
    /// Exactly this many.
    Count(u64),
    /// Poisson at this mean.
    Poisson(f64),
}

/// The laws walked so far in this process, by shards, for `0..=last`
/// likes (a function of its key alone, like the exact engine's caches):
/// sizing, the verdict and the capacity search ask for the same shard
/// count more than once, and a walk to `last` serves every count up to
/// it, so it walks a quarter further where that fits.
fn cached_laws(shards: u64, last: u64) -> Option<Arc<ShardLaws>> {
    // The laws, and whether the walk stopped short (its moves ran out):
    // then no longer walk is tried again.
    type Cache = Mutex<HashMap<u64, (Arc<ShardLaws>, bool)>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    if let Some((laws, short)) = cache.lock().ok()?.get(&shards) {
        if laws.last() >= last || *short {
            return (laws.last() >= last).then(|| laws.clone());
        }
    }
    // The walk stops where its moves run out, keeping what it reached.
    let further = (last + last / 4).next_multiple_of(64);
    // Out of reach (a walk's laws do not depend on where it stops, so what
    // a process walked before never changes an answer).
    let laws = Arc::new(shard_laws(shards, (0, further), last, MAX_MOVES)?);
    let short = laws.last() < further;
    cache.lock().ok()?.insert(shards, (laws.clone(), short));
    (laws.last() >= last).then_some(laws)
}

/// Whether the walk for `last` likes over `shards` shards fits
/// [`MAX_MOVES`], by its measured cost (at most about `25 S^3` moves a
/// like: 117 million for 510 likes over 20 shards).
fn walk_fits(shards: u64, last: u64) -> bool {
    25.0 * (shards as f64).powi(3) * last as f64 <= MAX_MOVES as f64
}

/// `ln` of the bound on `P(busiest > c)` for `servers` two-choice servers
/// over `shards` shards in a second of `second` likes; `None` where the
/// server's law is too large to walk.
pub fn ln_busiest_over(second: Second, servers: u64, shards: u64, c: u64) -> Option<f64> {
    let total = match second {
        Second::Count(n) => n as f64,
        Second::Poisson(mean) => mean,
    };
    let k = servers as f64;
    let mu = total / k;
    // The busiest takes at least the mean: over the cap surely with a
    // fixed count past `S c`, and about half the time with a Poisson mean
    // there, where the bound says nothing random's law does not.
    match second {
        Second::Count(n) if n > shards.saturating_mul(c) => return Some(0.0),
        Second::Poisson(mean) if mean >= (shards as f64) * (c as f64 + 1.0) => return None,
        _ => {}
    }
    let reach = REACH * mu.sqrt() + 10.0;
    let range = (
        (mu - reach).floor().max(0.0) as u64,
        (mu + reach).ceil() as u64,
    );
    if !walk_fits(shards, range.1) {
        return None;
    }
    let laws = cached_laws(shards, range.1)?;
    let shard = ShardSum::new(&laws, range, second, servers, c)?;
    let tail = shard.tail()?;
    let uncovered = shard.uncovered();
    let per_shard = tail + k * uncovered;
    Some((shards as f64 * per_shard).min(1.0).ln())
}

/// One shard's likes summed over the servers.
struct ShardSum<'a> {
    /// The server's laws for `first..` likes, and the mass each lost.
    first: u64,
    laws: &'a [(u64, Vec<f64>)],
    lost: &'a [f64],
    second: Second,
    servers: u64,
    shards: u64,
    c: u64,
    /// The fewest and most likes a server's law puts on the shard.
    x_lo: u64,
    x_hi: u64,
}

impl<'a> ShardSum<'a> {
    /// The sum over `servers` servers whose counts are in `range`.
    fn new(
        laws: &'a ShardLaws,
        range: (u64, u64),
        second: Second,
        servers: u64,
        c: u64,
    ) -> Option<ShardSum<'a>> {
        let at = |n: u64| n.checked_sub(laws.first).map(|i| i as usize);
        let (from, to) = (at(range.0)?, at(range.1)?);
        let (laws_in, lost) = (laws.laws.get(from..=to)?, laws.lost.get(from..=to)?);
        let x_lo = laws_in.iter().map(|l| l.0).min()?;
        let x_hi = laws_in.iter().map(|l| l.0 + l.1.len() as u64 - 1).max()?;
        Some(ShardSum {
            first: range.0,
            laws: laws_in,
            lost,
            second,
            servers,
            shards: laws.shards,
            c,
            x_lo,
            x_hi,
        })
    }

    /// The likes of `laws[i]`.
    fn likes(&self, i: usize) -> u64 {
        self.first + i as u64
    }

    /// A server's chance of a count outside the walked range, or of the
    /// mass its law lost: under the count's true law (Poisson, or
    /// Binomial(n, 1/K) for a fixed `n`).
    fn uncovered(&self) -> f64 {
        let (lo, hi) = (self.likes(0), self.likes(self.laws.len() - 1));
        let outside = match self.second {
            Second::Poisson(mean) => {
                let mu = mean / self.servers as f64;
                let below = if lo == 0 {
                    0.0
                } else {
                    ln_pois_cdf(lo - 1, mu).exp()
                };
                below + ln_pois_sf(hi, mu).exp()
            }
            Second::Count(n) => {
                let inside: f64 = (lo..=hi.min(n)).map(|m| self.count_chance(m)).sum();
                (1.0 - inside).max(0.0)
            }
        };
        let lost: f64 = (0..self.laws.len())
            .map(|i| self.count_chance(self.likes(i)) * self.lost[i])
            .sum();
        outside + lost
    }

    /// `P(shard > c, nothing uncovered)`, by the tilted convolution.
    fn tail(&self) -> Option<f64> {
        let k = self.servers;
        let width = (self.x_hi - self.x_lo) as usize;
        let points = (width * k as usize + 1).next_power_of_two();
        if points > MAX_POINTS {
            return None;
        }
        let lowest = self.x_lo * k;
        if self.c < lowest {
            return Some(1.0);
        }
        let over_from = (self.c + 1 - lowest) as usize;
        if over_from >= points {
            return Some(0.0);
        }
        let tilt = self.tilt(width);
        let weights = self.weights(tilt);
        let (ln_scale, sum) = self.summed(&weights, tilt, points)?;
        // Rounding: the FFTs and the Fourier sum leave errors of a few
        // ulps of their largest terms; each point is granted 1e-12 of the
        // largest, so the tail is never read under its value (the brute
        // force found 1e-8 of a 6e-7 tail missing without it).
        let slack = 1e-12 * sum.iter().fold(0.0, |m: f64, v| m.max(v.abs()));
        let tail: f64 = (over_from..points)
            .map(|t| ((sum[t].max(0.0) + slack).ln() + ln_scale - tilt * t as f64).exp())
            .sum();
        Some(tail.min(1.0))
    }
}

impl ShardSum<'_> {
    /// The tilt per like of the shard that puts the tilted shard's mean
    /// at `c + 1` (the saddle point), at least 0, and small enough that a
    /// server's tilted law keeps more than its top. A server's likes on the shard, less (for a
    /// fixed count, whose servers' counts sum to it) its share `n / S` of
    /// its own count, tilted by `theta`, have mean `m(theta)`; the shard's
    /// is `K m(theta)` plus the fixed `n / S`. `m` grows with `theta`:
    /// bisected.
    fn tilt(&self, width: usize) -> f64 {
        let shards = self.shards as f64;
        let mut points: Vec<(f64, f64)> = Vec::new();
        for (i, (first, pmf)) in self.laws.iter().enumerate() {
            let n = self.likes(i);
            let w = self.count_chance(n);
            let shift = match self.second {
                Second::Count(_) => n as f64 / shards,
                Second::Poisson(_) => 0.0,
            };
            for (x, &p) in pmf.iter().enumerate() {
                points.push(((*first + x as u64) as f64 - shift, w * p));
            }
        }
        let fixed = match self.second {
            Second::Count(n) => n as f64 / shards,
            Second::Poisson(_) => 0.0,
        };
        let (k, target) = (self.servers as f64, self.c as f64 + 1.0);
        let top = points.iter().map(|p| p.0).fold(f64::MIN, f64::max);
        let mean = |theta: f64| {
            let (mut sum, mut mass) = (0.0, 0.0);
            for &(d, p) in &points {
                let v = p * (theta * (d - top)).exp();
                sum += v * d;
                mass += v;
            }
            fixed + k * sum / mass
        };
        // A server's law spans `width` likes: a tilt past 700 / width would
        // put all but its top under f64's smallest number.
        let most = 700.0 / width.max(1) as f64;
        if mean(0.0) >= target {
            return 0.0;
        }
        if mean(most) <= target {
            return most;
        }
        let (mut lo, mut hi) = (0.0, most);
        for _ in 0..60 {
            let mid = 0.5 * (lo + hi);
            match mean(mid) < target {
                true => lo = mid,
                false => hi = mid,
            }
        }
        0.5 * (lo + hi)
    }

    /// The mean of [`ShardSum::weights`]' Poisson law.
    fn weight_mean(&self, tilt: f64) -> f64 {
        let k = self.servers as f64;
        match self.second {
            Second::Poisson(mean) => mean / k,
            Second::Count(n) => n as f64 / k * (-tilt / self.shards as f64).exp(),
        }
    }

    /// A server's count's chance under its true law.
    fn count_chance(&self, n: u64) -> f64 {
        let k = self.servers as f64;
        match self.second {
            Second::Poisson(mean) => ln_dpois(n, mean / k).exp(),
            Second::Count(total) => ln_dbinom(n, total, 1.0 / k, 1.0 - 1.0 / k).exp(),
        }
    }

    /// The weights of the servers' counts the sum runs over: the true
    /// Poisson law, or (a fixed count) a Poisson whose mean the tilt
    /// brings back to `n / K`, so the counts summing to `n` stay the
    /// middle of the tilted law.
    fn weights(&self, tilt: f64) -> Vec<f64> {
        let mu = self.weight_mean(tilt);
        (0..self.laws.len())
            .map(|i| ln_dpois(self.likes(i), mu).exp())
            .collect()
    }
}

impl ShardSum<'_> {
    /// The servers' tilted laws, each count's weighted, normalized to one
    /// in all: `(ln Z, laws)`, `laws[i][x]` for `x_lo + x` likes.
    fn tilted(&self, weights: &[f64], tilt: f64) -> Option<(f64, Vec<Vec<f64>>)> {
        let width = (self.x_hi - self.x_lo) as usize + 1;
        let top = (width - 1) as f64;
        let mut laws = Vec::with_capacity(weights.len());
        let mut z = 0.0;
        for (i, &w) in weights.iter().enumerate() {
            let (first, pmf) = &self.laws[i];
            let mut law = vec![0.0; width];
            let from = (first - self.x_lo) as usize;
            for (x, &p) in pmf.iter().enumerate() {
                // Measured from the top, so nothing overflows.
                let v = w * p * (tilt * ((from + x) as f64 - top)).exp();
                law[from + x] = v;
                z += v;
            }
            laws.push(law);
        }
        if !(z > 0.0 && z.is_finite()) {
            return None;
        }
        for v in laws.iter_mut().flatten() {
            *v /= z;
        }
        Some((z.ln() + tilt * top, laws))
    }

    /// The shard's likes over the servers, tilted: `(ln scale, sum)` with
    /// `P(shard = K x_lo + t, all covered) = sum[t] e^(ln scale - tilt t)`
    /// (for a fixed count, given the counts sum to it).
    fn summed(&self, weights: &[f64], tilt: f64, points: usize) -> Option<(f64, Vec<f64>)> {
        let (ln_z, laws) = self.tilted(weights, tilt)?;
        let k = self.servers;
        let mut planner = FftPlanner::<f64>::new();
        let forward = planner.plan_fft_forward(points);
        let power = |phase: &dyn Fn(u64) -> Complex64| {
            let mut buf = vec![Complex64::new(0.0, 0.0); points];
            for (i, law) in laws.iter().enumerate() {
                let turn = phase(self.likes(i));
                for (b, &v) in buf.iter_mut().zip(law) {
                    *b += turn * v;
                }
            }
            forward.process(&mut buf);
            for b in &mut buf {
                *b = b.powu(k.min(u64::from(u32::MAX)) as u32);
            }
            buf
        };
        let (acc, ln_scale) = match self.second {
            Second::Poisson(_) => (power(&|_| Complex64::new(1.0, 0.0)), k as f64 * ln_z),
            Second::Count(n) => {
                let mu = self.weight_mean(tilt);
                let scale = k as f64 * ln_z - ln_dpois(n, mu * k as f64);
                (self.over_counts(n, &power, points), scale)
            }
        };
        let mut acc = acc;
        planner.plan_fft_inverse(points).process(&mut acc);
        let sum = acc.iter().map(|z| z.re / points as f64).collect();
        Some((ln_scale, sum))
    }

    /// The Fourier sum over the servers' counts that keeps the terms where
    /// they sum to `n`: `(1/M) sum_j e^(-i theta_j n) power(theta_j)`, `M`
    /// odd; each frequency `j` and its mirror `-j` (its conjugate, read at
    /// the mirrored point) until the terms fall under 1e-40.
    fn over_counts(&self, n: u64, power: &Powered, points: usize) -> Vec<Complex64> {
        let (lo, hi) = (self.likes(0), self.likes(self.laws.len() - 1));
        let whole = self.servers * (hi - lo) + 1;
        let m = whole.min((12.0 * (n as f64).sqrt()) as u64 + 64) | 1;
        let turn = |j: u64, x: u64| {
            let a = std::f64::consts::TAU * ((j as u128 * x as u128) % m as u128) as f64 / m as f64;
            Complex64::new(a.cos(), a.sin())
        };
        let mut acc = power(&|_| Complex64::new(1.0, 0.0));
        let mut quiet = 0;
        for j in 1..=m / 2 {
            let mut term = power(&|x| turn(j, x));
            let back = turn(j, n).conj();
            let largest = term.iter().map(|z| z.norm()).fold(0.0, f64::max);
            for t in &mut term {
                *t *= back;
            }
            for (i, a) in acc.iter_mut().enumerate() {
                *a += term[i] + term[(points - i) % points].conj();
            }
            quiet = if largest < 1e-40 { quiet + 1 } else { 0 };
            if quiet >= 3 {
                break;
            }
        }
        for a in &mut acc {
            *a /= m as f64;
        }
        acc
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::exact::special::ln_binom_sf;

    /// Random picks' per-server laws, Binomial(m, 1/S) for `m` in `0..=last`.
    fn random_laws(shards: u64, last: u64) -> ShardLaws {
        let p = 1.0 / shards as f64;
        let laws = (0..=last)
            .map(|m| {
                let law = (0..=m).map(|x| ln_dbinom(x, m, p, 1.0 - p).exp()).collect();
                (0, law)
            })
            .collect();
        ShardLaws {
            shards,
            first: 0,
            laws,
            lost: vec![0.0; last as usize + 1],
        }
    }

    /// The machinery on a law known in closed form: with random picks one
    /// shard's likes in a second of `n` are Binomial(n, 1/S) whatever the
    /// servers' split (so the Fourier sum over their counts must give it
    /// back), and Poisson(rate / S) under Poisson traffic. To 1e-9 from
    /// the middle of the law to 1e-40 deep in its tail, the tilt keeping
    /// the digits.
    #[test]
    fn random_picks_give_back_their_closed_form() {
        for (n, servers, shards, c) in [
            (14_000u64, 40u64, 15u64, 950u64),
            (14_000, 40, 20, 760),
            (14_000, 40, 20, 1000),
            (2_000, 7, 9, 300),
            (50, 3, 4, 20),
        ] {
            let mu = n as f64 / servers as f64;
            let reach = REACH * mu.sqrt() + 10.0;
            let range = (
                (mu - reach).floor().max(0.0) as u64,
                (mu + reach).ceil() as u64,
            );
            let laws = random_laws(shards, range.1);
            let p = 1.0 / shards as f64;
            let cases = [
                (Second::Count(n), ln_binom_sf(c, n, p, 1.0 - p)),
                (Second::Poisson(n as f64), ln_pois_sf(c, n as f64 * p)),
            ];
            for (second, want) in cases {
                let sum = ShardSum::new(&laws, range, second, servers, c).unwrap();
                let got = sum.tail().unwrap();
                let want = want.exp();
                assert!(
                    (got - want).abs() <= 1e-9 * want + 1e-300,
                    "{second:?} K {servers} S {shards} c {c}: {got} vs {want}"
                );
            }
        }
    }
}
