//! `size`'s view: the recommendation and the constraints behind it, the
//! sizing inputs, the risk-based count beside the rule of thumb, the read
//! cost and the warnings.

use serde::Serialize;
use serde_json::Value;

use super::reads::read_cost_section;
use super::recommendation::{constraints_section, recommendation_line, warning_sections};
use super::verdict::shards;
use crate::model::price::{Costs, Prices, Usage};
use crate::model::read_cost::ReadCost;
use crate::model::recommendation::{Binding, Recommendation};
use crate::output::{fmt, row, Report, Section};

/// The one row of `size` (CSV columns and JSON fields).
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct SizeRow {
    /// The scenario the inputs started from: a bundled name or a file's path.
    pub scenario: String,
    /// The highest rate seen so far, likes/s (null unless the peak is
    /// observed x growth).
    pub observed: Option<f64>,
    /// The planning factor over `observed`, a ratio: peak = observed x growth
    /// (null unless the peak came from it).
    pub growth: Option<f64>,
    /// --transactional: the cap and safe rate below are per like, the
    /// store's figures divided by `write_cost`.
    pub transactional: bool,
    /// Write units one like costs (2 for a DynamoDB transaction, else 1).
    pub write_cost: f64,
    /// Planned peak likes/s.
    pub peak: f64,
    /// The writes the peak makes, writes/s: the likes plus their unlikes
    /// (the peak itself without unlikes). Every per-key figure is judged
    /// at this rate.
    pub peak_writes: f64,
    /// Likes/s one key accepts.
    pub cap: f64,
    /// The safe likes/s per key: cap x (1 - headroom).
    pub safe_per_shard: f64,
    /// The share of the cap kept free, 0..1: safe = cap x (1 - headroom).
    pub headroom: f64,
    /// peak_writes / shards: each shard key's mean at the peak, writes/s.
    pub mean_per_shard_at_peak: f64,
    /// The share of the cap the mean at the peak leaves unused:
    /// (cap - mean_per_shard_at_peak) / cap (negative when the mean is over
    /// the cap).
    pub headroom_left: f64,
    /// `--shards N`: `shards` is the count evaluated, not the recommendation.
    pub evaluated: bool,
    /// The recommended count (equal to `shards` unless evaluated).
    pub recommended_shards: u64,
    #[serde(flatten)]
    pub recommendation: Recommendation,
    #[serde(flatten)]
    pub reads: ReadCost,
    /// The cost figures at `--write-price` / `--read-price` (null without).
    #[serde(flatten)]
    pub costs: Costs,
    /// The inputs assumed rather than given (the warnings say so).
    #[serde(skip)]
    pub assumed: super::inputs::Assumed,
}

impl SizeRow {
    /// The row for `rec` (a recommendation, or with `recommended` a
    /// deployed count evaluated against it).
    pub fn new(
        scenario: &str,
        peak: &crate::config::sizing::Peak,
        sizing: &crate::model::sizing::SizingPlan,
        rec: Recommendation,
        recommended: Option<u64>,
    ) -> SizeRow {
        let size = sizing.size();
        let mean = sizing.peak / rec.shards as f64;
        SizeRow {
            scenario: scenario.to_string(),
            observed: peak.observed,
            growth: peak.growth,
            transactional: rec.transactional_write_cost.is_some(),
            write_cost: rec.transactional_write_cost.unwrap_or(1.0),
            peak: peak.likes,
            peak_writes: sizing.peak,
            cap: sizing.cap,
            safe_per_shard: size.safe_per_shard,
            headroom: size.headroom,
            mean_per_shard_at_peak: mean,
            headroom_left: (sizing.cap - mean) / sizing.cap,
            evaluated: recommended.is_some(),
            recommended_shards: recommended.unwrap_or(rec.shards),
            reads: rec.reads.clone(),
            recommendation: rec,
            costs: Costs::default(),
            assumed: Default::default(),
        }
    }

    /// Prices the row: one increment a like (the store's transactional cost
    /// with `--transactional`), the like row the same, S item reads a view;
    /// with unlikes, `writes_per_like` (1 + share) of each write.
    pub fn priced(mut self, prices: &Prices, writes_per_like: f64) -> SizeRow {
        let usage = Usage {
            write_units_per_like: Some(self.write_cost),
            like_row_units_per_like: Some(self.write_cost),
            reads_per_view_uncached: self.reads.shards as f64,
            reads_cached_per_second: self.reads.reads_cached_per_second,
            views_per_second: self.reads.views,
        }
        .per_like(writes_per_like);
        self.costs = prices.costs(&usage);
        self
    }

    /// The row, with the inputs it assumed (its warnings say so).
    pub fn assuming(mut self, assumed: super::inputs::Assumed) -> SizeRow {
        self.assumed = assumed;
        self
    }

    /// The verdict on the row's count.
    pub fn verdict(&self) -> crate::model::verdict::Verdict {
        self.recommendation
            .verdict(self.recommended_shards, self.recommendation.planned_rate)
    }

