//! The plan the recommendation weighs: the sizing and read path, the
//! accepted risk over the hot spell, and the partitions of a hashed store.
//! Every command that shows the recommended shard count resolves it here,
//! so `size`, `report`, `simulate`, `risk`, `chart` and `compare` agree.

use super::sizing::Sizing;
use super::{Resolver, Sourced};
use crate::cli::{PlanArgs, ReadArgs, SizingArgs};
use crate::error::InputResult;
use crate::model::defaults::{DEFAULT_RISK, MAX_NODES, MAX_PARTITIONS};
use crate::model::law::TrafficKind;
use crate::model::picker::{Picker, Writers};
use crate::model::placement::ShardTemplate;
use crate::model::read_cost::ReadPlan;
use crate::model::recommendation::{
    ClusterNodes, PlanInputs, Recommendation, RiskTarget, ShardKeys, SharedPartitions,
};
use crate::model::store::{Placement, Store};
use crate::model::validate;

/// The Redis Cluster inputs: template, masters and the node cap.
type ClusterInputs = Option<(ShardKeys, u32, f64)>;

/// A resolved plan and its recommendation.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The sizing it was resolved from.
    pub sizing: Sizing,
    /// The read path.
    pub reads: ReadPlan,
    /// What the recommendation weighs.
    pub inputs: PlanInputs,
    /// The recommendation.
    pub recommendation: Recommendation,
}

/// The flags a command lets through to the plan: the risk and partitions,
/// the hot spell's duration and the traffic law (`None` where the command
/// has no such flag).
#[derive(Debug, Clone, Copy, Default)]
pub struct PlanFlags<'a> {
    /// `--risk` and `--partitions`.
    pub plan: Option<&'a PlanArgs>,
    /// `--duration`.
    pub duration: Option<f64>,
    /// `--traffic`.
    pub traffic: Option<TrafficKind>,
    /// `--dispersion`.
    pub dispersion: Option<f64>,
    /// The shard keys as listed (`keys FILE`), judged as they are instead
    /// of a template.
    pub listed_keys: Option<&'a [Vec<u8>]>,
    /// `keys --pad`: the template's shard numbers zero-padded to this width.
    pub pad: usize,
    /// The template is the command's own input (`keys` places its keys
    /// with or without a node count), so it is never refused here.
    pub own_template: bool,
}

impl PlanFlags<'_> {
    /// `--picker`, where the command offers it.
    fn picker(&self) -> Option<Picker> {
        self.plan.and_then(|p| p.picker.picker)
    }
}

impl<'a> PlanFlags<'a> {
    /// The flags from a command's plan group, hot spell and traffic law.
    pub fn new(
        plan: &'a PlanArgs,
        duration: &crate::cli::Duration,
        traffic: &crate::cli::Traffic,
    ) -> Self {
        PlanFlags {
            plan: Some(plan),
            duration: duration.seconds(),
            traffic: traffic.traffic,
            dispersion: traffic.dispersion,
            ..Default::default()
        }
    }
}

