//! Shards in a hashed store with P partitions (DynamoDB-like): each shard key
//! hashes to a partition we cannot choose, so several shards may share one.
//!
//! Model: each of the S shard keys lands on a uniformly random partition,
//! independently (a good hash; the partition count P fixed). Each like picks a
//! shard uniformly, so a partition holding k shards gets k/S of the writes.
//!
//! Exact math (S balls in P bins):
//! - P(two or more shards share a partition) = 1 - prod_{i<S} (1 - i/P), the
//!   birthday bound, summed in log space;
//! - expected partitions with two or more shards
//!   = P * P(Bin(S, 1/P) >= 2) = P * (1 - (1-1/P)^S - S/P * (1-1/P)^(S-1)),
//!   by linearity of expectation (summed as a series when S/P is small, where
//!   the closed form cancels);
//! - the busiest partition's mean shard count E[max] = sum_k P(max > k), where
//!   P(max <= k) and, for the cap, E[prod_partitions f(count)] come from
//!   [`bins_expectation`]: split the bins in two groups, the balls in a
//!   group are Binomial(n, share of bins), and double the group size
//!   (exponentiation by squaring over P, O(S * sqrt(S) * log P)).
//!
//! Past [`EXACT_MAX_SHARDS`] shards the busiest-partition figures and the cap
//! chance are seeded Monte Carlo over placements, with standard errors.

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;
use serde::Serialize;
use statrs::distribution::{Binomial, DiscreteCDF, Poisson};

use crate::error::InputResult;
use crate::model::traffic::TrafficModel;
use crate::model::validate;

/// Above this many shards the busiest-partition figures are Monte Carlo.
pub const EXACT_MAX_SHARDS: u64 = 1_000;
pub const DRAW_BUDGET: u64 = 20_000_000;
pub const MIN_TRIALS: u64 = 200;
/// Placements per RNG stream: fixed, so results do not depend on threads.
const CHUNK: u64 = 64;

/// How the busiest-partition figures were computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    Exact,
    MonteCarlo,
}

/// Writes a second against a per-partition cap.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PartitionLoad {
    /// Total likes a second for the counter.
    pub rate: f64,
    /// Writes a second one partition accepts.
    pub cap: f64,
    pub traffic: TrafficModel,
}

/// S shards over P partitions, optionally with a load to check against a cap.
#[derive(Debug, Clone, PartialEq)]
pub struct PartitionPlan {
    shards: u64,
    partitions: u64,
    load: Option<PartitionLoad>,
    seed: u64,
    trials: Option<u64>,
    method: Option<Method>,
}

impl PartitionPlan {
    pub fn new(shards: u64, partitions: u64) -> InputResult<Self> {
        Ok(PartitionPlan {
            shards: validate::count("--shards", shards, crate::model::defaults::MAX_SHARDS)?,
            partitions: validate::count(
                "--partitions",
                partitions,
                crate::model::defaults::MAX_PARTITIONS,
            )?,
            load: None,
            seed: 1,
            trials: None,
            method: None,
        })
    }

    /// Add a like rate and a per-partition cap. Fixed traffic needs a whole
    /// number of likes a second.
    pub fn with_load(mut self, rate: f64, cap: f64, traffic: TrafficModel) -> InputResult<Self> {
        let rate = validate::traffic_rate("--rate", rate, traffic)?;
        let cap = validate::positive("--cap", cap)?;
        self.load = Some(PartitionLoad { rate, cap, traffic });
        Ok(self)
    }

    pub fn with_seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    pub fn with_trials(mut self, trials: u64) -> InputResult<Self> {
        self.trials = Some(validate::count(
            "--trials",
            trials,
            crate::model::defaults::MAX_PARTITION_TRIALS,
        )?);
        Ok(self)
    }

    /// Force a method (tests compare the two); by default exact up to
    /// [`EXACT_MAX_SHARDS`] shards.
    pub fn with_method(mut self, method: Method) -> Self {
        self.method = Some(method);
        self
    }

