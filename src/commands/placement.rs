//! `shardplan keys`, `partitions` and `stores`: where the shard keys land.

use crate::config::options::{KeysCheck, KeysOptions, PartitionsOptions, StoresOptions};
use crate::config::Inputs;
use crate::model::placement::{KeysReport, SortedReport};
use crate::model::store::all_presets;
use crate::views::placement::{KeysView, PartitionsView, SortedView};
use crate::views::stores::StoresView;

pub fn run_keys(o: KeysOptions) -> anyhow::Result<()> {
    let r = &o.resolved;
    let verdict = super::plan_verdict(&o.plan, o.shards).map_err(|e| r.blame(e))?;
    let nodes = o.plan.inputs.nodes.as_ref().map(|c| c.nodes);
    let report: Box<dyn crate::output::Report> = match &o.check {
        KeysCheck::Sorted(t) => Box::new(SortedView(
            SortedReport::from_template(t, o.shards).map_err(|e| r.blame(e))?,
        )),
        KeysCheck::Listed(keys) => Box::new(KeysView(
            KeysReport::from_keys(keys, nodes).map_err(|e| r.blame(e))?,
        )),
        KeysCheck::Slots(t) => Box::new(KeysView(
            KeysReport::from_template(t, o.shards, nodes).map_err(|e| r.blame(e))?,
        )),
    };
    let line = crate::views::verdict::line(&verdict);
    let holds = verdict.holds;
    let view = crate::views::verdict::WithVerdict {
        report: report.as_ref(),
        verdict: Some(verdict),
        headline: true,
    };
    super::emit(o.output.set, &view, &r.inputs, o.output.explain)?;
    super::check(o.output.check, holds, &line)
}

pub fn run_partitions(o: PartitionsOptions) -> anyhow::Result<()> {
    let r = &o.resolved;
    let verdict = super::plan_verdict(&o.plan, o.shards).map_err(|e| r.blame(e))?;
    let (holds, line) = (verdict.holds, crate::views::verdict::line(&verdict));
    let view = crate::views::verdict::WithVerdict {
        report: &PartitionsView(o.placement.evaluate()),
        verdict: Some(verdict),
        headline: true,
    };
    super::emit(o.output.set, &view, &r.inputs, o.output.explain)?;
    super::check(o.output.check, holds, &line)
}

pub fn run_stores(o: StoresOptions) -> anyhow::Result<()> {
    super::emit(
        o.output.set,
        &StoresView(all_presets()),
        &Inputs::default(),
        o.output.explain,
    )
}
