//! End-to-end tests of `shardplan report` and `shardplan chart`: the
//! report's sections hold the same numbers as the same run's JSON, every
//! SVG parses as XML with its title and axis labels, and a rerun with the
//! same seed gives the same bytes.

use std::path::Path;

use crate::common::{bad_input, json_of, shardplan, thousands};

fn report(dir: &Path, args: &[&str]) -> String {
    shardplan()
        .arg("report")
        .args(args)
        .arg("--quiet")
        .arg("--output")
        .arg(dir)
        .assert()
        .success();
    std::fs::read_to_string(dir.join("report.md")).unwrap()
}

/// Every pipe-table row of the Markdown, as trimmed cells.
fn table_rows(md: &str) -> Vec<Vec<String>> {
    md.lines()
        .filter(|l| l.starts_with('|'))
        .map(|l| {
            l.trim_matches('|')
                .split('|')
                .map(|c| c.trim().to_string())
                .collect()
        })
        .collect()
}

/// The table row whose first cell is `label` (the first one, in order).
fn row<'a>(rows: &'a [Vec<String>], label: &str) -> &'a [String] {
    rows.iter()
        .find(|r| r[0] == label)
        .unwrap_or_else(|| panic!("no row {label:?}"))
}

/// All text of an SVG, after checking it parses as XML.
fn svg_text(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let doc = roxmltree::Document::parse(&text)
        .unwrap_or_else(|e| panic!("{} is not XML: {e}", path.display()));
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    doc.descendants()
        .filter_map(|n| n.text())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn report_sections_hold_the_same_numbers_as_the_json() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "--scenario",
        "viral-reel",
        "--seconds",
        "300",
        "--seed",
        "7",
    ];
    let md = report(dir.path(), &args);
    for heading in [
        "# Sharded counter capacity report: viral-reel\n\nRecommendation: 20 shards, set by the rule of thumb",
        "## Summary",
        "## Regenerate",
        "## Sizing",
        "## Risk by shard count",
        "## Simulation",
        "## Read cost",
        "## Key placement",
        "![Over-cap risk by shard count at 14,000 likes/s (cap 1,000 writes/s)](risk.svg)",
        "![Busiest of 20 shards per second at 14,000 writes/s (300 s simulated)](busiest.svg)",
    ] {
        assert!(md.contains(heading), "missing {heading:?}");
    }
    let rows = table_rows(&md);

    // The recommendation is `size`'s for the same scenario.
    let size = json_of(&["size", "--scenario", "viral-reel"]);
    assert_eq!(size["shards"], 20);
    assert_eq!(
        row(&rows, "shards")[1],
        format!("{} (set by the rule of thumb)", size["shards"])
    );
    assert!(row(&rows, "rule of thumb")[1].starts_with("20 = ceil(14,000 / 700)"));
    assert!(md.contains(&format!("shardplan {}", env!("CARGO_PKG_VERSION"))));
    // The folder too, by its name alone (the temp folder is not under here).
    let folder = dir.path().file_name().unwrap().to_str().unwrap();
    assert!(md.contains(&format!(
        "`shardplan report --scenario viral-reel --seconds 300 --seed 7 --output {folder}` writes"
    )));

    // The simulation, seed for seed.
    let sim = json_of(&[
        "simulate",
        "--scenario",
        "viral-reel",
        "--seconds",
        "300",
        "--seed",
        "7",
    ]);
    let n = |k: &str| thousands(sim[k].as_u64().unwrap());
    assert_eq!(row(&rows, "max over the run")[1], n("busiest_max"));
    assert_eq!(row(&rows, "p50")[1], n("busiest_p50"));
    assert_eq!(row(&rows, "p99")[1], n("busiest_p99"));
    assert_eq!(row(&rows, "p99")[2], n("exact_busiest_p99"));
    assert_eq!(
        row(&rows, "mean")[1],
        format!("{:.2}", sim["busiest_mean"].as_f64().unwrap())
    );
    assert_eq!(
        row(&rows, "seconds over the cap")[1],
        format!("{} of 300", n("seconds_over_cap"))
    );
    assert_eq!(row(&rows, "seed")[1], "7");

    // Read cost at 20 shards: 50,000 views x 20 and 20 sums/s x 20.
    assert!(row(&rows, "shard reads, no cache")[1].starts_with("1,000,000/s"));
    assert!(row(&rows, "shard reads, cached")[1].starts_with("400/s"));
    assert_eq!(sim["reads_uncached_per_second"], 1_000_000.0);
    assert_eq!(sim["reads_cached_per_second"], 400.0);

    // The risk table: S/2 to 2S for S = 20, one row per count (the
    // constant 14,000 likes/s in its title).
    assert!(
        md.contains("### Risk by shard count (14,000 likes/s, cap 1,000"),
        "{md}"
    );
    let (_, sweep_rows) = tables(&md)
        .into_iter()
        .find(|(h, _)| h[0] == "shards" && h[1] == "P(over)/s")
        .expect("the risk table");
    assert_eq!(sweep_rows.len(), 31);
    assert_eq!(sweep_rows[0][0], "10");
    assert_eq!(sweep_rows[30][0], "40");

    // Key placement: 20 keys over 3 masters put 8 on one (fair: 7).
    assert_eq!(row(&rows, "distinct slots")[1], "20");
    // Node balance is a note, never a warning under the recommendation.
    assert!(md.contains("> Note: NODE OVER ITS SHARE"), "{md}");
    assert!(!md.contains("WARNING: NODE OVER"), "{md}");
    assert!(
        md.contains("- **Verdict:** 20 shards hold the plan of 14,000/s (the recommendation)"),
        "{md}"
    );
    // A bare <shard> would vanish in a Markdown viewer.
    assert!(md.contains("`reel:8841:likes:<shard>`"));
    // No absolute paths (the folder is a temp dir).
    assert!(!md.contains(&*dir.path().to_string_lossy()));
}

