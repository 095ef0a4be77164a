//! The "Pickers" table: how the app servers pick a shard, side by side
//! for the plan: the shards each needs at the per-key risk, how that is
//! known, its simulated busiest shard at the plan's count, and what it
//! asks of the servers.

use crate::model::picker::risk::KeyMethod;
use crate::model::picker::table::PickerRow;
use crate::model::picker::ServerState;
use crate::output::fmt;
use crate::output::Section;

fn method(m: Option<KeyMethod>) -> &'static str {
    match m {
        Some(KeyMethod::Exact) => "exact",
        Some(KeyMethod::NeverOver) => "never over (exact 0)",
        Some(KeyMethod::UpperBound) => "upper bound",
        Some(KeyMethod::RandomLaw) => "random picks' law",
        None => "-",
    }
}

/// The risk at the count needed, with how it is known.
fn risk(r: &PickerRow) -> String {
    match (r.ln_risk, r.method) {
        (Some(_), Some(KeyMethod::NeverOver)) => method(r.method).to_string(),
        (Some(ln), m) => format!("{} ({})", fmt::prob_ln(ln.exp(), ln), method(m)),
        (None, _) => "-".into(),
    }
}

fn needs(r: &PickerRow) -> String {
    let n = r.needs;
    let mut words = vec![match n.server_state {
        ServerState::None => "no state",
        ServerState::Cursor => "a cursor",
        ServerState::CountsPerSecond => "counts per shard, per second",
    }];
    if n.user_id {
        words.push("user ids");
    }
    if n.servers_divide_shards {
        words.push("K a multiple of S");
    }
    words.join("; ")
}

fn picker_row(r: &PickerRow) -> Vec<String> {
    vec![
        r.picker.name().to_string(),
        r.shards_needed
            .map_or("none up to the limit".into(), fmt::count),
        risk(r),
        fmt::mean(r.busiest_mean),
        fmt::count(r.busiest_p99),
        fmt::count(r.busiest_max),
        fmt::count(r.seconds_over_cap),
        needs(r),
    ]
}

/// The table, a row a picker; the title names the simulated count, length
/// and servers.
pub(crate) fn section(rows: &[PickerRow], seed: u64) -> Option<Section> {
    let first = rows.first()?;
    Some(Section::Grid {
        title: format!(
            "Pickers ({} servers; the busiest shard simulated at {} for {} s, seed {seed})",
            fmt::count(first.servers),
            crate::views::verdict::shards(first.shards),
            fmt::count(first.seconds),
        ),
        header: [
            "picker",
            "shards",
            "their risk",
            "mean",
            "p99",
            "max",
            "s over",
            "needs",
        ]
        .map(String::from)
        .to_vec(),
        rows: rows.iter().map(picker_row).collect(),
        secondary: Vec::new(),
    })
}
