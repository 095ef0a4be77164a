//! `shardplan compare`: one row per counter design, every figure from the
//! models `size`, `simulate` and `risk` use (sizing, exact, read cost).

use crate::config::options::CompareOptions;
use crate::model::compare::approx::approx_rows;
use crate::model::compare::strategies::{compare, StrategyRow};
use crate::model::compare::usage::design_usage;
use crate::model::picker::table::{picker_rows, picker_rows_work};
use crate::views::compare::CompareReport;

pub fn run(o: CompareOptions) -> anyhow::Result<()> {
    let (r, inputs, plan) = (&o.resolved, &o.designs, o.plan);
    let verdict = super::plan_verdict(&plan, inputs.shards).map_err(|e| r.blame(e))?;
    // Each design's over-cap chance is one point of the exact law (no
    // table), well under a second at any accepted rate: no estimate.
    let spinner = crate::output::progress::spinner(
        "computing the exact risks of the designs".into(),
        !o.output.quiet,
    );
    let mut comparison = compare(inputs).map_err(|e| r.blame(e))?;
    let approx_rows = approx_rows(&o.approx)?;
    spinner.finish_and_clear();
    comparison
        .rows
        .extend(approx_rows.into_iter().map(|(row, keys)| StrategyRow {
            keys: Some(keys),
            ..StrategyRow::from(row)
        }));
    // One meaning for every row: the store reads one sum of the count (an
    // uncached view) costs; the cached reads/s are that times the sums/s.
    let sums = inputs.reads.cost(inputs.shards).sums_cached_per_second;
    // The designs' rate counts writes (likes and unlikes); prices are per like.
    let writes_per_like = plan.sizing.writes_per_like();
    for row in &mut comparison.rows {
        row.row.reads_per_view = row.row.reads_per_second / sums;
        row.costs = o
            .prices
            .costs(&design_usage(row, inputs).per_like(writes_per_like));
    }
    // The pickers side by side: a short seeded run of each at the count
    // (progress past a second of them: two-choice draws every like).
    let seed = crate::model::defaults::DEFAULT_SEED;
    let work = picker_rows_work(&plan.inputs, inputs.shards).map_err(|e| r.blame(e))?;
    let bar = super::simulated_seconds_bar(work, o.output.quiet);
    let pickers = picker_rows(&plan.inputs, inputs.shards, seed, &|n| bar.inc(n));
    bar.finish_and_clear();
    let pickers = pickers.map_err(|e| r.blame(e))?;
    let report = CompareReport {
        scenario: r.scenario.clone(),
        comparison,
        recommendation: plan.recommendation,
        verdict,
        pickers,
        picker_seed: seed,
        wide: o.wide,
        measured: o.measured,
    };
    super::emit(o.output.set, &report, &r.inputs, o.output.explain)
}