    /// Placements sampled if Monte Carlo is used.
    pub fn trials(&self) -> u64 {
        self.trials.unwrap_or_else(|| {
            (DRAW_BUDGET / self.shards)
                .clamp(MIN_TRIALS, crate::model::defaults::DEFAULT_PARTITION_TRIALS)
        })
    }

    pub fn evaluate(&self) -> PartitionReport {
        let (s, p) = (self.shards, self.partitions);
        let trials = self.trials();
        let method = self.method.unwrap_or(if s <= EXACT_MAX_SHARDS {
            Method::Exact
        } else {
            Method::MonteCarlo
        });
        let tails = self.load.map(|l| PartitionTails::new(l, s));

        let (mean_max, mean_max_se, over, over_se) = match method {
            Method::Exact => {
                let over = tails.as_ref().map(|t| {
                    let f: Vec<f64> = (0..=s).map(|k| 1.0 - t.tail(k)).collect();
                    (1.0 - bins_expectation(p, &f)).clamp(0.0, 1.0)
                });
                (busiest_mean_exact(s, p), 0.0, over, over.map(|_| 0.0))
            }
            Method::MonteCarlo => {
                let mc = monte_carlo(s, p, trials, self.seed, tails.as_ref());
                (mc.mean_max, mc.mean_max_se, mc.over, mc.over_se)
            }
        };

        let mut notes = vec![
            "assumes each shard key hashes to a uniformly random partition, independently; \
             adaptive capacity may later move busy items apart"
                .to_string(),
        ];
        if let Some(l) = &self.load {
            notes.push(match l.traffic {
                TrafficModel::Poisson => "Poisson traffic: partition loads are independent \
                    Poisson(rate * k / S), so the cap chance is exact for each placement"
                    .to_string(),
                TrafficModel::Fixed => "fixed traffic: partition loads are Binomial(rate, k / S) \
                    and treated as independent; multinomial counts are negatively associated, \
                    so the cap chance is an upper bound"
                    .to_string(),
            });
        }
        let mc = method == Method::MonteCarlo;
        PartitionReport {
            shards: s,
            partitions: p,
            p_shared_partition: p_shared_partition(s, p),
            expected_shared_partitions: expected_shared_partitions(s, p),
            expected_occupied_partitions: expected_occupied_partitions(s, p),
            busiest_partition_mean_shards: mean_max,
            busiest_partition_mean_shards_se: mean_max_se,
            busiest_partition_mean_share: mean_max / s as f64,
            method,
            trials: mc.then_some(trials),
            seed: mc.then_some(self.seed),
            rate: self.load.map(|l| l.rate),
            cap: self.load.map(|l| l.cap),
            traffic: self.load.map(|l| l.traffic),
            shard_rate: self.load.map(|l| l.rate / s as f64),
            busiest_partition_mean_rate: self.load.map(|l| l.rate * mean_max / s as f64),
            p_partition_over_cap_per_second: over,
            p_partition_over_cap_se: over_se,
            p_partition_over_cap_ci95: match (over, over_se) {
                (Some(o), Some(se)) if mc => {
                    Some([(o - 1.96 * se).max(0.0), (o + 1.96 * se).min(1.0)])
                }
                _ => None,
            },
            notes,
        }
    }
}