#[test]
fn every_svg_parses_and_has_its_title_and_axis_labels() {
    let dir = tempfile::tempdir().unwrap();
    report(dir.path(), &["--seconds", "300"]);
    let busiest = svg_text(&dir.path().join("busiest.svg"));
    for needle in [
        "Busiest of 20 shards per second at 14,000 writes/s (300 s simulated)",
        "busiest shard's writes in one second (writes/s)",
        "share of simulated seconds",
        "cap 1,000 writes/s",
        "safe 700 writes/s",
    ] {
        assert!(busiest.contains(needle), "busiest.svg lacks {needle:?}");
    }
    let risk = svg_text(&dir.path().join("risk.svg"));
    for needle in [
        "Over-cap risk by shard count at 14,000 likes/s (cap 1,000 writes/s)",
        "shards",
        "probability (log scale)",
        "P(a second over the cap)",
        "P(any second over the cap in 4 h)",
        "accepted risk 0.0100 in 4 h",
        "recommended: 20 shards",
        "1e-5",
    ] {
        assert!(risk.contains(needle), "risk.svg lacks {needle:?}");
    }
    // The axis stops a little below the accepted risk, not at 1e-180.
    assert!(!risk.contains("1e-20"), "{risk}");

    let tl = tempfile::tempdir().unwrap();
    let md = report(
        tl.path(),
        &["--scenario", "viral-evening", "--seconds", "900"],
    );
    assert!(!tl.path().join("busiest.svg").exists());
    let text = svg_text(&tl.path().join("timeline.svg"));
    for needle in [
        "Time line of viral-evening: rate, shards and rejected writes",
        "likes/s",
        "shards",
        "rejected writes/s",
        "time (seconds)",
    ] {
        assert!(text.contains(needle), "timeline.svg lacks {needle:?}");
    }
    assert!(md.contains("](timeline.svg)"));
    let sim = json_of(&[
        "simulate",
        "--scenario",
        "viral-evening",
        "--seconds",
        "900",
    ]);
    let rows = table_rows(&md);
    let rejected = row(&rows, "rejected")[1].clone();
    assert!(
        rejected.starts_with(&thousands(sim["rejected_writes"].as_u64().unwrap())),
        "{rejected}"
    );
    assert_eq!(
        row(&rows, "likes sent")[1],
        thousands(sim["total_writes"].as_u64().unwrap())
    );
}

