//! `shardplan size`: the one recommended shard count over every
//! constraint (rule of thumb, per-key risk, shared partitions, reads, store
//! limits), or with `--shards N` the verdict on a deployed count.

use crate::cli::SizeArgs;
use crate::config::plan::PlanFlags;
use crate::config::Resolver;
use crate::config::Run;
use crate::output::OutputSet;
use crate::views::observed::{ObservedTraffic, WithObserved};
use crate::views::size::SizeRow;
use crate::views::unlikes::WithUnlikes;

pub fn run(args: SizeArgs, run: &Run) -> anyhow::Result<()> {
    crate::config::refuse(
        args.check.check && args.shards.shards.is_none(),
        "--check",
        "without --shards: it gates a deployed count (add --shards N)",
    )?;
    let mut r = Resolver::for_load(run, &args.scenario, "size")?;
    r.observe(&args.observed, Some(&args.sizing))?;
    let flags = PlanFlags::new(&args.plan, &args.span.duration, &args.span.traffic);
    let plan = r.plan(&args.sizing, &args.reads, flags)?;
    let prices = r.prices(&args.prices, "size")?;
    // The law observed traffic gives, shown even where the rule of thumb
    // does not weigh it.
    let observed = r
        .observed_traffic(args.span.traffic.traffic, args.span.traffic.dispersion)?
        .map(ObservedTraffic::new);
    let out = OutputSet::prepare(run, args.out.format, &args.out.output.output)?;
    let (rec, recommended) = match args.shards.one()? {
        Some(n) => {
            let n = crate::config::Sourced::from_flag("--shards", n).check(|v| {
                crate::model::validate::count("shards", *v, crate::model::defaults::MAX_SHARDS)
            })?;
            r.inputs
                .record("shards", &crate::config::Sourced::from_flag("--shards", n));
            let e = plan.inputs.evaluate(n).map_err(|e| r.blame(e))?;
            (e, Some(plan.recommendation.shards))
        }
        None => (plan.recommendation.clone(), None),
    };
    let holds = rec.holds;
    let row = SizeRow::new(
        &r.scenario.name,
        &plan.sizing.peak,
        &plan.sizing.plan,
        rec,
        recommended,
    )
    .priced(&prices, plan.sizing.writes_per_like())
    .assuming(crate::views::inputs::Assumed::new(&r.inputs));
    let headline = row.headline();
    let verdict = crate::views::verdict::WithVerdict {
        report: &row,
        verdict: Some(row.verdict()),
        headline: false,
    };
    let view = WithObserved {
        report: &verdict,
        observed,
    };
    let view = WithUnlikes {
        report: &view,
        unlikes: super::unlikes_block(&r, &plan.sizing.peak, row.recommendation.shards)?,
    };
    super::emit(out, &view, &r.inputs, args.out.explain.explain)?;
    super::check(args.check.check, holds, &headline)
}