/// What `shardplan partitions` prints.
#[derive(Debug, Clone, Serialize)]
pub struct PartitionReport {
    pub shards: u64,
    pub partitions: u64,
    /// Chance two or more shards share a partition (birthday bound).
    pub p_shared_partition: f64,
    /// Expected partitions holding two or more shards.
    pub expected_shared_partitions: f64,
    /// Expected partitions holding at least one shard: P (1 - (1-1/P)^S).
    pub expected_occupied_partitions: f64,
    /// Expected shard count on the busiest partition, E[max].
    pub busiest_partition_mean_shards: f64,
    /// Standard error of that mean (0 when exact).
    pub busiest_partition_mean_shards_se: f64,
    /// Expected share of the writes on the busiest partition: E[max] / S.
    pub busiest_partition_mean_share: f64,
    pub method: Method,
    pub trials: Option<u64>,
    pub seed: Option<u64>,
    pub rate: Option<f64>,
    pub cap: Option<f64>,
    pub traffic: Option<TrafficModel>,
    /// Mean writes a second per shard: rate / S.
    pub shard_rate: Option<f64>,
    /// Expected mean writes a second on the busiest partition: rate E[max] / S.
    pub busiest_partition_mean_rate: Option<f64>,
    /// Chance that in a given second some partition gets more writes than the cap.
    pub p_partition_over_cap_per_second: Option<f64>,
    pub p_partition_over_cap_se: Option<f64>,
    /// 95% confidence interval when Monte Carlo (mean +- 1.96 SE, clipped to [0, 1]).
    pub p_partition_over_cap_ci95: Option<[f64; 2]>,
    pub notes: Vec<String>,
}

/// P(two or more of `s` shards share one of `p` partitions)
/// = 1 - prod_{i<s} (1 - i/p), with the product summed as logs.
pub fn p_shared_partition(s: u64, p: u64) -> f64 {
    if s > p {
        return 1.0;
    }
    let pf = p as f64;
    let log_none: f64 = (1..s).map(|i| (-(i as f64) / pf).ln_1p()).sum();
    -log_none.exp_m1()
}

/// Expected number of partitions holding two or more shards:
/// P * P(Bin(S, 1/P) >= 2).
pub fn expected_shared_partitions(s: u64, p: u64) -> f64 {
    let (sf, pf) = (s as f64, p as f64);
    if s < 2 {
        return 0.0;
    }
    if p == 1 {
        return 1.0;
    }
    let q = 1.0 / pf;
    let ln_q0 = (-q).ln_1p(); // ln(1 - 1/P)
    let at_least_two = if sf / pf < 0.5 {
        // Sum the pmf from 2 up: the closed form cancels to noise here.
        let mut term = (sf * (sf - 1.0) / 2.0) * q * q * ((sf - 2.0) * ln_q0).exp();
        let ratio = q / (1.0 - q);
        let mut sum = 0.0;
        let mut j = 2.0;
        while term > 0.0 && j <= sf {
            sum += term;
            if term < sum * 1e-17 {
                break;
            }
            term *= (sf - j) / (j + 1.0) * ratio;
            j += 1.0;
        }
        sum
    } else {
        1.0 - (sf * ln_q0).exp() - sf * q * ((sf - 1.0) * ln_q0).exp()
    };
    pf * at_least_two.max(0.0)
}

/// Expected number of partitions with at least one shard: P (1 - (1-1/P)^S).
pub fn expected_occupied_partitions(s: u64, p: u64) -> f64 {
    let pf = p as f64;
    -pf * (s as f64 * (-1.0 / pf).ln_1p()).exp_m1()
}

/// E[prod over the `p` partitions of f(shards on it)] when `f.len() - 1`
/// shards land uniformly at random, for weights 0 <= f(n) <= 1.
/// With f(n) = [n <= k] this is P(max <= k); with f(n) = P(a partition with
/// n shards stays under the cap) it is P(no partition over the cap) under
/// independent partition loads.
///
/// R_m(n) = E[prod over m bins | n balls in them]. Splitting m = a + b bins,
/// the balls in the first group are Binomial(n, a/m), so
/// R_{a+b}(n) = sum_i Bin(n, a/(a+b))(i) R_a(i) R_b(n-i); build R_p by
/// doubling and adding one bin (binary expansion of p).
pub fn bins_expectation(p: u64, f: &[f64]) -> f64 {
    let s = f.len() - 1;
    let ln_fact = ln_factorials(s);
    let mut cur = f.to_vec();
    let mut m: u64 = 1;
    for bit in (0..(63 - p.leading_zeros())).rev() {
        cur = combine(&cur, m, &cur, m, &ln_fact);
        m *= 2;
        if (p >> bit) & 1 == 1 {
            cur = combine(&cur, m, f, 1, &ln_fact);
            m += 1;
        }
    }
    debug_assert_eq!(m, p);
    cur[s]
}

