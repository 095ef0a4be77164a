//! `shardplan completions SHELL` and `shardplan man`: generated from the
//! same clap definitions as the parser, so they never go stale.

use std::io::Write;

use clap::CommandFactory;

use crate::cli::{Cli, CompletionsArgs, ManArgs, SchemaArgs};
use crate::error::InputError;
use crate::output::sink::{prepare_dir, AtomicFile};

pub fn completions(args: CompletionsArgs) -> anyhow::Result<()> {
    let script = crate::cli::complete::registration(args.shell)?;
    let mut out = std::io::stdout().lock();
    out.write_all(&script)?;
    out.flush()?;
    Ok(())
}

/// The command line as the pages describe it: built, so each subcommand
/// knows its full name (`shardplan-simulate`), without clap's `help`
/// subcommand.
fn documented() -> clap::Command {
    let mut cmd = Cli::command().disable_help_subcommand(true);
    cmd.build();
    cmd
}

/// One page's roff.
fn page(cmd: clap::Command) -> std::io::Result<Vec<u8>> {
    let mut roff = Vec::new();
    clap_mangen::Man::new(cmd)
        .source(format!("shardplan {}", env!("CARGO_PKG_VERSION")))
        .manual("shardplan manual")
        .render(&mut roff)?;
    Ok(roff)
}

/// `shardplan man [COMMAND]` prints one page; `man -o DIR` writes them all.
pub fn man(args: ManArgs) -> anyhow::Result<()> {
    let top = documented();
    if let Some(dir) = &args.output {
        // Every page is rendered before the folder is touched.
        let mut pages = vec![(format!("{}.1", top.get_name()), page(top.clone())?)];
        for sub in top.get_subcommands() {
            let name = sub.get_display_name().unwrap_or(sub.get_name());
            pages.push((format!("{name}.1"), page(sub.clone())?));
        }
        prepare_dir("--output", dir)?;
        for (name, roff) in pages {
            let mut file = AtomicFile::create("--output", &dir.join(name))?;
            file.write_all(&roff)?;
            file.commit()?;
        }
        return Ok(());
    }
    let cmd = match &args.command {
        None => top,
        Some(name) => top
            .get_subcommands()
            .find(|c| c.get_name() == name.as_str())
            .cloned()
            .ok_or_else(|| {
                let names: Vec<&str> = top.get_subcommands().map(|c| c.get_name()).collect();
                InputError::new(
                    "COMMAND",
                    format!(
                        "no command named {name:?}; one of {} (or none for shardplan's own page)",
                        names.join(", ")
                    ),
                )
            })?,
    };
    let roff = page(cmd)?;
    let mut out = std::io::stdout().lock();
    out.write_all(&roff)?;
    out.flush()?;
    Ok(())
}

/// `shardplan schema COMMAND`: the JSON Schema of its `--format json`
/// document (the file `schemas/COMMAND.schema.json` holds).
pub fn schema(args: SchemaArgs) -> anyhow::Result<()> {
    let text = crate::views::schema::file_text(&args.command)
        .expect("clap accepts only the commands with a schema");
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}
