//! The README stays one page: at most 400 lines, what shardplan is and the
//! two set-up commands within its first 40, and every relative link in it
//! and in docs/*.md names a file that exists (the long reference text lives
//! in docs/, so a moved or renamed page must not leave a dead link).

use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const MAX_LINES: usize = 400;
const SET_UP_WITHIN: usize = 40;

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap()
}

#[test]
fn readme_is_one_page() {
    let lines = readme().lines().count();
    assert!(
        lines <= MAX_LINES,
        "README.md has {lines} lines, at most {MAX_LINES}: move long reference text to docs/"
    );
}

#[test]
fn set_up_commands_are_near_the_top() {
    let text = readme();
    let top: Vec<&str> = text.lines().take(SET_UP_WITHIN).collect();
    for command in ["cargo run --release -- simulate", "cargo test"] {
        assert!(
            top.iter().any(|l| l.contains(command)),
            "README.md does not show `{command}` within its first {SET_UP_WITHIN} lines"
        );
    }
}

/// The Markdown files whose links are checked: README.md and docs/*.md.
fn pages() -> Vec<PathBuf> {
    let mut pages = vec![Path::new(ROOT).join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(Path::new(ROOT).join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

/// Link targets `](target)` outside fenced code blocks (example output may
/// hold links that are relative to another folder, such as a report's
/// charts).
fn link_targets(text: &str) -> Vec<(usize, String)> {
    let mut targets = Vec::new();
    let mut fence: Option<(char, usize)> = None;
    for (n, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        let mark = trimmed.chars().next().filter(|c| *c == '`' || *c == '~');
        if let Some(c) = mark {
            let run = trimmed.chars().take_while(|x| *x == c).count();
            if run >= 3 {
                match fence {
                    None => fence = Some((c, run)),
                    Some((open, len))
                        if open == c && run >= len && trimmed.trim_end().len() == run =>
                    {
                        fence = None
                    }
                    Some(_) => {}
                }
                continue;
            }
        }
        if fence.is_some() {
            continue;
        }
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            let Some(end) = rest.find(')') else { break };
            targets.push((n + 1, rest[..end].trim().to_string()));
            rest = &rest[end + 1..];
        }
    }
    targets
}

fn is_relative(target: &str) -> bool {
    !(target.is_empty()
        || target.starts_with('#')
        || target.starts_with('/')
        || target.contains("://")
        || target.starts_with("mailto:"))
}

#[test]
fn relative_links_point_to_files_that_exist() {
    let mut dead = Vec::new();
    let mut checked = 0;
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        let dir = page.parent().unwrap();
        for (line, target) in link_targets(&text) {
            if !is_relative(&target) {
                continue;
            }
            let file = target.split('#').next().unwrap();
            checked += 1;
            if !dir.join(file).exists() {
                let name = page
                    .strip_prefix(ROOT)
                    .unwrap_or(&page)
                    .display()
                    .to_string();
                dead.push(format!("{name}:{line}: ({target})"));
            }
        }
    }
    assert!(
        checked > 0,
        "no relative links found: the link scan is broken"
    );
    assert!(
        dead.is_empty(),
        "links to missing files:\n{}",
        dead.join("\n")
    );
}

#[test]
fn readme_links_every_docs_page() {
    let text = readme();
    for page in pages().into_iter().skip(1) {
        let name = format!("docs/{}", page.file_name().unwrap().to_string_lossy());
        assert!(
            text.contains(&format!("]({name})")),
            "README.md does not link {name} (add it to the Documentation list)"
        );
    }
}

#[test]
fn the_link_scan_skips_code_and_finds_links() {
    let text = "see [a](docs/a.md#x) and [b](b.md)\n\
                ````markdown\n![c](c.svg)\n```\n[d](d.md)\n````\n[e](e.md)\n";
    let found: Vec<String> = link_targets(text).into_iter().map(|(_, t)| t).collect();
    assert_eq!(found, ["docs/a.md#x", "b.md", "e.md"]);
}

/// The README opens with the card's command and its 20 shards, and its
/// figures for risk-based sizing (17 fewer, 24 and 33 more) are what `size`
/// says.
#[test]
fn readme_opens_with_the_cards_command_and_its_figures_hold() {
    let text = readme();
    let first_run = text
        .lines()
        .find(|l| l.starts_with("<!-- run: "))
        .unwrap_or("");
    assert!(
        first_run.contains("shardplan size --peak 14000 --safe 700"),
        "{first_run}"
    );
    let cases: [(&[&str], u64); 4] = [
        (&[], 20),
        (&["--risk", "0.01", "--duration", "4h"], 17),
        (
            &[
                "--risk",
                "0.01",
                "--traffic",
                "gamma-poisson",
                "--dispersion",
                "100",
            ],
            24,
        ),
        (
            &[
                "--risk",
                "0.01",
                "--partitions",
                "1000",
                "--traffic",
                "poisson",
            ],
            33,
        ),
    ];
    for (extra, shards) in cases {
        let safe: &[&str] = match extra.is_empty() {
            true => &["--safe", "700"],
            false => &[],
        };
        let out = crate::common::shardplan()
            .args(["size", "--peak", "14000", "--format", "json"])
            .args(safe)
            .args(extra)
            .output()
            .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["recommended_shards"], shards, "{extra:?}");
        let shown = extra.join(" ");
        assert!(shown.is_empty() || text.contains(&shown[..12]), "{shown}");
    }
}

/// Every `--flag` the README shows is a flag of shardplan (or of cargo,
/// in the set-up lines).
#[test]
fn every_flag_the_readme_shows_exists() {
    let commands = crate::common::SUBCOMMANDS;
    let mut known = String::new();
    for c in commands {
        let out = crate::common::shardplan()
            .args([*c, "--help"])
            .output()
            .unwrap();
        known.push_str(&String::from_utf8_lossy(&out.stdout));
    }
    let cargo = ["--release", "--path", "--check", "--no-default-features"];
    let text = readme();
    for word in text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-')) {
        let Some(name) = word.strip_prefix("--") else {
            continue;
        };
        // `---` (a Markdown rule) and `--` alone are no flags.
        if !name.starts_with(|c: char| c.is_ascii_lowercase()) || cargo.contains(&word) {
            continue;
        }
        assert!(
            known.contains(&format!("--{name} ")) || known.contains(&format!("--{name}\n")),
            "README shows {word}, which no command takes"
        );
    }
}