fn ln_factorials(n: usize) -> Vec<f64> {
    let mut v = vec![0.0; n + 1];
    for i in 1..=n {
        v[i] = v[i - 1] + (i as f64).ln();
    }
    v
}

/// Binomial-weighted convolution of two groups of `ma` and `mb` bins.
fn combine(a: &[f64], ma: u64, b: &[f64], mb: u64, ln_fact: &[f64]) -> Vec<f64> {
    let s = a.len() - 1;
    let total = (ma + mb) as f64;
    let (w, q) = (ma as f64 / total, mb as f64 / total);
    let (ln_w, ln_q) = (w.ln(), q.ln());
    let up = w / q;
    let mut out = vec![0.0; s + 1];
    for (n, slot) in out.iter_mut().enumerate() {
        // Walk out from the mode; pmf terms below 1e-20 cannot move a
        // probability at the precision we print.
        let mode = (((n + 1) as f64 * w).floor() as usize).min(n);
        let pm = (ln_fact[n] - ln_fact[mode] - ln_fact[n - mode]
            + mode as f64 * ln_w
            + (n - mode) as f64 * ln_q)
            .exp();
        let mut sum = pm * a[mode] * b[n - mode];
        let mut pmf = pm;
        for i in mode..n {
            pmf *= (n - i) as f64 / (i + 1) as f64 * up;
            if pmf < 1e-20 {
                break;
            }
            sum += pmf * a[i + 1] * b[n - i - 1];
        }
        pmf = pm;
        for i in (1..=mode).rev() {
            pmf *= i as f64 / (n - i + 1) as f64 / up;
            if pmf < 1e-20 {
                break;
            }
            sum += pmf * a[i - 1] * b[n - i + 1];
        }
        *slot = sum;
    }
    out
}

/// E[max shards on one partition], exact: sum over k of P(max > k).
pub fn busiest_mean_exact(s: u64, p: u64) -> f64 {
    let k0 = s.div_ceil(p); // max >= ceil(S/P) always
    let mut mean = k0 as f64;
    for k in k0..s {
        let f: Vec<f64> = (0..=s).map(|n| if n <= k { 1.0 } else { 0.0 }).collect();
        let over = (1.0 - bins_expectation(p, &f)).max(0.0);
        mean += over;
        if over < 1e-15 {
            break;
        }
    }
    mean
}

/// Per-partition chance of going over the cap in a second, by shard count.
struct PartitionTails {
    load: PartitionLoad,
    shards: u64,
    cache: std::sync::Mutex<Vec<Option<f64>>>,
}

impl PartitionTails {
    fn new(load: PartitionLoad, shards: u64) -> Self {
        PartitionTails {
            load,
            shards,
            cache: std::sync::Mutex::new(vec![None; shards as usize + 1]),
        }
    }

    /// P(writes to a partition holding k shards > cap) in one second.
    fn tail(&self, k: u64) -> f64 {
        if let Ok(c) = self.cache.lock() {
            if let Some(Some(v)) = c.get(k as usize) {
                return *v;
            }
        }
        let v = self.compute(k);
        if let Ok(mut c) = self.cache.lock() {
            c[k as usize] = Some(v);
        }
        v
    }

