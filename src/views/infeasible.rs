//! A plan no shard count holds, in words: the line every command that
//! recommends a count opens with, with the arithmetic and the levers that
//! would work (`Recommendation::infeasible`).

use crate::model::picker::Picker;
use crate::model::recommendation::{Infeasible, Recommendation};
use crate::output::fmt;

/// "No shard count holds this plan: ..." with every reason, or `None` for
/// a plan some count holds.
pub fn infeasible_line(r: &Recommendation) -> Option<String> {
    if r.infeasible.is_empty() {
        return None;
    }
    let reasons: Vec<String> = r.infeasible.iter().map(reason).collect();
    Some(format!(
        "No shard count holds this plan: {}",
        reasons.join("; and ")
    ))
}

/// One reason with its arithmetic and its levers.
pub fn reason(i: &Infeasible) -> String {
    match i {
        Infeasible::KeyRisk { .. } => key_reason(i),
        Infeasible::Partitions { .. } => partitions_reason(i),
        Infeasible::Nodes {
            nodes,
            node_cap,
            capacity,
            peak,
            one_slot,
            nodes_needed,
        } => format!(
            "{} masters x {}/s = {} writes/s against a peak of {} writes/s{}; levers: {}",
            nodes,
            fmt::num(*node_cap),
            fmt::num(*capacity),
            fmt::num(*peak),
            match one_slot {
                true => ", and every key hashes to one slot",
                false => "",
            },
            match (one_slot, nodes_needed) {
                (true, _) => "a template without the hash tag (see the warning)".to_string(),
                (false, Some(n)) => format!("{n} masters, or a higher --node-cap"),
                (false, None) => "a higher --node-cap".to_string(),
            }
        ),
    }
}

/// The per-key risk no count meets: sticky writers' share against the
/// cap, or the search that found no count.
fn key_reason(i: &Infeasible) -> String {
    match i {
        Infeasible::KeyRisk {
            picker: Picker::Sticky,
            servers,
            cap,
            per_server: Some(share),
            servers_needed: Some(need),
            random_shards,
            ..
        } => format!(
            "each of {} sticky servers writes all its likes to one shard, {} writes/s against \
             a cap of {}/s, whatever the count; levers: at least {} servers, another picker{}, \
             or a cap of at least {}/s",
            fmt::count(*servers),
            fmt::num(*share),
            fmt::num(*cap),
            fmt::count(*need),
            random_needs(*random_shards),
            fmt::num(share.ceil())
        ),
        Infeasible::KeyRisk {
            picker,
            risk,
            max_shards,
            cap,
            random_shards,
            ..
        } => format!(
            "no count up to {} keeps the per-key risk ({} writers) within {} at a cap of {}/s; \
             levers: a higher cap, another picker{}, or more accepted risk",
            fmt::count(*max_shards),
            picker.name(),
            fmt::prob(*risk),
            fmt::num(*cap),
            random_needs(*random_shards)
        ),
        _ => String::new(),
    }
}

/// Partitions that carry less than the peak together, or no count that
/// keeps them within the risk.
fn partitions_reason(i: &Infeasible) -> String {
    let Infeasible::Partitions {
        partitions,
        cap,
        capacity,
        peak,
        partitions_needed,
        risk,
        max_shards,
    } = i
    else {
        return String::new();
    };
    match capacity < peak {
        true => format!(
            "{} x {}/s = {} writes/s, below the peak of {} writes/s; levers: at least {} \
             partitions, or a higher cap",
            partitions_words(*partitions),
            fmt::num(*cap),
            fmt::num(*capacity),
            fmt::num(*peak),
            fmt::count(*partitions_needed),
        ),
        false => format!(
            "no count up to {} keeps the chance of a partition over its cap within {} ({} \
             at {}/s carry {} writes/s against a peak of {}); levers: more partitions, a \
             higher cap, or more accepted risk",
            fmt::count(*max_shards),
            fmt::prob(*risk),
            partitions_words(*partitions),
            fmt::num(*cap),
            fmt::num(*capacity),
            fmt::num(*peak)
        ),
    }
}

/// "1 partition", "515 partitions".
fn partitions_words(n: u64) -> String {
    match n {
        1 => "1 partition".into(),
        n => format!("{} partitions", fmt::count(n)),
    }
}

/// ", random needs 115 shards" (or nothing where it cannot either).
fn random_needs(random_shards: Option<u64>) -> String {
    random_shards.map_or(String::new(), |n| match n {
        1 => " (random needs 1 shard)".to_string(),
        n => format!(" (random needs {} shards)", fmt::count(n)),
    })
}
