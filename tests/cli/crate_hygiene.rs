//! The crate's metadata tells the truth: `rust-version` is the highest any
//! package in Cargo.lock declares (as `cargo metadata` reports them, dev
//! dependencies included), the README says the same, and the files the
//! licence and the changelog name exist.

use std::collections::{HashMap, HashSet};
use std::process::Command;

fn manifest_rust_version() -> String {
    let toml = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml")).unwrap();
    let line = toml
        .lines()
        .find(|l| l.starts_with("rust-version"))
        .expect("Cargo.toml declares rust-version");
    line.split('"').nth(1).unwrap().to_string()
}

fn version_key(v: &str) -> Vec<u64> {
    v.split('.').map(|p| p.parse().unwrap_or(0)).collect()
}

#[test]
fn rust_version_is_the_highest_in_the_lock_file() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--locked"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let highest = meta["packages"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p["rust_version"].as_str())
        .max_by_key(|v| version_key(v))
        .unwrap()
        .to_string();
    let ours = manifest_rust_version();
    assert_eq!(
        version_key(&ours)[..2],
        version_key(&highest)[..2],
        "Cargo.toml says {ours}, Cargo.lock needs {highest}"
    );
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    assert!(
        readme.contains(&format!("Rust {ours}")),
        "the README names Rust {ours}"
    );
}

#[test]
fn licence_and_changelog_exist() {
    let root = env!("CARGO_MANIFEST_DIR");
    let licence = std::fs::read_to_string(format!("{root}/LICENSE")).unwrap();
    assert!(licence.starts_with("MIT License"));
    let changelog = std::fs::read_to_string(format!("{root}/CHANGELOG.md")).unwrap();
    assert!(changelog.contains("## Unreleased"));
}

/// One plan a command (issue 32): the handlers in `src/commands/` take the
/// plan `config::options` built and never resolve, refuse or record an
/// input, nor open an output; and no configuration lives in a
/// process-wide static (the only statics are the exact engine's caches,
/// Levin's tables, the partition doubling's plans and two-choice's server
/// laws, each a function of its key alone, and the signal handler's record
/// of temporary files: a signal reaches the process, not a run).
#[test]
fn handlers_take_their_plan_and_nothing_is_process_wide() {
    let root = env!("CARGO_MANIFEST_DIR");
    let forbidden = [
        "Resolver",
        "refuse(",
        "inputs.record(",
        "OutputSet::prepare",
        "Destination::create",
        "AtomicFile::create",
        "prepare_dir(",
    ];
    for entry in std::fs::read_dir(format!("{root}/src/commands")).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        for word in forbidden {
            assert!(
                !text.contains(word),
                "{} holds `{word}`: resolve it in src/config/options/",
                path.display()
            );
        }
    }
    let caches = [
        "src/model/exact/levin/twiddles.rs",
        "src/model/exact/levin/frequencies.rs",
        "src/model/partitions/busiest.rs",
        "src/model/picker/two_choice_bound.rs",
        "src/output/interrupt.rs",
    ];
    for (shown, text) in source_files(root) {
        let statics = text
            .lines()
            .map(str::trim_start)
            .map(|l| {
                l.strip_prefix("pub(crate) ")
                    .or(l.strip_prefix("pub "))
                    .unwrap_or(l)
            })
            // A `OnceLock` field (a table built on first use, owned by its
            // run) is not process-wide; a `static` one is.
            .filter(|l| l.starts_with("static "))
            .count();
        assert!(
            statics == 0 || caches.contains(&shown.as_str()),
            "{shown} holds a process-wide static; hand it down in config::Run"
        );
    }
}

/// Every `.rs` file under `src/`, as (its path from the root, its text).
fn source_files(root: &str) -> Vec<(String, String)> {
    let mut files = Vec::new();
    let mut stack = vec![std::path::PathBuf::from(format!("{root}/src"))];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let shown = path
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .to_string();
                files.push((shown, std::fs::read_to_string(&path).unwrap()));
            }
        }
    }
    files
}

/// A file's module path: `src/model/exact/point.rs` is `model::exact::point`,
/// a `mod.rs` its folder's.
fn module_of(file: &str) -> Vec<String> {
    let mut parts: Vec<String> = file
        .trim_start_matches("src/")
        .trim_end_matches(".rs")
        .split('/')
        .map(String::from)
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// The files `text` (outside comments and its `tests` module) names by a
/// `crate::`, `super::` or `self::` path, braces of a `use` included.
fn files_named(file: &str, text: &str, modules: &HashMap<Vec<String>, String>) -> HashSet<String> {
    let code = text.split("#[cfg(test)]\nmod tests").next().unwrap_or("");
    let code: String = code
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let here = module_of(file);
    let paths = module_paths(&code);
    let mut named = HashSet::new();
    for path in paths {
        let mut parts = path.split("::").peekable();
        let mut at: Vec<String> = match parts.peek() {
            Some(&"crate") => Vec::new(),
            _ => here.clone(),
        };
        for p in parts {
            match p {
                "crate" | "self" => {}
                "super" => {
                    at.pop();
                }
                name => at.push(name.to_string()),
            }
        }
        // The longest prefix that is a file is the one named.
        while !at.is_empty() {
            if let Some(f) = modules.get(&at) {
                if f != file {
                    named.insert(f.clone());
                }
                break;
            }
            at.pop();
        }
    }
    named
}

/// The `crate::a::b`, `super::a` and `self::a` paths in `code`, a path
/// ending in `::{x, y::z}` giving one path per item.
fn module_paths(code: &str) -> Vec<String> {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let mut paths = Vec::new();
    let mut i = 0;
    while i < code.len() {
        let rest = &code[i..];
        let starts = ["crate::", "super::", "self::"]
            .iter()
            .any(|p| rest.starts_with(p));
        let after_word = code[..i].chars().next_back().is_some_and(word);
        if !starts || after_word {
            i += rest.chars().next().map_or(1, char::len_utf8);
            continue;
        }
        let end = rest
            .find(|c: char| !(word(c) || c == ':'))
            .unwrap_or(rest.len());
        let path = rest[..end].trim_end_matches(':').to_string();
        if rest[end..].starts_with('{') && rest[..end].ends_with("::") {
            let close = rest[end..].find('}').map_or(rest.len(), |j| end + j);
            for item in rest[end + 1..close].split(',') {
                let item = item.trim().split("::").next().unwrap_or("").trim();
                if !item.is_empty() && item != "self" {
                    paths.push(format!("{path}::{item}"));
                }
            }
        }
        paths.push(path);
        i += end.max(1);
    }
    paths
}

/// Layers point down: no two files of `src/` name each other (issue 33).
#[test]
fn no_two_files_import_each_other() {
    let root = env!("CARGO_MANIFEST_DIR");
    let files = source_files(root);
    let modules: HashMap<Vec<String>, String> = files
        .iter()
        .map(|(f, _)| (module_of(f), f.clone()))
        .collect();
    let named: HashMap<&str, HashSet<String>> = files
        .iter()
        .map(|(f, text)| (f.as_str(), files_named(f, text, &modules)))
        .collect();
    let mut pairs = Vec::new();
    for (a, names) in &named {
        for b in names {
            if a < &b.as_str() && named[b.as_str()].contains(*a) {
                pairs.push(format!("{a} <-> {b}"));
            }
        }
    }
    pairs.sort();
    assert!(pairs.is_empty(), "files that import each other: {pairs:#?}");
}
