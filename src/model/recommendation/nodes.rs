//! Redis Cluster nodes: the keys' placement is not random but exact (CRC16
//! slots, slot ranges as `redis-cli --cluster create` splits them), so a
//! node holding m of the S shard keys takes m / S of the likes against its
//! own cap. The risk: P(some node over its cap in some second of the spell).
//! - Poisson traffic: node loads are independent Poisson(rate m / S), so
//!   1 - prod_n P(Poisson(rate m_n / S) <= cap)^T, exact.
//! - Fixed traffic: the union bound over nodes of exact Binomial tails
//!   (an upper bound; negatively associated loads).
//!
//! A template whose hash tag holds no shard number puts every key in one
//! slot: more shards cannot fix it, the template must change.

use serde::Serialize;

use super::RiskTarget;
use crate::error::ParamResult;
use crate::model::exact::ln_p_any_over;
use crate::model::exact::special::{ln_1m_exp, ln_add};
use crate::model::law::Share;
#[cfg(test)]
use crate::model::law::TrafficModel;
use crate::model::placement::{key_slot, Cluster, ShardTemplate};

/// Where the shard keys come from: a template expanded for 0..S, or the
/// keys themselves as listed (`keys FILE`), shard i the i-th key.
#[derive(Debug, Clone, PartialEq)]
pub enum ShardKeys {
    /// A template with a `<shard>` placeholder.
    Template(ShardTemplate),
    /// The keys as given, bytes as they are.
    Listed(Vec<Vec<u8>>),
}

/// Shard keys from a template (or a list) on a Redis Cluster's masters.
#[derive(Debug, Clone)]
pub struct ClusterNodes {
    /// The shard keys.
    pub keys: ShardKeys,
    /// Masters the 16,384 slots are split over.
    pub nodes: u32,
    /// Likes a second one node accepts.
    pub node_cap: f64,
    /// The risk accepted for them (the plan's, or the default).
    pub target: RiskTarget,
    cluster: Cluster,
}

impl PartialEq for ClusterNodes {
    fn eq(&self, other: &Self) -> bool {
        self.keys == other.keys
            && self.nodes == other.nodes
            && self.node_cap == other.node_cap
            && self.target == other.target
    }
}

/// The node figures at one shard count.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct NodeRisk {
    /// Shard keys on each node, in node order.
    pub keys_per_node: Vec<u64>,
    /// P(some node over its cap in some second of the spell).
    pub p_any_over_cap: f64,
    /// Its natural log.
    pub ln_p_any_over_cap: f64,
    /// Exact (Poisson), or an upper bound (fixed traffic).
    pub exact: bool,
}

impl ClusterNodes {
    /// Errors name `nodes`.
    pub fn new(
        keys: ShardKeys,
        nodes: u32,
        node_cap: f64,
        target: RiskTarget,
    ) -> ParamResult<Self> {
        crate::model::validate::non_negative("node_cap", node_cap)?;
        Ok(ClusterNodes {
            cluster: Cluster::new(nodes)?,
            keys,
            nodes,
            node_cap,
            target,
        })
    }

    /// A template whose every key is in one slot: no shard count can
    /// spread them (listed keys are judged as they are).
    pub fn one_slot(&self) -> bool {
        match &self.keys {
            ShardKeys::Template(t) => t.tag_without_shard(),
            ShardKeys::Listed(_) => false,
        }
    }

    /// The template, when the keys come from one.
    pub fn template(&self) -> Option<&ShardTemplate> {
        match &self.keys {
            ShardKeys::Template(t) => Some(t),
            ShardKeys::Listed(_) => None,
        }
    }

    /// The most shards the keys give: listed keys are a fixed count.
    fn most(&self, max_shards: u64) -> u64 {
        match &self.keys {
            ShardKeys::Template(_) => max_shards,
            ShardKeys::Listed(k) => max_shards.min(k.len() as u64),
        }
    }

