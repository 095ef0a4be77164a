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
