//! `shardplan scenarios`: the bundled scenarios, what each describes and
//! the commands that take it.

use crate::cli::ScenariosArgs;
use crate::config::scenario;
use crate::config::Run;
use crate::output::OutputSet;
use crate::views::scenarios::{ScenarioList, ScenarioRow};

pub fn run(args: ScenariosArgs, run: &Run) -> anyhow::Result<()> {
    crate::config::refuse(
        args.out.explain.explain,
        "--explain",
        "on scenarios: it lists files and resolves no inputs",
    )?;
    let out = OutputSet::prepare(run, args.out.format, &args.out.output.output)?;
    let mut rows = Vec::new();
    for (name, _) in scenario::BUNDLED {
        let loaded = scenario::load(&run.claims, name)?;
        let mut commands: Vec<&str> = Vec::new();
        for c in loaded.kinds.iter().flat_map(|k| k.commands()) {
            if !commands.contains(c) {
                commands.push(c);
            }
        }
        rows.push(ScenarioRow {
            name: name.to_string(),
            describes: loaded
                .kinds
                .iter()
                .map(|k| k.name())
                .collect::<Vec<_>>()
                .join(", "),
            commands: commands.join(", "),
            description: loaded.scenario.description.unwrap_or_default(),
        });
    }
    super::emit(
        out,
        &ScenarioList(rows),
        &crate::config::Inputs::default(),
        false,
    )
}
