//! Shell completions end to end: the script `completions bash` prints is
//! sourced in a real bash, whose completion function calls the binary
//! (found on PATH) and fills COMPREPLY, as a Tab would.

use std::path::Path;
use std::process::Command;

/// What bash offers after `words` (the last one is being completed), run
/// in `dir`.
fn bash_offers(words: &[&str], dir: &Path) -> Vec<String> {
    let bin = assert_cmd::cargo::cargo_bin("shardplan");
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let script = format!(
        "source <(shardplan completions bash)\n\
         COMP_WORDS=({words}); COMP_CWORD={cword}; COMP_TYPE=9\n\
         _clap_complete_shardplan shardplan '{last}' '{prev}'\n\
         printf '%s\\n' \"${{COMPREPLY[@]}}\"\n",
        words = quoted.join(" "),
        cword = words.len() - 1,
        last = words[words.len() - 1],
        prev = words[words.len() - 2],
    );
    let out = Command::new("bash")
        .arg("-c")
        .arg(script)
        .env("PATH", path)
        .current_dir(dir)
        .output()
        .expect("bash runs");
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

#[test]
fn scenario_offers_the_bundled_names_and_toml_files() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("mine.toml"), "peak = 1\n").unwrap();
    std::fs::write(dir.path().join("notes.txt"), "").unwrap();
    let all = bash_offers(&["shardplan", "simulate", "--scenario", ""], dir.path());
    for name in [
        "viral-reel",
        "interview",
        "viral-evening-monitor",
        "mine.toml",
        "-",
    ] {
        assert!(all.iter().any(|c| c == name), "{name} not in {all:?}");
    }
    assert!(!all.iter().any(|c| c == "notes.txt"), "{all:?}");
    let viral = bash_offers(&["shardplan", "size", "--scenario", "viral-e"], dir.path());
    let mut viral = viral.clone();
    viral.sort();
    assert_eq!(viral, ["viral-evening", "viral-evening-monitor"]);
}

#[test]
fn store_offers_the_presets_and_commands_complete() {
    let dir = tempfile::tempdir().unwrap();
    let mut stores = bash_offers(&["shardplan", "size", "--store", ""], dir.path());
    stores.sort();
    assert_eq!(
        stores,
        [
            "dynamodb",
            "firestore",
            "postgres",
            "redis-cluster",
            "sorted"
        ]
    );
    let commands = bash_offers(&["shardplan", "s"], dir.path());
    for c in ["size", "simulate", "sweep", "scenarios", "stores"] {
        assert!(commands.iter().any(|x| x == c), "{c} not in {commands:?}");
    }
    let formats = bash_offers(&["shardplan", "risk", "--format", "j"], dir.path());
    assert_eq!(formats, ["json"]);
}

#[test]
fn every_shell_gets_a_script_that_calls_the_binary() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = assert_cmd::Command::cargo_bin("shardplan")
            .unwrap()
            .args(["completions", shell])
            .assert()
            .success();
        let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
        assert!(text.contains("COMPLETE"), "{shell}: {text}");
        assert!(text.contains("shardplan"), "{shell}");
    }
}
