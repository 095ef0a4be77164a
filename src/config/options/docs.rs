//! The plans of the documentation commands: `man`'s pages and where they
//! go (standard output, or a folder made ready), `completions`' shell,
//! `schema`'s command.

use std::path::Path;

use clap::CommandFactory;

use crate::cli::{Cli, CompletionsArgs, ManArgs, SchemaArgs};
use crate::config::Run;
use crate::error::{InputError, InputResult};
use crate::output::output_folder::OutputFolder;

/// `shardplan man`, resolved.
pub enum ManOptions {
    /// One page on standard output: shardplan's own, or one command's.
    Page(Box<clap::Command>),
    /// `-o DIR`: every page with its file's name, and the folder, checked.
    Folder(Vec<(clap::Command, String)>, OutputFolder),
}

impl ManOptions {
    pub fn new(args: ManArgs, run: &Run) -> InputResult<Self> {
        let top = documented();
        if let Some(dir) = args.output.one()? {
            let (pages, folder) = folder(top, dir, run)?;
            return Ok(ManOptions::Folder(pages, folder));
        }
        let Some(name) = &args.command else {
            return Ok(ManOptions::Page(Box::new(top)));
        };
        let found = top
            .get_subcommands()
            .find(|c| c.get_name().eq_ignore_ascii_case(name))
            .cloned();
        found.map(|c| ManOptions::Page(Box::new(c))).ok_or_else(|| {
            let names: Vec<&str> = top.get_subcommands().map(|c| c.get_name()).collect();
            InputError::new(
                "COMMAND",
                format!(
                    "no command named {name:?}; one of {} (or none for shardplan's own page)",
                    names.join(", ")
                ),
            )
        })
    }
}

/// Every page, shardplan's own (`shardplan.1`) and each command's
/// (`shardplan-simulate.1`), with its file's name, and the folder `dir`
/// (made at the end if missing) with those files checked.
fn folder(
    top: clap::Command,
    dir: &Path,
    run: &Run,
) -> InputResult<(Vec<(clap::Command, String)>, OutputFolder)> {
    let subcommands = top.get_subcommands().map(|sub| {
        let name = sub.get_display_name().unwrap_or(sub.get_name());
        (sub.clone(), format!("{name}.1"))
    });
    let pages: Vec<_> = std::iter::once((top.clone(), format!("{}.1", top.get_name())))
        .chain(subcommands)
        .collect();
    let names: Vec<String> = pages.iter().map(|(_, name)| name.clone()).collect();
    let folder = OutputFolder::open(&run.claims, "--output", dir, &names)?;
    Ok((pages, folder))
}

/// The command line as the pages describe it: built, so each subcommand
/// knows its full name (`shardplan-simulate`), without clap's `help`
/// subcommand.
fn documented() -> clap::Command {
    let mut cmd = Cli::command().disable_help_subcommand(true);
    cmd.build();
    cmd
}

/// `shardplan completions SHELL`, resolved.
pub struct CompletionsOptions {
    /// The shell to complete for.
    pub shell: clap_complete::Shell,
}

impl CompletionsOptions {
    pub fn new(args: CompletionsArgs) -> Self {
        CompletionsOptions { shell: args.shell }
    }
}

/// `shardplan schema COMMAND`, resolved.
pub struct SchemaOptions {
    /// The command whose `--format json` document is described.
    pub command: String,
}

impl SchemaOptions {
    pub fn new(args: SchemaArgs) -> Self {
        SchemaOptions {
            command: args.command.name(),
        }
    }
}