    fn compute(&self, k: u64) -> f64 {
        if k == 0 {
            return 0.0;
        }
        let l = self.load;
        // "Over the cap" means more writes than the cap: X > floor(cap).
        let limit = l.cap.floor() as u64;
        let share = k as f64 / self.shards as f64;
        match l.traffic {
            TrafficModel::Poisson => Poisson::new(l.rate * share).map_or(0.0, |d| d.sf(limit)),
            TrafficModel::Fixed => {
                Binomial::new(share.min(1.0), l.rate as u64).map_or(0.0, |d| d.sf(limit))
            }
        }
    }
}

struct McResult {
    mean_max: f64,
    mean_max_se: f64,
    over: Option<f64>,
    over_se: Option<f64>,
}

/// Monte Carlo over placements: for each random placement record the busiest
/// partition's shard count and, with a load, the exact chance that some
/// partition goes over the cap given that placement (a Rao-Blackwellised
/// estimate: lower variance than simulating seconds).
fn monte_carlo(s: u64, p: u64, trials: u64, seed: u64, tails: Option<&PartitionTails>) -> McResult {
    let chunks = trials.div_ceil(CHUNK);
    let sums: (f64, f64, f64, f64) = (0..chunks)
        .into_par_iter()
        .map(|c| {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(
                seed.wrapping_add(c.wrapping_mul(0x9E37_79B9_7F4A_7C15)),
            );
            let n = CHUNK.min(trials - c * CHUNK);
            let mut acc = (0.0, 0.0, 0.0, 0.0);
            let mut draws: Vec<u64> = Vec::with_capacity(s as usize);
            for _ in 0..n {
                draws.clear();
                draws.extend((0..s).map(|_| rng.random_range(0..p)));
                draws.sort_unstable();
                let mut max = 0u64;
                let mut log_ok = 0.0f64;
                for run in draws.chunk_by(|a, b| a == b) {
                    let k = run.len() as u64;
                    max = max.max(k);
                    if let Some(t) = tails {
                        log_ok += (-t.tail(k)).ln_1p();
                    }
                }
                let over = -log_ok.exp_m1();
                let m = max as f64;
                acc.0 += m;
                acc.1 += m * m;
                acc.2 += over;
                acc.3 += over * over;
            }
            acc
        })
        .reduce(
            || (0.0, 0.0, 0.0, 0.0),
            |x, y| (x.0 + y.0, x.1 + y.1, x.2 + y.2, x.3 + y.3),
        );
    let t = trials as f64;
    let se = |sum: f64, sq: f64| {
        let mean = sum / t;
        let var = ((sq / t - mean * mean) * t / (t - 1.0).max(1.0)).max(0.0);
        (mean, (var / t).sqrt())
    };
    let (mean_max, mean_max_se) = se(sums.0, sums.1);
    let (over, over_se) = se(sums.2, sums.3);
    McResult {
        mean_max,
        mean_max_se,
        over: tails.map(|_| over),
        over_se: tails.map(|_| over_se),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// E[max] and P(shared) by listing all P^S placements.
    fn brute(s: u32, p: u64) -> (f64, f64, f64) {
        let total = p.pow(s);
        let (mut max_sum, mut shared, mut shared_parts) = (0u64, 0u64, 0u64);
        for code in 0..total {
            let mut counts = vec![0u64; p as usize];
            let mut c = code;
            for _ in 0..s {
                counts[(c % p) as usize] += 1;
                c /= p;
            }
            let max = *counts.iter().max().unwrap();
            max_sum += max;
            shared += u64::from(max >= 2);
            shared_parts += counts.iter().filter(|&&k| k >= 2).count() as u64;
        }
        let t = total as f64;
        (
            max_sum as f64 / t,
            shared as f64 / t,
            shared_parts as f64 / t,
        )
    }

    #[test]
    fn exact_matches_enumeration() {
        for (s, p) in [
            (1, 1),
            (2, 2),
            (3, 4),
            (4, 3),
            (5, 5),
            (6, 2),
            (7, 3),
            (4, 10),
        ] {
            let (mean_max, shared, parts) = brute(s, p);
            let s = u64::from(s);
            assert!(
                (busiest_mean_exact(s, p) - mean_max).abs() < 1e-12,
                "{s} {p}"
            );
            assert!((p_shared_partition(s, p) - shared).abs() < 1e-12, "{s} {p}");
            assert!(
                (expected_shared_partitions(s, p) - parts).abs() < 1e-12,
                "{s} {p}"
            );
        }
    }

    #[test]
    fn closed_forms() {
        // Two shards: share with chance 1/P; busiest mean 1 + 1/P.
        assert!((p_shared_partition(2, 10) - 0.1).abs() < 1e-15);
        assert!((busiest_mean_exact(2, 10) - 1.1).abs() < 1e-13);
        assert_eq!(p_shared_partition(21, 20), 1.0);
        assert_eq!(busiest_mean_exact(5, 1), 5.0);
        // Huge P: C(2,2)/P without cancellation.
        let e = expected_shared_partitions(2, 1_000_000_000);
        assert!((e - 1e-9).abs() < 1e-22, "{e}");
        assert!((p_shared_partition(2, 1_000_000_000) - 1e-9).abs() < 1e-22);
        // Birthday: 23 people, 365 days: 0.5072972343239854.
        assert!((p_shared_partition(23, 365) - 0.507_297_234_323_985_4).abs() < 1e-13);
        assert!((expected_occupied_partitions(1, 7) - 1.0).abs() < 1e-14);
    }

    #[test]
    fn twenty_shards_ten_partitions() {
        let r = PartitionPlan::new(20, 10).unwrap().evaluate();
        assert_eq!(r.method, Method::Exact);
        assert_eq!(r.p_shared_partition, 1.0);
        // P * (1 - 0.9^20 - 20/10 * 0.9^19)
        let closed = 10.0 * (1.0 - 0.9f64.powi(20) - 2.0 * 0.9f64.powi(19));
        assert!((r.expected_shared_partitions - closed).abs() < 1e-12);
        assert!(r.busiest_partition_mean_shards > 4.0 && r.busiest_partition_mean_shards < 6.0);
    }

    #[test]
    fn cap_chance_limits() {
        // One partition takes everything: over iff rate > cap.
        let r = PartitionPlan::new(4, 1)
            .unwrap()
            .with_load(1200.0, 1000.0, TrafficModel::Fixed)
            .unwrap()
            .evaluate();
        assert!((r.p_partition_over_cap_per_second.unwrap() - 1.0).abs() < 1e-12);
        let r = PartitionPlan::new(4, 1)
            .unwrap()
            .with_load(900.0, 1000.0, TrafficModel::Fixed)
            .unwrap()
            .evaluate();
        assert!(r.p_partition_over_cap_per_second.unwrap().abs() < 1e-12);
        // One shard on one of P partitions: over iff Poisson(rate) > cap.
        let r = PartitionPlan::new(1, 20)
            .unwrap()
            .with_load(950.0, 1000.0, TrafficModel::Poisson)
            .unwrap()
            .evaluate();
        let direct = Poisson::new(950.0).unwrap().sf(1000);
        assert!((r.p_partition_over_cap_per_second.unwrap() - direct).abs() < 1e-12);
    }

    #[test]
    fn input_errors() {
        assert_eq!(PartitionPlan::new(0, 4).unwrap_err().what, "--shards");
        assert_eq!(PartitionPlan::new(4, 0).unwrap_err().what, "--partitions");
        let p = PartitionPlan::new(4, 4).unwrap();
        assert_eq!(
            p.clone()
                .with_load(10.5, 100.0, TrafficModel::Fixed)
                .unwrap_err()
                .what,
            "--rate"
        );
        assert_eq!(
            p.with_load(10.0, 0.0, TrafficModel::Poisson)
                .unwrap_err()
                .what,
            "--cap"
        );
    }
}
