//! The model's enums as flag values. The model does not depend on clap:
//! each enum's names and help lines are listed here, once, and one parser
//! maps a typed name back to the value.

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};

use crate::model::law::TrafficKind;
use crate::model::simulation::SamplerKind;
use crate::model::store::Store;
use crate::model::timeline::bucket::BurstStart;
use crate::model::timeline::resize::{FoldMode, ReadMode, ResizeOrder, StepOrder};

/// One value of a flag: the model's value, the name typed, the help line.
pub type Choice<T> = (T, &'static str, &'static str);

/// A parser for a flag taking one of `choices`: clap lists the names (in
/// `--help`, errors and completions) and the typed name maps to its value,
/// in any case (the flags set `ignore_case`: `--traffic Poisson` works).
pub fn choice<T: Copy + Send + Sync + 'static>(
    choices: &'static [Choice<T>],
) -> impl TypedValueParser<Value = T> {
    PossibleValuesParser::new(
        choices
            .iter()
            .map(|(_, name, help)| PossibleValue::new(*name).help(*help)),
    )
    .map(move |typed: String| {
        choices
            .iter()
            .find(|(_, name, _)| name.eq_ignore_ascii_case(&typed))
            .map(|(v, _, _)| *v)
            .expect("clap accepts only the listed names")
    })
}

/// `reconcile --retry`.
pub const RETRY: &[Choice<crate::model::reconcile::Retry>] = crate::model::reconcile::RETRIES;

/// `--store`.
pub const STORES: &[Choice<Store>] = &[
    (
        Store::Dynamodb,
        "dynamodb",
        "Amazon DynamoDB: hashed partitions with per-partition caps",
    ),
    (
        Store::Firestore,
        "firestore",
        "Google Cloud Firestore: about one sustained write a second per document",
    ),
    (
        Store::Postgres,
        "postgres",
        "PostgreSQL: counter rows on one server (no default cap: --cap-from-measure or --cap)",
    ),
    (
        Store::RedisCluster,
        "redis-cluster",
        "Redis Cluster: 16,384 hash slots over the masters",
    ),
    (
        Store::Sorted,
        "sorted",
        "A sorted store (Bigtable-like): contiguous key ranges in tablets",
    ),
];

/// `--traffic`: the laws' registry.
pub const TRAFFIC: &[Choice<TrafficKind>] = crate::model::law::LAWS;

/// `--picker`.
pub const PICKERS: &[Choice<crate::model::picker::Picker>] = crate::model::picker::PICKERS;

/// `measure --design`.
pub const DESIGNS: &[Choice<crate::measure::durability::Design>] =
    crate::measure::durability::DESIGNS;

/// `measure --fault`.
pub const FAULTS: &[Choice<crate::measure::durability::FaultKind>] =
    crate::measure::durability::FAULTS;

/// `measure --synchronous-commit`.
pub const SYNC_COMMITS: &[Choice<crate::measure::postgres::SyncCommit>] =
    crate::measure::postgres::SYNC_COMMITS;

/// `--sampler`.
pub const SAMPLERS: &[Choice<SamplerKind>] = &[
    (
        SamplerKind::Auto,
        "auto",
        "The exact table where cheap, else multinomial; multinomial with --per-second",
    ),
    (
        SamplerKind::Multinomial,
        "multinomial",
        "Every shard's count, each second (its joint law, as --per-second needs)",
    ),
    (
        SamplerKind::ExactTable,
        "exact-table",
        "The busiest and quietest shard drawn from their exact distributions",
    ),
];

/// `--burst-start`.
pub const BURST_STARTS: &[Choice<BurstStart>] = &[
    (
        BurstStart::Full,
        "full",
        "cap x burst seconds of tokens: the key was quiet for a while",
    ),
    (
        BurstStart::Empty,
        "empty",
        "No tokens: the key was already busy",
    ),
];

/// `--order`.
pub const ORDERS: &[Choice<ResizeOrder>] = &[
    (
        ResizeOrder::ReadsFirst,
        "reads-first",
        "Raise read_shards, wait a TTL, then write_shards (safe)",
    ),
    (
        ResizeOrder::WritesFirst,
        "writes-first",
        "Raise write_shards first (undercounts until readers catch up)",
    ),
];

/// `--fold`.
pub const FOLDS: &[Choice<FoldMode>] = &[
    (
        FoldMode::Separate,
        "separate",
        "Two separate writes: add to the target, subtract from the old shard",
    ),
    (
        FoldMode::Transaction,
        "transaction",
        "Both writes in one transaction (TransactWriteItems-like)",
    ),
];

/// `--read`.
pub const READS: &[Choice<ReadMode>] = &[
    (
        ReadMode::Batch,
        "batch",
        "A plain multi-item read (BatchGetItem-like)",
    ),
    (
        ReadMode::Transactional,
        "transactional",
        "A transactional read (TransactGetItems-like), retried when cancelled",
    ),
];

/// `--step-order`.
pub const STEP_ORDERS: &[Choice<StepOrder>] = &[
    (StepOrder::AddFirst, "add-first", "Add to the target first"),
    (
        StepOrder::SubtractFirst,
        "subtract-first",
        "Subtract from the old shard first",
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    /// The names typed on the command line are the names scenario files
    /// use (serde) and the views print.
    #[test]
    fn flag_names_are_the_model_names() {
        for (v, name, _) in STORES {
            assert_eq!(v.name(), *name);
        }
        for (v, name, _) in TRAFFIC {
            assert_eq!(v.name(), *name);
        }
        for (v, name, _) in PICKERS {
            assert_eq!(v.name(), *name);
        }
        for (v, name, _) in DESIGNS {
            assert_eq!(v.name(), *name);
        }
        for (v, name, _) in SAMPLERS {
            assert_eq!(v.name(), *name);
        }
        for (v, name, _) in ORDERS {
            assert_eq!(v.name(), *name);
        }
        for (v, name, _) in FOLDS {
            assert_eq!(v.name(), *name);
        }
        for (v, name, _) in READS {
            assert_eq!(v.name(), *name);
        }
        for (v, name, _) in STEP_ORDERS {
            assert_eq!(v.name(), *name);
        }
        for (v, name, _) in BURST_STARTS {
            assert_eq!(v.name(), *name);
        }
    }
}
