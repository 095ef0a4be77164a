//! `compare`'s plan: the designs' inputs on one load, the plan `size`
//! recommends for it, and the prices.

use super::{Output, Resolved};
use crate::cli::CompareArgs;
use crate::config::plan::Plan;
use crate::config::{Resolver, Run};
use crate::error::{InputError, InputResult};
use crate::model::compare::approx::ApproxInputs;
use crate::model::compare::strategies::CompareInputs;
use crate::model::price::Prices;

/// `shardplan compare`, resolved.
pub struct CompareOptions {
    /// The write-path designs' inputs.
    pub designs: CompareInputs,
    /// The uniqueness and approximate designs' inputs, on the same load.
    pub approx: ApproxInputs,
    /// The plan `size` recommends for the load.
    pub plan: Plan,
    /// The user's prices.
    pub prices: Prices,
    /// `--wide`: every column in the table and Markdown.
    pub wide: bool,
    /// The inputs, frozen.
    pub resolved: Resolved,
    /// Where the result goes.
    pub output: Output,
    /// `--measure FILE`: what a measurement lost.
    pub measured: Option<crate::measure::MeasuredLoss>,
}

impl CompareOptions {
    pub fn new(args: CompareArgs, run: &Run) -> InputResult<Self> {
        let mut r = Resolver::for_load(run, &args.scenario, "compare")?;
        let (designs, approx, plan) = r.comparison(&args)?;
        let prices = r.prices(&args.prices, "compare")?;
        let output = Output::new(run, &args.out, false)?;
        let measured = measured_loss(&args, &mut r)?;
        Ok(CompareOptions {
            designs,
            approx,
            plan,
            prices,
            wide: args.out.wide.wide,
            resolved: r.finish(),
            output,
            measured,
        })
    }
}

/// `--measure FILE`: what the measurement lost; a file written before the
/// accounting was recorded has nothing to quote.
fn measured_loss(
    args: &CompareArgs,
    r: &mut Resolver,
) -> InputResult<Option<crate::measure::MeasuredLoss>> {
    let Some(path) = &args.measure.measure else {
        return Ok(None);
    };
    let (file, m) = super::report::measurement_file(path, r)?;
    m.loss(&file).map(Some).ok_or_else(|| {
        InputError::new(
            "--measure",
            format!(
                "{file} records no accounting of its writes (written by an older shardplan); \
                 measure again"
            ),
        )
    })
}
