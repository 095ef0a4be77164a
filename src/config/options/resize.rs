//! `resize`'s plan: a grow or a shrink, and the seed of the simulated grow.

use super::{Output, Resolved};
use crate::cli::ResizeArgs;
use crate::config::{Kind, Resolver, Run};
use crate::error::InputResult;
use crate::model::timeline::resize::ResizePlan;

/// `shardplan resize`, resolved.
pub struct ResizeOptions {
    /// The grow or the shrink.
    pub plan: ResizePlan,
    /// The seed of the simulated grow.
    pub seed: u64,
    /// The inputs, frozen.
    pub resolved: Resolved,
    /// Where the result goes.
    pub output: Output,
}

impl ResizeOptions {
    pub fn new(args: ResizeArgs, run: &Run) -> InputResult<Self> {
        let mut r = Resolver::load(
            run,
            args.scenario.scenario.as_deref(),
            None,
            "resize",
            &[Kind::Resize],
        )?;
        let (plan, seed) = r.resize(&args)?;
        let output = Output::new(run, &args.out, false)?;
        Ok(ResizeOptions {
            plan,
            seed,
            resolved: r.finish(),
            output,
        })
    }
}
