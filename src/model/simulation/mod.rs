//! The Monte Carlo engine: independent simulated seconds, split into
//! fixed-size chunks, each chunk seeded from (seed, chunk index) and run on
//! rayon. Chunk summaries merge exactly (integer histograms), so the result
//! is byte-identical for any thread count. Memory is one histogram per
//! chunk in flight, never a value per second.

use std::io::Write;

use rayon::prelude::*;
use serde::Serialize;

use crate::error::{ParamError, ParamResult};
use std::sync::Arc;

use crate::model::exact::BusiestShard;
use crate::model::law::TrafficModel;
use crate::model::picker::{PickerSampler, Writers};
use crate::model::sampler::{chunk_rng, ShardSampler};
use crate::model::stats::Histogram;
use crate::model::validate;

/// Seconds per chunk: large enough to amortise rayon's scheduling, small
/// enough to balance two cores on short runs. Fixed, so results never
/// depend on the thread count.
pub const CHUNK_SECONDS: u64 = 4096;

/// Independent replications (at least, where the run has as many
/// seconds) of a run whose seconds carry state: its interval comes from
/// the spread between them ([`SimTally::over_cap_interval`]).
pub const REPLICATIONS: u64 = 20;
/// Chunks simulated in parallel before their per-second rows are written
/// in order (bounds the memory of `--per-second`).
const ROW_BATCH_CHUNKS: u64 = 16;

/// How each simulated second is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SamplerKind {
    /// The exact table where it is cheap to build, else multinomial; always
    /// multinomial with --per-second (which needs each second's joint counts).
    #[default]
    Auto,
    /// Every shard's count: independent Poisson draws from a table
    /// (conditioned on the total for fixed traffic), or S - 1 conditional
    /// binomials past a million likes per shard.
    Multinomial,
    /// The busiest and the quietest shard drawn straight from their exact
    /// per-second distributions: one uniform and a table lookup each.
    ExactTable,
}

impl SamplerKind {
    /// The name `--sampler` takes.
    pub fn name(self) -> &'static str {
        match self {
            SamplerKind::Auto => "auto",
            SamplerKind::Multinomial => "multinomial",
            SamplerKind::ExactTable => "exact-table",
        }
    }
}

/// Above this mean per shard the exact tables build slowly (Levin's sums and
/// the quietest shard's tail sums grow with the spread of a shard's count),
/// so `auto` keeps the multinomial sampler.
const AUTO_TABLE_MAX_MEAN_PER_SHARD: f64 = 20_000.0;

/// A validated simulation.
#[derive(Debug, Clone)]
pub struct SimPlan {
    /// Likes per second (a whole number for fixed traffic).
    pub rate: f64,
    /// Shards the likes spread over.
    pub shards: u64,
    /// Writes a second one shard may take.
    pub cap: u64,
    /// Seconds simulated.
    pub seconds: u64,
    /// How the likes in a second are counted.
    pub traffic: TrafficModel,
    /// Master seed: the same seed gives the same tally on any thread count.
    pub seed: u64,
    sampler: ShardSampler,
    tables: Option<Arc<ExactTables>>,
    /// Writers other than the random pickers: each second drawn server by
    /// server ([`PickerSampler`]).
    picker: Option<PickerSampler>,
    writers: Writers,
}

impl SimPlan {
    /// Checks the inputs (errors name `--rate`, `--shards`, `--cap` and
    /// `--seconds`). Seconds are drawn by the multinomial sampler unless
    /// [`SimPlan::with_sampler`] picks another.
    pub fn new(
        rate: f64,
        shards: u64,
        cap: f64,
        seconds: u64,
        traffic: TrafficModel,
        seed: u64,
    ) -> ParamResult<Self> {
        let sampler = ShardSampler::new(rate, shards, traffic)?;
        let cap = validate::whole_cap("cap", cap)?;
        validate::count("seconds", seconds, crate::model::defaults::MAX_SECONDS)?;
        // Total likes must fit the u128 sum comfortably and, per second, u64:
        // rate <= 1e9 and seconds <= 1e12 keep rate x seconds below 1e21 < 2^128.
        Ok(SimPlan {
            rate,
            shards,
            cap,
            seconds,
            traffic,
            seed,
            sampler,
            tables: None,
            picker: None,
            writers: Writers::random(crate::model::defaults::DEFAULT_SERVERS),
        })
    }

