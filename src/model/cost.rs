//! What a run will cost, before it starts.
//!
//! An estimate is work units times the time one unit took on the reference
//! machine (2 cores, release build, the timings in `docs/performance.md`).
//! It is a formula, not a timing, so the same inputs always give the same
//! estimate, and the same refusal: a run estimated over
//! [`MAX_RUN_SECONDS`] is refused before it starts, naming the input that
//! makes it long; one over [`ANNOUNCE_SECONDS`] says its estimate on stderr.

use crate::error::{ParamError, ParamResult, Problem};
use crate::model::fleet::PlacementWork;
use crate::model::law::TrafficModel;

/// Estimates above this are said on stderr before the run starts.
pub const ANNOUNCE_SECONDS: f64 = 60.0;

pub use crate::model::defaults::{LONG_RUN_SECONDS, MAX_RUN_SECONDS};

/// One simulated second drawn from the exact busiest/quietest tables
/// (guide-table inversion, one quietest minimum per chunk: 14,000 x 20,
/// `--seconds 10000000` 0.12 s wall against 0.063 s for 1,000,000, so
/// 6 ns a second on top of the tables' build; 5-8 ns per second on one
/// core in `benches/sampler.rs`).
const TABLE_NS_PER_SECOND: f64 = 6.0;

/// Every shard's count (`--sampler multinomial`), per draw: one Poisson
/// count from a guide table (with the max, min and histogram of the
/// second), one uniform pick of a shard for a missing like, one BTRD
/// binomial of the chain (CPU time, release build: Poisson traffic 14,000
/// x 20 x 1,000,000 s 0.10 s; fixed 0.47 s; the chain, before, 0.69 s at
/// 19 binomials a second).
const TABLE_DRAW_NS: f64 = 5.0;
const PICK_NS: f64 = 3.0;
const BINOMIAL_NS: f64 = 48.0;

/// One second written as a CSV row (`--per-second`).
const PER_SECOND_ROW_NS: f64 = 400.0;

/// What one simulated second draws.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SecondDraws {
    /// The busiest shard from its exact table.
    ExactTable,
    /// Every shard's count: table draws, uniform picks and binomials.
    EveryShard {
        /// Poisson counts from a guide table.
        table_draws: f64,
        /// Uniform picks of a shard, one a missing like.
        picks: f64,
        /// Binomials of the chain.
        binomials: f64,
    },
}

/// One second of a time line, before its keys (viral-evening, 1 key:
/// 1,000,000 s in 0.17 s, 10,000,000 s in 1.4 s).
const TIMELINE_NS_PER_SECOND: f64 = 140.0;

/// One key-second of a time line (200 keys: 1,000,000 s in 1.1 s).
const TIMELINE_NS_PER_KEY_SECOND: f64 = 5.0;

/// One second of the hot-key monitor's window (viral-evening-monitor,
/// 1 -> 20 keys: 1,000,000 s in 2.4 s).
const MONITOR_NS_PER_SECOND: f64 = 2300.0;

/// A fleet's trial: a sampled placement draws one by one only the
/// partitions its explicit keys land on, the others in aggregate (one
/// draw). One key placed costs 3 ns while the per-partition loads fit in
/// cache (100,000 partitions: 800 kB) and a cache miss past that, 15 ns;
/// one touched partition drawn and reset 10 ns. A draw of the rest for the
/// chances over the cap: a look-up a key of the rest that lands, 30 ns,
/// and 300 ns a Poisson tail of the exact runs' walks (the tail, and the
/// binomial terms of both figures' walks and their sums). Measured
/// (2026-12-07, CPU s): 1,000,000 partitions, 1,000 keys, 100,000 trials:
/// 1.75 s; 2,000,000 keys, 40 trials: 1.35 s; 10,000 partitions,
/// 2,000,000 keys, 40 trials: 0.21 s; the interview's post (2,715 keys
/// over 1,000 partitions, 40 tails a draw), 4,000 trials: 0.17 s.
const FLEET_NS_PER_KEY_IN_CACHE: f64 = 3.0;
const FLEET_NS_PER_KEY_MISSED: f64 = 15.0;
const FLEET_PARTITIONS_IN_CACHE: u64 = 100_000;
const FLEET_NS_PER_TOUCHED: f64 = 10.0;
const FLEET_NS_PER_REST_KEY: f64 = 30.0;
const FLEET_NS_PER_TERM: f64 = 300.0;

