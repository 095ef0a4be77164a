//! `size`'s view: the sizing, the risk-based count beside the rule of
//! thumb, and the read-cost block (shared with `simulate` and `report`).

use serde::Serialize;
use serde_json::Value;

use super::reads::read_cost_section;
use crate::model::read_cost::ReadCost;
use crate::model::sizing::Sizing;
use crate::output::{fmt, row, Report, Section};

/// The one row of `size` (CSV columns and JSON fields).
#[derive(Debug, Clone, Serialize)]
pub struct SizeRow {
    pub scenario: String,
    pub observed: Option<f64>,
    pub growth: Option<f64>,
    /// --transactional: the cap and safe rate below are per like, the
    /// store's figures divided by `write_cost`.
    pub transactional: bool,
    /// Write units one like costs (2 for a DynamoDB transaction, else 1).
    pub write_cost: f64,
    #[serde(flatten)]
    pub sizing: Sizing,
    /// With --risk: the accepted chance of any second over the cap.
    pub risk: Option<f64>,
    pub duration_seconds: Option<f64>,
    pub traffic: Option<&'static str>,
    /// With --risk: peak / safe, rounded up, and its chance of any second
    /// over the cap during the duration (`shards` is then the risk-based count).
    pub rule_of_thumb_shards: Option<u64>,
    pub rule_of_thumb_p_any_over_cap: Option<f64>,
    /// Its natural log: finite where the chance underflows f64 (prints 0).
    pub rule_of_thumb_ln_p_any_over_cap: Option<f64>,
    /// With --risk: the chance for the risk-based count, and its log.
    pub p_any_over_cap: Option<f64>,
    pub ln_p_any_over_cap: Option<f64>,
    #[serde(flatten)]
    pub reads: ReadCost,
}

impl Report for SizeRow {
    fn rows(&self) -> Vec<Value> {
        vec![row(self)]
    }

    fn sections(&self) -> Vec<Section> {
        let mut out = self.sizing_sections();
        out.push(read_cost_section(&self.reads));
        out
    }
}

impl SizeRow {
    /// The sizing (and the risk-based count beside the rule of thumb),
    /// without the read cost.
    pub fn sizing_sections(&self) -> Vec<Section> {
        let s = &self.sizing;
        let mut plan = vec![("scenario", self.scenario.clone())];
        if let (Some(o), Some(g)) = (self.observed, self.growth) {
            plan.push(("observed peak", format!("{} likes/s", fmt::num(o))));
            plan.push(("growth factor", format!("{}x", fmt::num(g))));
        }
        plan.extend([
            ("planned peak", format!("{} likes/s", fmt::num(s.peak))),
            (
                "cap per key",
                if self.transactional {
                    format!(
                        "{} likes/s = {} writes/s / {} units per transactional like (--transactional)",
                        fmt::num(s.cap),
                        fmt::num(s.cap * self.write_cost),
                        fmt::num(self.write_cost)
                    )
                } else {
                    format!("{} writes/s", fmt::num(s.cap))
                },
            ),
            (
                "safe per key",
                format!(
                    "{} {}/s ({} headroom)",
                    fmt::num(s.safe_per_shard),
                    if self.transactional { "likes" } else { "writes" },
                    fmt::percent(s.headroom)
                ),
            ),
            (
                "shards",
                match self.rule_of_thumb_shards {
                    None => format!(
                        "{} = ceil({} / {})",
                        s.shards,
                        fmt::num(s.peak),
                        fmt::num(s.safe_per_shard)
                    ),
                    Some(rule) => format!(
                        "{} by risk (rule of thumb: {rule} = ceil({} / {}))",
                        s.shards,
                        fmt::num(s.peak),
                        fmt::num(s.safe_per_shard)
                    ),
                },
            ),
            (
                "average per shard at peak",
                if self.transactional {
                    format!(
                        "{} likes/s ({} write units/s)",
                        fmt::num(s.mean_per_shard_at_peak),
                        fmt::num(s.mean_per_shard_at_peak * self.write_cost)
                    )
                } else {
                    format!("{} writes/s", fmt::num(s.mean_per_shard_at_peak))
                },
            ),
            ("headroom left at peak", fmt::percent(s.headroom_left)),
        ]);
        let mut out = vec![Section::pairs("Sizing", plan)];
        if let (Some(risk), Some(secs), Some(rule), Some(rule_p), Some(p)) = (
            self.risk,
            self.duration_seconds,
            self.rule_of_thumb_shards,
            self.rule_of_thumb_p_any_over_cap,
            self.p_any_over_cap,
        ) {
            out.push(Section::Grid {
                title: format!(
                    "Sizing by risk: P(any second over the cap in {} s, {} traffic) <= {}",
                    fmt::num(secs),
                    self.traffic.unwrap_or("fixed"),
                    fmt::prob(risk)
                ),
                header: vec![
                    "method".into(),
                    "shards".into(),
                    "P(any second over the cap)".into(),
                ],
                rows: vec![
                    vec![
                        "rule of thumb (peak / safe)".into(),
                        rule.to_string(),
                        fmt::prob_ln(
                            rule_p,
                            self.rule_of_thumb_ln_p_any_over_cap.unwrap_or(f64::NAN),
                        ),
                    ],
                    vec![
                        "by risk (fewest shards meeting it)".into(),
                        s.shards.to_string(),
                        fmt::prob_ln(p, self.ln_p_any_over_cap.unwrap_or(f64::NAN)),
                    ],
                ],
            });
        }
        out
    }
}
