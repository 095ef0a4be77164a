//! The "Cost" block of `size` and `compare`: the model's cost figures at
//! the user's prices, in words. Nothing is shown without a price.

use crate::model::compare::strategies::StrategyRow;
use crate::model::fleet::Policy;
use crate::model::price::{Costs, PolicyCosts};
use crate::output::{fmt, Section};

/// A price figure: small amounts keep their significant digits.
pub fn money(x: f64) -> String {
    if x != 0.0 && x.abs() < 0.01 {
        let s = format!("{x:.6}");
        return s.trim_end_matches('0').trim_end_matches('.').to_string();
    }
    fmt::num(x)
}

fn shown(v: Option<f64>) -> String {
    v.map_or("-".into(), money)
}

/// True when a price was given (some figure is priced).
pub fn priced(c: &Costs) -> bool {
    c.write_cost_per_million_likes.is_some()
        || c.like_row_cost_per_million_likes.is_some()
        || c.read_cost_per_million_views_cached.is_some()
}

/// `size`'s cost block; `None` without a price.
pub fn cost_section(c: &Costs) -> Option<Section> {
    if !priced(c) {
        return None;
    }
    let mut rows = vec![];
    if let Some(w) = c.write_cost_per_million_likes {
        rows.push(("counter writes per million likes", {
            let units = c.write_units_per_like.unwrap_or(1.0);
            let plural = if units == 1.0 { "unit" } else { "units" };
            format!("{} ({} write {plural} a like)", money(w), money(units))
        }));
    }
    if let Some(w) = c.like_row_cost_per_million_likes {
        rows.push((
            "like rows per million likes",
            format!("{} (each like's own row, apart from the counter)", money(w)),
        ));
    }
    if let (Some(u), Some(k)) = (
        c.read_cost_per_million_views_uncached,
        c.read_cost_per_million_views_cached,
    ) {
        rows.push(("reads per million views, uncached", money(u)));
        rows.push(("reads per million views, cached", money(k)));
    }
    if let Some(m) = c.monthly_cost {
        rows.push((
            "a month (30 days)",
            format!(
                "{} (counter writes and cached reads; like rows apart)",
                money(m)
            ),
        ));
    }
    rows.push((
        "billed",
        "per million request units: 1 a write, 1 an item read (a batch of S items is S)".into(),
    ));
    Some(Section::pairs("Cost at your prices", rows))
}

/// `compare`'s cost grid, one row per design, and why a figure is
/// missing; nothing without a price.
pub fn compare_cost_sections(rows: &[StrategyRow]) -> Vec<Section> {
    if !rows.iter().any(|r| priced(&r.costs)) {
        return vec![];
    }
    let monthly = rows.iter().any(|r| r.costs.monthly_cost.is_some());
    let mut header: Vec<String> = [
        "strategy",
        "write units/like",
        "writes /M likes",
        "like rows /M likes",
        "reads /M views",
        "uncached",
    ]
    .map(String::from)
    .to_vec();
    if monthly {
        header.push("a month".into());
    }
    let grid = rows
        .iter()
        .map(|r| {
            let c = &r.costs;
            let mut cells = vec![
                r.row.strategy.clone(),
                c.write_units_per_like.map_or("n/a *".into(), money),
                shown(c.write_cost_per_million_likes),
                shown(c.like_row_cost_per_million_likes),
                shown(c.read_cost_per_million_views_cached),
                shown(c.read_cost_per_million_views_uncached),
            ];
            if monthly {
                cells.push(shown(c.monthly_cost));
            }
            cells
        })
        .collect();
    let mut out = vec![Section::Grid {
        title: "Cost at your prices (per million request units; a batch read is billed per item)"
            .into(),
        header,
        rows: grid,
        secondary: Vec::new(),
    }];
    let mut notes = vec![
        "Buffered designs pay per flush, not per like; the log's events are appended to the \
         log, outside the store (only the consumer's totals are priced).",
    ];
    if rows.iter().any(|r| r.costs.write_units_per_like.is_none()) {
        notes.push(
            "* no write path figure: the model gives these designs' hottest-key writes only, \
             not writes per like, so their write cost is left out (JSON null). like-rows: \
             its rows are its count, priced as its writes.",
        );
    }
    if monthly {
        notes.push("A month is 30 days of counter writes and cached reads; like rows are apart.");
    }
    out.push(Section::Note(notes.join(" ")));
    out
}

/// `fleet`'s cost grid: each policy's month at the user's prices; nothing
/// without a price.
pub fn fleet_cost_section(costs: &[PolicyCosts], name: fn(Policy) -> &'static str) -> Vec<Section> {
    if !costs.iter().any(|c| c.monthly_cost.is_some()) {
        return vec![];
    }
    let grid = costs
        .iter()
        .map(|c| {
            vec![
                name(c.policy).to_string(),
                c.storage_gb.map_or("-".into(), fmt::num),
                shown(c.storage_cost_per_month),
                shown(c.write_cost_per_month),
                shown(c.read_cost_per_month_cached),
                shown(c.read_cost_per_month_uncached),
                shown(c.monthly_cost),
            ]
        })
        .collect();
    let bytes = costs.iter().find_map(|c| c.item_bytes);
    let mut note = String::from(
        "A month is 30 days at the table's peak-hour rates: an upper bound on the requests \
         of a month whose days dip below their peak. One write unit a like, one item read a \
         shard read; the total is storage, writes and cached reads.",
    );
    if let Some(b) = bytes {
        note.push_str(&format!(
            " Storage: items x {} bytes (--item-bytes) / 10^9 GB.",
            fmt::num(b)
        ));
    }
    vec![
        Section::Grid {
            title: "Cost a month at your prices, per policy".into(),
            header: [
                "policy",
                "storage GB",
                "storage",
                "writes",
                "reads, cached",
                "reads, uncached",
                "a month",
            ]
            .map(String::from)
            .to_vec(),
            rows: grid,
            secondary: Vec::new(),
        },
        Section::Note(note),
    ]
}