    fn node_of(&self, shard: u64) -> usize {
        let slot = match &self.keys {
            ShardKeys::Template(t) => key_slot(t.key(shard).as_bytes()),
            // Past the list (a count the keys cannot give), the last key's slot.
            ShardKeys::Listed(k) => key_slot(&k[(shard as usize).min(k.len().saturating_sub(1))]),
        };
        self.cluster.node_of_slot(slot) as usize
    }

    /// Keys per node for shards `0..shards`.
    pub fn keys_per_node(&self, shards: u64) -> Vec<u64> {
        let mut counts = vec![0u64; self.nodes as usize];
        for s in 0..shards {
            counts[self.node_of(s)] += 1;
        }
        counts
    }

    /// `ln g`: a node with `m` of `shards` keys goes over in some second.
    fn ln_g(&self, rate: f64, m: u64, shards: u64) -> f64 {
        if m == 0 {
            return f64::NEG_INFINITY;
        }
        let cap = self.node_cap.floor().min(u64::MAX as f64) as u64;
        let share = Share::of(m, shards);
        let ln_q = self.target.traffic.law().ln_share_sf(rate, share, cap);
        ln_p_any_over(ln_q.min(0.0), self.target.seconds)
    }

    fn ln_risk(&self, rate: f64, counts: &[u64], shards: u64) -> (f64, bool) {
        match self.target.traffic.split(rate).shards_independent() {
            true => {
                let ln_none: f64 = counts
                    .iter()
                    .map(|&m| ln_1m_exp(self.ln_g(rate, m, shards)))
                    .sum();
                (ln_1m_exp(ln_none.min(0.0)), true)
            }
            // One rate (gamma-poisson) or one observed count (empirical) a
            // second couples the nodes, or the counts are negatively
            // associated (fixed): the union bound.
            false => {
                let ln_u = counts
                    .iter()
                    .map(|&m| self.ln_g(rate, m, shards))
                    .fold(f64::NEG_INFINITY, ln_add);
                (ln_u.min(0.0), false)
            }
        }
    }

    /// The node figures at `shards` and `rate`.
    pub fn at(&self, rate: f64, shards: u64) -> NodeRisk {
        let counts = self.keys_per_node(shards);
        let (ln, exact) = self.ln_risk(rate, &counts, shards);
        NodeRisk {
            keys_per_node: counts,
            p_any_over_cap: ln.exp(),
            ln_p_any_over_cap: ln,
            exact,
        }
    }

    /// The same keys from `template` instead (a suggested fix).
    pub fn with_template(&self, template: ShardTemplate) -> ClusterNodes {
        ClusterNodes {
            keys: ShardKeys::Template(template),
            ..self.clone()
        }
    }

    /// The fewest masters (from this count up to `max_nodes`) on which an
    /// even spread, one key a master, keeps each within its cap at the
    /// target: what `NodesCannotHold` asks for. `None` when none up to the
    /// limit does.
    pub fn nodes_needed(&self, rate: f64, max_nodes: u32) -> Option<u32> {
        (self.nodes..=max_nodes)
            .find(|&n| self.ln_g(rate, 1, u64::from(n)).exp() <= self.target.risk)
    }

