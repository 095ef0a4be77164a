//! `shardplan scenarios`: the bundled scenarios, one line each.

use serde::Serialize;
use serde_json::Value;

use crate::cli::ScenariosArgs;
use crate::config::scenario;
use crate::output::{row, OutputSet, Report, Section};

#[derive(Debug, Clone, Serialize)]
pub struct ScenarioRow {
    pub name: String,
    pub description: String,
}

struct ScenarioList(Vec<ScenarioRow>);

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
            header: vec!["name".into(), "description".into()],
            rows: self
                .0
                .iter()
                .map(|r| vec![r.name.clone(), r.description.clone()])
                .collect(),
        }]
    }
}

pub fn run(args: ScenariosArgs) -> anyhow::Result<()> {
    let out = OutputSet::prepare(args.out.format, &args.out.output)?;
    let mut rows = Vec::new();
    for (name, _) in scenario::BUNDLED {
        let loaded = scenario::load(name)?;
        rows.push(ScenarioRow {
            name: name.to_string(),
            description: loaded.scenario.description.unwrap_or_default(),
        });
    }
    out.emit(&ScenarioList(rows))
}
