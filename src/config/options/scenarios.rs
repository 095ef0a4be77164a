//! `scenarios`' plan: the bundled scenarios, loaded.

use super::Output;
use crate::cli::ScenariosArgs;
use crate::config::scenario::{self, Loaded};
use crate::config::{refuse, Run};
use crate::error::InputResult;

/// `shardplan scenarios`, resolved.
pub struct ScenariosOptions {
    /// Every bundled scenario, in the order shipped.
    pub bundled: Vec<Loaded>,
    /// Where the list goes.
    pub output: Output,
}

impl ScenariosOptions {
    pub fn new(args: ScenariosArgs, run: &Run) -> InputResult<Self> {
        refuse(
            args.out.explain.explain,
            "--explain",
            "on scenarios: it lists files and resolves no inputs",
        )?;
        let output = Output::new(run, &args.out, false)?;
        let bundled = scenario::BUNDLED
            .iter()
            .map(|(name, _)| scenario::load(&run.claims, name))
            .collect::<InputResult<_>>()?;
        Ok(ScenariosOptions { bundled, output })
    }
}
