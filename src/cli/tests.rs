//! The command line as a whole: every long flag has one definition.

use std::collections::BTreeMap;

use clap::{Arg, CommandFactory};

use super::Cli;

#[test]
fn cli_is_well_formed() {
    Cli::command().debug_assert();
}

/// What a user sees of one flag: its help (short and long), the value it
/// takes (parser type, value name, accepted values, how many) and its action.
fn signature(arg: &Arg) -> String {
    let values: Vec<String> = arg
        .get_possible_values()
        .iter()
        .map(|v| format!("{}={:?}", v.get_name(), v.get_help().map(|h| h.to_string())))
        .collect();
    format!(
        "help: {:?}\nlong help: {:?}\nparser: {:?}\nvalue name: {:?}\nvalues: {:?}\nnum_args: {:?}\naction: {:?}\ndefault: {:?}\nshort: {:?}\naliases: {:?}",
        arg.get_help().map(|h| h.to_string()),
        arg.get_long_help().map(|h| h.to_string()),
        arg.get_value_parser().type_id(),
        arg.get_value_names(),
        values,
        arg.get_num_args(),
        arg.get_action(),
        arg.get_default_values(),
        arg.get_short(),
        arg.get_all_aliases(),
    )
}

/// Every (long flag, command path, signature) in the tree.
fn walk(cmd: &clap::Command, path: &str, out: &mut BTreeMap<String, Vec<(String, String)>>) {
    for arg in cmd.get_arguments() {
        if arg.is_global_set() && !path.is_empty() {
            continue; // a global flag is defined once, on the root
        }
        let names = arg
            .get_long()
            .into_iter()
            .chain(arg.get_all_aliases().unwrap_or_default());
        for long in names {
            out.entry(long.to_string())
                .or_default()
                .push((path.to_string(), signature(arg)));
        }
    }
    for sub in cmd.get_subcommands() {
        let p = format!("{path} {}", sub.get_name());
        walk(sub, p.trim(), out);
    }
}

/// Issue 32: a long flag offered by several commands is one definition:
/// the same help, parser, value name, accepted values, count and action.
#[test]
fn each_long_flag_has_one_definition() {
    let mut cmd = Cli::command();
    cmd.build();
    let mut flags = BTreeMap::new();
    walk(&cmd, "", &mut flags);
    // The walk sees every command: --shards is offered by eight.
    assert!(flags["shards"].len() >= 8, "{:?}", flags["shards"]);
    let mut drift = Vec::new();
    for (long, uses) in &flags {
        let (first_cmd, first) = &uses[0];
        for (other_cmd, sig) in &uses[1..] {
            if sig != first {
                drift.push(format!(
                    "--{long}: `{first_cmd}` and `{other_cmd}` differ\n{first}\n---\n{sig}"
                ));
                break;
            }
        }
    }
    assert!(
        drift.is_empty(),
        "{} flags drift:\n\n{}",
        drift.len(),
        drift.join("\n\n")
    );
}

/// `--shards` and `--rate` read one syntax everywhere; a command that
/// takes one value refuses a list naming the flag.
#[test]
fn shard_and_rate_lists_parse_once() {
    use super::defs::{rates, shard_counts, Rate, Shards};
    assert_eq!(shard_counts("20").unwrap().one, Some(20));
    for list in ["10..40", "10..=12", "10,20,30", "10, 20"] {
        let s = shard_counts(list).unwrap();
        assert_eq!((s.text.as_str(), s.one), (list, None));
    }
    for bad in ["abc", "-1", "10..x", "1_0,20", "+2", ""] {
        assert!(shard_counts(bad).is_err(), "{bad:?}");
    }
    assert_eq!(rates("14000").unwrap().one, Some(14000.0));
    assert_eq!(rates("9000,14000").unwrap().one, None);
    for bad in ["abc", "9000,x", "1_000"] {
        assert!(rates(bad).is_err(), "{bad:?}");
    }
    let one = Shards {
        shards: Some(shard_counts("20").unwrap()),
    };
    assert_eq!(one.one().unwrap(), Some(20));
    let list = Shards {
        shards: Some(shard_counts("10..40").unwrap()),
    };
    let e = list.one().unwrap_err();
    assert_eq!(e.what, "--shards");
    assert!(e.to_string().contains("sweep"), "{e}");
    let list = Rate {
        rate: Some(rates("9000,14000").unwrap()),
    };
    assert_eq!(list.one().unwrap_err().what, "--rate");
    assert_eq!(Shards::default().one().unwrap(), None);
}
