//! The fast path of a flat simulation: what a tally needs, drawn from the
//! exact distributions instead of every shard's count.
//!
//! A tally keeps the busiest shard's histogram, the total likes and the
//! quietest shard's minimum. Per chunk of `n` seconds:
//!
//! - the busiest shard: `n` draws from its exact per-second table by a
//!   guide-table inversion ([`TableSampler`]), counted into a dense array
//!   over the table's values (no histogram bookkeeping per second);
//! - the quietest shard's minimum over the chunk: one draw. The seconds are
//!   independent, so the minimum of `n` per-second quietest values `Q_t` has
//!   `P(min_t Q_t > c) = P(Q > c)^n`: drawing it by inversion of that law
//!   (a table built once per chunk length) is the same law as drawing the
//!   `n` values and keeping the least, up to the double rounding of the
//!   tables;
//! - the likes: fixed traffic has `n L`; Poisson traffic's per-second counts
//!   are independent Poisson(L), so their sum is Poisson(n L): one draw, the
//!   same law as the sum of `n` draws.
//!
//! Only the busiest values are drawn per second. The chunk's draws come
//! from its own generator in a fixed order (the minimum, the likes, then
//! the busiest values), so results stay a function of (seed, chunk).

use rand_distr::{Distribution, Gamma, Poisson};

use super::{SimPlan, SimTally, CHUNK_SECONDS};
use crate::error::{ParamError, ParamResult};
use crate::model::exact::{BusiestShard, QuietestShard};
use crate::model::law::gamma_poisson::second_rate;
use crate::model::law::poisson::poisson_at;
use crate::model::law::{LawProblem, Split, TrafficModel};
use crate::model::sampler::{chunk_rng, TableSampler};
use crate::model::stats::Histogram;

/// A chunk length's draws: its quietest minimum and its Poisson total.
#[derive(Debug, Clone)]
struct ChunkLaws {
    seconds: u64,
    quietest_min: TableSampler,
    /// The chunk's total likes; `None` for fixed traffic.
    likes: Option<ChunkTotal>,
}

/// A chunk's total likes under random traffic.
#[derive(Debug, Clone)]
enum ChunkTotal {
    /// Poisson(seconds x rate).
    Poisson(Poisson<f64>),
    /// Gamma-poisson: n seconds of NegBin(K, p) add to NegBin(n K, p), a
    /// Poisson count at a Gamma(n K, rate / K) rate.
    GammaPoisson(Gamma<f64>),
}

impl ChunkTotal {
    fn sample<R: rand::Rng + ?Sized>(&self, rng: &mut R) -> u128 {
        match self {
            // Poisson samples are whole numbers held in an f64 (below 2^53:
            // rate x chunk seconds is at most 1e9 x 4096).
            ChunkTotal::Poisson(p) => p.sample(rng) as u128,
            ChunkTotal::GammaPoisson(g) => {
                let rate = g.sample(rng);
                poisson_at(rng, rate) as u128
            }
        }
    }
}

impl ChunkLaws {
    fn new(q: &QuietestShard, seconds: u64, rate: f64, traffic: TrafficModel) -> ParamResult<Self> {
        let (lo, hi) = q.table_range();
        let n = seconds as f64;
        // ln P(Q > c) for one second, from whichever tail is small (ln_1p of
        // a small CDF keeps its digits, ln of a small sf keeps its own):
        // then P(min > c) = exp(n ln P(Q > c)), and its complement by expm1.
        let ln_sf_n: Vec<f64> = (lo..=hi)
            .map(|c| {
                let f = q.cdf(c);
                n * if f < 0.5 { (-f).ln_1p() } else { q.sf(c).ln() }
            })
            .collect();
        let cdf = ln_sf_n.iter().map(|&x| -x.exp_m1()).collect();
        let sf = ln_sf_n.iter().map(|&x| x.exp()).collect();
        let likes = match traffic.split(rate) {
            Split::Count(_) => None,
            Split::Poisson(rate) => Some(ChunkTotal::Poisson(
                Poisson::new(n * rate)
                    .map_err(|e| ParamError::new("rate", LawProblem::NoPoissonTotal(e).into()))?,
            )),
            Split::GammaRate { mean, shape } => {
                let total_rate = second_rate(n * mean, n * shape)?;
                Some(ChunkTotal::GammaPoisson(total_rate))
            }
            // (`QuietestShard` refuses empirical traffic before this.)
            Split::Counts(_) => {
                let none = crate::model::exact::ExactProblem::NoQuietestTable;
                return Err(ParamError::new("sampler", none.into()));
            }
        };
        Ok(ChunkLaws {
            seconds,
            quietest_min: TableSampler::new(lo, cdf, sf),
            likes,
        })
    }
}

/// The busiest and quietest shards' exact per-second distributions, as
/// samplers (the fast path).
#[derive(Debug, Clone)]
pub struct ExactTables {
    pub(super) exact: BusiestShard,
    busiest: TableSampler,
    /// For full chunks, and for the shorter last chunk if there is one.
    chunk_laws: Vec<ChunkLaws>,
}

impl ExactTables {
    /// The tables for `plan`'s load and run length.
    pub fn new(plan: &SimPlan) -> ParamResult<Self> {
        let exact = BusiestShard::new(plan.rate, plan.shards, plan.traffic)?;
        let mut lengths = vec![CHUNK_SECONDS.min(plan.seconds)];
        let last = plan.seconds % CHUNK_SECONDS;
        if last != 0 && plan.seconds > CHUNK_SECONDS {
            lengths.push(last);
        }
        // Only as much of the per-second table as the shortest chunk's
        // minimum can reach (a long chunk's minimum never sees the top).
        let shortest = *lengths.iter().min().expect("one length at least");
        let quietest =
            QuietestShard::for_minimum_over(plan.rate, plan.shards, plan.traffic, shortest)?;
        let chunk_laws = lengths
            .into_iter()
            .map(|n| ChunkLaws::new(&quietest, n, plan.rate, plan.traffic))
            .collect::<ParamResult<_>>()?;
        Ok(ExactTables {
            busiest: TableSampler::busiest(&exact),
            exact,
            chunk_laws,
        })
    }
}