/// An estimate in wall seconds on the reference machine.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    /// Wall seconds.
    pub seconds: f64,
}

/// Worker threads the reference machine's timings ran on (its 2 cores).
pub const REFERENCE_THREADS: usize = 2;

impl Estimate {
    /// The estimate on `threads` workers (`--threads`, else one a core):
    /// the reference timings ran on two, so one worker takes twice as long.
    pub fn on_threads(self, threads: usize) -> Estimate {
        Estimate::new(self.seconds * REFERENCE_THREADS as f64 / threads.max(1) as f64)
    }

    /// [`Estimate::on_threads`] on the run's own workers (the pool the
    /// command runs on: `--threads`, else one a core).
    pub fn on_workers(self) -> Estimate {
        self.on_threads(rayon::current_num_threads())
    }

    /// `seconds` of work.
    pub fn new(seconds: f64) -> Estimate {
        Estimate { seconds }
    }

    /// Refuse the run if the estimate is over [`MAX_RUN_SECONDS`], blaming
    /// `param` (the model's name for the input that makes it long, so the
    /// configuration layer names its flag or scenario field).
    pub fn within_limit(self, param: &'static str) -> ParamResult<Estimate> {
        if self.seconds > MAX_RUN_SECONDS {
            return Err(ParamError::new(
                param,
                Problem::TooLong {
                    hours: self.seconds / 3600.0,
                    limit_hours: MAX_RUN_SECONDS / 3600.0,
                },
            ));
        }
        Ok(self)
    }

    /// Refuse the run, unless `long_run` (`--long-run`), if the estimate is
    /// over [`LONG_RUN_SECONDS`], blaming `param` as [`Self::within_limit`] does.
    pub fn within_short_run(self, param: &'static str, long_run: bool) -> ParamResult<Estimate> {
        if self.seconds > LONG_RUN_SECONDS && !long_run {
            return Err(ParamError::new(
                param,
                Problem::NeedsLongRun {
                    hours: self.seconds / 3600.0,
                    limit_hours: LONG_RUN_SECONDS / 3600.0,
                },
            ));
        }
        Ok(self)
    }

    /// Whether the estimate is long enough to say before the run starts.
    pub fn worth_announcing(self) -> bool {
        self.seconds > ANNOUNCE_SECONDS
    }

    /// Two estimates run one after the other.
    pub fn then(self, other: Estimate) -> Estimate {
        Estimate::new(self.seconds + other.seconds)
    }
}

/// A flat simulation of `seconds`, each drawing `draws`.
pub fn flat_simulation(seconds: u64, draws: SecondDraws, per_second: bool) -> Estimate {
    let per_draws = match draws {
        SecondDraws::ExactTable => TABLE_NS_PER_SECOND,
        SecondDraws::EveryShard {
            table_draws,
            picks,
            binomials,
        } => table_draws * TABLE_DRAW_NS + picks * PICK_NS + binomials * BINOMIAL_NS,
    };
    let row = if per_second { PER_SECOND_ROW_NS } else { 0.0 };
    Estimate::new(seconds as f64 * (per_draws + row) * 1e-9)
}

/// A time line of `seconds` over at most `keys` shard keys, with or
/// without the hot-key monitor.
pub fn timeline(seconds: u64, keys: u64, monitor: bool) -> Estimate {
    let per_second = TIMELINE_NS_PER_SECOND
        + keys as f64 * TIMELINE_NS_PER_KEY_SECOND
        + if monitor { MONITOR_NS_PER_SECOND } else { 0.0 };
    Estimate::new(seconds as f64 * per_second * 1e-9)
}

