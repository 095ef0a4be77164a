//! The end-to-end tests: every command run as a user types it (assert_cmd
//! and the built binary), plus the checks on the repository itself (crate
//! metadata, the README's links), and the statistical and numerical checks
//! (`stats`, in `tests/stats/`). One test binary, one module per former
//! `tests/*.rs` file (issue 33: one binary links the crate once, not once a
//! file); the shared helpers are `tests/common/`.

#[path = "../common/mod.rs"]
mod common;

mod coherence;
mod compare;
mod completions;
mod config_sources;
mod crate_hygiene;
mod csv_headers;
mod empirical;
mod empirical_refusals;
mod fleet;
mod fuzz;
mod gamma_poisson;
mod general;
mod help_pages;
mod hostile_input;
mod input_as_output;
mod interrupt;
mod json_schemas;
mod killed_runs;
mod long_runs;
mod measure_design;
mod output_policy;
mod pickers;
mod placement;
mod prices;
mod readme_page;
mod recommendation;
mod reconcile;
mod replay;
mod report;
mod report_html;
mod report_measure;
mod report_reconcile;
mod risk;
mod sensitivity;
mod shared_folders;
#[path = "../stats/mod.rs"]
mod stats;
mod stdin;
mod terminal;
mod timeline;
mod traffic_from;
mod unlikes;
mod verdict;