#[test]
fn the_same_seed_gives_the_same_bytes() {
    for scenario in ["viral-reel", "viral-evening-monitor"] {
        // Two folders of one name (the regenerate line names it) in two
        // places.
        let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let (a, b) = (a.path().join("r"), b.path().join("r"));
        let args = ["--scenario", scenario, "--seconds", "600", "--seed", "11"];
        report(&a, &args);
        report(&b, &args);
        let mut names: Vec<_> = std::fs::read_dir(&a)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        names.sort();
        assert_eq!(names.len(), 4, "{names:?}");
        for name in names {
            assert_eq!(
                std::fs::read(a.join(&name)).unwrap(),
                std::fs::read(b.join(&name)).unwrap(),
                "{scenario}: {name:?} differs"
            );
        }
    }
}

#[test]
fn bad_out_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("plain-file");
    std::fs::write(&file, "x").unwrap();
    let f = file.to_str().unwrap();
    bad_input(&["report", "-q", "--output", f], "--output");
    bad_input(
        &["report", "-q", "--output", &format!("{f}/sub")],
        "--output",
    );
    bad_input(
        &["report", "-q", "--scenario", "nope", "--output", "x"],
        "--scenario",
    );
    bad_input(&["report", "-q", "--seconds", "0"], "--seconds");
    bad_input(
        &["report", "-q", "--scenario", "shrink-fold", "--output", "x"],
        "--scenario",
    );
    // Nothing half-written next to the file.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn chart_draws_risk_and_timeline() {
    let dir = tempfile::tempdir().unwrap();
    let risk = dir.path().join("risk.svg");
    shardplan()
        .args([
            "chart",
            "--kind",
            "risk",
            "--shard-range",
            "15..25",
            "--output",
        ])
        .arg(&risk)
        .assert()
        .success();
    let text = svg_text(&risk);
    assert!(text.contains("Over-cap risk by shard count at 14,000 likes/s"));
    assert!(text.contains("probability (log scale)"));

    let tl = dir.path().join("tl.svg");
    shardplan()
        .args([
            "chart",
            "--kind",
            "timeline",
            "--scenario",
            "viral-evening-monitor",
            "--seconds",
            "1200",
            "--output",
        ])
        .arg(&tl)
        .assert()
        .success();
    let text = svg_text(&tl);
    assert!(text.contains("Time line of viral-evening-monitor"));
    assert!(text.contains("rejected writes/s"));

    let out = dir.path().join("x.svg");
    let o = out.to_str().unwrap();
    bad_input(
        &["chart", "--kind", "risk", "--shard-range", "9..3", "-o", o],
        "--shard-range",
    );
    bad_input(
        &[
            "chart",
            "--kind",
            "busiest",
            "--shard-range",
            "9..30",
            "-o",
            o,
        ],
        "--shard-range",
    );
    assert!(!out.exists());
}

#[test]
fn completions_and_man_know_report() {
    let man = shardplan().arg("man").assert().success();
    let man = String::from_utf8(man.get_output().stdout.clone()).unwrap();
    assert!(man.contains("report"));
    // The completions are the binary's own answers (fish's protocol: the
    // words typed so far, one candidate per line).
    let ask = |words: &[&str]| {
        let out = shardplan()
            .env("COMPLETE", "fish")
            .arg("--")
            .args(words)
            .assert()
            .success();
        String::from_utf8(out.get_output().stdout.clone()).unwrap()
    };
    assert!(ask(&["shardplan", "rep"]).contains("report"));
    assert!(ask(&["shardplan", "chart", "--shard"]).contains("--shard-range"));
}

