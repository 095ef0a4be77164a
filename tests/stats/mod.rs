//! The statistical and numerical checks: the model against seeded Monte
//! Carlo, exact values and pinned figures, each tolerance stated beside
//! its check. A module of the `cli` test binary (`tests/cli/main.rs` has it
//! as `mod stats`: one binary links the crate once), one module per former
//! `tests/*.rs` file (issue 33); the shared helpers are `tests/common/`.

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
