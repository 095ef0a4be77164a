//! The plans of the documentation commands: `man`'s pages and where they
//! go (standard output, or a folder made ready), `completions`' shell,
//! `schema`'s command.

use std::path::Path;

use clap::CommandFactory;

use crate::cli::{Cli, CompletionsArgs, ManArgs, SchemaArgs};
use crate::config::Run;
use crate::error::{InputError, InputResult};
use crate::output::sink::{prepare_dir, AtomicFile};

/// `shardplan man`, resolved.
pub enum ManOptions {
    /// One page on standard output: shardplan's own, or one command's.
    Page(Box<clap::Command>),
    /// `-o DIR`: every page, each with its file in the folder, opened.
    Folder(Vec<(clap::Command, AtomicFile)>),
}

impl ManOptions {
    pub fn new(args: ManArgs, run: &Run) -> InputResult<Self> {
        let top = documented();
        if let Some(dir) = args.output.one()? {
            return Ok(ManOptions::Folder(folder(top, dir, run)?));
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
/// (`shardplan-simulate.1`), with its file in `dir` (created if missing).
fn folder(
    top: clap::Command,
    dir: &Path,
    run: &Run,
) -> InputResult<Vec<(clap::Command, AtomicFile)>> {
    prepare_dir("--output", dir)?;
    let subcommands = top.get_subcommands().map(|sub| {
        let name = sub.get_display_name().unwrap_or(sub.get_name());
        (format!("{name}.1"), sub.clone())
    });
    let pages: Vec<_> = std::iter::once((format!("{}.1", top.get_name()), top.clone()))
        .chain(subcommands)
        .collect();
    pages
        .into_iter()
        .map(|(name, cmd)| {
            let file = AtomicFile::create(&run.claims, "--output", &dir.join(name))?;
            Ok((cmd, file))
        })
        .collect()
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
