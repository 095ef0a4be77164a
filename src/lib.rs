//! shardplan: a capacity planner and load simulator for sharded counters.
//!
//! One hot counter lives under one key, and one key lives on one partition
//! with a write cap. Splitting the count over S shard keys spreads the
//! writes; reads then sum every shard. This crate answers how many shards,
//! how likely the busiest shard is to go over the cap, and what reads cost.
//!
//! Layout: the library's API is the model ([`model`], one concept per
//! module) and the Redis driver ([`measure`]); the shell (flags, the one
//! configuration step that resolves every input with its source, the views
//! and the output formats) is private, reached by the binary through
//! `shell::main`. `docs/architecture.md` maps each concept to its file.
//! Conventions every module follows:
//! - constructors validate and return a [`error::ParamError`] naming the
//!   model's parameter; the shell attaches the flag or scenario field the
//!   value came from and prints one stderr line, exit code 2;
//! - every random figure comes from an explicit seed, with one RNG stream per
//!   fixed-size chunk of work ([`model::rng::chunk_rng`]) so results do not
//!   depend on the thread count;
//! - results are `#[derive(Serialize)]` structs of numbers and typed values
//!   (never sentences); the shell's views turn them into tables and rows.
//!
//! The reference case, from the library:
//!
//! ```
//! use shardplan::model::exact::Risk;
//! use shardplan::model::sizing::{SafeRate, SizingPlan};
//! use shardplan::model::law::TrafficModel;
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
//! # Ok::<(), shardplan::error::ParamError>(())
//! ```

// A build without a server client (`--no-default-features`) keeps the
// shared measure code (accounting, pacing, faults) that only the clients
// call: unused there, not dead.
#![cfg_attr(
    not(all(feature = "redis", feature = "postgres")),
    allow(dead_code, unused_imports)
)]
#![warn(missing_docs)]

pub mod error;
pub mod measure;
pub mod model;

// The shell: flags, resolution, views and output. Not part of the library's
// API; the binary reaches it through `shell::main`.
mod chart;
mod cli;
mod commands;
mod config;
mod files;
mod output;
mod views;

#[doc(hidden)]
pub mod shell {
    //! The binary's entry point (not part of the library's API).

    use std::process::ExitCode;

    use crate::error::{InputError, ParamError};

    /// Checks scenario text as `--scenario` would (TOML, kinds, field
    /// ranges): the entry point of the `cargo fuzz` target in `fuzz/`.
    /// Returns the one-line error a user would see.
    pub fn check_scenario(text: &str) -> Result<(), String> {
        crate::config::scenario::from_text("fuzz.toml", text)
            .map(|_| ())
            .map_err(|e| e.to_string())
    }

    /// Parses the command line, runs the command, prints one line on error
    /// and picks the exit code: 2 for bad input, 1 for anything else.
    pub fn main() -> ExitCode {
        // `COMPLETE=bash shardplan -- ...`: the shell asks for completions.
        crate::cli::complete::answer_if_asked();
        // Ctrl-C and kill: remove the temporary files, keep the old outputs.
        crate::output::interrupt::install();
        let result = crate::cli::parse()
            .map_err(anyhow::Error::from)
            .and_then(crate::commands::dispatch);
        let Err(e) = result else {
            return ExitCode::SUCCESS;
        };
        // A reader that stops early (`shardplan man | head`) is not an error.
        let broken_pipe = e
            .chain()
            .filter_map(|c| c.downcast_ref::<std::io::Error>())
            .any(|io| io.kind() == std::io::ErrorKind::BrokenPipe);
        if broken_pipe {
            return ExitCode::SUCCESS;
        }
        // `{e:#}`: the context and every cause on one line ("deleting the keys
        // this run wrote: NOPERM ...").
        eprintln!("shardplan: {e:#}");
        if e.downcast_ref::<crate::error::CountMismatch>().is_some() {
            return ExitCode::from(3);
        }
        if let Some(crate::error::Interrupted { signal, .. }) = e.downcast_ref() {
            return ExitCode::from(u8::try_from(128 + signal).unwrap_or(u8::MAX));
        }
        if let Some(crate::error::SchemaInterrupted { signal, .. }) = e.downcast_ref() {
            return ExitCode::from(u8::try_from(128 + signal).unwrap_or(u8::MAX));
        }
        if e.downcast_ref::<InputError>().is_some() || e.downcast_ref::<ParamError>().is_some() {
            ExitCode::from(2)
        } else {
            ExitCode::from(1)
        }
    }
}