    /// The writers: a picker other than the random ones draws each second
    /// server by server (and has no exact table). Call before
    /// [`SimPlan::with_sampler`].
    pub fn with_writers(mut self, writers: Writers) -> ParamResult<Self> {
        self.writers = writers;
        self.picker = match writers.picker.splits_like_random() {
            true => None,
            false => Some(PickerSampler::new(
                self.rate,
                self.shards,
                self.traffic,
                writers,
            )?),
        };
        Ok(self)
    }

    /// The writers simulated.
    pub fn writers(&self) -> Writers {
        self.writers
    }

    /// Chooses how seconds are drawn. `per_second` runs need the joint
    /// counts of each second, so they always use the multinomial sampler.
    pub fn with_sampler(mut self, kind: SamplerKind, per_second: bool) -> ParamResult<Self> {
        if self.picker.is_some() {
            if kind == SamplerKind::ExactTable {
                let no_table =
                    crate::model::exact::ExactProblem::PickerNoTable(self.writers.picker.name());
                return Err(ParamError::new("sampler", no_table.into()));
            }
            self.tables = None;
            return Ok(self);
        }
        let use_table = match kind {
            // Empirical traffic has no quietest-shard table: every
            // shard's count, from one observed second each.
            SamplerKind::Auto => {
                !per_second && self.exact_is_cheap() && self.traffic.empirical().is_none()
            }
            SamplerKind::Multinomial => false,
            SamplerKind::ExactTable if per_second => {
                let joint = crate::model::exact::ExactProblem::NoJointRows;
                return Err(ParamError::new("sampler", joint.into()));
            }
            SamplerKind::ExactTable => true,
        };
        self.tables = if use_table {
            Some(Arc::new(ExactTables::new(&self)?))
        } else {
            None
        };
        Ok(self)
    }

    /// Whether the exact per-second tables build in well under a second.
    pub fn exact_is_cheap(&self) -> bool {
        // Both tables walk the values a shard takes, so their cost grows
        // with the mean per shard under either traffic model.
        // Gamma-poisson tables cost two integrals a block of rows, and
        // their rows span the Gamma spread: cheap only under 0.6 s (about
        // 4,000 rows). Empirical tables, one fixed table a distinct count,
        // only under 2 s.
        let plain = self.traffic.dispersion().is_none() && self.traffic.empirical().is_none();
        let limit = if self.traffic.dispersion().is_some() {
            0.6
        } else {
            2.0
        };
        let mixed_ok = plain
            || crate::model::cost::exact_table(self.rate, self.shards, self.traffic).seconds
                <= limit;
        self.rate / self.shards as f64 <= AUTO_TABLE_MAX_MEAN_PER_SHARD && mixed_ok
    }

    /// The exact distribution of the busiest shard per second: the one the
    /// table sampler uses, or a new one when it is cheap to build.
    pub fn exact_busiest(&self) -> Option<BusiestShard> {
        if self.picker.is_some() {
            return None;
        }
        match &self.tables {
            Some(t) => Some(t.exact.clone()),
            None if self.exact_is_cheap() => {
                BusiestShard::new(self.rate, self.shards, self.traffic).ok()
            }
            None => None,
        }
    }

    /// What the run will cost (`per_second`: every second written as a
    /// row), by the cost model.
    pub fn cost(&self, per_second: bool) -> crate::model::cost::Estimate {
        let draws = match (&self.tables, &self.picker) {
            (Some(_), _) => crate::model::cost::SecondDraws::ExactTable,
            (None, Some(p)) => p.draws(self.rate),
            (None, None) => self.sampler.draws(),
        };
        crate::model::cost::flat_simulation(self.seconds, draws, per_second)
    }

    /// The sampler in use: `multinomial` or `exact-table`.
    pub fn sampler_name(&self) -> &'static str {
        if self.tables.is_some() {
            SamplerKind::ExactTable.name()
        } else {
            SamplerKind::Multinomial.name()
        }
    }

    fn chunks(&self) -> u64 {
        self.seconds.div_ceil(self.chunk_seconds())
    }

    fn chunk_range(&self, chunk: u64) -> (u64, u64) {
        let len = self.chunk_seconds();
        let start = chunk * len;
        (start, (start + len).min(self.seconds))
    }

    /// Whether the run's seconds carry state (round-robin's cursors): its
    /// chunks are then independent replications.
    fn carries_state(&self) -> bool {
        self.picker
            .as_ref()
            .is_some_and(PickerSampler::carries_state)
    }

    /// Seconds a chunk holds: [`CHUNK_SECONDS`], and for a picker whose
    /// seconds carry state (round-robin's cursors) short enough that the
    /// run is at least [`REPLICATIONS`] chunks, each an independent
    /// replication from uniform starting cursors: under fixed traffic a
    /// run never forgets where its cursors started, so one long run
    /// answers for one start, and its seconds are not independent.
    fn chunk_seconds(&self) -> u64 {
        match self.carries_state() {
            true => self.seconds.div_ceil(REPLICATIONS).clamp(1, CHUNK_SECONDS),
            false => CHUNK_SECONDS,
        }
    }
}

