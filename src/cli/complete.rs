//! Shell completion, computed by the binary at each Tab (clap_complete's
//! dynamic engine): the shell script `completions SHELL` prints calls
//! `COMPLETE=SHELL shardplan -- WORDS`, so `--scenario <Tab>` can offer the
//! bundled scenario names beside `.toml` files, and choice flags (`--store`,
//! `--format`, `--traffic`) their values, always in step with this build.

use std::ffi::OsStr;

use clap::CommandFactory;
use clap_complete::engine::{CompletionCandidate, PathCompleter, ValueCompleter};

use super::Cli;

/// The environment variable that asks the binary for completions.
pub const COMPLETE_VAR: &str = "COMPLETE";

/// Answers a completion request (and exits) when `COMPLETE` is set;
/// otherwise returns and the run goes on.
pub fn answer_if_asked() {
    clap_complete::CompleteEnv::with_factory(Cli::command)
        .var(COMPLETE_VAR)
        .complete();
}

/// The script that registers shardplan's completions in `shell` (the same
/// one `COMPLETE=SHELL shardplan` prints): it calls `shardplan` on the PATH.
pub fn registration(shell: clap_complete::Shell) -> std::io::Result<Vec<u8>> {
    let name = shell.to_string();
    let shells = clap_complete::env::Shells::builtins();
    let completer = shells.completer(&name).ok_or_else(|| {
        std::io::Error::new(
            std::io::ErrorKind::Unsupported,
            format!("no dynamic completion for {name}"),
        )
    })?;
    let mut script = Vec::new();
    completer.write_registration(
        COMPLETE_VAR,
        "shardplan",
        "shardplan",
        "shardplan",
        &mut script,
    )?;
    Ok(script)
}

/// `--scenario`: the bundled names that start with what is typed (with
/// their descriptions), then `.toml` files and folders.
pub fn scenario_candidates(current: &OsStr) -> Vec<CompletionCandidate> {
    let typed = current.to_string_lossy();
    let mut out: Vec<CompletionCandidate> = crate::files::bundled::BUNDLED
        .iter()
        .filter(|(name, _)| name.starts_with(typed.as_ref()))
        .map(|(name, text)| {
            let about = crate::files::bundled::description(text);
            CompletionCandidate::new(*name).help(about.map(Into::into))
        })
        .collect();
    let files = PathCompleter::any()
        .filter(|p| p.is_dir() || p.extension().is_some_and(|e| e == "toml"))
        .stdio();
    out.extend(files.complete(current));
    out
}

/// `man COMMAND`: the subcommands, with what each answers.
pub fn command_candidates() -> Vec<CompletionCandidate> {
    Cli::command()
        .get_subcommands()
        .filter(|c| c.get_name() != "help")
        .map(|c| CompletionCandidate::new(c.get_name()).help(c.get_about().cloned()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scenario_names_come_first_and_filter_by_prefix() {
        let mut names: Vec<String> = scenario_candidates(OsStr::new("viral"))
            .iter()
            .map(|c| c.get_value().to_string_lossy().into_owned())
            .take(3)
            .collect();
        names.sort();
        assert_eq!(
            names,
            ["viral-evening", "viral-evening-monitor", "viral-reel"]
        );
    }

    #[test]
    fn every_shell_has_a_registration_script() {
        use clap::ValueEnum;
        for shell in clap_complete::Shell::value_variants() {
            let script = registration(*shell).unwrap();
            let text = String::from_utf8(script).unwrap();
            assert!(text.contains("shardplan"), "{shell}: {text}");
            assert!(text.contains(COMPLETE_VAR), "{shell}: {text}");
        }
    }
}
