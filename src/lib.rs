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
//!
//! The reference case, from the library:
//!
//! ```
//! use shardplan::model::exact::Risk;
//! use shardplan::model::sizing::{SafeRate, SizingPlan};
//! use shardplan::model::traffic::TrafficModel;
//!
//! // 14,000 likes/s at 700 safe writes/s per key (30% headroom on 1,000).
//! let sizing = SizingPlan::new(14_000.0, 1000.0, SafeRate::Headroom(0.3))?.size();
//! assert_eq!(sizing.shards, 20);
//!
//! // The exact chance that the busiest of the 20 goes over 1,000 writes
//! // in a second is tiny, but not zero.
//! let risk = Risk::compute(14_000.0, 20, 1000.0, 4.0 * 3600.0, TrafficModel::Fixed)?;
//! assert!(risk.p_over_cap_per_second > 0.0 && risk.p_over_cap_per_second < 1e-20);
//! assert!((risk.busiest_mean_per_second - 749.86).abs() < 0.01);
//! # Ok::<(), shardplan::error::InputError>(())
//! ```

pub mod chart;
pub mod cli;
pub mod commands;
pub mod config;
pub mod error;
pub mod measure;
pub mod model;
pub mod output;
pub mod views;
