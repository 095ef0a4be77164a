//! `shardplan risk` and `shardplan sweep`: exact over-cap figures.

use serde::Serialize;
use serde_json::Value;

use crate::cli::{RiskArgs, SweepArgs};
use crate::config::check;
use crate::config::resolve as common;
use crate::error::{InputError, InputResult};
use crate::model::exact::{self, Risk};
use crate::model::sizing::ReadCost;
use crate::output::{fmt, row, OutputSet, Report, Section};

/// Likes are whole: under fixed traffic a fractional planned rate is
/// rounded up (planning errs on the busy side).
pub fn whole_rate(rate: f64, traffic: crate::model::traffic::TrafficModel) -> f64 {
    match traffic {
        crate::model::traffic::TrafficModel::Fixed => rate.ceil(),
        crate::model::traffic::TrafficModel::Poisson => rate,
    }
}

/// Human lines for one exact risk row.
pub fn risk_pairs(r: &Risk) -> Vec<(&'static str, String)> {
    let duration = if r.seconds >= 3600.0 && (r.seconds / 3600.0).fract() == 0.0 {
        format!("{} h ({} s)", r.seconds / 3600.0, fmt::num(r.seconds))
    } else {
        format!("{} s", fmt::num(r.seconds))
    };
    vec![
        (
            "load",
            format!(
                "{} likes/s ({}) over {} shards, cap {} writes/s per shard",
                fmt::num(r.rate),
                r.traffic.name(),
                r.shards,
                fmt::num(r.cap)
            ),
        ),
        ("duration", duration),
        (
            "P(the busiest shard goes over the cap in one second)",
            fmt::prob_ln(r.p_over_cap_per_second, r.ln_p_over_cap_per_second),
        ),
        (
            "P(at least one second over the cap during the run)",
            fmt::prob_ln(r.p_any_over_cap, r.ln_p_any_over_cap),
        ),
        (
            "busiest shard per second, mean",
            format!("{:.2}", r.busiest_mean_per_second),
        ),
        (
            "busiest shard per second, p99.9",
            fmt::count(r.busiest_p999_per_second),
        ),
        (
            "busiest shard over the run",
            format!(
                "median {}, 98% between {} and {}",
                r.busiest_over_run_median, r.busiest_over_run_q01, r.busiest_over_run_q99
            ),
        ),
        (
            "method",
            if r.exact {
                "exact (Levin's representation / independent Poissons, in log space)".to_string()
            } else {
                format!(
                    "exact distribution; the tail probability carries a relative error below {:.0e}",
                    r.p_over_cap_rel_error
                )
            },
        ),
    ]
}

struct RiskView(Risk);

impl Report for RiskView {
    fn rows(&self) -> Vec<Value> {
        vec![row(&self.0)]
    }

    fn sections(&self) -> Vec<Section> {
        let mut out = vec![Section::pairs(
            "Risk of going over the cap",
            risk_pairs(&self.0),
        )];
        if self.0.underflow {
            out.push(Section::Note(
                "A probability above is below f64's range: JSON and CSV hold 0 with underflow = true; read its ln_ field."
                    .into(),
            ));
        }
        out
    }
}

pub fn run_risk(args: RiskArgs) -> anyhow::Result<()> {
    let loaded = common::load_scenario(&args.scenario)?;
    let s = &loaded.scenario;
    let (peak, sizing) = common::sizing_plan(&loaded, &args.sizing)?;
    let (seconds, traffic) = common::span(&loaded, &args.span);
    let rate = match args.rate {
        Some(r) => check::rate("--rate", r)?,
        None => whole_rate(s.rate.unwrap_or(peak.peak), traffic),
    };
    let shards = args
        .shards
        .or(s.shards)
        .unwrap_or_else(|| sizing.size().shards);
    let out = OutputSet::prepare(args.out.format, &args.out.output)?;
    let risk = Risk::compute(rate, shards, sizing.cap, seconds, traffic)?;
    out.emit(&RiskView(risk))
}

/// One row of a sweep: the risk figures plus the read cost.
#[derive(Debug, Clone, Serialize)]
pub struct SweepRow {
    #[serde(flatten)]
    pub risk: Risk,
    pub reads_uncached_per_second: f64,
    pub reads_cached_per_second: f64,
}

pub struct SweepView(pub Vec<SweepRow>);

impl Report for SweepView {
    fn rows(&self) -> Vec<Value> {
        self.0.iter().map(row).collect()
    }

    fn json(&self) -> Value {
        Value::Array(self.rows())
    }

