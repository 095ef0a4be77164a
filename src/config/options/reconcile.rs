//! `reconcile`'s plan: the drift's and the job's inputs on the plan `size`
//! recommends.

use super::{Output, Resolved};
use crate::cli::ReconcileArgs;
use crate::config::{Resolver, Run};
use crate::error::InputResult;
use crate::model::reconcile::ReconcileInputs;

/// `shardplan reconcile`, resolved.
pub struct ReconcileOptions {
    /// The model's inputs, checked.
    pub inputs: ReconcileInputs,
    /// The inputs, frozen.
    pub resolved: Resolved,
    /// Where the result goes.
    pub output: Output,
}

impl ReconcileOptions {
    pub fn new(args: ReconcileArgs, run: &Run) -> InputResult<Self> {
        let mut r = Resolver::for_load(run, &args.scenario, "reconcile")?;
        let inputs = r.reconciliation(&args)?;
        let output = Output::new(run, &args.out, false)?;
        Ok(ReconcileOptions {
            inputs,
            resolved: r.finish(),
            output,
        })
    }
}
