//! The crate's metadata tells the truth: `rust-version` is the highest any
//! package in Cargo.lock declares (as `cargo metadata` reports them, dev
//! dependencies included), the README says the same, and the files the
//! licence and the changelog name exist.

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
/// process-wide static (the only statics are the exact engine's caches and
/// the signal handler's record of temporary files: a signal reaches the
/// process, not a run).
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
        "src/output/interrupt.rs",
    ];
    let mut stack = vec![std::path::PathBuf::from(format!("{root}/src"))];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let shown = path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .to_string();
            let text = std::fs::read_to_string(&path).unwrap();
            let statics = text
                .lines()
                .filter(|l| l.trim_start().starts_with("static ") || l.contains("OnceLock<"))
                .count();
            assert!(
                statics == 0 || caches.contains(&shown.as_str()),
                "{shown} holds a process-wide static; hand it down in config::Run"
            );
        }
    }
}
