//! `shardplan size`: peak / safe rate per key, rounded up (or the fewest
//! shards meeting an accepted risk), and the read cost.

use crate::cli::SizeArgs;
use crate::config::load::planned_rate;
use crate::config::sizing::Peak;
use crate::config::Resolver;
use crate::model::defaults::MAX_SHARDS;
use crate::model::exact;
use crate::model::read_cost::ReadPlan;
use crate::model::sizing::SizingPlan;
use crate::model::traffic::TrafficModel;
use crate::output::OutputSet;
use crate::views::size::SizeRow;

pub fn run(args: SizeArgs) -> anyhow::Result<()> {
    let mut r = Resolver::for_load(&args.scenario, "size")?;
    let (sizing, reads) = r.sizing_and_reads(&args.sizing, &args.reads)?;
    let risk = r.risk(args.risk, None)?;
    let span = match risk {
        Some(_) => Some((
            r.duration(args.span.duration)?,
            r.traffic(args.span.traffic),
        )),
        None => {
            crate::config::refuse(
                args.span.duration.is_some(),
                "--duration",
                "without --risk: the rule of thumb has no duration (add --risk P)",
            )?;
            crate::config::refuse(
                args.span.traffic.is_some(),
                "--traffic",
                "without --risk: the rule of thumb has no traffic law (add --risk P)",
            )?;
            None
        }
    };
    let out = OutputSet::prepare(args.out.format, &args.out.output)?;
    let row = size_row(
        &r.scenario.name,
        &sizing.peak,
        &sizing.plan,
        &reads,
        risk.zip(span),
        sizing.write_cost,
    )?;
    super::emit(out, &row, &r.inputs, args.out.explain)
}

/// The `size` result: the rule of thumb, and with a risk the fewest shards
/// whose chance of any second over the cap during the span is at most it
/// (`risk` = the accepted risk, the duration in seconds and the traffic
/// model). `write_cost` is the write cost of a transactional like
/// (`--transactional`), else `None`. Shared with `report`.
pub fn size_row(
    scenario: &str,
    peak: &Peak,
    plan: &SizingPlan,
    reads: &ReadPlan,
    risk: Option<(f64, (f64, TrafficModel))>,
    write_cost: Option<f64>,
) -> anyhow::Result<SizeRow> {
    let mut sizing = plan.size();
    let mut report = SizeRow {
        scenario: scenario.to_string(),
        observed: peak.observed,
        growth: peak.growth,
        transactional: write_cost.is_some(),
        write_cost: write_cost.unwrap_or(1.0),
        reads: reads.cost(sizing.shards),
        sizing: sizing.clone(),
        risk: risk.map(|r| r.0),
        duration_seconds: None,
        traffic: None,
        rule_of_thumb_shards: None,
        rule_of_thumb_p_any_over_cap: None,
        rule_of_thumb_ln_p_any_over_cap: None,
        p_any_over_cap: None,
        ln_p_any_over_cap: None,
    };
    if let Some((risk, (seconds, traffic))) = risk {
        let rate = planned_rate(sizing.peak, traffic);
        let ln_p_any = |shards: u64| -> anyhow::Result<f64> {
            Ok(exact::ln_p_any_over_cap(
                rate, shards, sizing.cap, seconds, traffic,
            )?)
        };
        let by_risk = exact::shards_for_risk(rate, sizing.cap, seconds, risk, traffic, MAX_SHARDS)?;
        report.rule_of_thumb_shards = Some(sizing.shards);
        let (rule_ln, risk_ln) = (ln_p_any(sizing.shards)?, ln_p_any(by_risk)?);
        report.rule_of_thumb_p_any_over_cap = Some(rule_ln.exp());
        report.rule_of_thumb_ln_p_any_over_cap = Some(rule_ln);
        report.p_any_over_cap = Some(risk_ln.exp());
        report.ln_p_any_over_cap = Some(risk_ln);
        report.duration_seconds = Some(seconds);
        report.traffic = Some(traffic.name());
        sizing.shards = by_risk;
        sizing.mean_per_shard_at_peak = sizing.peak / by_risk as f64;
        sizing.headroom_left = (sizing.cap - sizing.mean_per_shard_at_peak) / sizing.cap;
        report.reads = reads.cost(by_risk);
        report.sizing = sizing;
    }
    Ok(report)
}
