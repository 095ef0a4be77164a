//! An upper bound on the chance the busiest shard goes over the cap in a
//! second, for a picker whose busiest shard has no closed law (round-robin
//! past its deterministic bound).
//!
//! 1. **Poisson servers.** With Poisson traffic at `rate`, each of the `K`
//!    servers gets an independent Poisson(`rate / K`) count. Given its count
//!    `m`, server `k` gives one shard `X_k` likes with a law `f_m` of its own
//!    (round-robin: `floor(m/S)`, plus one with chance `(m mod S)/S`, its
//!    cursor being uniform and independent of the others').
//!    So one shard's load is the sum of `K` independent copies of the
//!    mixture `g = sum_m P(m) f_m`: its law is `g`'s `K`-fold convolution.
//! 2. **The busiest shard:** `P(max > c) <= S P(one shard > c)` (the union
//!    bound; tight where the chance is small, which is where it matters).
//! 3. **Fixed traffic** (`n` likes): adding a like to a server only ever
//!    adds to the shards' counts (its picks before are unchanged), so
//!    `P(one shard > c | n likes)` grows with `n`; a Poisson(`n`) total is
//!    at least `n` with chance at least 1/2, so the fixed chance is at most
//!    twice the Poisson one (Mitzenmacher and Upfal, *Probability and
//!    Computing*, 5.4).
//!
//! The convolution keeps only counts `0..=c` and one "over" bucket, so a
//! bound costs `O(c^2 log K)`; counts of likes past the Poisson law's
//! `e^-700` (1e-304) tail go to "over" too. Everything dropped is counted
//! as over, so the result stays an upper bound, and it is the documented
//! one (`S` x the convolution's tail) down to about 1e-300: a tail cut at
//! 1e-40 put a floor of `K S 1e-40` under every figure (1.5e-37 at 100
//! servers and 60 shards, where the bound is 1.2e-219).

use crate::model::exact::special::{ln_dpois, ln_pois_sf};

/// One server's law of one shard's likes: `(first, pmf)`, the chance of
/// `first + x` likes at `pmf[x]` (none below `first`; round-robin's law
/// has two points, so a dense pmf from 0 cost `O(most^2 / S)`).
pub type Law = (u64, Vec<f64>);

/// The per-server laws of one shard's likes, for `m = 0..=most`.
pub type PerServer = dyn Fn(u64) -> Option<Vec<Law>>;

/// Largest `(c + 1)^2 log2(2K)` the convolution takes on (about a second).
const MAX_WORK: f64 = 4e8;

/// `P(max > c)` bounded as in the module docs, for `servers` servers each
/// with Poisson(`per_server_rate`) likes, over `shards` shards; `pmfs(most)`
/// gives the per-server laws up to `most` likes. `None` where the work is
/// too large or the per-server laws are not available.
pub fn busiest_over(
    per_server_rate: f64,
    servers: u64,
    shards: u64,
    c: u64,
    pmfs: &PerServer,
) -> Option<f64> {
    let work = ((c + 1) as f64).powi(2) * (2.0 * servers as f64).log2();
    if work > MAX_WORK {
        return None;
    }
    // Counts past `most` have less than 1e-40 of the mass: "over".
    let most = tail_end(per_server_rate);
    let laws = pmfs(most)?;
    let c_len = c as usize + 1;
    let mut one = vec![0.0; c_len];
    let mut over = ln_pois_sf(most, per_server_rate).exp();
    for (m, (first, law)) in laws.iter().enumerate() {
        let w = ln_dpois(m as u64, per_server_rate).exp();
        for (x, &p) in (*first as usize..).zip(law) {
            if x < c_len {
                one[x] += w * p;
            } else {
                over += w * p;
            }
        }
    }
    let (_, sum_over) = power(&one, over, servers);
    Some((shards as f64 * sum_over).min(1.0))
}