    /// The fewest count from `floor` whose node risk is within the target,
    /// scanning in order (the risk is not monotone: the keys' slots decide)
    /// and building the per-node counts one key at a time. `None` when the
    /// keys share one slot, when even an even split over the nodes goes
    /// over too often, or when nothing up to `max_shards` does.
    pub fn fewest(&self, rate: f64, floor: u64, max_shards: u64) -> Option<u64> {
        if self.one_slot() {
            return None;
        }
        // Some node always holds at least 1/N of the keys.
        let n = u64::from(self.nodes).min(max_shards.max(1));
        if self.ln_g(rate, 1, n).exp() > self.target.risk {
            return None;
        }
        let floor = floor.max(1);
        let mut counts = self.keys_per_node(floor - 1);
        for s in floor..=self.most(max_shards) {
            counts[self.node_of(s - 1)] += 1;
            if self.ln_risk(rate, &counts, s).0.exp() <= self.target.risk {
                return Some(s);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use statrs::distribution::{DiscreteCDF, Poisson};

    fn nodes(template: &str, n: u32, cap: f64, traffic: TrafficModel) -> ClusterNodes {
        let target = RiskTarget {
            risk: 0.01,
            seconds: 3600.0,
            traffic,
        };
        let t = ShardTemplate::new(template, 0).unwrap();
        ClusterNodes::new(ShardKeys::Template(t), n, cap, target).unwrap()
    }

    #[test]
    fn node_risk_is_the_product_over_the_exact_placement() {
        // The reference template on 3 masters: 20 keys put 8 on one (the
        // report's NODE OVER ITS SHARE), checked by CRC16 in `keys`.
        let c = nodes("reel:8841:likes:<shard>", 3, 6_000.0, TrafficModel::Poisson);
        let at = c.at(14_000.0, 20);
        assert_eq!(at.keys_per_node.iter().sum::<u64>(), 20);
        assert_eq!(*at.keys_per_node.iter().max().unwrap(), 8);
        // By hand with statrs: 1 - prod_n P(Poisson(14,000 m / 20) <= 6,000)^3600.
        let want = 1.0
            - at.keys_per_node
                .iter()
                .map(|&m| {
                    Poisson::new(14_000.0 * m as f64 / 20.0)
                        .unwrap()
                        .cdf(6_000)
                        .powf(3600.0)
                })
                .product::<f64>();
        assert!(
            (at.p_any_over_cap - want).abs() < 1e-9,
            "{} vs {want}",
            at.p_any_over_cap
        );
        assert!(at.exact);
    }

    #[test]
    fn the_fewest_count_follows_the_slots() {
        // 14,000 likes/s on 3 masters of 6,000: the busiest needs at most
        // ~42% of the keys; the scan finds the first count whose placement
        // does that, and every count below it fails.
        let c = nodes("reel:8841:likes:<shard>", 3, 6_000.0, TrafficModel::Poisson);
        let s = c.fewest(14_000.0, 1, 1_000).unwrap();
        assert!(c.at(14_000.0, s).p_any_over_cap <= 0.01);
        assert!(
            (1..s).all(|t| c.at(14_000.0, t).p_any_over_cap > 0.01),
            "{s}"
        );
        // More than the three nodes can carry: no count.
        assert_eq!(c.fewest(20_000.0, 1, 1_000), None);
    }

    #[test]
    fn a_hash_tag_without_the_shard_cannot_be_fixed_by_shards() {
        let c = nodes("{reel:8841}:likes:<shard>", 3, 6_000.0, TrafficModel::Fixed);
        assert!(c.one_slot());
        assert_eq!(c.fewest(14_000.0, 1, 1_000), None);
        // Every key on one node: that node takes everything.
        let at = c.at(14_000.0, 20);
        assert_eq!(at.keys_per_node.iter().filter(|&&m| m > 0).count(), 1);
        assert_eq!(at.p_any_over_cap, 1.0);
    }
}

#[cfg(test)]
mod listed_tests {
    use super::*;

    #[test]
    fn listed_keys_count_per_node_as_the_template_that_makes_them() {
        let target = RiskTarget {
            risk: 0.01,
            seconds: 3600.0,
            traffic: TrafficModel::Poisson,
        };
        let t = ShardTemplate::new("reel:8841:likes:<shard>", 0).unwrap();
        let listed: Vec<Vec<u8>> = (0..20).map(|s| t.key(s).into_bytes()).collect();
        let a = ClusterNodes::new(ShardKeys::Template(t), 3, 6_000.0, target).unwrap();
        let b = ClusterNodes::new(ShardKeys::Listed(listed), 3, 6_000.0, target).unwrap();
        assert_eq!(a.at(14_000.0, 20), b.at(14_000.0, 20));
        // A list is its own count: no search past it.
        assert!(b.fewest(14_000.0, 1, 1_000).is_none_or(|s| s <= 20));
    }
}