/// A scenario file in a temp folder.
fn scenario_file(dir: &Path, toml: &str) -> String {
    let path = dir.join("s.toml");
    std::fs::write(&path, toml).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn sorted_store_and_bad_placement_fields() {
    let dir = tempfile::tempdir().unwrap();
    let sorted = scenario_file(
        dir.path(),
        "description = \"sorted\"\npeak = 2000\nstore_preset = \"sorted\"\n\
         key_template = \"likes:reel:8841:<shard>\"\nrisk = 0.001\nduration_seconds = 3600\n",
    );
    let out = dir.path().join("out");
    let md = report(&out, &["--scenario", &sorted, "--seconds", "200"]);
    assert!(md.contains("### Sorted store key order"), "{md}");
    assert!(md.contains("> WARNING: all "), "{md}");
    assert!(md.contains("&lt;shard&gt;"), "{md}");
    // Risk and duration from the scenario: no "(default)" and no defaults sentence.
    assert!(!md.contains("(default)"), "{md}");
    assert!(!md.contains("the defaults"), "{md}");
    assert!(
        md.contains(
            "1 shard, set by the per-key risk: it holds the plan of 2,000/s; holds up to 10,000 likes/s at 0.0010 over 1 h"
        ),
        "{md}"
    );

    let store_only = scenario_file(dir.path(), "peak = 2000\nstore_preset = \"dynamodb\"\n");
    let md = report(&out, &["--scenario", &store_only, "--seconds", "200"]);
    assert!(md.contains("## Key placement"));
    assert!(
        md.contains("names the dynamodb store but no key_template"),
        "{md}"
    );

    let plain = scenario_file(dir.path(), "peak = 2000\n");
    assert!(!report(&out, &["--scenario", &plain, "--seconds", "200"]).contains("## Key placement"));

    let o = out.to_str().unwrap();
    let bad = scenario_file(dir.path(), "peak = 2000\nkey_template = \"likes\"\n");
    bad_input(
        &["report", "-q", "--scenario", &bad, "--output", o],
        "key_template",
    );
    let bad = scenario_file(dir.path(), "peak = 2000\nnodes = 0\n");
    bad_input(
        &["report", "-q", "--scenario", &bad, "--output", o],
        "nodes",
    );
}

#[test]
fn report_takes_dash_o_like_every_command() {
    let dir = tempfile::tempdir().unwrap();
    for flag in ["-o", "--output"] {
        let out = dir.path().join(flag.trim_start_matches('-'));
        shardplan()
            .args(["report", "-q", "--seconds", "60", flag])
            .arg(&out)
            .assert()
            .success();
        assert!(out.join("report.md").exists(), "{flag}");
    }
}

/// report.md for a scenario file holding `toml`, written in `dir`.
fn report_of(dir: &Path, toml: &str) -> String {
    let s = scenario_file(dir, toml);
    let out = dir.join("r");
    shardplan()
        .args(["report", "-q", "--seconds", "60", "--scenario", &s, "-o"])
        .arg(&out)
        .assert()
        .success();
    std::fs::read_to_string(out.join("report.md")).unwrap()
}

#[test]
fn html_in_a_scenario_is_shown_not_run() {
    let dir = tempfile::tempdir().unwrap();
    let md = report_of(
        dir.path(),
        "description = \"<img src=x onerror=alert(1)> & co\"\npeak = 14000\n",
    );
    assert!(
        md.contains("&lt;img src=x onerror=alert(1)&gt; &amp; co"),
        "{md}"
    );
    assert!(!md.contains("<img"), "{md}");
    let html = std::fs::read_to_string(dir.path().join("r").join("report.html")).unwrap();
    assert!(
        html.contains("&lt;img src=x onerror=alert(1)&gt; &amp; co"),
        "{html}"
    );
    assert!(!html.contains("<img"), "{html}");
}

#[test]
fn the_report_names_the_scenario_without_this_machines_folders() {
    let dir = tempfile::tempdir().unwrap();
    // The temp folder is absolute, and not under the tests' folder.
    assert!(dir.path().is_absolute());
    let md = report_of(dir.path(), "peak = 14000\n");
    let folder = dir.path().to_str().unwrap();
    assert!(!md.contains(folder), "{md}");
    assert!(md.contains("--scenario s.toml"), "{md}");
}

/// The "Written by ... `COMMAND` writes the same bytes" command of a report.
fn regenerate_line(md: &str) -> String {
    let line = md
        .lines()
        .find(|l| l.starts_with("Written by shardplan"))
        .unwrap_or_else(|| panic!("no regenerate line in {md}"));
    let start = line.find('`').unwrap() + 1;
    let end = start + line[start..].find("` writes the same bytes").unwrap();
    line[start..end].to_string()
}

/// Runs a regenerate line through a shell in `here`: report.md of the
/// folder it writes, `folder` (relative to `here`).
fn regenerate(here: &Path, command: &str, folder: &str) -> String {
    let bin = env!("CARGO_BIN_EXE_shardplan");
    let shell = command.replacen("shardplan", &format!("'{bin}'"), 1);
    let status = std::process::Command::new("sh")
        .arg("-c")
        .arg(&shell)
        .current_dir(here)
        .status()
        .unwrap();
    assert!(status.success(), "{shell}");
    std::fs::read_to_string(here.join(folder).join("report.md")).unwrap()
}

/// The regenerate line names the report folder as `-o` gave it, however
/// spelled, without this machine's folders: run where the report was
/// written, it writes that folder again; with no `-o`, the default one.
#[test]
fn the_regenerate_line_writes_the_same_folder() {
    let temp = tempfile::tempdir().unwrap();
    // Canonical, as the current folder reads back (a linked temp folder).
    let here = temp.path().canonicalize().unwrap();
    let run = |args: &[&str]| {
        shardplan()
            .current_dir(&here)
            .args(["report", "--seconds", "60", "--seed", "3"])
            .args(args)
            .assert()
            .success();
    };
    // An absolute folder under here is named from here; -q is left out.
    let nested = here.join("docs/capacity");
    run(&["-qo", nested.to_str().unwrap()]);
    let md = std::fs::read_to_string(nested.join("report.md")).unwrap();
    let command = regenerate_line(&md);
    assert_eq!(
        command,
        "shardplan report --seconds 60 --seed 3 -o docs/capacity"
    );
    std::fs::remove_dir_all(&nested).unwrap();
    assert_eq!(regenerate(&here, &command, "docs/capacity"), md);
    // `--output=DIR` is named as the other paths are, flag and folder.
    run(&["--quiet", "--output=other"]);
    let md = std::fs::read_to_string(here.join("other/report.md")).unwrap();
    assert_eq!(
        regenerate_line(&md),
        "shardplan report --seconds 60 --seed 3 --output other"
    );
    // No -o: the default folder, and the line names none.
    run(&["-q"]);
    let md = std::fs::read_to_string(here.join("report/report.md")).unwrap();
    assert_eq!(
        regenerate_line(&md),
        "shardplan report --seconds 60 --seed 3"
    );
    std::fs::remove_dir_all(here.join("report")).unwrap();
    assert_eq!(regenerate(&here, &regenerate_line(&md), "report"), md);
}

/// Issue 32: report takes the user's own numbers, as size and simulate do
/// (flags, a scenario, or both), and its regenerate line is the exact
/// command: run through a shell, it writes the same report.md byte for byte.
#[test]
fn report_takes_every_input_and_its_command_reproduces_it() {
    let dir = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        shardplan()
            .current_dir(dir.path())
            .arg("report")
            .args(args)
            .assert()
            .success();
    };
    // Flags alone: the rule of thumb's 20 shards for the user's numbers.
    run(&[
        "--peak",
        "14000",
        "--safe",
        "700",
        "--seconds",
        "60",
        "-q",
        "-o",
        "mine",
    ]);
    let md = std::fs::read_to_string(dir.path().join("mine/report.md")).unwrap();
    assert!(md.contains("Recommendation: 20 shards"), "{md}");
    assert_eq!(
        regenerate_line(&md),
        "shardplan report --peak 14000 --safe 700 --seconds 60 -o mine"
    );
    // Flags over a scenario, a value that needs shell quotes, a rerun.
    let args = [
        "--scenario",
        "viral-reel",
        "--peak",
        "9000",
        "--store",
        "redis-cluster",
        "--template",
        "{reel:8841}:likes:<shard> x",
        "--nodes",
        "3",
        "--seconds",
        "60",
        "--seed",
        "11",
        "-q",
        "--output",
        "first",
    ];
    run(&args);
    let first = std::fs::read_to_string(dir.path().join("first/report.md")).unwrap();
    let command = regenerate_line(&first);
    assert!(
        command.contains("--template '{reel:8841}:likes:<shard> x'"),
        "{command}"
    );
    // The template's cell shows `<shard>` literally: a code span, no escape.
    assert!(first.contains("`{reel:8841}:likes:<shard>`"), "{first}");
    assert!(!first.contains("&lt;shard>"), "{first}");
    // Run as printed, it writes the same folder again, byte for byte.
    assert!(command.ends_with(" --output first"), "{command}");
    std::fs::remove_dir_all(dir.path().join("first")).unwrap();
    let again = regenerate(dir.path(), &command, "first");
    assert_eq!(first, again, "{command}");
    // A flag with no effect in the mode chosen is refused, naming it.
    let out = dir.path().join("x").display().to_string();
    bad_input(
        &[
            "report",
            "-q",
            "--scenario",
            "viral-evening-monitor",
            "--sampler",
            "multinomial",
            "-o",
            &out,
        ],
        "--sampler",
    );
    bad_input(
        &[
            "report",
            "-q",
            "--scenario",
            "viral-evening-monitor",
            "--views",
            "10",
            "-o",
            &out,
        ],
        "--views",
    );
    bad_input(
        &["report", "-q", "--rate", "9000,14000", "-o", &out],
        "--rate",
    );
}

