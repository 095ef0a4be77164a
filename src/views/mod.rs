//! Views: each turns a command's results (plain data from the model) into
//! sections for tables and Markdown, and rows for CSV and JSON. Shared
//! blocks (the read cost, the risk lines, the inputs) live here once, so
//! `report` shows the same words and numbers the commands print.

pub mod charts;
pub mod compare;
pub mod durability;
pub mod fleet;
pub mod infeasible;
pub mod inputs;
pub mod measure;
pub mod measure_postgres;
pub mod measure_reconcile;
pub mod measurement;
pub mod observed;
pub mod placement;
pub mod price;
pub mod reads;
pub mod recommendation;
pub mod reconcile;
pub mod report;
pub mod resize;
pub mod risk;
pub mod scenarios;
pub mod schema;
pub mod sensitivity;
pub mod shard_load;
pub mod simulate;
pub mod size;
pub mod store_words;
pub mod stores;
pub mod timeline;
pub mod unlikes;
pub mod verdict;

use serde_json::Value;

use crate::output::{Report, Section};

/// A list of sections as a report (part of a command's view, or a block
/// `report` assembles).
pub struct Sections(pub Vec<Section>);

impl Report for Sections {
    fn rows(&self) -> Vec<Value> {
        Vec::new()
    }

    fn sections(&self) -> Vec<Section> {
        self.0.clone()
    }
}

/// A command's JSON with one more top-level field (`observed_traffic`,
/// `unlikes`); a list result goes under `rows` beside it.
pub fn json_with(v: serde_json::Value, key: &str, extra: serde_json::Value) -> serde_json::Value {
    let mut map = match v {
        serde_json::Value::Object(m) => m,
        other => {
            let mut m = serde_json::Map::new();
            m.insert("rows".into(), other);
            m
        }
    };
    map.insert(key.into(), extra);
    serde_json::Value::Object(map)
}
