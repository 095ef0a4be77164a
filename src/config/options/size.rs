//! `size`'s plan: the recommendation's inputs, prices, observed traffic,
//! and the deployed count `--shards` judges.

use super::{Output, Resolved};
use crate::cli::SizeArgs;
use crate::config::plan::{Plan, PlanFlags};
use crate::config::{refuse, Resolver, Run, Sourced};
use crate::error::InputResult;
use crate::model::price::Prices;
use crate::model::recommendation::Recommendation;
use crate::model::sensitivity::{SensitiveInput, Sensitivity, SensitivityEntry};
use crate::model::sizing::SafeRate;

/// `shardplan size`, resolved.
pub struct SizeOptions {
    /// The plan the recommendation weighs, and the recommendation.
    pub plan: Plan,
    /// `--shards N`: the deployed count to judge instead of recommending.
    pub shards: Option<u64>,
    /// The user's prices.
    pub prices: Prices,
    /// `--sensitivity`: the recommendation with each input moved.
    pub sensitivity: Option<Sensitivity>,
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
        refuse(
            args.sensitivity.is_some() && args.shards.shards.is_some(),
            "--sensitivity",
            "with --shards: it moves the recommendation, not a deployed count (drop --shards)",
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
        refuse(
            args.sensitivity.is_some() && !output.set.has_document(),
            "--sensitivity",
            "in CSV or TSV (one row a count): use a table, --format markdown or --format json",
        )?;
        let sensitivity = args
            .sensitivity
            .map(|share| sensitivity(&args, run, &plan, share));
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
            sensitivity,
            resolved: r.finish(),
            output,
        })
    }
}

/// Every input that can move the count, with its planned value in its
/// flag's unit: the peak and cap always, the headroom (or the safe rate,
/// where given), the hot spell, and the accepted risk, partitions, servers
/// (a picker other than the random ones), unlike share and dispersion
/// where the plan has them.
fn movable(args: &SizeArgs, plan: &Plan) -> Vec<(SensitiveInput, f64)> {
    let (sizing, inputs) = (&plan.sizing.plan, &plan.inputs);
    let mut out = vec![
        (SensitiveInput::Peak, plan.sizing.peak.likes),
        (SensitiveInput::Cap, args_cap(plan)),
    ];
    out.push(match (args.sizing.safe, sizing.safe) {
        (Some(safe), _) => (SensitiveInput::Safe, safe),
        (None, SafeRate::PerKey(safe)) => (SensitiveInput::Safe, safe),
        (None, SafeRate::Headroom(h)) => (SensitiveInput::Headroom, h),
    });
    // The risk moves the count only where the count is sized by it (an
    // accepted `--risk`); the default check beside the rule of thumb is not.
    if let Some(risk) = inputs.risk {
        out.push((SensitiveInput::Risk, risk.risk));
    }
    out.push((SensitiveInput::Duration, inputs.key_check.seconds));
    if let Some(p) = inputs.partitions {
        out.push((SensitiveInput::Partitions, p.partitions as f64));
    }
    if !inputs.writers.picker.splits_like_random() {
        out.push((SensitiveInput::Servers, inputs.writers.servers as f64));
    }
    if sizing.writes_per_like > 1.0 {
        out.push((SensitiveInput::UnlikeShare, sizing.writes_per_like - 1.0));
    }
    if let Some(k) = inputs.key_check.traffic.dispersion() {
        out.push((SensitiveInput::Dispersion, k));
    }
    out
}

/// The cap as `--cap` takes it: write units a second per key (the plan's
/// cap is in likes where a like costs more than one unit).
fn args_cap(plan: &Plan) -> f64 {
    plan.sizing.plan.cap * plan.sizing.write_cost.unwrap_or(1.0)
}

/// The recommendation with each movable input moved down and up by
/// `share`; an input either of whose ends the plan refuses (past its
/// range, or against a flag given) is left out.
fn sensitivity(args: &SizeArgs, run: &Run, plan: &Plan, share: f64) -> Sensitivity {
    let mut entries = Vec::new();
    for (input, planned) in movable(args, plan) {
        let Some((low, high)) = Sensitivity::ends(input, planned, share) else {
            continue;
        };
        let (Ok(at_low), Ok(at_high)) =
            (moved(args, run, input, low), moved(args, run, input, high))
        else {
            continue;
        };
        entries.push(SensitivityEntry {
            input,
            planned,
            low,
            high,
            shards_low: at_low.shards,
            shards_high: at_high.shards,
            binding_low: at_low.binding,
            binding_high: at_high.binding,
        });
    }
    Sensitivity::new(share, plan.recommendation.shards, entries)
}

/// What `size` recommends with `input` given as its flag at `value`, the
/// plan resolved again from the same flags and scenario.
fn moved(
    args: &SizeArgs,
    run: &Run,
    input: SensitiveInput,
    value: f64,
) -> InputResult<Recommendation> {
    let mut a = args.clone();
    match input {
        SensitiveInput::Peak => a.sizing.peak = Some(value),
        SensitiveInput::Cap => a.sizing.cap.cap = Some(value),
        SensitiveInput::Headroom => a.sizing.headroom = Some(value),
        SensitiveInput::Safe => a.sizing.safe = Some(value),
        SensitiveInput::Risk => a.plan.risk.risk = Some(value),
        SensitiveInput::Duration => {
            let text = crate::output::fmt::duration(value);
            a.span.duration.duration = Some(crate::cli::Span {
                text,
                seconds: value,
            });
        }
        SensitiveInput::Partitions => a.plan.partitions.partitions = Some(value as u64),
        SensitiveInput::Servers => a.reads.cache.servers.servers = Some(value as u64),
        SensitiveInput::UnlikeShare => a.sizing.unlike_share = Some(value),
        SensitiveInput::Dispersion => a.span.traffic.dispersion = Some(value),
    }
    let mut r = Resolver::for_load(run, &a.scenario, "size")?;
    r.observe(&a.observed, Some(&a.sizing))?;
    let flags = PlanFlags::new(&a.plan, &a.span.duration, &a.span.traffic);
    Ok(r.plan(&a.sizing, &a.reads, flags)?.recommendation)
}