/// chart takes the inputs `size` and `simulate` take: the recommendation's
/// --risk and --partitions move the count it draws around; flags with no
/// effect on the chart chosen are refused, naming them.
#[test]
fn chart_takes_every_input() {
    let dir = tempfile::tempdir().unwrap();
    let svg = |name: &str| dir.path().join(name).display().to_string();
    let explain = |args: &[&str]| {
        let out = shardplan()
            .arg("chart")
            .args(args)
            .arg("--explain")
            .assert()
            .success();
        String::from_utf8(out.get_output().stderr.clone()).unwrap()
    };
    let e = explain(&[
        "--kind",
        "risk",
        "--peak",
        "14000",
        "--risk",
        "0.01",
        "--partitions",
        "1000",
        "--traffic",
        "poisson",
        "--duration",
        "1h",
        "-o",
        &svg("risk.svg"),
    ]);
    for flag in ["--risk", "--partitions", "--duration", "--peak"] {
        assert!(e.contains(flag), "{flag}: {e}");
    }
    let e = explain(&[
        "--kind",
        "busiest",
        "--peak",
        "14000",
        "--risk",
        "0.01",
        "--duration",
        "4h",
        "--seconds",
        "30",
        "-o",
        &svg("busiest.svg"),
    ]);
    assert!(e.contains("--risk"), "{e}");
    // The per-key cap is checked over the spell, so --duration counts even
    // without --risk (docs/verdict.md): the chart's footer is the verdict.
    shardplan()
        .args([
            "chart",
            "--kind",
            "busiest",
            "--duration",
            "4h",
            "--seconds",
            "30",
            "-o",
        ])
        .arg(svg("b.svg"))
        .assert()
        .success();
    let footer = std::fs::read_to_string(svg("b.svg")).unwrap();
    assert!(footer.contains("20 shards hold the plan of 14,000/s (the recommendation)"));
    bad_input(
        &[
            "chart",
            "--kind",
            "timeline",
            "--scenario",
            "viral-evening",
            "--risk",
            "0.01",
            "-o",
            &svg("t.svg"),
        ],
        "--risk",
    );
}

