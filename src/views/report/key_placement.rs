//! The report's "Key placement" part: where the shard keys land when the
//! scenario names a key template or a store (the same figures `shardplan
//! keys` prints), and the placement's warnings for the summary.

use super::html_text;
use crate::config::Loaded;
use crate::error::{InputError, InputResult, ParamError};
use crate::model::placement::{KeysReport, PlacementWarning, ShardTemplate, SortedReport};
use crate::model::store::Store;
use crate::output::{fmt, Section};
use crate::views::placement;

/// The key-placement part of the report.
#[derive(Debug, Clone)]
pub struct Placement {
    /// Its tables and notes.
    pub sections: Vec<Section>,
    /// Its warnings, for the summary.
    pub warnings: Vec<String>,
}

/// Where the shard keys land, when the scenario names keys or a store
/// (the same figures `shardplan keys` prints).
pub fn placement_sections(l: &Loaded, shards: u64) -> InputResult<Option<Placement>> {
    let s = &l.scenario;
    let store = s.store_preset;
    let Some(template) = &s.key_template else {
        return Ok(store.map(|p| no_template(p, shards)));
    };
    let in_scenario = |e: ParamError| in_scenario(l, e);
    let t = ShardTemplate::new(template, 0).map_err(in_scenario)?;
    if store == Some(Store::Sorted) {
        let r = SortedReport::from_template(&t, shards).map_err(in_scenario)?;
        return Ok(Some(sorted_placement(&r)));
    }
    let nodes = s.nodes.map(|n| n as u32); // checked 1..=16384 with the scenario
    let r = KeysReport::from_template(&t, shards, nodes).map_err(in_scenario)?;
    Ok(Some(cluster_placement(template, &r)))
}

/// A store named without a key template: what to add to see the keys land.
fn no_template(store: Store, shards: u64) -> Placement {
    Placement {
        sections: vec![Section::Note(format!(
            "The scenario names the {} store but no key_template: add one (e.g. \
             key_template = \"reel:8841:likes:<shard>\") to see where the {shards} shard keys land, \
             or run `shardplan keys` / `shardplan partitions`.",
            store.name()
        ))],
        warnings: Vec::new(),
    }
}

/// A template or masters refused, named as the scenario's field they came
/// from (`nodes` or `key_template`).
fn in_scenario(l: &Loaded, e: ParamError) -> InputError {
    let field = if e.param == "nodes" {
        "nodes"
    } else {
        "key_template"
    };
    InputError::new(l.field(field), e.problem)
}

/// A sorted store: the keys' order, and the warning when the shards sit
/// side by side.
fn sorted_placement(r: &SortedReport) -> Placement {
    let note = html_text(&placement::sorted_note(r));
    let warnings = match r.contiguous {
        true => vec![note.clone()],
        false => Vec::new(),
    };
    Placement {
        warnings,
        sections: vec![
            Section::pairs(
                "Sorted store key order",
                vec![
                    ("template", format!("`{}`", r.template)),
                    ("shard keys", r.shards.to_string()),
                    (
                        "contiguous",
                        if r.contiguous { "yes" } else { "no" }.to_string(),
                    ),
                    (
                        "shard-first template",
                        format!("`{}`", r.shard_first_template),
                    ),
                ],
            ),
            Section::Note(match r.contiguous {
                true => format!("WARNING: {note}"),
                false => note,
            }),
        ],
    }
}

/// A Redis Cluster: slots, masters and the busiest one's share, and the
/// commands a read of the total takes.
fn cluster_rows(template: &str, r: &KeysReport) -> Vec<(&'static str, String)> {
    let mut rows = vec![
        ("template", format!("`{template}`")),
        ("shard keys", r.shards.to_string()),
        ("distinct slots", r.distinct_slots.to_string()),
        ("shards sharing a slot", r.shards_sharing_a_slot.to_string()),
    ];
    if let (Some(n), Some(d), Some(busiest), Some(share), Some(fair)) = (
        r.nodes,
        r.distinct_nodes,
        r.busiest_node_shards,
        r.busiest_node_share,
        r.fair_node_share,
    ) {
        rows.push(("masters used", format!("{d} of {n}")));
        rows.push((
            "busiest master",
            format!(
                "{}, {} of the writes (fair share {})",
                fmt::counted(busiest, "shard", "shards"),
                fmt::percent(share),
                fmt::percent(fair)
            ),
        ));
    }
    rows.push((
        "commands per read of the total",
        format!("{} ({})", r.read_commands, placement::read_note(&r.read)),
    ));
    rows
}

/// A Redis Cluster's placement: its table, then its notes and warnings,
/// and the template that fixes them.
fn cluster_placement(template: &str, r: &KeysReport) -> Placement {
    let mut out = vec![Section::pairs(
        "Redis Cluster key placement",
        cluster_rows(template, r),
    )];
    // Node balance is a note, as everywhere (docs/verdict.md): the nodes'
    // caps judge it; a shared slot stays a warning.
    let (balance, warned): (Vec<_>, Vec<_>) = r
        .warnings
        .iter()
        .partition(|w| matches!(w, PlacementWarning::NodeOverShare { .. }));
    let words = |w: &PlacementWarning| html_text(&placement::warning_text(w));
    let warnings: Vec<String> = warned.into_iter().map(words).collect();
    if r.warnings.is_empty() {
        out.push(Section::Note(
            "No placement warnings: no two shards share a slot and no master carries more than its share."
                .into(),
        ));
    }
    out.extend(
        balance
            .into_iter()
            .map(|w| Section::Note(format!("Note: {}", words(w)))),
    );
    out.extend(
        warnings
            .iter()
            .map(|w| Section::Note(format!("WARNING: {w}"))),
    );
    if let Some(fix) = &r.suggested_template {
        out.push(Section::Note(format!("Suggested template: `{fix}`")));
    }
    Placement {
        sections: out,
        warnings,
    }
}