impl Resolver {
    /// The plan and its recommendation: flags over the scenario over store
    /// presets over defaults, as everywhere. Without `--risk` (or a
    /// scenario `risk`) the rule of thumb sets the floor; partitions (from
    /// `--partitions` or the scenario's `partitions`) are weighed at the
    /// accepted risk, or the default 1%, over the hot spell.
    pub fn plan(
        &mut self,
        sizing: &SizingArgs,
        reads: &ReadArgs,
        flags: PlanFlags,
    ) -> InputResult<Plan> {
        let (sizing, reads) = self.sizing_and_reads(sizing, reads)?;
        let risk = self.risk(flags.plan.and_then(|p| p.risk.risk), None)?;
        let partitions = self.partitions(&flags, &sizing)?;
        let cluster = self.cluster_inputs(&flags, &sizing)?;
        // The per-key cap is always checked over the hot spell, so the
        // spell and the traffic law are always resolved; each risk without
        // an accepted one is checked at the default, recorded as such.
        let span = (
            self.duration(flags.duration)?,
            self.traffic(flags.traffic, flags.dispersion)?,
        );
        let (seconds, traffic) = span;
        let accepted = |r: &mut Self, key: &'static str| match risk {
            Some(r) => r,
            None => r.inputs.take(key, Sourced::default(DEFAULT_RISK)),
        };
        let target = |risk: f64| RiskTarget {
            risk,
            seconds,
            traffic,
        };
        let shared = match &partitions {
            Some(p) => Some(SharedPartitions {
                target: target(accepted(self, "partition_risk")),
                partitions: self.inputs.take("partitions", p.clone()),
                cap: sizing.plan.cap,
            }),
            None => None,
        };
        let nodes = match cluster {
            Some((template, nodes, node_cap)) => {
                let t = target(accepted(self, "node_risk"));
                Some(ClusterNodes::new(template, nodes, node_cap, t).map_err(|e| self.blame(e))?)
            }
            None => None,
        };
        let writers = self.writers(flags.picker(), reads.servers)?;
        let inputs = PlanInputs {
            writers,
            sizing: sizing.plan,
            risk: risk.map(target),
            key_check: target(accepted(self, "key_risk")),
            partitions: shared,
            nodes,
            reads,
            store: sizing.store,
            write_cost: sizing.write_cost,
        };
        let recommendation = inputs.recommend().map_err(|e| self.blame(e))?;
        Ok(Plan {
            sizing,
            reads,
            inputs,
            recommendation,
        })
    }

    /// `--partitions` over the scenario's `partitions`, checked: only a
    /// hashed store has partitions.
    fn partitions(
        &mut self,
        flags: &PlanFlags,
        sizing: &Sizing,
    ) -> InputResult<Option<Sourced<u64>>> {
        let partitions = Sourced::flag(
            "--partitions",
            flags.plan.and_then(|p| p.partitions.partitions),
        )
        .or(self.field("partitions", &self.scenario.scenario.partitions));
        if let Some(p) = &partitions {
            p.check(|v| validate::count("partitions", *v, MAX_PARTITIONS))?;
            if let Some(store) = sizing.store.filter(|s| s.placement() != Placement::Hashed) {
                return Err(p.error(format!(
                    "applies to a hashed store; {} {}",
                    store.name(),
                    match store.placement() {
                        Placement::Slots =>
                            "places keys by hash slot and node (see `shardplan keys`)",
                        Placement::Rows => "keeps every row on one server, with no partitions",
                        _ => "places keys by key order (see `shardplan keys`)",
                    }
                )));
            }
        }
        Ok(partitions)
    }

    /// The writers: `--picker` over the scenario's `picker` over `random`,
    /// with the app servers the read path resolved (`--servers`). Recorded
    /// where given.
    fn writers(&mut self, flag: Option<Picker>, servers: u64) -> InputResult<Writers> {
        let picker = Sourced::flag("--picker", flag)
            .or(self.field("picker", &self.scenario.scenario.picker));
        let Some(picker) = picker else {
            return Ok(Writers::random(servers));
        };
        self.inputs
            .record("picker", &picker.clone().map(Picker::name));
        Writers::new(picker.value, servers).map_err(|e| self.blame(e))
    }

    /// Redis Cluster nodes weigh in only when the store is redis-cluster
    /// and both a key template and a node count are known (flags over the
    /// scenario's `key_template` and `nodes`); elsewhere those scenario
    /// fields only feed `keys` and the report, and the flags are refused.
    fn cluster_inputs(&mut self, flags: &PlanFlags, sizing: &Sizing) -> InputResult<ClusterInputs> {
        let a = flags.plan.cloned().unwrap_or_default();
        let cluster = sizing.store == Some(Store::RedisCluster);
        if !cluster {
            let why = "unless the store is redis-cluster (add --store redis-cluster)";
            super::refuse(a.template.template.is_some(), "--template", why)?;
            super::refuse(a.nodes.nodes.is_some(), "--nodes", why)?;
            super::refuse(a.node_cap.is_some(), "--node-cap", why)?;
            return Ok(None);
        }
        let s = self.scenario.scenario.clone();
        // Listed keys stand in for any template (the scenario's included).
        let template = match flags.listed_keys {
            Some(_) => Some(Sourced::from_flag("FILE", "the listed keys".to_string())),
            None => Sourced::flag("--template", a.template.template.clone())
                .or(self.field("key_template", &s.key_template)),
        };
        let nodes = Sourced::flag("--nodes", a.nodes.nodes).or(self.field("nodes", &s.nodes));
        let no_template = template.is_none();
        let (Some(template), Some(nodes)) = (template, nodes) else {
            // The nodes are weighed from where the template's keys land:
            // one without the other changes nothing in the plan.
            super::refuse(
                a.nodes.nodes.is_some() && no_template,
                "--nodes",
                "without a key template: give --template (or the scenario's key_template) so the \
                 keys can be placed on the nodes",
            )?;
            super::refuse(
                a.template.template.is_some() && !flags.own_template,
                "--template",
                "without a node count: give --nodes (or the scenario's nodes) so the keys' nodes \
                 are weighed",
            )?;
            super::refuse(
                a.node_cap.is_some(),
                "--node-cap",
                "without a key template and a node count (--template, --nodes)",
            )?;
            return Ok(None);
        };
        let t = match flags.listed_keys {
            Some(keys) => ShardKeys::Listed(keys.to_vec()),
            None => ShardKeys::Template(template.check(|v| ShardTemplate::new(v, flags.pad))?),
        };
        let n = nodes.check(|v| validate::count("nodes", *v, u64::from(MAX_NODES)))? as u32;
        let node_cap = Sourced::flag("--node-cap", a.node_cap)
            .unwrap_or(Sourced::derived(sizing.plan.cap, "the per-key cap"));
        node_cap.check(|v| validate::rate("node_cap", *v))?;
        if flags.listed_keys.is_none() {
            self.inputs.record("key_template", &template);
        }
        self.inputs.record("nodes", &nodes);
        let node_cap = self.inputs.take("node_cap", node_cap);
        Ok(Some((t, n, node_cap)))
    }
}