/// report.md and report.html of `report ARGS` (written in a fresh folder).
fn report_and_page(args: &[&str]) -> (String, String) {
    let dir = tempfile::tempdir().unwrap();
    let md = report(dir.path(), args);
    let html = std::fs::read_to_string(dir.path().join("report.html")).unwrap();
    (md, html)
}

/// The paragraphs of report.md, in order (a heading, prose, a table each).
fn paragraphs(md: &str) -> Vec<&str> {
    md.split("\n\n").map(str::trim).collect()
}

/// The paragraph right under the `# ` title.
fn under_title(md: &str) -> &str {
    let p = paragraphs(md);
    let title = p.iter().position(|p| p.starts_with("# ")).expect("a title");
    p[title + 1]
}

/// The Summary's warnings, one a line, without their `  - `.
fn warnings(md: &str) -> Vec<&str> {
    md.lines()
        .skip_while(|l| !l.starts_with("- **Warnings:**"))
        .skip(1)
        .map_while(|l| l.strip_prefix("  - "))
        .collect()
}

#[test]
fn a_report_from_flags_is_titled_by_its_inputs() {
    let (md, html) = report_and_page(&["--peak", "200000", "--cap", "2500", "--seconds", "60"]);
    let title =
        "Sharded counter capacity report: 200,000 likes/s, cap 2,500/key (flags over viral-reel)";
    assert!(md.starts_with(&format!("# {title}\n\n")), "{md:.400}");
    assert!(
        html.contains(&format!("<title>{title}</title>")),
        "{html:.600}"
    );
    assert!(html.contains(&format!("<h1>{title}</h1>")), "{html:.600}");
    // The subtitle is the plan resolved, never viral-reel's description.
    let p = paragraphs(&md);
    assert!(
        p.contains(&"200,000 likes/s planned, cap 2,500/key, 30.0% headroom, fixed traffic"),
        "{md:.600}"
    );
    assert!(!md.contains("Viral reel: 14,000"), "{md:.600}");
    // A picker other than random is part of the plan said.
    let (md, _) = report_and_page(&["--picker", "round-robin", "--seconds", "60"]);
    assert!(md.starts_with(
        "# Sharded counter capacity report: 14,000 likes/s, cap 1,000/key (flags over viral-reel)"
    ));
    assert!(
        md.contains(
            "cap 1,000/key, 30.0% headroom, fixed traffic, round-robin writers (40 servers)"
        ),
        "{md:.600}"
    );
    // Flags that change no figure of the plan (the run's length and seed)
    // leave the scenario's title and description.
    let (md, _) = report_and_page(&["--scenario", "viral-reel", "--seconds", "60", "--seed", "3"]);
    assert!(md.starts_with("# Sharded counter capacity report: viral-reel\n\n"));
    assert!(paragraphs(&md).contains(
        &"Viral reel: 14,000 likes/s planned (1.5x the 9,000/s seen), cap 1,000/key, 30% headroom"
    ));
}