    /// The first line: the recommendation, or the verdict on a deployed count.
    pub fn headline(&self) -> String {
        match self.evaluated {
            true => super::verdict::line(&self.verdict()),
            false => recommendation_line(&self.recommendation, self.recommendation.planned_rate),
        }
    }
}

impl Report for SizeRow {
    fn rows(&self) -> Vec<Value> {
        vec![row(self)]
    }

    fn sections(&self) -> Vec<Section> {
        let fails = !self.recommendation.holds;
        let mut out = vec![Section::verdict(self.headline(), fails)];
        out.extend(self.sizing_sections());
        out.push(read_cost_section(&self.reads));
        out.extend(super::price::cost_section(&self.costs));
        out.extend(warning_sections(&self.recommendation, &self.assumed));
        out
    }
}

impl SizeRow {
    /// The recommendation, the sizing inputs and the risk-based count
    /// beside the rule of thumb, without the read cost.
    pub fn sizing_sections(&self) -> Vec<Section> {
        let r = &self.recommendation;
        let mut out = vec![
            constraints_section(
                r,
                self.peak_writes,
                self.safe_per_shard,
                self.evaluated.then_some(self.recommended_shards),
            ),
            Section::pairs("Sizing", self.sizing_rows()),
        ];
        out.extend(self.key_risk_section());
        out
    }

    /// The "Sizing" block: the peak planned, the cap and safe rate per key,
    /// and the load each shard takes at the peak.
    fn sizing_rows(&self) -> Vec<(&'static str, String)> {
        let mut plan = vec![("scenario", self.scenario.clone())];
        if let (Some(o), Some(g)) = (self.observed, self.growth) {
            plan.push(("observed peak", format!("{} likes/s", fmt::rate(o))));
            plan.push(("growth factor", format!("{}x", fmt::num(g))));
        }
        let unit = if self.transactional {
            "likes"
        } else {
            "writes"
        };
        plan.extend([
            ("planned peak", self.planned_peak()),
            ("cap per key", self.cap_per_key()),
            (
                "safe per key",
                format!(
                    "{} {unit}/s ({} headroom)",
                    fmt::rate(self.safe_per_shard),
                    fmt::percent(self.headroom)
                ),
            ),
            ("average per shard at peak", self.average_per_shard()),
            ("headroom left at peak", fmt::percent(self.headroom_left)),
        ]);
        plan
    }

    /// The planned peak; with unlikes the peak the model weighs is writes/s.
    fn planned_peak(&self) -> String {
        match self.peak == self.peak_writes {
            true => format!("{} likes/s", fmt::rate(self.peak)),
            false => format!(
                "{} likes/s = {} writes/s with their unlikes",
                fmt::rate(self.peak),
                fmt::rate(self.peak_writes)
            ),
        }
    }

    /// The cap one key takes; with `--transactional`, in likes.
    fn cap_per_key(&self) -> String {
        if self.transactional {
            format!(
                "{} likes/s = {} writes/s / {} units per transactional like (--transactional)",
                fmt::rate(self.cap),
                fmt::rate(self.cap * self.write_cost),
                fmt::num(self.write_cost)
            )
        } else {
            format!("{} writes/s", fmt::rate(self.cap))
        }
    }

    /// The mean load on a shard at the peak; with `--transactional`, in
    /// likes and write units.
    fn average_per_shard(&self) -> String {
        let count = shards(self.recommendation.shards);
        if self.transactional {
            format!(
                "{} likes/s ({} write units/s) over {count}",
                fmt::rate(self.mean_per_shard_at_peak),
                fmt::rate(self.mean_per_shard_at_peak * self.write_cost)
            )
        } else {
            format!(
                "{} writes/s over {count}",
                fmt::rate(self.mean_per_shard_at_peak)
            )
        }
    }

    /// With an accepted risk: the rule of thumb's count and chance beside
    /// the recommended count's.
    fn key_risk_section(&self) -> Option<Section> {
        let r = &self.recommendation;
        let (risk, secs, rule_p, p) = (
            r.risk?,
            r.duration_seconds?,
            r.rule_of_thumb_p_any_over_cap?,
            r.key_p_any_over_cap?,
        );
        Some(Section::Grid {
            title: format!(
                "Per-key risk: P(any second over the cap in {} s, {} traffic) <= {}",
                fmt::num(secs),
                r.traffic.map_or("fixed", |t| t.name()),
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
                    fmt::count(r.rule_of_thumb_shards),
                    fmt::prob_ln(
                        rule_p,
                        r.rule_of_thumb_ln_p_any_over_cap.unwrap_or(f64::NAN),
                    ),
                ],
                vec![
                    match r.binding {
                        Binding::KeyRisk => "by risk (fewest shards meeting it)".into(),
                        _ => "recommended".to_string(),
                    },
                    fmt::count(r.shards),
                    match r.key_ln_p_any_over_cap {
                        Some(ln) => fmt::prob_ln(p, ln),
                        None => fmt::prob(p),
                    },
                ],
            ],
            secondary: Vec::new(),
        })
    }
}
