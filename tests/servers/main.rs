//! The tests that start real servers (Redis standalone and cluster,
//! PostgreSQL), and the `measure` and slot checks that go with them. One
//! test binary (issue 33); every test that starts a server holds
//! `common::one_at_a_time` from the moment its servers are up to its end,
//! Redis and PostgreSQL alike, so no two of them load the machine at once
//! (see `tests/common/mod.rs`).

#[path = "../common/mod.rs"]
mod common;

mod postgres_durability;
mod postgres_flags;
mod postgres_frozen;
mod postgres_measure;
mod reconcile;
mod redis_cpu;
mod redis_durability;
mod redis_faults;
mod redis_fixtures;
mod redis_measure;
mod redis_pickers;