#[test]
fn overload_leads_with_the_failing_deployed_count() {
    let (md, _) = report_and_page(&["--scenario", "overload"]);
    let lead = under_title(&md);
    assert!(
        lead.starts_with(
            "20 shards do NOT hold the plan of 18,000/s: they fail the rule of thumb, the \
             per-key risk and the simulation ("
        ),
        "{md:.800}"
    );
    assert!(
        lead.contains("of 2,000 simulated seconds went over the cap"),
        "{lead}"
    );
    // Before the recommendation.
    let p = paragraphs(&md);
    let at = |prefix: &str| p.iter().position(|x| x.starts_with(prefix)).unwrap();
    assert!(at("20 shards do NOT hold") < at("Recommendation: 26 shards"));
    let w = warnings(&md);
    assert!(
        w[0].starts_with("20 shards FAIL the rule of thumb: 14,000/s carried at the safe rate against 18,000/s planned"),
        "{w:?}"
    );
    assert!(
        w[1].starts_with("20 shards FAIL the per-key risk: P = "),
        "{w:?}"
    );
    assert!(w[2].starts_with("20 shards FAIL the simulation: "), "{w:?}");
    assert!(
        w[2].ends_with(" of 2,000 simulated seconds went over the cap"),
        "{w:?}"
    );
}

