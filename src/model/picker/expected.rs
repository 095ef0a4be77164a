//! What the model expects of a measured run's busiest shard a second, for
//! its picker (`measure --picker`): round-robin's bound, sticky's fullest
//! shard, or the mean per shard; shown beside the server's own counts.

use super::{round_robin, sticky, Picker};

/// Which of the model's figures a `ShardLoadModel` is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ModelFigure {
    /// Round-robin's bound: of `n` likes in any second from `K` round-robin
    /// servers no shard takes more than `floor((n + K'(S - 1)) / S)`, with
    /// `K' = min(K, n)` (`model::picker::round_robin::busiest_bound`).
    RoundRobinBound,
    /// Sticky: the fullest shard's share, `ceil(K / S)` of the `K` servers
    /// (`model::picker::sticky::groups`), if every server sends alike:
    /// `n x ceil(K / S) / K`.
    StickyFullestShard,
    /// The mean per shard, `n / S` (random, two-choice, user-hash): the
    /// busiest shard of a second is above it by how unevenly the second
    /// split.
    MeanPerShard,
}

/// Which measured rate [`ShardLoadModel`]'s figure is computed at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RateFrom {
    /// The seconds sampled: their writes / their count (`shard_load`'s
    /// `mean_per_shard_per_second` x S), the seconds the busiest figures
    /// come from. Round-robin's bound at this rate bounds the busiest
    /// shard's mean over them.
    SecondsSampled,
    /// The sharded phases' mean rate (Redis: `sharded_ops_per_second`;
    /// PostgreSQL: the `sharded-rows` design's `ops_per_second_mean`),
    /// when no whole second was sampled.
    PhaseMean,
}

/// The model's figure for the busiest shard a second at the measured rate,
/// for the run's picker, shards and clients (one app server each).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, schemars::JsonSchema)]
pub struct ShardLoadModel {
    /// Which figure it is.
    pub figure: ModelFigure,
    /// The likes a second it is computed at (see `rate_from`).
    pub likes_per_second: f64,
    /// Where `likes_per_second` comes from.
    pub rate_from: RateFrom,
    /// App servers: the run's clients.
    pub servers: u64,
    /// The figure: likes a second on the busiest shard (round-robin: at
    /// most this many).
    pub busiest_per_second: f64,
}

impl ShardLoadModel {
    /// The figure for `picker` at `likes_per_second` over `shards` shards
    /// from `servers` servers.
    pub fn new(
        picker: Picker,
        likes_per_second: f64,
        rate_from: RateFrom,
        shards: u64,
        servers: u64,
    ) -> Self {
        let n = likes_per_second.max(0.0);
        let (figure, busiest) = match picker {
            Picker::RoundRobin => (
                ModelFigure::RoundRobinBound,
                round_robin::busiest_bound(n.round() as u64, shards, servers) as f64,
            ),
            Picker::Sticky => {
                // The fuller group comes first.
                let most = sticky::groups(shards, servers)
                    .first()
                    .map_or(0, |g| g.servers_each);
                (
                    ModelFigure::StickyFullestShard,
                    n * most as f64 / servers as f64,
                )
            }
            Picker::Random | Picker::TwoChoice | Picker::UserHash => {
                (ModelFigure::MeanPerShard, n / shards as f64)
            }
        };
        ShardLoadModel {
            figure,
            likes_per_second: n,
            rate_from,
            servers,
            busiest_per_second: busiest,
        }
    }
}