/// One chunk by the fast path (marginals only, which is all a tally needs).
pub(super) fn run_chunk_table(plan: &SimPlan, tables: &ExactTables, chunk: u64) -> SimTally {
    let mut rng = chunk_rng(plan.seed, chunk);
    let (start, end) = plan.chunk_range(chunk);
    let seconds = end - start;
    let laws = tables
        .chunk_laws
        .iter()
        .find(|l| l.seconds == seconds)
        .expect("a law for every chunk length");
    let quietest_min = laws.quietest_min.sample(&mut rng);
    let likes = match &laws.likes {
        Some(total) => total.sample(&mut rng),
        None => plan.rate as u128 * seconds as u128,
    };
    let mut counts = vec![0u64; tables.busiest.len()];
    for _ in 0..seconds {
        counts[tables.busiest.sample_index(&mut rng)] += 1;
    }
    SimTally {
        replications: Vec::new(),
        seconds,
        likes,
        busiest: Histogram::from_dense(tables.busiest.lo(), &counts),
        quietest_min: Some(quietest_min),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two samples of the same size from one law? Pearson's homogeneity
    /// chi-square over bins pooled (in value order) until both samples
    /// together hold at least 40; returns (statistic, degrees of freedom).
    fn homogeneity(a: &[u64], b: &[u64]) -> (f64, usize) {
        assert_eq!(a.len(), b.len());
        let hi = *a.iter().chain(b).max().unwrap() as usize;
        let (mut ca, mut cb) = (vec![0.0; hi + 1], vec![0.0; hi + 1]);
        a.iter().for_each(|&x| ca[x as usize] += 1.0);
        b.iter().for_each(|&x| cb[x as usize] += 1.0);
        let (mut cells, mut x, mut y) = (Vec::new(), 0.0, 0.0);
        for v in 0..=hi {
            x += ca[v];
            y += cb[v];
            if x + y >= 40.0 {
                cells.push((x, y));
                (x, y) = (0.0, 0.0);
            }
        }
        if let Some(last) = cells.last_mut() {
            last.0 += x;
            last.1 += y;
        }
        let stat = cells.iter().map(|(x, y)| (x - y) * (x - y) / (x + y)).sum();
        (stat, cells.len() - 1)
    }

    /// The chi-square's 0.999 quantile (Wilson-Hilferty; ample here).
    fn chi2_999(df: usize) -> f64 {
        let k = df as f64;
        k * (1.0 - 2.0 / (9.0 * k) + 3.090_232 * (2.0 / (9.0 * k)).sqrt()).powi(3)
    }

    #[test]
    fn chunk_minimum_is_the_minimum_of_the_seconds() {
        // The one-draw minimum over n seconds against n per-second draws of
        // the quietest table (the old path), for both traffic models and a
        // short and a full chunk. alpha = 0.001 each, fixed seeds.
        for traffic in [TrafficModel::Fixed, TrafficModel::Poisson] {
            let q = QuietestShard::new(14_000.0, 20, traffic).unwrap();
            let per_second = TableSampler::quietest(&q);
            for n in [5u64, CHUNK_SECONDS] {
                let law = ChunkLaws::new(&q, n, 14_000.0, traffic).unwrap();
                let draws = if n > 100 { 4_000 } else { 40_000 };
                let mut rng = chunk_rng(17, n);
                let once: Vec<u64> = (0..draws)
                    .map(|_| law.quietest_min.sample(&mut rng))
                    .collect();
                let each: Vec<u64> = (0..draws)
                    .map(|_| (0..n).map(|_| per_second.sample(&mut rng)).min().unwrap())
                    .collect();
                let (stat, df) = homogeneity(&once, &each);
                assert!(
                    stat < chi2_999(df),
                    "{traffic:?} n={n}: {stat:.1} over {df} df"
                );
            }
        }
    }

    #[test]
    fn chunk_likes_are_the_sum_of_the_seconds() {
        // Poisson(n L) for a chunk: mean and variance n L = 4096 x 14,000.
        // Over 4,000 chunks the mean's SE is sqrt(nL / 4000) and the
        // variance's about nL sqrt(2 / 4000): allow 5 SE each.
        let q = QuietestShard::new(14_000.0, 20, TrafficModel::Poisson).unwrap();
        let law = ChunkLaws::new(&q, CHUNK_SECONDS, 14_000.0, TrafficModel::Poisson).unwrap();
        let mut rng = chunk_rng(23, 0);
        let k = 4_000;
        let xs: Vec<f64> = (0..k)
            .map(|_| law.likes.as_ref().unwrap().sample(&mut rng) as f64)
            .collect();
        let nl = CHUNK_SECONDS as f64 * 14_000.0;
        let mean = xs.iter().sum::<f64>() / k as f64;
        let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (k - 1) as f64;
        assert!(
            (mean - nl).abs() < 5.0 * (nl / k as f64).sqrt(),
            "mean {mean}"
        );
        assert!(
            (var - nl).abs() < 5.0 * nl * (2.0 / k as f64).sqrt(),
            "variance {var}"
        );
        assert!(xs.iter().all(|x| x.fract() == 0.0));
    }
}