#[test]
fn viral_evenings_warnings_carry_the_rejected_share() {
    let (md, _) = report_and_page(&["--scenario", "viral-evening"]);
    let lead = under_title(&md);
    assert!(
        lead.starts_with(
            "1 shard does NOT hold the plan of 9,000/s: it fails the burst capacity ("
        ) && lead.contains("writes rejected, 87.1% of them)"),
        "{md:.800}"
    );
    let w = warnings(&md);
    assert!(
        w[0].starts_with("1 shard FAILS the burst capacity: ")
            && w[0].ends_with(" writes rejected, 87.1% of all writes"),
        "{w:?}"
    );
}

/// A plan no count holds: 40 sticky servers, each 5,000 writes/s on its
/// one shard against a cap of 2,500/s.
const STICKY_INFEASIBLE: [&str; 8] = [
    "--peak",
    "200000",
    "--cap",
    "2500",
    "--picker",
    "sticky",
    "--servers",
    "40",
];

#[test]
fn an_infeasible_plan_is_the_reports_first_paragraph() {
    let (md, html) = report_and_page(&[&STICKY_INFEASIBLE[..], &["--seconds", "60"]].concat());
    // The title, then views::infeasible's words, unchanged, first of all
    // the report says.
    assert!(paragraphs(&md)[0].starts_with("# Sharded counter capacity report: 200,000 likes/s"));
    let first = under_title(&md);
    assert!(
        first.starts_with(
            "No shard count holds this plan: each of 40 sticky servers writes all its likes to \
             one shard, 5,000 writes/s against a cap of 2,500/s, whatever the count; levers: at \
             least 80 servers"
        ),
        "{md:.600}"
    );
    // The judged count's failure follows, the infeasibility said once.
    assert!(paragraphs(&md)[2].starts_with("115 shards do NOT hold the plan of 200,000/s"));
    assert_eq!(
        md.matches("No shard count holds this plan").count(),
        3,
        "{md}"
    );
    assert!(warnings(&md)[0].starts_with("No shard count holds this plan: "));
    let body = &html[html.find("<body>").unwrap()..];
    let (h1, line) = (
        body.find("<h1>").unwrap(),
        body.find("No shard count holds").unwrap(),
    );
    assert!(
        h1 < line && body[h1..line].matches("<p>").count() == 1,
        "{body:.800}"
    );
}

/// The report's tables: each its header and its rows, as trimmed cells.
fn tables(md: &str) -> Vec<(Vec<String>, Vec<Vec<String>>)> {
    let mut out = Vec::new();
    for block in md.split("\n\n") {
        let rows = table_rows(block);
        if rows.len() > 2 {
            out.push((rows[0].clone(), rows[2..].to_vec()));
        }
    }
    out
}

#[test]
fn no_report_column_is_a_dash_on_every_row() {
    for args in [
        &["--scenario", "viral-reel"][..],
        &["--scenario", "overload"],
        &["--scenario", "viral-evening"],
        &["--scenario", "viral-evening-monitor"],
        &["--picker", "round-robin"],
        &["--store", "firestore"],
        &STICKY_INFEASIBLE,
    ] {
        let (md, _) = report_and_page(&[args, &["--seconds", "120"]].concat());
        for (header, rows) in tables(&md) {
            for (i, name) in header.iter().enumerate() {
                let all_dash = rows.iter().all(|r| r.get(i).is_some_and(|c| c == "-"));
                assert!(
                    !all_dash,
                    "{args:?}: column {name:?} of {header:?} is - on every row"
                );
            }
        }
        // The risk table's rows are judged.
        let (header, rows) = tables(&md)
            .into_iter()
            .find(|(h, _)| h[0] == "shards" && h[1].starts_with("P(over)/s"))
            .expect("the risk table");
        let verdict = header
            .iter()
            .position(|h| h == "verdict")
            .expect("a verdict column");
        assert!(
            rows.iter()
                .all(|r| r[verdict] == "holds" || r[verdict].starts_with("fails: ")),
            "{args:?}: {rows:?}"
        );
    }
}