/// One simulated second, as streamed to `--per-second`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct SecondRow {
    /// 1-based: the first simulated second is second 1.
    pub second: u64,
    /// Likes in that second.
    pub likes: u64,
    /// Writes on the busiest shard.
    pub busiest: u64,
    /// Writes on the quietest shard.
    pub quietest: u64,
    /// Whether the busiest shard got more writes than the cap.
    pub over_cap: bool,
}

/// What a run (or a chunk of it) saw. Merging is exact and order-free.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SimTally {
    /// Seconds simulated.
    pub seconds: u64,
    /// Likes over all of them.
    pub likes: u128,
    /// The per-second busiest shard's writes.
    pub busiest: Histogram,
    /// The fewest writes any shard got in any second; `None` before the first
    /// second.
    pub quietest_min: Option<u64>,
    /// A run whose seconds carry state: each independent replication's
    /// (seconds, seconds over the cap), in order.
    pub replications: Vec<(u64, u64)>,
}

impl SimTally {
    /// Adds another tally (exact, so the order of merges does not matter).
    pub fn merge(mut self, other: SimTally) -> SimTally {
        self.seconds += other.seconds;
        self.likes += other.likes;
        self.busiest.merge(&other.busiest);
        self.quietest_min = match (self.quietest_min, other.quietest_min) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        self.replications.extend(other.replications);
        self
    }

    /// A 95% interval of P(a second over `cap`): Wilson's for independent
    /// seconds, widened, for a run of replications, to cover the batch
    /// means' t-interval too (the spread between starting states, which
    /// Wilson's does not see).
    pub fn over_cap_interval(&self, cap: u64) -> [f64; 2] {
        use crate::model::stats::{wilson_interval, Z95};
        let (lo, hi) = wilson_interval(self.busiest.count_above(cap), self.seconds, Z95);
        match batch_means_interval(&self.replications) {
            Some((b_lo, b_hi)) => [lo.min(b_lo), hi.max(b_hi)],
            None => [lo, hi],
        }
    }
}

/// The t-interval (95%) of the replications' shares of seconds over the
/// cap, weighted by their seconds; `None` under two replications.
fn batch_means_interval(reps: &[(u64, u64)]) -> Option<(f64, f64)> {
    if reps.len() < 2 {
        return None;
    }
    let n: f64 = reps.iter().map(|r| r.0 as f64).sum();
    let mean = reps.iter().map(|r| r.1 as f64).sum::<f64>() / n;
    let r = reps.len() as f64;
    // Between-replication variance of the shares, each weighed by its
    // length (the last may be shorter).
    let var = reps
        .iter()
        .map(|&(s, o)| {
            let w = s as f64 * r / n;
            w * w * (o as f64 / s as f64 - mean).powi(2)
        })
        .sum::<f64>()
        / (r - 1.0);
    let half = crate::model::stats::t95(reps.len() as u64 - 1) * (var / r).sqrt();
    Some(((mean - half).max(0.0), (mean + half).min(1.0)))
}

/// Runs one chunk (a round-robin chunk from its own starting cursors:
/// [`PickerSampler::chunk_state`]).
fn run_chunk(plan: &SimPlan, chunk: u64, rows: Option<&mut Vec<SecondRow>>) -> SimTally {
    if let (Some(tables), None) = (&plan.tables, &rows) {
        return run_chunk_table(plan, tables, chunk);
    }
    let mut rng = chunk_rng(plan.seed, chunk);
    let mut counts = vec![0u64; plan.shards as usize];
    let mut state = plan
        .picker
        .as_ref()
        .map(|p| p.chunk_state(plan.seed, chunk));
    let (start, end) = plan.chunk_range(chunk);
    let mut tally = SimTally::default();
    let mut quietest_min = u64::MAX;
    let mut rows = rows;
    for second in start..end {
        let likes = match (&plan.picker, state.as_mut()) {
            (Some(p), Some(state)) => p.sample_second(&mut rng, state, &mut counts),
            _ => plan.sampler.sample_second(&mut rng, &mut counts),
        };
        let (mut busiest, mut quietest) = (0u64, u64::MAX);
        for &c in &counts {
            busiest = busiest.max(c);
            quietest = quietest.min(c);
        }
        tally.likes += likes as u128;
        tally.busiest.record(busiest);
        quietest_min = quietest_min.min(quietest);
        if let Some(rows) = rows.as_deref_mut() {
            rows.push(SecondRow {
                second: second + 1,
                likes,
                busiest,
                quietest,
                over_cap: busiest > plan.cap,
            });
        }
    }
    tally.seconds = end - start;
    tally.quietest_min = Some(quietest_min);
    if plan.carries_state() {
        let over = tally.busiest.count_above(plan.cap);
        tally.replications.push((tally.seconds, over));
    }
    tally
}

