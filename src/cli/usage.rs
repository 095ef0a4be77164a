//! A clap error as the one line `shardplan: usage: ...` prints, built from
//! the error's kind and context (the flag, the value refused, the accepted
//! values, clap's suggestions), never from its rendered text. The words are
//! clap's own (`clap_builder`'s rich formatter), on one line: a list clap
//! puts on lines of their own joins with spaces, each tip follows a `; `.

use clap::error::{ContextKind, ContextValue, ErrorKind};

/// `e` on one line, with the accepted values and clap's tips, without the
/// `error: ` prefix, the usage and the help hint. A flag the command lacks
/// but others take (`size --seed`) says which take it, instead of clap's
/// tip of a flag merely spelt alike.
pub(super) fn one_line(e: &clap::Error, cmd: &clap::Command, args: &[String]) -> String {
    let mut line = head(e);
    if let Some(elsewhere) = taken_elsewhere(e, cmd, args) {
        line.push_str(&format!("; {elsewhere}"));
        return cut_long_words(&line);
    }
    let tips = [
        (ContextKind::SuggestedSubcommand, "subcommand"),
        (ContextKind::SuggestedArg, "argument"),
        (ContextKind::SuggestedValue, "value"),
    ];
    for (kind, what) in tips {
        if let Some(tip) = e.get(kind).and_then(|v| similar(what, v)) {
            line.push_str(&format!("; tip: {tip}"));
        }
    }
    if let Some(ContextValue::StyledStrs(tips)) = e.get(ContextKind::Suggested) {
        for tip in tips {
            line.push_str(&format!("; tip: {}", flat(&tip.to_string())));
        }
    }
    cut_long_words(&line)
}

/// For an unknown `--flag` that other commands take: `size takes no
/// --seed; simulate, fleet and partitions do`. The command is the first
/// argument naming one of `cmd`'s subcommands.
fn taken_elsewhere(e: &clap::Error, cmd: &clap::Command, args: &[String]) -> Option<String> {
    if e.kind() != ErrorKind::UnknownArgument {
        return None;
    }
    let given = text(e, ContextKind::InvalidArg)?;
    let flag = given.strip_prefix("--")?.split('=').next()?.to_string();
    let sub = args
        .iter()
        .find_map(|a| cmd.find_subcommand(a))?
        .get_name()
        .to_string();
    let takers: Vec<&str> = cmd
        .get_subcommands()
        .filter(|c| c.get_name() != sub)
        .filter(|c| {
            c.get_arguments()
                .any(|a| a.get_long() == Some(flag.as_str()))
        })
        .map(|c| c.get_name())
        .collect();
    let takers = match takers.as_slice() {
        [] => return None,
        [one] => format!("{one} does"),
        [rest @ .., last] => format!("{} and {last} do", rest.join(", ")),
    };
    Some(format!("{sub} takes no --{flag}; {takers}"))
}

/// The context as a string, when clap gave one.
fn text(e: &clap::Error, kind: ContextKind) -> Option<String> {
    match e.get(kind) {
        Some(ContextValue::String(s)) => Some(flat(s)),
        _ => None,
    }
}

/// The context as a list, when clap gave one.
fn list(e: &clap::Error, kind: ContextKind) -> Option<&[String]> {
    match e.get(kind) {
        Some(ContextValue::Strings(s)) => Some(s),
        _ => None,
    }
}

