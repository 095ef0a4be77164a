//! `size`'s plan: the recommendation's inputs, prices, observed traffic,
//! and the deployed count `--shards` judges.

use super::{Output, Resolved};
use crate::cli::SizeArgs;
use crate::config::plan::{Plan, PlanFlags};
use crate::config::{refuse, Resolver, Run, Sourced};
use crate::error::InputResult;
use crate::model::price::Prices;

/// `shardplan size`, resolved.
pub struct SizeOptions {
    /// The plan the recommendation weighs, and the recommendation.
    pub plan: Plan,
    /// `--shards N`: the deployed count to judge instead of recommending.
    pub shards: Option<u64>,
    /// The user's prices.
    pub prices: Prices,
    /// The inputs, frozen.
    pub resolved: Resolved,
    /// Where the result goes.
    pub output: Output,
}

impl SizeOptions {
    pub fn new(args: SizeArgs, run: &Run) -> InputResult<Self> {
        refuse(
            args.check.check && args.shards.shards.is_none(),
            "--check",
            "without --shards: it gates a deployed count (add --shards N)",
        )?;
        let mut r = Resolver::for_load(run, &args.scenario, "size")?;
        r.observe(&args.observed, Some(&args.sizing))?;
        let flags = PlanFlags::new(&args.plan, &args.span.duration, &args.span.traffic);
        let plan = r.plan(&args.sizing, &args.reads, flags)?;
        let prices = r.prices(&args.prices, "size")?;
        // The law observed traffic gives, shown even where the rule of
        // thumb does not weigh it.
        r.observed_traffic(args.span.traffic.traffic, args.span.traffic.dispersion)?;
        let output = Output::new(run, &args.out, args.check.check)?;
        let shards = match args.shards.one()? {
            Some(n) => {
                let n = Sourced::from_flag("--shards", n).check(|v| {
                    crate::model::validate::count("shards", *v, crate::model::defaults::MAX_SHARDS)
                })?;
                r.inputs
                    .record("shards", &Sourced::from_flag("--shards", n));
                Some(n)
            }
            None => None,
        };
        Ok(SizeOptions {
            plan,
            shards,
            prices,
            resolved: r.finish(),
            output,
        })
    }
}
