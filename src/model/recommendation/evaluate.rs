//! A deployed count checked against every constraint, and the figures of
//! a count (the recommendation is the evaluation of the count it picks).

use super::NodeRisk;
use super::{constraints, planned_rate, warnings, Binding, PlanInputs, Recommendation};
use crate::error::ParamResult;
use crate::model::partitions::{PartitionRiskAt, RiskMethod};
use crate::model::picker::risk::KeyMethod;
use crate::model::verdict::{failing, Check};

impl PlanInputs {
    /// A deployed count checked against every constraint: which it fails,
    /// given the plan's recommendation `rec` (computed once, when the plan
    /// was resolved: with shared partitions it is a search of its own).
    pub fn evaluate(&self, shards: u64, rec: &Recommendation) -> ParamResult<Recommendation> {
        let mut e = self.judge(shards, rec, None)?;
        self.add_capacity(&mut e)?;
        Ok(e)
    }

    /// The highest rate `e`'s count carries within the risk, and the margin
    /// it leaves over the plan's peak.
    pub(super) fn add_capacity(&self, e: &mut Recommendation) -> ParamResult<()> {
        e.capacity_rate = self.capacity(e.shards)?;
        if let (Some(c), Some(_)) = (e.capacity_rate, self.risk) {
            e.margin = self.margin_of(c);
        }
        Ok(())
    }

    /// A count checked against every constraint, given the plan's
    /// recommendation `rec` (computed once for many counts: `sweep`'s rows)
    /// and, when the caller has it, the per-key risk's log at the count
    /// (the same figure: P(any second over the cap during the key check's
    /// spell)). No capacity: that is a search of its own.
    pub fn judge(
        &self,
        shards: u64,
        rec: &Recommendation,
        known_key_ln: Option<(f64, KeyMethod)>,
    ) -> ParamResult<Recommendation> {
        // The rule of thumb's count and its risk are the recommendation's
        // (a sweep judges many counts against one).
        let known = (known_key_ln, rec.rule_of_thumb_ln_p_any_over_cap);
        let mut e = self.evaluate_with(
            shards,
            rec.binding,
            rec.rule_of_thumb_shards,
            rec.key_risk_shards,
            known,
        )?;
        e.partition_shards = rec.partition_shards;
        e.node_shards = rec.node_shards;
        e.partition_shards_stable = rec.partition_shards_stable;
        e.partition_failing = rec.partition_failing.clone();
        e.warnings = warnings::collect_against(self, &e, &rec.warnings);
        e.infeasible = rec.infeasible.clone();
        Ok(e)
    }

    /// The figures of a count, given what set the recommendation (`binding`,
    /// the rule of thumb's and the per-key risk's counts) and, when known,
    /// the per-key risk's log at the count and the rule of thumb's count's.
    pub(super) fn evaluate_with(
        &self,
        shards: u64,
        binding: Binding,
        rule: u64,
        key: Option<u64>,
        known: (Option<(f64, KeyMethod)>, Option<f64>),
    ) -> ParamResult<Recommendation> {
        let at = self.risks_at(shards, rule, known)?;
        let (counted, judged) = (at.counted(self.partitions_bind()), at.judged());
        let AtCount {
            key_ln,
            key_method,
            rule_ln,
            part,
            node,
        } = at;
        let safe = self.sizing.safe_per_shard();
        let reads = self.reads.cost(shards);
        let mut rec = Recommendation {
            shards,
            binding,
            rule_of_thumb_shards: rule,
            key_risk_shards: key,
            partition_shards: None,
            partition_shards_stable: None,
            partition_failing: Vec::new(),
            partition_binds: self.partitions.map(|_| self.partitions_bind()),
            worst_risk: counted.map(|c| c.2),
            worst_p_any_over_cap: counted.map(|c| c.0.exp()),
            worst_ln_p_any_over_cap: counted.map(|c| c.0),
            worst_p_any_over_cap_exact: counted.map(|c| c.1),
            key_p_any_over_cap: Some(key_ln.exp()),
            key_ln_p_any_over_cap: Some(key_ln),
            key_method,
            writers: self.writers,
            picker: self.writers.picker,
            rule_of_thumb_p_any_over_cap: rule_ln.map(f64::exp),
            rule_of_thumb_ln_p_any_over_cap: rule_ln,
            partition_p_any_over_cap: part.as_ref().map(|p| p.0.p_any_over_cap),
            partition_ln_p_any_over_cap: part.as_ref().map(|p| p.0.ln_p_any_over_cap),
            capacity_rate: None,
            // In likes/s: the safe rate is writes per key.
            safe_capacity_rate: shards as f64 * safe / self.sizing.writes_per_like,
            like_peak: self.sizing.like_peak(),
            writes_per_like: self.sizing.writes_per_like,
            planned_rate: self.planned_rate(),
            margin: shards as f64 * safe / self.sizing.peak - 1.0,
            risk: self.risk.map(|t| t.risk),
            key_risk: self.key_check.risk,
            duration_seconds: Some(self.spell().seconds),
            traffic: Some(self.spell().traffic),
            partition_risk: self.partitions.map(|p| p.target.risk),
            partitions: self.partitions.map(|p| p.partitions),
            nodes: self.nodes.as_ref().map(|c| c.nodes),
            node_shards: None,
            node_p_any_over_cap: node.as_ref().map(|n| n.0.p_any_over_cap),
            node_ln_p_any_over_cap: node.as_ref().map(|n| n.0.ln_p_any_over_cap),
            keys_per_node: node.map(|n| n.0.keys_per_node),
            cap_per_key: self.sizing.cap,
            transactional_write_cost: self.write_cost,
            reads_uncached_per_second: reads.reads_uncached_per_second,
            reads_cached_per_second: reads.reads_cached_per_second,
            reads,
            constraints: Vec::new(),
            holds: true,
            fails: Vec::new(),
            warnings: Vec::new(),
            infeasible: Vec::new(),
        };
        rec.constraints = constraints::list(self, &rec, judged);
        rec.fails = failing(&rec.constraints);
        rec.holds = rec.fails.is_empty();
        Ok(rec)
    }

