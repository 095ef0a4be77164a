//! How writers pick a shard. Within a second each like reaches one of `K`
//! app servers uniformly at random (the load balancer); the server's
//! [`Picker`] then chooses the shard:
//!
//! - `random`: a uniformly random shard (the law every other figure of
//!   shardplan assumes);
//! - `round-robin`: each server's cursor, which moves on one shard a like
//!   and carries over from one second to the next ([`round_robin`]);
//! - `two-choice`: the less used, by this server in this second, of two
//!   uniformly drawn shards ([`two_choice`]);
//! - `sticky`: server `k` always writes to shard `k mod S` ([`sticky`]);
//! - `user-hash`: a hash of the user who liked: within a second every like
//!   is a different user's, so a second splits as `random`'s, and an unlike
//!   lands on its like's shard.
//!
//! [`Writers`] is a picker with its server count, checked; [`Writer`] is
//! one live server's picker (what `measure` clients run, and the per-like
//! draws of a simulated two-choice second); [`PickerSampler`] draws one
//! second of a picker's shard counts for the simulator.

use serde::{Deserialize, Serialize};

use crate::error::ParamResult;
use crate::model::defaults::MAX_SERVERS;
use crate::model::validate;

pub mod bound;
pub mod expected;
pub mod risk;
pub mod round_robin;
mod second;
pub mod sticky;
pub mod table;
pub mod two_choice;
pub mod two_choice_bound;
#[cfg(test)]
mod two_choice_brute_tests;
pub mod two_choice_chain;
pub mod two_choice_law;
mod writer;

pub use second::{PickerSampler, SecondState};
pub use writer::Writer;

/// How an app server picks the shard a like goes to.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Picker {
    /// A uniformly random shard.
    #[default]
    Random,
    /// The server's cursor, moved on one shard a like.
    RoundRobin,
    /// The less used (by this server, this second) of two random shards.
    TwoChoice,
    /// Server `k` always writes to shard `k mod S`.
    Sticky,
    /// A hash of the user who liked.
    UserHash,
}

/// Every picker, in `--picker`'s order: the picker, its name (as
/// `--picker` and scenario files spell it) and one line on it.
pub const PICKERS: &[(Picker, &str, &str)] = &[
    (
        Picker::Random,
        "random",
        "Each like to a uniformly random shard",
    ),
    (
        Picker::RoundRobin,
        "round-robin",
        "Each server cycles through the shards, its cursor kept from second to second",
    ),
    (
        Picker::TwoChoice,
        "two-choice",
        "Each server draws two shards and writes to the one it sent fewer likes this second",
    ),
    (
        Picker::Sticky,
        "sticky",
        "Server k always writes to shard k mod S (as the Firestore counter extension does)",
    ),
    (
        Picker::UserHash,
        "user-hash",
        "A hash of the user's id: random's load, and an unlike lands on its like's shard",
    ),
];

/// What a picker asks of the app servers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ServerState {
    /// Nothing kept between likes.
    None,
    /// One cursor per server, kept for as long as the server runs.
    Cursor,
    /// A count per shard per server, reset each second.
    CountsPerSecond,
}

/// What a picker needs to work as modelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Needs {
    /// State each server keeps.
    pub server_state: ServerState,
    /// Whether each like must carry the user's id.
    pub user_id: bool,
    /// Whether the load is only even when the servers divide evenly over
    /// the shards (sticky: `K` a multiple of `S`).
    pub servers_divide_shards: bool,
}

impl Picker {
    /// The name `--picker` and scenario files use.
    pub fn name(self) -> &'static str {
        PICKERS.iter().find(|p| p.0 == self).map_or("", |p| p.1)
    }

    /// True where one second's split over the shards is the uniformly
    /// random one: every exact figure of the random picker holds as it is.
    pub fn splits_like_random(self) -> bool {
        matches!(self, Picker::Random | Picker::UserHash)
    }

    /// What the picker asks of the servers.
    pub fn needs(self) -> Needs {
        let server_state = match self {
            Picker::RoundRobin => ServerState::Cursor,
            Picker::TwoChoice => ServerState::CountsPerSecond,
            Picker::Random | Picker::Sticky | Picker::UserHash => ServerState::None,
        };
        Needs {
            server_state,
            user_id: self == Picker::UserHash,
            servers_divide_shards: self == Picker::Sticky,
        }
    }

    /// True where an unlike lands on the shard of the like it undoes, so no
    /// shard's count can go below zero.
    pub fn unlike_follows_like(self) -> bool {
        self == Picker::UserHash
    }
}

/// The writers of a plan: the picker and the app servers using it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, schemars::JsonSchema)]
pub struct Writers {
    /// How each server picks a shard.
    pub picker: Picker,
    /// App servers writing (the load balancer spreads the likes over them).
    pub servers: u64,
}

impl Writers {
    /// Checks the server count: from 1 to [`MAX_SERVERS`], the one limit
    /// every picker and the read path share. Errors name `servers`.
    pub fn new(picker: Picker, servers: u64) -> ParamResult<Self> {
        let servers = validate::count("servers", servers, MAX_SERVERS)?;
        Ok(Writers { picker, servers })
    }

    /// Uniformly random writers (what every figure assumed before pickers).
    pub fn random(servers: u64) -> Self {
        Writers {
            picker: Picker::Random,
            servers,
        }
    }
}

#[cfg(test)]
mod tests;