    fn sections(&self) -> Vec<Section> {
        let Some(first) = self.0.first() else {
            return Vec::new();
        };
        vec![Section::Grid {
            title: format!(
                "Risk by shard count (cap {} writes/s per shard, {} traffic, {} s)",
                fmt::num(first.risk.cap),
                first.risk.traffic.name(),
                fmt::num(first.risk.seconds)
            ),
            header: [
                "likes/s",
                "shards",
                "P(second over cap)",
                "P(any over, run)",
                "busiest mean",
                "busiest p99.9",
                "reads/s no cache",
                "reads/s cached",
            ]
            .map(String::from)
            .to_vec(),
            rows: self
                .0
                .iter()
                .map(|r| {
                    vec![
                        fmt::num(r.risk.rate),
                        r.risk.shards.to_string(),
                        fmt::prob_ln(
                            r.risk.p_over_cap_per_second,
                            r.risk.ln_p_over_cap_per_second,
                        )
                        .replace(" (below f64's range; from its log)", "*"),
                        fmt::prob_ln(r.risk.p_any_over_cap, r.risk.ln_p_any_over_cap)
                            .replace(" (below f64's range; from its log)", "*"),
                        format!("{:.1}", r.risk.busiest_mean_per_second),
                        r.risk.busiest_p999_per_second.to_string(),
                        fmt::num(r.reads_uncached_per_second),
                        fmt::num(r.reads_cached_per_second),
                    ]
                })
                .collect(),
        }]
    }
}

/// `10..40` (inclusive), `10,20,30` or `20`.
pub fn parse_shard_counts(text: &str) -> InputResult<Vec<u64>> {
    let bad = |why: String| {
        InputError::new(
            "--shards",
            format!(
                "{why}; use a range like 10..40, a list like 10,20,30, or one count (got {text:?})"
            ),
        )
    };
    let one = |t: &str| -> InputResult<u64> {
        let n: u64 = t
            .trim()
            .parse()
            .map_err(|_| bad(format!("{t:?} is not a whole number")))?;
        check::count("--shards", n, crate::model::defaults::MAX_SHARDS)
    };
    let counts: Vec<u64> = if let Some((a, b)) = text.split_once("..") {
        let (a, b) = (one(a)?, one(b.trim_start_matches('='))?);
        if a > b {
            return Err(bad(format!("the range starts above its end ({a} > {b})")));
        }
        (a..=b).collect()
    } else {
        text.split(',').map(one).collect::<InputResult<_>>()?
    };
    if counts.len() > 10_000 {
        return Err(bad(format!(
            "{} shard counts is too many (at most 10,000)",
            counts.len()
        )));
    }
    Ok(counts)
}

/// `9000,14000,18000` or one rate.
pub fn parse_rates(text: &str) -> InputResult<Vec<f64>> {
    text.split(',')
        .map(|t| {
            let v: f64 = t.trim().parse().map_err(|_| {
                InputError::new(
                    "--rate",
                    format!("{t:?} is not a number; give likes/s, e.g. 9000,14000,18000"),
                )
            })?;
            check::rate("--rate", v)
        })
        .collect()
}

pub fn run_sweep(args: SweepArgs) -> anyhow::Result<()> {
    let loaded = common::load_scenario(&args.scenario)?;
    let s = &loaded.scenario;
    let (peak, sizing) = common::sizing_plan(&loaded, &args.sizing)?;
    let reads = common::read_plan(&loaded, &args.reads, args.sizing.store)?;
    let (seconds, traffic) = common::span(&loaded, &args.span);
    let shard_counts = parse_shard_counts(&args.shards)?;
    let rates = match &args.rate {
        Some(t) => parse_rates(t)?,
        None => vec![whole_rate(s.rate.unwrap_or(peak.peak), traffic)],
    };
    let out = OutputSet::prepare(args.out.format, &args.out.output)?;
    let mut rows = Vec::new();
    for &rate in &rates {
        for risk in exact::sweep(rate, &shard_counts, sizing.cap, seconds, traffic)? {
            let cost: ReadCost = reads.cost(risk.shards);
            rows.push(SweepRow {
                reads_uncached_per_second: cost.reads_uncached_per_second,
                reads_cached_per_second: cost.reads_cached_per_second,
                risk,
            });
        }
    }
    out.emit(&SweepView(rows))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_ranges_and_lists() {
        assert_eq!(parse_shard_counts("10..40").unwrap().len(), 31);
        assert_eq!(parse_shard_counts("10..=12").unwrap(), vec![10, 11, 12]);
        assert_eq!(parse_shard_counts("10,20,30").unwrap(), vec![10, 20, 30]);
        assert_eq!(parse_shard_counts("20").unwrap(), vec![20]);
        for bad in ["40..10", "a..b", "0..3", "", "1..200000"] {
            assert_eq!(
                parse_shard_counts(bad).unwrap_err().what,
                "--shards",
                "{bad}"
            );
        }
        assert_eq!(
            parse_rates("9000,14000,18000").unwrap(),
            vec![9000.0, 14000.0, 18000.0]
        );
        assert_eq!(parse_rates("9000,-1").unwrap_err().what, "--rate");
    }
}