/// The sentence for the error's kind, as clap words it; clap's generic
/// sentence for the kind when the context it needs is missing.
fn head(e: &clap::Error) -> String {
    let arg = || text(e, ContextKind::InvalidArg);
    let value = || text(e, ContextKind::InvalidValue);
    let sentence = match e.kind() {
        ErrorKind::ArgumentConflict => conflict(e),
        ErrorKind::NoEquals => {
            arg().map(|a| format!("equal sign is needed when assigning values to '{a}'"))
        }
        ErrorKind::InvalidValue => arg().zip(value()).map(|(a, v)| {
            let what = match v.is_empty() {
                true => format!("a value is required for '{a}' but none was supplied"),
                false => format!("invalid value '{v}' for '{a}'"),
            };
            what + &values("possible values", list(e, ContextKind::ValidValue))
        }),
        ErrorKind::InvalidSubcommand => text(e, ContextKind::InvalidSubcommand)
            .map(|s| format!("unrecognized subcommand '{s}'")),
        ErrorKind::MissingRequiredArgument => list(e, ContextKind::InvalidArg).map(|args| {
            let args: Vec<String> = args.iter().map(|a| flat(a)).collect();
            format!(
                "the following required arguments were not provided: {}",
                args.join(" ")
            )
        }),
        ErrorKind::MissingSubcommand => text(e, ContextKind::InvalidSubcommand).map(|s| {
            format!("'{s}' requires a subcommand but one was not provided")
                + &values("subcommands", list(e, ContextKind::ValidSubcommand))
        }),
        ErrorKind::TooManyValues => arg()
            .zip(value())
            .map(|(a, v)| format!("unexpected value '{v}' for '{a}' found; no more were expected")),
        ErrorKind::TooFewValues => counted(e, ContextKind::MinValues).map(|(a, min, got)| {
            format!(
                "{min} values required by '{a}'; only {got}{}",
                provided(got)
            )
        }),
        ErrorKind::WrongNumberOfValues => counted(e, ContextKind::ExpectedNumValues)
            .map(|(a, n, got)| format!("{n} values required for '{a}' but {got}{}", provided(got))),
        ErrorKind::ValueValidation => arg().zip(value()).map(|(a, v)| {
            let why = std::error::Error::source(e)
                .map(|s| format!(": {}", flat(&s.to_string())))
                .unwrap_or_default();
            format!("invalid value '{v}' for '{a}'{why}")
        }),
        ErrorKind::UnknownArgument => arg().map(|a| format!("unexpected argument '{a}' found")),
        _ => None,
    };
    sentence.unwrap_or_else(|| generic(e))
}

/// An argument used twice, or beside one it conflicts with.
fn conflict(e: &clap::Error) -> Option<String> {
    let prior = e.get(ContextKind::PriorArg);
    let (mut line, prior) = if let Some(arg) = text(e, ContextKind::InvalidArg) {
        if prior == Some(&ContextValue::String(arg.clone())) {
            (
                format!("the argument '{arg}' cannot be used multiple times"),
                None,
            )
        } else {
            (format!("the argument '{arg}' cannot be used with"), prior)
        }
    } else if let Some(sub) = text(e, ContextKind::InvalidSubcommand) {
        (format!("the subcommand '{sub}' cannot be used with"), prior)
    } else {
        (ErrorKind::ArgumentConflict.as_str()?.to_string(), prior)
    };
    match prior {
        Some(ContextValue::Strings(args)) => {
            line.push(':');
            for a in args {
                line.push_str(&format!(" {}", flat(a)));
            }
        }
        Some(ContextValue::String(a)) => line.push_str(&format!(" '{}'", flat(a))),
        Some(_) => line.push_str(" one or more of the other specified arguments"),
        None => {}
    }
    Some(line)
}

/// The argument, the number of values it takes (`wanted`) and the number
/// given.
fn counted(e: &clap::Error, wanted: ContextKind) -> Option<(String, isize, isize)> {
    let number = |kind| match e.get(kind) {
        Some(ContextValue::Number(n)) => Some(*n),
        _ => None,
    };
    let arg = text(e, ContextKind::InvalidArg)?;
    Some((arg, number(wanted)?, number(ContextKind::ActualNumValues)?))
}

fn provided(n: isize) -> &'static str {
    match n > 1 {
        true => " were provided",
        false => " was provided",
    }
}

