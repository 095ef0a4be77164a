//! The `shardplan` binary: parse, run, print one line on error, pick the
//! exit code (2 for bad input, 1 for anything else).

use std::process::ExitCode;

use clap::Parser;
use shardplan::cli::Cli;
use shardplan::error::InputError;

fn run() -> anyhow::Result<()> {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion)
                || matches!(
                    e.kind(),
                    ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
                )
            {
                e.exit();
            }
            // clap's message spans several lines: keep its first paragraph
            // (which names the flag) and the accepted values, on one line.
            let text = e.render().to_string();
            let first: Vec<&str> = text
                .lines()
                .take_while(|l| !l.trim().is_empty())
                .map(str::trim)
                .collect();
            let first = first.join(" ");
            let first = first.strip_prefix("error: ").unwrap_or(&first);
            let accepted = text
                .lines()
                .map(str::trim)
                .find(|l| l.starts_with("[possible values:") && !first.contains(l))
                .map(|l| format!(" {l}"))
                .unwrap_or_default();
            return Err(InputError::new("usage", format!("{first}{accepted} (see --help)")).into());
        }
    };
    shardplan::commands::dispatch(cli)
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // A reader that stops early (`shardplan man | head`) is not an error.
            let broken_pipe = e
                .chain()
                .filter_map(|c| c.downcast_ref::<std::io::Error>())
                .any(|io| io.kind() == std::io::ErrorKind::BrokenPipe);
            if broken_pipe {
                return ExitCode::SUCCESS;
            }
            eprintln!("shardplan: {e}");
            if e.downcast_ref::<InputError>().is_some() {
                ExitCode::from(2)
            } else {
                ExitCode::from(1)
            }
        }
    }
}
