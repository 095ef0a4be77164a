//! `shardplan completions SHELL` and `shardplan man`: generated from the
//! same clap definitions as the parser, so they never go stale.

use std::io::Write;

use clap::CommandFactory;

use crate::cli::{Cli, CompletionsArgs};

pub fn completions(args: CompletionsArgs) -> anyhow::Result<()> {
    let mut cmd = Cli::command();
    // clap_complete panics on a write error; render first, then write.
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "shardplan", &mut script);
    let mut out = std::io::stdout().lock();
    out.write_all(&script)?;
    out.flush()?;
    Ok(())
}

pub fn man() -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    clap_mangen::Man::new(Cli::command()).render(&mut out)?;
    out.flush()?;
    Ok(())
}
