//! `shardplan compare`: one row per counter design, every figure from the
//! models `size`, `simulate` and `risk` use (sizing, exact, read cost).

use crate::cli::CompareArgs;
use crate::config::Resolver;
use crate::config::Run;
use crate::error::InputError;
use crate::model::compare::approx::approx_rows;
use crate::model::compare::strategies::{compare, StrategyRow};
use crate::model::price::design_usage;
use crate::output::OutputSet;
use crate::views::compare::CompareReport;

pub fn run(args: CompareArgs, run: &Run) -> anyhow::Result<()> {
    let mut r = Resolver::for_load(run, &args.scenario, "compare")?;
    let (inputs, approx, plan) = r.comparison(&args)?;
    let prices = r.prices(&args.prices, "compare")?;
    let verdict = super::plan_verdict(&plan, inputs.shards).map_err(|e| r.blame(e))?;
    let out = OutputSet::prepare(run, args.out.format, &args.out.output.output)?;
    if args.wide && !out.has_human() {
        return Err(InputError::new(
            "--wide",
            "widens the table and Markdown only; CSV, TSV and JSON carry every column already",
        )
        .into());
    }
    // Each design's over-cap chance is one point of the exact law (no
    // table), well under a second at any accepted rate: no estimate.
    let spinner = crate::output::progress::spinner(
        "computing the exact risks of the designs".into(),
        !args.out.quiet.quiet,
    );
    let mut comparison = compare(&inputs).map_err(|e| r.blame(e))?;
    let approx_rows = approx_rows(&approx)?;
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
        row.costs = prices.costs(&design_usage(row, &inputs).per_like(writes_per_like));
    }
    let report = CompareReport {
        scenario: r.scenario.name.clone(),
        comparison,
        recommendation: plan.recommendation,
        verdict,
        wide: args.wide,
    };
    super::emit(out, &report, &r.inputs, args.out.explain.explain)
}
