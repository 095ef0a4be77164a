//! The recommendation's warnings in words, each opening with the inputs
//! it follows from that the user did not give.

use super::ranges;
use crate::model::recommendation::{Recommendation, Warning};
use crate::model::store::{LimitedQuantity, Store};
use crate::output::{fmt, Section};
use crate::views::inputs::Assumed;
use crate::views::verdict::shards;

/// One warning in words: a table, a sentence a warning with its figures
/// (the grow's, the longest, in [`after_grow`]); the clauses that depend on
/// what the model found are the helpers below.
pub fn warning_text(w: &Warning) -> String {
    match w {
        Warning::PartitionRiskAfterGrow {
            store,
            p_any_over_cap,
            partition_shards,
        } => after_grow(*store, *p_any_over_cap, *partition_shards),
        Warning::FailingBand { ranges: r, stable } => format!(
            "adding shards later must skip {}: those counts fail the partition risk{}",
            ranges(r),
            stable_counts(*stable)
        ),
        Warning::ReadCap {
            reads_per_shard,
            read_cap,
            cache_seconds_needed,
        } => format!(
            "each shard takes {} cached reads/s against a read cap of {}/s; more shards cannot help \
             (every sum reads every shard): cache the sum for at least {} s",
            fmt::num(*reads_per_shard),
            fmt::num(*read_cap),
            fmt::num(*cache_seconds_needed)
        ),
        Warning::UncachedOverReadCap {
            reads_per_shard,
            read_cap,
        } => format!(
            "without the cache each shard takes {} reads/s, {:.1}x the read cap of {}/s: keep \
             the cached sum (or raise --cache-seconds)",
            fmt::num(*reads_per_shard),
            reads_per_shard / read_cap,
            fmt::num(*read_cap)
        ),
        Warning::BatchesPerSum {
            batches,
            batch_size,
        } => format!("a sum needs {batches} batch reads of up to {batch_size} items"),
        Warning::TemplateOneSlot {
            template,
            suggested,
            suggested_shards,
        } => format!(
            "every key of '{template}' hashes its tag to one slot, so one node takes every write: \
             more shards cannot help; fix the template{}",
            template_fix(suggested.as_deref(), *suggested_shards)
        ),
        Warning::StoreLimit { limit, value } => format!(
            "the plan's {} exceeds the documented limit of {} ({})",
            limited_figure(limit.quantity, *value),
            fmt::num(limit.limit),
            crate::views::store_words::limit_source(limit)
        ),
    }
}

/// Right after a grow: shards that share a partition until the store
/// moves busy items apart, and the count that would keep them within the
/// risk, when one does.
fn after_grow(store: Store, p_any_over_cap: f64, partition_shards: Option<u64>) -> String {
    format!(
        "right after a grow, shards that share a partition go over its cap with P = {} \
         ({} moves busy items apart, at a speed its docs do not give){}: watch for rejected writes",
        fmt::prob(p_any_over_cap),
        store.name(),
        partition_shards.map_or(String::new(), |s| format!(
            "; {s} shards would keep it within the risk"
        ))
    )
}

/// A failing band: from where every count meets the partition risk again.
fn stable_counts(stable: Option<u64>) -> String {
    stable.map_or(String::new(), |s| {
        format!(
            " (every count from {} to {} meets it)",
            fmt::count(s),
            fmt::count(s * 2)
        )
    })
}

/// A one-slot template: the template that spreads the keys, and the
/// shards that hold the nodes with it.
fn template_fix(suggested: Option<&str>, suggested_shards: Option<u64>) -> String {
    match (suggested, suggested_shards) {
        (Some(t), Some(n)) => format!(" (with '{t}', {} hold the nodes)", shards(n)),
        (Some(t), None) => format!(" (e.g. '{t}')"),
        _ => String::new(),
    }
}

/// The plan's figure of the quantity a store limits.
fn limited_figure(quantity: LimitedQuantity, value: f64) -> String {
    match quantity {
        LimitedQuantity::WriteUnitsPerSecond => format!("{} write units/s", fmt::num(value)),
        LimitedQuantity::DocumentsPerTransaction => {
            format!("{} shards in one transaction", fmt::num(value))
        }
    }
}

/// The warnings as sections, each opening with the inputs it follows
/// from that the user did not give ("assuming views = 50,000 (scenario
/// viral-reel.toml: views): ...").
pub fn warning_sections(r: &Recommendation, assumed: &Assumed) -> Vec<Section> {
    r.warnings
        .iter()
        .map(|w| {
            let prefix = assumed.words(w.inputs());
            Section::Warning(format!("WARNING: {prefix}{}", warning_text(w)))
        })
        .collect()
}
