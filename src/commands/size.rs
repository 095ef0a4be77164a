//! `shardplan size`: the one recommended shard count over every
//! constraint (rule of thumb, per-key risk, shared partitions, reads, store
//! limits), or with `--shards N` the verdict on a deployed count.

use crate::config::options::SizeOptions;
use crate::views::observed::{ObservedTraffic, WithObserved};
use crate::views::size::SizeRow;
use crate::views::unlikes::WithUnlikes;

pub fn run(o: SizeOptions) -> anyhow::Result<()> {
    let (plan, r) = (&o.plan, &o.resolved);
    let (rec, recommended) = match o.shards {
        Some(n) => {
            let e = plan
                .inputs
                .evaluate(n, &plan.recommendation)
                .map_err(|e| r.blame(e))?;
            (e, Some(plan.recommendation.shards))
        }
        None => (plan.recommendation.clone(), None),
    };
    let holds = rec.holds;
    let row = SizeRow::new(
        &r.scenario,
        &plan.sizing.peak,
        &plan.sizing.plan,
        rec,
        recommended,
    )
    .priced(&o.prices, plan.sizing.writes_per_like())
    .assuming(r.assumed());
    let headline = row.headline();
    let verdict = crate::views::verdict::WithVerdict {
        report: &row,
        verdict: Some(row.verdict()),
        headline: false,
    };
    let view = WithObserved {
        report: &verdict,
        observed: r.observed.as_deref().map(ObservedTraffic::new),
    };
    let view = WithUnlikes {
        report: &view,
        unlikes: super::unlikes_block((&r.inputs, r.unlikes), plan, row.recommendation.shards)?,
    };
    let view = crate::views::sensitivity::WithSensitivity {
        report: &view,
        sensitivity: o.sensitivity.as_ref(),
    };
    super::emit(o.output.set, &view, &r.inputs, o.output.explain)?;
    super::check(o.output.check, holds, &headline)
}