/// One exact risk figure (the busiest shard's distribution and its
/// quantiles). Poisson traffic is a closed form (under 0.1 s at 1e9
/// likes/s), and so is fixed traffic over at most 2 shards; three shards
/// take the exact two-term formula (0.35 s at 1e9 likes/s, growing as
/// (likes per shard)^0.85). Four to ten shards take inclusion-exclusion
/// over every joint tail: O(1) a value of `c` (about sqrt(L/S) of them)
/// over a few hundred states, growing as S^2.5. Past ten, Levin's blocks,
/// whose starts grow with the grid, as sqrt(L). Fitted to CPU timings of
/// issue 18's second session (1e8 and 1e9 likes/s, 3 to 100 shards),
/// within a factor of 2: the slowest accepted input is about a second.
pub fn exact_risk(rate: f64, shards: u64, model: TrafficModel) -> Estimate {
    if let Some(law) = model.empirical() {
        return empirical_risk(law, shards);
    }
    if model.dispersion().is_some() {
        return gamma_row(rate, shards);
    }
    if model.split(rate).shards_independent() || shards <= 2 {
        return Estimate::new(0.0);
    }
    let per_shard = rate / shards as f64;
    Estimate::new(match shards {
        3 => 3.2e-8 * per_shard.powf(0.85),
        4..=10 => 3.5e-7 * (shards as f64).powf(2.5) * per_shard.sqrt(),
        _ => 2.5e-5 * rate.sqrt(),
    })
}

/// The busiest shard's whole table (what `simulate`'s table sampler and
/// its exact figures build): [`exact_risk`], but for gamma-poisson traffic,
/// whose risk row needs no table, [`gamma_table`].
pub fn exact_table(rate: f64, shards: u64, model: TrafficModel) -> Estimate {
    match model.dispersion() {
        Some(k) => gamma_table(rate, shards, k),
        None => exact_risk(rate, shards, model),
    }
}

/// Gamma-poisson traffic's risk row without the table (`exact::gamma_row`):
/// about six integrals over the second's rate (the mean, the chance over
/// the cap, a block of cuts or two a quantile), each a few hundred nodes
/// at a Poisson tail of about 10 sqrt(likes per shard) terms: 1 to 2 ms
/// of CPU a row at 22,231.5 likes/s over 10 to 1,000 shards (K = 6.9),
/// growing with the square root of the likes per shard.
pub fn gamma_row(rate: f64, shards: u64) -> Estimate {
    let per_shard = rate / shards as f64;
    Estimate::new(1e-3 * (1.0 + per_shard.sqrt() / 20.0))
}

/// Gamma-poisson traffic's table (what the table sampler of `simulate`
/// builds): two adaptive integrals a block of eight rows, with the
/// quietest shard's table beside it (two a block of eight too), about
/// 0.15 ms of CPU a row (measured 2026-12-06: 1.00 s for the 8,130 rows of
/// 30,000 likes/s over 16 shards at K = 21; 0.5 ms when each row took its
/// own two integrals), over [`gamma_table_rows`] rows, at most
/// `MAX_MIXED_ROWS` (more is refused).
pub fn gamma_table(rate: f64, shards: u64, k: f64) -> Estimate {
    let rows = gamma_table_rows(rate, shards, k).min(crate::model::exact::MAX_MIXED_ROWS as f64);
    Estimate::new(1.5e-4 * rows)
}

/// The rows of gamma-poisson traffic's table, roughly: the per-shard
/// rate's Gamma spread out to 1e-17 (about 9 / sqrt(K) + 40 / K of the
/// mean) plus the Poisson spread.
pub fn gamma_table_rows(rate: f64, shards: u64, k: f64) -> f64 {
    let per_shard = rate / shards as f64;
    per_shard * (9.0 / k.sqrt() + 40.0 / k) + 20.0 * per_shard.sqrt() + 10.0
}