/// ` [possible values: a, b]`, a value with a space quoted; nothing for no
/// values.
fn values(name: &str, values: Option<&[String]>) -> String {
    match values {
        Some(values) if !values.is_empty() => {
            let shown: Vec<String> = values
                .iter()
                .map(|v| match v.is_empty() || v.contains(char::is_whitespace) {
                    true => format!("{v:?}"),
                    false => v.clone(),
                })
                .collect();
            format!(" [{name}: {}]", shown.join(", "))
        }
        _ => String::new(),
    }
}

/// `a similar argument exists: '--peak'` (several: `some similar ... exist`).
fn similar(what: &str, value: &ContextValue) -> Option<String> {
    let quoted = |v: &String| format!("'{}'", flat(v));
    match value {
        ContextValue::String(v) => Some(format!("a similar {what} exists: {}", quoted(v))),
        ContextValue::Strings(v) => {
            let names: Vec<String> = v.iter().map(quoted).collect();
            let lead = match names.len() {
                1 => format!("a similar {what} exists"),
                _ => format!("some similar {what}s exist"),
            };
            Some(format!("{lead}: {}", names.join(", ")))
        }
        _ => None,
    }
}

/// Clap's sentence for a kind whose context is missing.
fn generic(e: &clap::Error) -> String {
    match (e.kind().as_str(), std::error::Error::source(e)) {
        (Some(sentence), _) => sentence.to_string(),
        (None, Some(source)) => flat(&source.to_string()),
        (None, None) => "unknown cause".to_string(),
    }
}

/// A value on one line: its lines trimmed and joined by spaces.
fn flat(text: &str) -> String {
    text.lines().map(str::trim).collect::<Vec<_>>().join(" ")
}

/// Clap quotes the value it refused in full; a 100 KB value makes a 100 KB
/// line, so any word past 60 characters is cut.
fn cut_long_words(line: &str) -> String {
    line.split(' ')
        .map(|w| match w.chars().count() > 60 {
            true => super::parse::shorten(w),
            false => w.to_string(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;

    fn line(args: &[&str]) -> String {
        let cmd = crate::cli::Cli::command();
        let e = cmd
            .clone()
            .try_get_matches_from(std::iter::once("shardplan").chain(args.iter().copied()))
            .unwrap_err();
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        one_line(&e, &cmd, &args)
    }

    /// A flag of other commands is no typo: the line says who takes it
    /// rather than suggesting `--servers` for `size --seed`.
    #[test]
    fn a_flag_of_other_commands_names_them() {
        let seed = line(&["size", "--seed", "1"]);
        assert!(
            seed.starts_with("unexpected argument '--seed' found; size takes no --seed; "),
            "{seed}"
        );
        assert!(
            seed.contains("simulate") && !seed.contains("--servers"),
            "{seed}"
        );
        let wide = line(&["--color", "never", "scenarios", "--kind=risk"]);
        assert!(
            wide.contains("scenarios takes no --kind; chart does"),
            "{wide}"
        );
    }

    #[test]
    fn each_kind_reads_as_clap_words_it() {
        assert_eq!(
            line(&["size", "--peek", "1"]),
            "unexpected argument '--peek' found; tip: a similar argument exists: '--peak'"
        );
        assert_eq!(
            line(&["simulate", "--traffic", "gamma"]),
            "invalid value 'gamma' for '--traffic <TRAFFIC>' [possible values: fixed, poisson, \
             gamma-poisson, empirical]; tip: a similar value exists: 'gamma-poisson'"
        );
        assert_eq!(
            line(&["size", "--peak", "1", "--peak", "2"]),
            "the argument '--peak <LIKES_PER_S>' cannot be used multiple times"
        );
        assert_eq!(
            line(&["keys"]),
            "the following required arguments were not provided: \
             <FILE|--stdin|--template <TEMPLATE>>"
        );
        assert_eq!(
            line(&["size", "--shards", "a b\nc"]),
            "invalid value 'a b c' for '--shards <N>': must be a whole number (got \"a b\\nc\")"
        );
        // A blank line in a value no longer ends the message before the flag.
        assert!(line(&["size", "--peak", "a\n\nb"]).contains("for '--peak <LIKES_PER_S>'"));
    }
}
