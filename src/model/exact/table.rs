//! The busiest shard's table for any law: one table where a second is one
//! count law (`busiest.rs`), a mixture of fixed-count tables where it is
//! one of several observed counts (`empirical_mix.rs`).

use super::busiest::BusiestShard;
use super::point::Point;
use crate::error::ParamResult;
use crate::model::law::{Split, TrafficModel};

impl BusiestShard {
    /// `rate` likes/s over `shards` shards. Fixed traffic needs a whole
    /// number rate. Errors name the flags `--rate` and `--shards`.
    pub fn new(rate: f64, shards: u64, model: TrafficModel) -> ParamResult<Self> {
        let point = Point::new(rate, shards, model)?;
        match model.split(point.rate) {
            Split::Counts(law) => super::empirical_mix::busiest(point, law),
            _ => BusiestShard::single(point),
        }
    }
}
