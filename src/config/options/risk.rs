//! `risk`'s and `sweep`'s plans: the exact figures' rate, shard counts,
//! hot spell and traffic law, and the plan every count is judged against.

use super::{Output, Resolved};
use crate::cli::{RiskArgs, SweepArgs};
use crate::config::plan::{Plan, PlanFlags};
use crate::config::{lists, Resolver, Run, Sourced};
use crate::error::{InputError, InputResult};
use crate::model::cost::Estimate;
use crate::model::law::TrafficModel;

/// `shardplan risk`, resolved.
pub struct RiskOptions {
    /// The plan the count is judged against (the read path is the
    /// scenario's: it feeds the verdict's read cap).
    pub plan: Plan,
    /// The rate the exact figure is at, writes/s.
    pub rate: f64,
    /// The likes/s behind it.
    pub like_rate: f64,
    /// The count judged: `--shards`, else the recommendation.
    pub shards: u64,
    /// The hot spell, seconds.
    pub seconds: f64,
    /// The traffic law.
    pub traffic: TrafficModel,
    /// The seed of a picker's simulation (the scenario's, else the default).
    pub seed: u64,
    /// What the exact figure will cost, checked against the one-day limit.
    pub cost: Estimate,
    /// The inputs, frozen.
    pub resolved: Resolved,
    /// Where the result goes.
    pub output: Output,
}

impl RiskOptions {
    pub fn new(args: RiskArgs, run: &Run) -> InputResult<Self> {
        let mut r = Resolver::for_load(run, &args.scenario, "risk")?;
        r.observe(&args.observed, Some(&args.sizing))?;
        let flags = PlanFlags::new(&args.plan, &args.span.duration, &args.span.traffic);
        // The read path is the scenario's, but for the app servers writing.
        let mut reads = crate::cli::ReadArgs::default();
        reads.cache.servers = args.servers.clone();
        let plan = r.plan(&args.sizing, &reads, flags)?;
        let seconds = r.duration(args.span.duration.seconds())?;
        let traffic = r.traffic(args.span.traffic.traffic, args.span.traffic.dispersion)?;
        let (like_rate, rate) = r.rate_in_likes(args.rate.one()?, &plan.sizing.peak, traffic)?;
        let sized = Sourced::derived(
            plan.recommendation.shards,
            "the recommendation (shardplan size)",
        );
        let shards = r.shards(args.shards.one()?, sized);
        // A picker other than the random ones is simulated beside its figure.
        let seed = match plan.inputs.writers.picker.splits_like_random() {
            true => crate::model::defaults::DEFAULT_SEED,
            false => r.seed(None),
        };
        let output = Output::new(run, &args.out, args.check.check)?;
        // Empirical traffic's cost is its law's (the distinct counts).
        let long = match traffic.empirical() {
            Some(_) => "traffic",
            None => "rate",
        };
        let cost = crate::model::cost::exact_risk(rate, shards, traffic)
            .within_limit(long)
            .map_err(|e| r.blame(e))?;
        Ok(RiskOptions {
            plan,
            rate,
            like_rate,
            shards,
            seconds,
            traffic,
            seed,
            cost,
            resolved: r.finish(),
            output,
        })
    }
}

/// `shardplan sweep`, resolved.
pub struct SweepOptions {
    /// The plan each row is judged against, as `size` resolves it.
    pub plan: Plan,
    /// The rates swept: likes/s and the writes/s they make.
    pub rates: Vec<(f64, f64)>,
    /// The shard counts swept.
    pub counts: Vec<u64>,
    /// The hot spell, seconds.
    pub seconds: f64,
    /// The traffic law.
    pub traffic: TrafficModel,
    /// What the rows will cost, checked against the one-day limit.
    pub cost: Estimate,
    /// The inputs, frozen.
    pub resolved: Resolved,
    /// Where the result goes.
    pub output: Output,
}

impl SweepOptions {
    pub fn new(args: SweepArgs, run: &Run) -> InputResult<Self> {
        crate::config::reads::refuse_batch_size(&args.reads, "sweep")?;
        let mut r = Resolver::for_load(run, &args.scenario, "sweep")?;
        r.observe(&args.observed, Some(&args.sizing))?;
        let flags = PlanFlags::new(&args.plan, &args.span.duration, &args.span.traffic);
        let plan = r.plan(&args.sizing, &args.reads, flags)?;
        // A sweep's rows and verdict count no batch reads.
        r.inputs.forget("batch_size");
        let seconds = r.duration(args.span.duration.seconds())?;
        let traffic = r.traffic(args.span.traffic.traffic, args.span.traffic.dispersion)?;
        let shards = Sourced::flag(
            "--shards",
            args.shards.shards.as_ref().map(|s| s.text.clone()),
        )
        .unwrap_or(Sourced::default(
            crate::model::defaults::DEFAULT_SWEEP_SHARDS.to_string(),
        ));
        let counts = lists::shard_counts("--shards", &shards.value)?;
        r.inputs.record("shards", &shards);
        let rate = args.rate.rate.as_ref().map(|r| r.text.as_str());
        let rates = sweep_rates(rate, &mut r, &plan.sizing.peak, traffic)?;
        let cost = rates
            .iter()
            .map(|&(_, rate)| crate::model::cost::sweep(rate, &counts, traffic))
            .fold(Estimate::new(0.0), |a, b| a.then(b));
        cost.within_limit("shards").map_err(|e| r.blame(e))?;
        let output = Output::new(run, &args.out, args.check.check)?;
        Ok(SweepOptions {
            plan,
            rates,
            counts,
            seconds,
            traffic,
            cost,
            resolved: r.finish(),
            output,
        })
    }
}

/// `sweep --rate`: one rate or a list (refused under empirical traffic,
/// whose rate is the trace's), else the planned peak.
fn sweep_rates(
    flag: Option<&str>,
    r: &mut Resolver,
    peak: &crate::config::sizing::Peak,
    traffic: TrafficModel,
) -> InputResult<Vec<(f64, f64)>> {
    Ok(match flag {
        Some(_) if traffic.empirical().is_some() => {
            return Err(InputError::new(
                "--rate",
                "has no effect with --traffic empirical: the rate is the mean of the observed \
                 seconds grown to the planned peak; drop it (or choose another --traffic)",
            ))
        }
        Some(t) => {
            let rates = lists::rates(t)?;
            r.inputs
                .record("rate", &Sourced::from_flag("--rate", rates.clone()));
            // Rates given in likes/s: with unlikes, the writes they make,
            // as `risk --rate` and the planned peak count them.
            let writes: Vec<f64> = rates
                .iter()
                .map(|&likes| r.like_rate_as_writes(likes, traffic))
                .collect();
            if writes != rates {
                let w = Sourced::derived(writes.clone(), "rate x (1 + unlike share)");
                r.inputs.record("write_rate", &w);
            }
            rates.into_iter().zip(writes).collect()
        }
        None => vec![r.rate_in_likes(None, peak, traffic)?],
    })
}
