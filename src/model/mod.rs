//! The model: every figure shardplan prints is computed here, from plain
//! numbers and typed plans. Nothing in this module knows about flags,
//! scenario files or output formats; the shell (`cli`, `config`,
//! `commands`, `views`, `output`) turns those into plans and renders the
//! results.

pub mod binomial;
pub mod compare;
pub mod cost;
pub mod defaults;
pub mod duration;
pub mod exact;
pub mod fleet;
pub mod infeasible;
pub mod key_risk;
pub mod law;
pub mod observed;
pub mod partitions;
pub mod picker;
pub mod placement;
pub mod price;
pub mod probability;
pub mod read_cost;
pub mod recommendation;
pub mod reconcile;
pub mod rng;
pub mod sampler;
pub mod search;
pub mod sensitivity;
pub mod simulation;
pub mod sizing;
pub mod stats;
pub mod store;
pub mod timeline;
pub mod unlikes;
pub mod validate;
pub mod verdict;
pub mod zipf;
