//! Redis Cluster masters and the slot ranges `redis-cli --cluster create`
//! gives them.

use serde::Serialize;

use super::slots::REDIS_SLOTS;
use crate::error::{ParamError, ParamResult, Problem};
use crate::model::defaults::MAX_NODES;

/// One master's slot range, inclusive at both ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct SlotRange {
    /// The master, numbered from 0 in slot order.
    pub node: u32,
    /// The first slot it serves.
    pub first_slot: u16,
    /// The last slot it serves.
    pub last_slot: u16,
    /// How many slots it serves: `last_slot - first_slot + 1`.
    pub slots: u16,
}

/// Slots split over `nodes` masters exactly as `redis-cli --cluster create`
/// does (`clusterManagerCommandCreate` in redis-cli.c): with the single
/// precision float `slots_per_node = REDIS_SLOTS / n`, node i ends at
/// `lround(cursor + slots_per_node - 1)` where the float `cursor` grows by
/// `slots_per_node` per node, and the last node ends at `REDIS_SLOTS - 1`.
/// The f32 arithmetic matters: it decides which node gets the odd slot.
/// For 3 nodes: 0-5460, 5461-10922, 10923-16383.
pub fn cluster_create_ranges(nodes: u32) -> ParamResult<Vec<SlotRange>> {
    let n = validate_nodes(nodes)?;
    let total = i64::from(REDIS_SLOTS);
    let slots_per_node = f32::from(REDIS_SLOTS) / n as f32;
    let mut cursor = 0.0f32;
    let mut first: i64 = 0;
    let mut ranges = Vec::with_capacity(n as usize);
    for i in 0..n {
        // f32::round rounds half away from zero, as C's lround does.
        let mut last = (cursor + slots_per_node - 1.0).round() as i64;
        if last > total || i == n - 1 {
            last = total - 1;
        }
        if last < first {
            last = first;
        }
        ranges.push(SlotRange {
            node: i,
            first_slot: first as u16,
            last_slot: last as u16,
            slots: (last - first + 1) as u16,
        });
        first = last + 1;
        cursor += slots_per_node;
    }
    Ok(ranges)
}

fn validate_nodes(nodes: u32) -> ParamResult<u32> {
    if nodes == 0 || nodes > crate::model::defaults::MAX_NODES {
        return Err(ParamError::new(
            "nodes",
            Problem::CountOutside {
                got: u64::from(nodes),
                max: u64::from(MAX_NODES),
            },
        ));
    }
    Ok(nodes)
}

/// A Redis Cluster laid out by `redis-cli --cluster create`.
#[derive(Debug, Clone)]
pub struct Cluster {
    ranges: Vec<SlotRange>,
}

impl Cluster {
    /// A cluster of `nodes` masters. Errors name the parameters `nodes`.
    pub fn new(nodes: u32) -> ParamResult<Self> {
        Ok(Cluster {
            ranges: cluster_create_ranges(nodes)?,
        })
    }

    /// The node serving `slot` (slots from [`REDIS_SLOTS`] up wrap, as a key
    /// slot never is).
    pub fn node_of_slot(&self, slot: u16) -> u32 {
        let slot = slot % REDIS_SLOTS;
        let i = self.ranges.partition_point(|r| r.last_slot < slot);
        self.ranges[i.min(self.ranges.len() - 1)].node
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_node_ranges() {
        let r = cluster_create_ranges(3).unwrap();
        let got: Vec<(u16, u16)> = r.iter().map(|r| (r.first_slot, r.last_slot)).collect();
        assert_eq!(got, vec![(0, 5460), (5461, 10922), (10923, 16383)]);
        let c = Cluster::new(3).unwrap();
        assert_eq!(c.node_of_slot(0), 0);
        assert_eq!(c.node_of_slot(5460), 0);
        assert_eq!(c.node_of_slot(5461), 1);
        assert_eq!(c.node_of_slot(10923), 2);
        assert_eq!(c.node_of_slot(16383), 2);
    }

    #[test]
    fn ranges_cover_all_slots_for_every_node_count() {
        for n in 1..=crate::model::defaults::MAX_NODES {
            let r = cluster_create_ranges(n).unwrap();
            assert_eq!(r.len() as u32, n);
            assert_eq!(r[0].first_slot, 0);
            assert_eq!(r[r.len() - 1].last_slot, REDIS_SLOTS - 1);
            for w in r.windows(2) {
                assert_eq!(w[0].last_slot + 1, w[1].first_slot, "n = {n}");
            }
            assert!(r.iter().all(|x| x.slots >= 1));
        }
        assert!(cluster_create_ranges(0).is_err());
        assert_eq!(cluster_create_ranges(1001).unwrap_err().param, "nodes");
    }
}
