//! `scenarios`' view: each bundled scenario, what it describes and the
//! commands that take it.

use serde::Serialize;
use serde_json::Value;

use crate::output::{row, Report, Section};

/// One bundled scenario.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct ScenarioRow {
    /// Its name (`--scenario NAME`).
    pub name: String,
    /// What it describes (`flat-load, fleet`).
    pub describes: String,
    /// The commands that take it (`size, simulate, ...`).
    pub commands: String,
    /// Its one-line description.
    pub description: String,
}

/// The list.
pub struct ScenarioList(pub Vec<ScenarioRow>);

impl Report for ScenarioList {
    fn rows(&self) -> Vec<Value> {
        self.0.iter().map(row).collect()
    }
    fn json(&self) -> Value {
        Value::Array(self.rows())
    }
    fn sections(&self) -> Vec<Section> {
        vec![Section::Grid {
            title: "Bundled scenarios (use --scenario NAME, or --scenario path/to.toml)".into(),
            header: ["name", "describes", "commands", "description"]
                .map(String::from)
                .to_vec(),
            rows: self
                .0
                .iter()
                .map(|r| {
                    vec![
                        r.name.clone(),
                        r.describes.clone(),
                        r.commands.clone(),
                        r.description.clone(),
                    ]
                })
                .collect(),
            secondary: Vec::new(),
        }]
    }
}
