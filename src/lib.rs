//! shardplan: a capacity planner and load simulator for sharded counters.
//!
//! One hot counter lives under one key, and one key lives on one partition
//! with a write cap. Splitting the count over S shard keys spreads the
//! writes; reads then sum every shard. This crate answers how many shards,
//! how likely the busiest shard is to go over the cap, and what reads cost.
//!
//! Layout: the model lives here (one concept per module); `main.rs` and
//! `cli.rs` are a thin shell that turns flags into validated plans.
//! Conventions every module follows:
//! - constructors validate and return [`error::InputError`] naming the flag
//!   or field; `main` turns those into one stderr line and exit code 2;
//! - every random figure comes from an explicit seed, with one RNG stream per
//!   fixed-size chunk of work so results do not depend on the thread count;
//! - results are `#[derive(Serialize)]` row structs rendered by `output`.

pub mod chart;
pub mod cli;
pub mod commands;
pub mod compare;
pub mod duration;
pub mod error;
pub mod exact;
pub mod fleet;
pub mod measure;
pub mod output;
pub mod partitions;
pub mod placement;
pub mod sampler;
pub mod scenario;
pub mod simulate;
pub mod sizing;
pub mod stats;
pub mod store;
pub mod timeline;
pub mod traffic;
pub mod validate;
