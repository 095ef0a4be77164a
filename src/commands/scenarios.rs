//! `shardplan scenarios`: the bundled scenarios, what each describes and
//! the commands that take it.

use crate::config::options::ScenariosOptions;
use crate::views::scenarios::{ScenarioList, ScenarioRow};

pub fn run(o: ScenariosOptions) -> anyhow::Result<()> {
    let mut rows = Vec::new();
    for loaded in o.bundled {
        let mut commands: Vec<&str> = Vec::new();
        for c in loaded.kinds.iter().flat_map(|k| k.commands()) {
            if !commands.contains(c) {
                commands.push(c);
            }
        }
        rows.push(ScenarioRow {
            describes: loaded
                .kinds
                .iter()
                .map(|k| k.name())
                .collect::<Vec<_>>()
                .join(", "),
            commands: commands.join(", "),
            description: loaded.scenario.description.unwrap_or_default(),
            name: loaded.name,
        });
    }
    super::emit(
        o.output.set,
        &ScenarioList(rows),
        &crate::config::Inputs::default(),
        o.output.explain,
    )
}
