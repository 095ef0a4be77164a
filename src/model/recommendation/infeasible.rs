//! A plan no shard count can hold, as data: what cannot be met, the
//! arithmetic that shows it, and the figures of the levers that would
//! work. `size` and every command that recommends a count say it first;
//! the count shown beside it fails its verdict, so `--check` fails.

use super::{planned_rate, PlanInputs, Recommendation};
use crate::model::defaults::{MAX_NODES, MAX_SHARDS};
pub use crate::model::infeasible::Infeasible;
use crate::model::picker::risk::shards_for_risk;
use crate::model::picker::{Picker, Writers};

impl PlanInputs {
    /// What makes the plan infeasible, given its recommendation's searches
    /// (`rec`: the per-key, partition and node counts, `None` where no
    /// count up to the limit meets them).
    pub(super) fn infeasible(&self, rec: &Recommendation, key_unmet: bool) -> Vec<Infeasible> {
        let mut out = Vec::new();
        if key_unmet {
            out.push(self.key_infeasible());
        }
        if let (Some(true), None, Some(p)) =
            (rec.partition_binds, rec.partition_shards, self.partitions)
        {
            let peak = planned_rate(self.sizing.peak, p.target.traffic);
            out.push(Infeasible::Partitions {
                partitions: p.partitions,
                cap: p.cap,
                capacity: p.partitions as f64 * p.cap,
                peak,
                partitions_needed: (peak / p.cap).ceil() as u64,
                risk: p.target.risk,
                max_shards: MAX_SHARDS,
            });
        }
        if let (Some(c), None) = (&self.nodes, rec.node_shards) {
            let peak = planned_rate(self.sizing.peak, c.target.traffic);
            out.push(Infeasible::Nodes {
                nodes: c.nodes,
                node_cap: c.node_cap,
                capacity: f64::from(c.nodes) * c.node_cap,
                peak,
                one_slot: c.template().is_some() && c.one_slot(),
                nodes_needed: c.nodes_needed(peak, MAX_NODES),
            });
        }
        out
    }

    /// The per-key risk no count meets: for sticky writers, each server's
    /// share against the cap; the random picker's count beside.
    fn key_infeasible(&self) -> Infeasible {
        let t = self.key_check;
        let peak = planned_rate(self.sizing.peak, t.traffic);
        let cap = self.sizing.cap;
        let w = self.writers;
        let sticky = w.picker == Picker::Sticky;
        let random = Writers {
            picker: Picker::Random,
            ..w
        };
        // What `size` answers for the random picker: its per-key count,
        // and without an accepted risk at least the rule of thumb's.
        let rule = self.sizing.size().shards;
        let random_shards = match w.picker {
            Picker::Random | Picker::UserHash => None,
            _ => shards_for_risk(peak, cap, t.seconds, t.risk, t.traffic, random, MAX_SHARDS)
                .ok()
                .map(|k| match self.risk {
                    Some(_) => k,
                    None => k.max(rule),
                }),
        };
        Infeasible::KeyRisk {
            picker: w.picker,
            servers: w.servers,
            risk: t.risk,
            max_shards: MAX_SHARDS,
            cap,
            per_server: sticky.then(|| peak / w.servers as f64),
            servers_needed: sticky.then(|| (peak / cap).ceil() as u64),
            random_shards,
        }
    }
}
