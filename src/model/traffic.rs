//! How many likes arrive in one second.

use serde::{Deserialize, Serialize};

/// The count of likes in one second around a mean rate.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum TrafficModel {
    /// Exactly `rate` likes every second (rate must be a whole number).
    #[default]
    Fixed,
    /// A Poisson count with mean `rate` each second: each shard's count is
    /// then an independent Poisson(rate / shards).
    Poisson,
}

impl TrafficModel {
    /// The name `--traffic` and scenario files use.
    pub fn name(self) -> &'static str {
        match self {
            TrafficModel::Fixed => "fixed",
            TrafficModel::Poisson => "poisson",
        }
    }
}