/// Empirical traffic's table: one fixed-count table per distinct count,
/// two at a time, then each row mixed over the counts. A fixed table at a
/// few thousand likes a second costs less than the fit above (made at 1e8
/// and 1e9): measured 2026-12-02, 1,691 distinct counts from 7,300 to
/// 16,517 likes/s (a per-second hour grown 1.5x), CPU seconds for the
/// whole table: 2.9 at 10 shards, 1.7 at 20, 1.6 at 40, i.e. 0.4 of the
/// fit's figure a count.
fn empirical_risk(law: &crate::model::law::empirical::EmpiricalLaw, shards: u64) -> Estimate {
    let tables: f64 = law
        .counts()
        .iter()
        .map(|&n| {
            let fixed = exact_risk(n as f64, shards, TrafficModel::Fixed).seconds;
            (EMPIRICAL_TABLE_SHARE * fixed).max(EMPIRICAL_TABLE_MIN_SECONDS)
        })
        .sum();
    let s = shards as f64;
    let rows = (law.max() - law.min()) as f64 / s + 40.0 * (law.max() as f64 / s).sqrt() + 10.0;
    let mixing = rows * law.distinct() as f64 * EMPIRICAL_MIX_NS * 1e-9;
    Estimate::new((tables + mixing) / 2.0)
}

/// A fixed table's share of [`exact_risk`]'s fixed figure at an empirical
/// law's rates (see [`empirical_risk`]).
const EMPIRICAL_TABLE_SHARE: f64 = 0.4;
/// The least a count's table costs (a small count's few rows).
const EMPIRICAL_TABLE_MIN_SECONDS: f64 = 1e-4;
/// One count's term in one row of the mixture.
const EMPIRICAL_MIX_NS: f64 = 30.0;

/// A fleet's trials: `trials` placements and `placement.draws` draws of
/// the rest (one evaluation where there are none), of the work
/// `placement`. (The plan search is not in the
/// model: it is slow only when every reel is hot, about a minute at most;
/// see docs/performance.md.)
pub fn fleet(placement: PlacementWork, trials: u64) -> Estimate {
    let per_key = match placement.partitions <= FLEET_PARTITIONS_IN_CACHE {
        true => FLEET_NS_PER_KEY_IN_CACHE,
        false => FLEET_NS_PER_KEY_MISSED,
    };
    let placement_ns = placement.keys as f64 * per_key + placement.touched * FLEET_NS_PER_TOUCHED;
    let draw_ns =
        placement.rest_keys * FLEET_NS_PER_REST_KEY + placement.terms as f64 * FLEET_NS_PER_TERM;
    let draws = placement.draws.max(1) as f64;
    Estimate::new((trials as f64 * placement_ns + draws * draw_ns) * 1e-9)
}

