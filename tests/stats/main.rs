//! The statistical and numerical checks: the model against seeded Monte
//! Carlo, exact values and pinned figures, each tolerance stated beside
//! its check. One test binary, one module per former `tests/*.rs` file
//! (issue 33); the shared helpers are `tests/common/`.

#[path = "../common/mod.rs"]
mod common;

mod approx_formulas;
mod compare_conflicts;
mod exact_grid;
mod exact_vs_montecarlo;
mod fleet;
mod partitions;
mod statistics;
mod timeline;
mod timeline_scenarios;
mod value_stability;
