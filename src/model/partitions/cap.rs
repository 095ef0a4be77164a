//! The per-partition cap: the chance that a partition holding k shards gets
//! more writes than the cap in one second.

use statrs::distribution::{Binomial, DiscreteCDF, Poisson};

use super::PartitionLoad;
use crate::model::traffic::TrafficModel;

/// Per-partition chance of going over the cap in a second, by shard count.
pub(super) struct PartitionTails {
    load: PartitionLoad,
    shards: u64,
    cache: std::sync::Mutex<Vec<Option<f64>>>,
}

impl PartitionTails {
    /// The tails of `load` spread over `shards` shards, each computed once.
    pub(super) fn new(load: PartitionLoad, shards: u64) -> Self {
        PartitionTails {
            load,
            shards,
            cache: std::sync::Mutex::new(vec![None; shards as usize + 1]),
        }
    }

    /// P(writes to a partition holding k shards > cap) in one second.
    pub(super) fn tail(&self, k: u64) -> f64 {
        if let Ok(c) = self.cache.lock() {
            if let Some(Some(v)) = c.get(k as usize) {
                return *v;
            }
        }
        let v = self.compute(k);
        if let Ok(mut c) = self.cache.lock() {
            c[k as usize] = Some(v);
        }
        v
    }

    fn compute(&self, k: u64) -> f64 {
        if k == 0 {
            return 0.0;
        }
        let l = self.load;
        // "Over the cap" means more writes than the cap: X > floor(cap).
        let limit = l.cap.floor() as u64;
        let share = k as f64 / self.shards as f64;
        match l.traffic {
            TrafficModel::Poisson => Poisson::new(l.rate * share).map_or(0.0, |d| d.sf(limit)),
            TrafficModel::Fixed => {
                Binomial::new(share.min(1.0), l.rate as u64).map_or(0.0, |d| d.sf(limit))
            }
        }
    }
}
