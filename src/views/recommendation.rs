//! The recommendation in words: the one line `size`, `report` and
//! `simulate` open with, the block of constraints behind it, and the
//! warnings (`recommendation/warnings.rs`). Every command that shows a
//! recommended count uses these.

use super::verdict::{binding_words, holds_words, shards};
use crate::model::picker::risk::KeyMethod;
use crate::model::recommendation::{Infeasible, Recommendation, Warning};
use crate::output::{fmt, Section};

mod warnings;

use super::infeasible::infeasible_line;

pub use warnings::{warning_sections, warning_text};

/// The accepted risk over the spell, e.g. "1% over 4 h (poisson traffic)".
fn spell(risk: f64, r: &Recommendation) -> String {
    format!(
        "{} over {}{}",
        fmt::prob(risk),
        r.duration_seconds.map_or("the spell".into(), fmt::duration),
        r.traffic
            .map_or(String::new(), |t| format!(", {} traffic", t.name()))
    )
}

/// The writers, where they are not the random picker: ", round-robin
/// writers (40 servers)".
pub fn writers(w: crate::model::picker::Writers) -> String {
    match w.picker {
        crate::model::picker::Picker::Random => String::new(),
        p => format!(", {} writers ({} servers)", p.name(), fmt::count(w.servers)),
    }
}

/// The largest risk at the count, named by what it is about: "P(any
/// second over the cap) = 6.508e-23 (exact)" for the per-key risk, "P(some
/// partition over its cap) = ..." or "P(some node over its cap) = ...";
/// a bound says so.
fn counted(r: &Recommendation) -> Option<String> {
    use crate::model::verdict::Check;
    let (p, ln) = (r.worst_p_any_over_cap?, r.worst_ln_p_any_over_cap?);
    let what = match r.worst_risk? {
        Check::SharedPartitions => "P(some partition over its cap)",
        Check::Nodes => "P(some node over its cap)",
        _ => "P(any second over the cap)",
    };
    let shown = fmt::prob_ln(p, ln);
    Some(
        match (r.worst_risk?, r.key_method, r.worst_p_any_over_cap_exact) {
            (Check::KeyRisk, KeyMethod::NeverOver, _) => format!("{what} = 0 (exact: never over)"),
            (Check::KeyRisk, KeyMethod::RandomLaw, _) => {
                format!("{what} = {shown} (random picks' law)")
            }
            (_, _, Some(false)) => format!("{what} <= {shown} (upper bound)"),
            _ => format!("{what} = {shown} (exact)"),
        },
    )
}

/// The margin in words: the capacity with a risk, the safe total without,
/// both in likes/s against the planned likes/s.
pub fn margin(r: &Recommendation) -> String {
    // Past twice the plan, "8,400x the planned" (not "839,900.0% above").
    let above = match r.margin >= 0.0 {
        true if r.margin >= 1.0 => format!("{}x", super::verdict::times(1.0 + r.margin)),
        true => format!("{} above", fmt::percent(r.margin)),
        false => format!("{} below", fmt::percent(-r.margin)),
    };
    match (r.capacity_rate, r.risk) {
        (Some(c), Some(risk)) => format!(
            "holds up to {} likes/s at {} ({above} the planned {})",
            fmt::rate(c),
            spell(risk, r),
            fmt::rate(r.like_peak)
        ),
        _ => format!(
            "{} x the safe rate carry {} likes/s ({above} the planned {})",
            shards(r.shards),
            fmt::rate(r.safe_capacity_rate),
            fmt::rate(r.like_peak)
        ),
    }
}

/// The one line a design doc can quote: the recommended count, what set
/// it, and the verdict on it ([`super::verdict`]) at `peak` writes/s.
pub fn recommendation_line(r: &Recommendation, peak: f64) -> String {
    let v = r.verdict(r.shards, peak);
    if let Some(first) = infeasible_line(r) {
        return format!(
            "{first}. Judged: {} (by {}) {}",
            shards(r.shards),
            binding_words(r.binding),
            holds_words(&v)
        );
    }
    let mut line = format!(
        "Recommendation: {}, set by {}: {} {}",
        shards(r.shards),
        binding_words(r.binding),
        if r.shards == 1 { "it" } else { "they" },
        holds_words(&v)
    );
    if v.holds {
        line.push_str(&format!("; {}", margin(r)));
        if let Some(p) = counted(r) {
            line.push_str(&format!("; {p}"));
        }
    } else {
        line.push_str(" (see the verdict)");
    }
    line
}