/// Runs the plan. `on_chunk` is called after each chunk (for progress).
/// With `per_second`, one CSV row per simulated second is written in order.
pub fn run(
    plan: &SimPlan,
    per_second: Option<&mut dyn Write>,
    on_chunk: &(dyn Fn(u64) + Sync),
) -> anyhow::Result<SimTally> {
    let chunks = plan.chunks();
    match per_second {
        None => Ok((0..chunks)
            .into_par_iter()
            .map(|c| {
                let t = run_chunk(plan, c, None);
                on_chunk(t.seconds);
                t
            })
            .reduce(SimTally::default, SimTally::merge)),
        rows => run_batches(plan, rows, on_chunk),
    }
}

/// A short seeded run of `writers` at `rate` likes/s over `shards` shards
/// for `seconds` seconds, every shard's count drawn each second (what
/// `risk`'s picker block and the table of pickers simulate); `tick` is
/// told the seconds of each chunk done (for a progress bar).
pub fn run_writers(
    (rate, shards, cap): (f64, u64, f64),
    seconds: u64,
    (traffic, writers): (TrafficModel, Writers),
    seed: u64,
    tick: &(dyn Fn(u64) + Sync),
) -> ParamResult<(SimPlan, SimTally)> {
    let plan = writers_plan((rate, shards, cap), seconds, (traffic, writers), seed)?;
    let tally = run(&plan, None, tick).expect("a run without rows has no output to fail");
    Ok((plan, tally))
}

/// What [`run_writers`] will cost, by the cost model (said before a long
/// run starts).
pub fn writers_cost(
    (rate, shards, cap): (f64, u64, f64),
    seconds: u64,
    (traffic, writers): (TrafficModel, Writers),
) -> ParamResult<crate::model::cost::Estimate> {
    Ok(writers_plan((rate, shards, cap), seconds, (traffic, writers), 0)?.cost(false))
}

fn writers_plan(
    (rate, shards, cap): (f64, u64, f64),
    seconds: u64,
    (traffic, writers): (TrafficModel, Writers),
    seed: u64,
) -> ParamResult<SimPlan> {
    SimPlan::new(rate, shards, cap, seconds, traffic, seed)?
        .with_writers(writers)?
        .with_sampler(SamplerKind::Multinomial, false)
}

/// Runs the chunks in order, in batches of [`ROW_BATCH_CHUNKS`]: a batch's
/// chunks in parallel, then their per-second rows (with `per_second`)
/// written in order, so memory is one batch's, whatever `--seconds`.
///
fn run_batches(
    plan: &SimPlan,
    per_second: Option<&mut dyn Write>,
    on_chunk: &(dyn Fn(u64) + Sync),
) -> anyhow::Result<SimTally> {
    let mut writer = per_second.map(csv::Writer::from_writer);
    let mut total = SimTally::default();
    let (chunks, mut first) = (plan.chunks(), 0);
    while first < chunks {
        let last = (first + ROW_BATCH_CHUNKS).min(chunks);
        let keep_rows = writer.is_some();
        let done: Vec<(SimTally, Vec<SecondRow>)> = (first..last)
            .into_par_iter()
            .map(|c| {
                let mut rows =
                    Vec::with_capacity(if keep_rows { CHUNK_SECONDS as usize } else { 0 });
                let t = run_chunk(plan, c, keep_rows.then_some(&mut rows));
                on_chunk(t.seconds);
                (t, rows)
            })
            .collect();
        for (t, rows) in done {
            if let Some(w) = writer.as_mut() {
                rows.iter().try_for_each(|r| w.serialize(r))?;
            }
            total = total.merge(t);
        }
        first = last;
    }
    if let Some(mut w) = writer {
        w.flush()?;
    }
    Ok(total)
}

mod tables;
#[cfg(test)]
mod tests;

use tables::{run_chunk_table, ExactTables};