    /// Every risk at `shards`: per key (and at the rule of thumb's count,
    /// beside an accepted risk), shared partitions and nodes, each with
    /// its own comparison.
    fn risks_at(
        &self,
        shards: u64,
        rule: u64,
        (known_key_ln, known_rule_ln): (Option<(f64, KeyMethod)>, Option<f64>),
    ) -> ParamResult<AtCount> {
        let (key_ln, key_method) = match known_key_ln {
            Some(known) => known,
            None => self.key_risk(self.sizing.peak, shards, self.key_check)?,
        };
        let rule_ln = match (self.risk, known_rule_ln) {
            (Some(_), Some(known)) => Some(known),
            (Some(t), None) => Some(self.ln_key_risk(self.sizing.peak, rule, t)?),
            (None, _) => None,
        };
        let part = self
            .partition_risk(self.sizing.peak)?
            .map(|(pr, risk)| (pr.at(shards), pr.meets(shards, risk)));
        let node = self.nodes.as_ref().map(|c| {
            let at = c.at(planned_rate(self.sizing.peak, c.target.traffic), shards);
            let meets = at.p_any_over_cap <= c.target.risk;
            (at, meets)
        });
        Ok(AtCount {
            key_ln,
            key_method,
            rule_ln,
            part,
            node,
        })
    }
}

/// The risks at one count, each partition and node figure with whether it
/// meets its target.
struct AtCount {
    key_ln: f64,
    key_method: KeyMethod,
    rule_ln: Option<f64>,
    part: Option<(PartitionRiskAt, bool)>,
    node: Option<(NodeRisk, bool)>,
}

impl AtCount {
    /// The risk counted at the count: the largest of those that bind (per
    /// key, shared partitions where they bind, nodes), exact only if that
    /// one is.
    fn counted(&self, partitions_bind: bool) -> Option<(f64, bool, Check)> {
        [
            Some((self.key_ln, self.key_method.is_exact(), Check::KeyRisk)),
            self.part
                .as_ref()
                .filter(|_| partitions_bind)
                .map(|(at, _)| {
                    (
                        at.ln_p_any_over_cap,
                        at.method == RiskMethod::Exact,
                        Check::SharedPartitions,
                    )
                }),
            self.node
                .as_ref()
                .map(|(at, _)| (at.ln_p_any_over_cap, at.exact, Check::Nodes)),
        ]
        .into_iter()
        .flatten()
        .max_by(|a, b| a.0.total_cmp(&b.0))
    }

    /// The partition and node risks' comparisons and exactness, for the
    /// constraints.
    fn judged(&self) -> (constraints::Judged, constraints::Judged) {
        (
            self.part
                .as_ref()
                .map(|p| (p.1, p.0.method == RiskMethod::Exact)),
            self.node.as_ref().map(|n| (n.1, n.0.exact)),
        )
    }
}