/// The constraints behind the count, one per row.
pub fn constraints_section(
    r: &Recommendation,
    peak: f64,
    safe: f64,
    recommended: Option<u64>,
) -> Section {
    let mut rows = vec![
        (
            "shards",
            match recommended {
                Some(n) => format!(
                    "{} (given with --shards; the recommendation is {}, set by {})",
                    fmt::count(r.shards),
                    fmt::count(n),
                    binding_words(r.binding)
                ),
                None => format!(
                    "{} (set by {})",
                    fmt::count(r.shards),
                    binding_words(r.binding)
                ),
            },
        ),
        ("margin", margin(r)),
        (
            "rule of thumb",
            format!(
                "{} = ceil({} / {}){}",
                fmt::count(r.rule_of_thumb_shards),
                fmt::num(peak),
                fmt::num(safe),
                match r.risk {
                    Some(_) => " (shown beside the risk, not a floor)",
                    None => "",
                }
            ),
        ),
        ("per-key risk", key_risk_words(r)),
    ];
    rows.push((
        "shared partitions",
        match (r.partitions, r.partition_risk) {
            (Some(n), Some(risk)) => partitions_words(r, n, risk),
            _ => "not given (add --partitions N for a hashed store)".into(),
        },
    ));
    if let Some(n) = r.nodes {
        rows.push(("nodes", nodes_words(r, n)));
    }
    if let Some(p) = counted(r) {
        rows.push(("largest risk", format!("{p} at {}", shards(r.shards))));
    }
    if let Some(cost) = r.transactional_write_cost {
        rows.push((
            "transactional writes",
            format!(
                "{} likes/s per key = {} writes/s / {} units a like",
                fmt::num(r.cap_per_key),
                fmt::num(r.cap_per_key * cost),
                fmt::num(cost)
            ),
        ));
    }
    Section::pairs("Recommendation", rows)
}

/// The per-key check: the accepted risk sizes the count; without one the
/// default risk only checks (and raises) the rule of thumb's count.
fn key_risk_words(r: &Recommendation) -> String {
    let fewest = match r.key_risk_shards {
        Some(k) => format!(
            "{} the fewest",
            match k {
                1 => "1 shard is".to_string(),
                k => format!("{} shards are", fmt::count(k)),
            }
        ),
        None => "no count up to the limit is".into(),
    };
    let within = format!(
        "{fewest} with P(any second over {}/s per key) <= {}{}",
        fmt::num(r.cap_per_key),
        spell(r.key_risk, r),
        writers(r.writers)
    );
    match r.risk {
        Some(_) => within,
        None => format!("{within} (the default check; size by a risk with --risk P)"),
    }
}

fn partitions_words(r: &Recommendation, n: u64, risk: f64) -> String {
    let fewest = match r.partition_shards {
        Some(1) => "1 shard is the fewest".into(),
        Some(s) => format!("{} shards are the fewest", fmt::count(s)),
        None => "no count up to the limit".into(),
    };
    let mut w = format!(
        "{} {}: {fewest} with P(some partition over its cap) <= {}",
        fmt::num(n as f64),
        if n == 1 { "partition" } else { "partitions" },
        spell(risk, r)
    );
    if let (Some(p), Some(ln)) = (r.partition_p_any_over_cap, r.partition_ln_p_any_over_cap) {
        w.push_str(&format!(
            "; at {}: {}",
            shards(r.shards),
            fmt::prob_ln(p, ln)
        ));
    }
    if !r.partition_failing.is_empty() {
        w.push_str(&format!("; {} fail", ranges(&r.partition_failing)));
    }
    if let Some(stable) = r.partition_shards_stable {
        w.push_str(&format!(
            "; every count from {} to {} meets it",
            fmt::count(stable),
            fmt::count(stable * 2)
        ));
    }
    if r.partition_binds == Some(false) {
        w.push_str(" (a warning: the store moves busy items apart)");
    }
    w
}

fn nodes_words(r: &Recommendation, n: u32) -> String {
    let mut w = match r.node_shards {
        Some(s) => format!(
            "{n} {}: {} the fewest with P(some node over its cap) within the risk",
            if n == 1 { "master" } else { "masters" },
            match s {
                1 => "1 shard is".to_string(),
                s => format!("{s} shards are"),
            }
        ),
        None => format!(
            "{n} {}: no shard count keeps every node within its cap: {}",
            if n == 1 { "master" } else { "masters" },
            match r
                .warnings
                .iter()
                .find_map(|w| match w {
                    Warning::TemplateOneSlot {
                        suggested: Some(t),
                        suggested_shards: Some(s),
                        ..
                    } => Some(format!(
                        "every key is in one slot; with '{t}', {} hold",
                        shards(*s)
                    )),
                    _ => None,
                })
                .or_else(|| r.infeasible.iter().find_map(|i| match i {
                    Infeasible::Nodes {
                        nodes_needed: Some(m),
                        ..
                    } => Some(format!("{m} masters would hold an even spread")),
                    _ => None,
                })) {
                Some(w) => w,
                None => "see the warning".into(),
            }
        ),
    };
    if let (Some(p), Some(ln), Some(keys)) = (
        r.node_p_any_over_cap,
        r.node_ln_p_any_over_cap,
        &r.keys_per_node,
    ) {
        let spread = match keys.len() <= 12 {
            true => {
                let keys: Vec<String> = keys.iter().map(|k| k.to_string()).collect();
                format!("keys per node {}", keys.join("/"))
            }
            false => format!(
                "busiest node {} keys, emptiest {}",
                keys.iter().max().unwrap_or(&0),
                keys.iter().min().unwrap_or(&0)
            ),
        };
        w.push_str(&format!(
            "; at {}: {} ({spread})",
            r.shards,
            fmt::prob_ln(p, ln)
        ));
    }
    w
}

/// Inclusive ranges in words: "41 to 47, 60".
pub fn ranges(r: &[[u64; 2]]) -> String {
    r.iter()
        .map(|[a, b]| match a == b {
            true => fmt::count(*a),
            false => format!("{} to {}", fmt::count(*a), fmt::count(*b)),
        })
        .collect::<Vec<_>>()
        .join(", ")
}