/// A sweep: one exact figure per shard count, two at a time.
pub fn sweep(rate: f64, shard_counts: &[u64], model: TrafficModel) -> Estimate {
    let total: f64 = shard_counts
        .iter()
        // A figure costs at least 0.2 ms however cheap its formula.
        .map(|&s| exact_risk(rate, s, model).seconds.max(2e-4))
        .sum();
    Estimate::new(total / 2.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn estimates_follow_the_timings() {
        // The timings the constants came from, back within a factor of 2.5.
        let close = |e: Estimate, measured: f64| {
            assert!(
                e.seconds / measured < 2.5 && measured / e.seconds < 2.5,
                "{e:?} against {measured} s"
            );
        };
        let every = |table_draws, picks, binomials| SecondDraws::EveryShard {
            table_draws,
            picks,
            binomials,
        };
        close(
            flat_simulation(10_000_000, SecondDraws::ExactTable, false),
            0.12,
        );
        // 14,000 fixed over 20 shards, 1e6 s: 1.45 x 20 draws, 119.5 picks.
        close(
            flat_simulation(1_000_000, every(29.0, 119.5, 0.0), false),
            0.55,
        );
        // 200,000 over 286 shards, 1e5 s: Poisson traffic, then fixed.
        close(flat_simulation(100_000, every(286.0, 0.0, 0.0), false), 0.1);
        close(
            flat_simulation(100_000, every(414.7, 452.0, 0.0), false),
            0.23,
        );
        // 1e8 over 50 shards, 1e5 s: the chain.
        close(flat_simulation(100_000, every(0.0, 0.0, 49.0), false), 0.25);
        // 14,000 over 20 with --per-second rows, 1e5 s.
        close(
            flat_simulation(100_000, every(29.0, 119.5, 0.0), true),
            0.058,
        );
        close(timeline(10_000_000, 1, false), 1.38);
        close(timeline(1_000_000, 200, false), 1.09);
        close(timeline(1_000_000, 20, true), 2.42);
        close(exact_risk(1e9, 4, TrafficModel::Fixed), 0.18);
        close(exact_risk(1e9, 8, TrafficModel::Fixed), 0.56);
        close(exact_risk(1e8, 10, TrafficModel::Fixed), 0.37);
        close(exact_risk(1e9, 10, TrafficModel::Fixed), 1.12);
        close(exact_risk(1e9, 3, TrafficModel::Fixed), 0.33);
        close(exact_risk(1e8, 20, TrafficModel::Fixed), 0.14);
        close(exact_risk(1e9, 20, TrafficModel::Fixed), 0.84);
        close(exact_risk(1e9, 100, TrafficModel::Fixed), 0.45);
        // Per trial (CPU seconds), the timings above.
        let work = |partitions, keys, touched, (rest_keys, terms, draws)| PlacementWork {
            partitions,
            keys,
            touched,
            rest_keys,
            terms,
            draws,
        };
        close(
            fleet(work(1_000_000, 1_000, 999.5, (1e-3, 2, 100_000)), 100_000),
            1.75,
        );
        close(
            fleet(work(1_000_000, 2_000_000, 864_665.0, (2.0, 475, 40)), 40),
            1.35,
        );
        close(
            fleet(work(10_000, 2_000_000, 10_000.0, (200.0, 97, 40)), 40),
            0.21,
        );
        close(
            fleet(work(1_000, 3_715, 975.7, (1.0, 40, 4_000)), 4_000),
            0.17,
        );
        close(exact_risk(1e8, 100, TrafficModel::Fixed), 0.17);
        assert_eq!(exact_risk(1e9, 7, TrafficModel::Poisson).seconds, 0.0);
        // Gamma-poisson rows (issue 37; CPU seconds a row, release build):
        // 22,231.5 likes/s at K = 6.9 over 57 shards, and `sweep --shards
        // 10..1000` (991 rows, 1.2 s).
        close(gamma_row(22_231.5, 57), 2.0e-3);
        let rows: Vec<u64> = (10..=1000).collect();
        let k = crate::model::law::Dispersion::new("dispersion", 6.9).unwrap();
        let gp = TrafficModel::GammaPoisson(k);
        close(Estimate::new(2.0 * sweep(22_231.5, &rows, gp).seconds), 1.2);
    }

    /// The empirical timings `empirical_risk` was fitted to (wall seconds
    /// on 2 cores: half the CPU), within a factor of 2.5.
    #[test]
    fn empirical_follows_the_timings() {
        // 1,691 distinct counts from 7,300 to 16,517, as measured.
        let mut table: Vec<(u64, u64)> = (0..1690).map(|i| (7_300 + 5 * i, 2)).collect();
        table.push((16_517, 1));
        let law = crate::model::law::empirical::EmpiricalLaw::new(&table).unwrap();
        let model = TrafficModel::Empirical(law.leak());
        for (shards, cpu) in [(10, 2.9), (20, 1.7), (40, 1.6)] {
            let e = exact_risk(1.0, shards, model);
            let wall = cpu / 2.0;
            assert!(
                e.seconds / wall < 2.5 && wall / e.seconds < 2.5,
                "{shards}: {e:?} against {wall} s"
            );
        }
    }

    #[test]
    fn the_limit_names_the_input() {
        // 1e12 s from the tables: about 1.7 hours, accepted and announced.
        let e = flat_simulation(1_000_000_000_000, SecondDraws::ExactTable, false);
        assert!(e.within_limit("seconds").is_ok() && e.worth_announcing());
        // Every shard's count (the binomial chain over 20 shards): about
        // 10 days, refused.
        let chain = SecondDraws::EveryShard {
            table_draws: 0.0,
            picks: 0.0,
            binomials: 19.0,
        };
        let e = flat_simulation(1_000_000_000_000, chain, false);
        let err = e.within_limit("seconds").unwrap_err();
        assert_eq!(err.param, "seconds");
        assert_eq!(
            err.problem.to_string(),
            "makes a run of about 253 hours by the cost model; the limit is 24 hours \
             (docs/performance.md), so ask for less"
        );
        assert!(!flat_simulation(2000, SecondDraws::ExactTable, false).worth_announcing());
    }
}
