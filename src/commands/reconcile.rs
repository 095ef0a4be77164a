//! `shardplan reconcile`: how far the live count drifts from the like
//! rows, the job that closes it, and the designs that need none.

use crate::config::options::ReconcileOptions;
use crate::views::reconcile::ReconcileView;

pub fn run(o: ReconcileOptions) -> anyhow::Result<()> {
    let view = ReconcileView {
        scenario: o.resolved.scenario.clone(),
        inputs: o.inputs,
        result: o.inputs.reconcile(),
    };
    super::emit(o.output.set, &view, &o.resolved.inputs, o.output.explain)
}
