//! The pickers side by side for one plan: the shards each needs at the
//! plan's per-key risk (exact, exactly 0 or bounded: [`super::risk`]) and a
//! seeded simulation of each at one count (its busiest shard's mean, p99
//! and maximum), with what each asks of the app servers.

use serde::Serialize;

use super::{Needs, Picker, Writers, PICKERS};
use crate::model::defaults::MAX_SHARDS;
use crate::model::picker::risk::{key_over_cap, shards_for_risk, KeyMethod};
use crate::model::recommendation::PlanInputs;
use crate::model::simulation::run_writers;

/// Seconds each picker is simulated for the table (at most the hot spell):
/// enough for its p99, well under a second for every picker up to tens of
/// thousands of likes a second.
pub const TABLE_SECONDS: u64 = 2000;

/// The table's whole simulation, by the cost model, at most this many
/// seconds: where two-choice's tables do not fit (the interview's 5,000
/// likes a server over 2,714 shards draws all 200,000 likes of a second
/// one by one, 3 s of CPU for 2,000 s) the pickers are simulated for fewer
/// seconds, all the same number, said in the table's title.
pub const TABLE_BUDGET_SECONDS: f64 = 0.2;

/// The fewest seconds the budget leaves the table: a p99 from at least
/// 200 seconds is the second busiest, not the maximum.
pub const TABLE_MIN_SECONDS: u64 = 200;

/// One picker's figures.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct PickerRow {
    /// The picker.
    pub picker: Picker,
    /// App servers writing.
    pub servers: u64,
    /// The fewest shards meeting the plan's per-key risk; `None` where no
    /// count up to the limit does.
    pub shards_needed: Option<u64>,
    /// How the risk at that count is known.
    pub method: Option<KeyMethod>,
    /// `ln P(any second over the cap during the hot spell)` at that count.
    pub ln_risk: Option<f64>,
    /// The count simulated (the plan's).
    pub shards: u64,
    /// Seconds simulated at it.
    pub seconds: u64,
    /// The busiest shard's mean writes a second, simulated.
    pub busiest_mean: f64,
    /// Its 99th percentile, simulated.
    pub busiest_p99: u64,
    /// Its most over the simulated seconds.
    pub busiest_max: u64,
    /// Simulated seconds over the cap.
    pub seconds_over_cap: u64,
    /// What the picker asks of the servers.
    pub needs: Needs,
}

/// Every picker for `inputs` (its servers kept): the fewest shards meeting
/// the per-key check (the recommendation's `key_risk_shards`), and a run
/// at `shards` from `seed` for [`TABLE_SECONDS`], or the hot spell where
/// shorter.
/// `tick` is told the simulated seconds of each chunk done, over the
/// [`picker_rows_work`] of all the pickers.
pub fn picker_rows(
    inputs: &PlanInputs,
    shards: u64,
    seed: u64,
    tick: &(dyn Fn(u64) + Sync),
) -> crate::error::ParamResult<Vec<PickerRow>> {
    let t = inputs.key_check;
    let (rate, cap) = (inputs.planned_rate(), inputs.sizing.cap);
    let (seconds, _) = table_run(inputs, shards)?;
    PICKERS
        .iter()
        .map(|&(picker, _, _)| {
            let writers = Writers::new(picker, inputs.writers.servers)?;
            let needed =
                shards_for_risk(rate, cap, t.seconds, t.risk, t.traffic, writers, MAX_SHARDS).ok();
            let over = needed
                .map(|s| key_over_cap(rate, s, cap, t.traffic, writers))
                .transpose()?;
            let (sim, tally) = run_writers(
                (rate, shards, cap),
                seconds,
                (t.traffic, writers),
                seed,
                tick,
            )?;
            let h = &tally.busiest;
            Ok(PickerRow {
                picker,
                servers: writers.servers,
                shards_needed: needed,
                method: over.map(|o| o.method),
                ln_risk: over.map(|o| o.ln_p_any(t.seconds)),
                shards,
                seconds,
                busiest_mean: h.mean().unwrap_or(0.0),
                busiest_p99: h.quantile(0.99).unwrap_or(0),
                busiest_max: h.max().unwrap_or(0),
                seconds_over_cap: h.count_above(sim.cap),
                needs: picker.needs(),
            })
        })
        .collect()
}

/// The seconds each picker of [`picker_rows`] simulates, and the cost of
/// all of them by the cost model: [`TABLE_SECONDS`] or the hot spell where
/// shorter, and fewer where every picker's run together would cost over
/// [`TABLE_BUDGET_SECONDS`] (a formula: the same inputs give the same
/// seconds), down to [`TABLE_MIN_SECONDS`].
fn table_run(
    inputs: &PlanInputs,
    shards: u64,
) -> crate::error::ParamResult<(u64, crate::model::cost::Estimate)> {
    let seconds = TABLE_SECONDS.min(inputs.key_check.seconds.ceil() as u64);
    let cost = all_pickers_cost(inputs, shards, seconds)?;
    if cost.seconds <= TABLE_BUDGET_SECONDS {
        return Ok((seconds, cost));
    }
    let within = (seconds as f64 * TABLE_BUDGET_SECONDS / cost.seconds).floor() as u64;
    let within = within.max(TABLE_MIN_SECONDS).min(seconds);
    Ok((within, all_pickers_cost(inputs, shards, within)?))
}

/// Every picker's run of `seconds` at `shards`, one after the other, by
/// the cost model.
fn all_pickers_cost(
    inputs: &PlanInputs,
    shards: u64,
    seconds: u64,
) -> crate::error::ParamResult<crate::model::cost::Estimate> {
    let (rate, cap) = (inputs.planned_rate(), inputs.sizing.cap);
    let mut cost = crate::model::cost::Estimate::new(0.0);
    for &(picker, _, _) in PICKERS {
        let writers = Writers::new(picker, inputs.writers.servers)?;
        let one = crate::model::simulation::writers_cost(
            (rate, shards, cap),
            seconds,
            (inputs.key_check.traffic, writers),
        )?;
        cost = cost.then(one);
    }
    Ok(cost)
}

/// What [`picker_rows`] simulates: its seconds (every picker's) and their
/// cost by the cost model, for the progress bar and the estimate said
/// before a long run (two-choice draws two shards a like, so a table at a
/// million likes/s takes seconds, at a billion hours).
pub fn picker_rows_work(
    inputs: &PlanInputs,
    shards: u64,
) -> crate::error::ParamResult<(u64, crate::model::cost::Estimate)> {
    let (seconds, cost) = table_run(inputs, shards)?;
    Ok((seconds * PICKERS.len() as u64, cost))
}