/// The most likes per server the bound follows: the Poisson law's tail
/// past it is below e^-700 (1e-304, above f64's smallest normal number, so
/// the mass cut stays counted).
fn tail_end(rate: f64) -> u64 {
    let mut m = (rate + 10.0 * rate.sqrt() + 10.0) as u64;
    while ln_pois_sf(m, rate) > -700.0 {
        m += 1 + m / 16;
    }
    m
}

/// The `k`-fold convolution of a law on `0..=c` with an "over" mass:
/// returns the law on `0..=c` and the mass over `c`.
fn power(law: &[f64], over: f64, k: u64) -> (Vec<f64>, f64) {
    let mut result = (unit(law.len()), 0.0);
    let mut base = (law.to_vec(), over);
    let mut k = k;
    while k > 0 {
        if k & 1 == 1 {
            result = convolve(&result, &base);
        }
        k >>= 1;
        if k > 0 {
            base = convolve(&base, &base);
        }
    }
    result
}

fn unit(len: usize) -> Vec<f64> {
    let mut u = vec![0.0; len];
    u[0] = 1.0;
    u
}

/// Two independent counts' sum, on `0..=c` and over: anything with a part
/// over `c`, or adding past it, is over.
fn convolve(a: &(Vec<f64>, f64), b: &(Vec<f64>, f64)) -> (Vec<f64>, f64) {
    let len = a.0.len();
    let mut out = vec![0.0; len];
    for (i, &x) in a.0.iter().enumerate().filter(|(_, &x)| x > 0.0) {
        for (o, &y) in out[i..].iter_mut().zip(&b.0) {
            *o += x * y;
        }
    }
    // Over: over in either, or adding past c. Every term is a sum of
    // positive parts (no "1 - inside"), so a tiny chance keeps its digits.
    let (ma, mb): (f64, f64) = (a.0.iter().sum(), b.0.iter().sum());
    // b_from[t] = P(b >= t), summed from the top.
    let mut b_from = vec![0.0; len + 1];
    for t in (0..len).rev() {
        b_from[t] = b_from[t + 1] + b.0[t];
    }
    let past: f64 =
        a.0.iter()
            .enumerate()
            .map(|(i, &x)| x * b_from[len - i])
            .sum();
    let over = a.1 * (mb + b.1) + ma * b.1 + past;
    (out, over)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::exact::special::ln_pois_sf;

    /// The random picker's per-server law: Binomial(m, 1/S).
    fn random_laws(shards: u64) -> Box<PerServer> {
        Box::new(move |most| {
            let p = 1.0 / shards as f64;
            Some(
                (0..=most)
                    .map(|m| {
                        let mut law = vec![0.0; m as usize + 1];
                        let mut t = (1.0 - p).powi(m as i32);
                        for (x, slot) in law.iter_mut().enumerate() {
                            *slot = t;
                            let x = x as f64;
                            t *= (m as f64 - x) / (x + 1.0) * p / (1.0 - p);
                        }
                        (0, law)
                    })
                    .collect(),
            )
        })
    }

    /// Under random picks one shard's load is Poisson(rate / S): the
    /// convolution must give `S` x its tail. Returns that figure.
    fn poisson_shards(rate: f64, servers: u64, shards: u64, c: u64) -> f64 {
        let per_server = rate / servers as f64;
        let got = busiest_over(per_server, servers, shards, c, &*random_laws(shards)).unwrap();
        let want = shards as f64 * ln_pois_sf(c, rate / shards as f64).exp();
        assert!((got - want).abs() < 1e-9 * want, "{got} vs {want}");
        want
    }

    #[test]
    fn the_random_picker_gives_poisson_shards() {
        poisson_shards(2_000.0, 10, 20, 130);
    }

    /// Deep in the tail the bound is the documented figure, not the tail
    /// cut's floor: random picks at 50,000 likes/s over 100 servers and 60
    /// shards, cap 1,500 (one shard Poisson(833.3)).
    #[test]
    fn the_bound_keeps_its_value_deep_in_the_tail() {
        let want = poisson_shards(50_000.0, 100, 60, 1_500);
        assert!(want < 1e-90, "{want}");
    }
}
