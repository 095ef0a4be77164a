//! End-to-end tests of the binary, as a user types it.

use crate::common::{bad_input, json_of, shardplan};
use predicates::prelude::*;
use serde_json::Value;

#[test]
fn size_reference_figures() {
    assert_eq!(
        json_of(&["size", "--peak", "14000", "--safe", "700"])["shards"],
        20
    );
    let v = json_of(&[
        "size",
        "--peak",
        "14000",
        "--cap",
        "1000",
        "--headroom",
        "0.3",
    ]);
    assert_eq!(v["shards"], 20);
    assert_eq!(v["safe_per_shard"], 700.0);
    assert_eq!(v["peak"], 14000.0);
    assert_eq!(v["cap"], 1000.0);
    let v = json_of(&[
        "size",
        "--observed",
        "9000",
        "--growth",
        "1.5",
        "--safe",
        "700",
    ]);
    assert_eq!(v["peak"], 13500.0);
    assert_eq!(v["shards"], 20);
    assert_eq!(
        json_of(&["size", "--peak", "14001", "--safe", "700"])["shards"],
        21
    );
    assert_eq!(
        json_of(&["size", "--peak", "200000", "--safe", "700"])["shards"],
        286
    );
}

#[test]
fn size_read_cost_defaults() {
    let v = json_of(&["size"]);
    assert_eq!(v["reads_uncached_per_second"], 1_000_000.0);
    assert_eq!(v["reads_cached_per_second"], 400.0);
    assert_eq!(v["mean_per_shard_at_peak"], 700.0);
}

#[test]
fn size_table_shows_the_sum() {
    shardplan()
        .args(["size", "--peak", "14000", "--safe", "700"])
        .assert()
        .success()
        .stdout(predicate::str::contains("20 = ceil(14,000 / 700)"))
        .stdout(predicate::str::contains("1,000,000/s"))
        .stdout(predicate::str::contains("400/s"));
}

#[test]
fn simulate_defaults_run_the_viral_reel() {
    let v = json_of(&["simulate"]);
    assert_eq!(v["scenario"], "viral-reel");
    assert_eq!(v["rate"], 14000.0);
    assert_eq!(v["shards"], 20);
    assert_eq!(v["seconds"], 2000);
    assert_eq!(v["likes_total"], 28_000_000u64);
    for field in [
        "cap",
        "seed",
        "busiest_max",
        "quietest_min",
        "busiest_mean",
        "busiest_p50",
        "busiest_p99",
        "busiest_p999",
        "seconds_over_cap",
        "simulated_p_over_cap_per_second",
        "simulated_p_any_over_cap",
        "reads_uncached_per_second",
        "reads_cached_per_second",
    ] {
        assert!(v.get(field).is_some(), "missing {field}");
    }
    assert_eq!(v["simulated_p_over_cap_ci95"].as_array().unwrap().len(), 2);
    // The design's 2,000-second run saw a busiest shard of about 810.
    let max = v["busiest_max"].as_u64().unwrap();
    assert!((780..=850).contains(&max), "busiest max {max}");
    let hist = v["busiest_histogram"].as_array().unwrap();
    let total: u64 = hist.iter().map(|b| b["count"].as_u64().unwrap()).sum();
    assert_eq!(total, 2000);
}

#[test]
fn simulate_table_ends_with_a_sparkline() {
    shardplan()
        .args(["simulate", "--seconds", "3000"])
        .assert()
        .success()
        .stdout(predicate::str::contains("busiest shard per second:"))
        .stdout(predicate::str::contains(
            "95% upper bound: none over in 3,000 seconds",
        ))
        .stdout(predicate::str::contains(
            "20 shards hold the plan of 14,000/s (the recommendation); the simulation agrees",
        ));
}

#[test]
fn overload_goes_over_the_cap() {
    let v = json_of(&["simulate", "--scenario", "overload"]);
    assert_eq!(v["rate"], 18000.0);
    assert!(v["busiest_max"].as_u64().unwrap() > 1000);
    assert!(v["seconds_over_cap"].as_u64().unwrap() > 0);
}

#[test]
fn same_seed_same_bytes_for_any_thread_count() {
    let run = |threads: &str| {
        shardplan()
            .args([
                "simulate",
                "--seconds",
                "30000",
                "--seed",
                "11",
                "--threads",
                threads,
            ])
            .args(["--format", "json"])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone()
    };
    let one = run("1");
    assert_eq!(one, run("2"));
    assert_eq!(one, run("3"));
    assert_ne!(
        one,
        shardplan()
            .args([
                "simulate",
                "--seconds",
                "30000",
                "--seed",
                "12",
                "--format",
                "json"
            ])
            .assert()
            .get_output()
            .stdout
            .clone()
    );
}

#[test]
fn csv_has_header_and_one_row_with_the_json_fields() {
    let out = shardplan()
        .args(["simulate", "--seconds", "500", "--format", "csv"])
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2);
    let header: Vec<&str> = lines[0].split(',').collect();
    assert!(header.contains(&"busiest_p999_writes_per_s"));
    assert!(header.contains(&"simulated_p_over_cap_ci95_low"));
    assert!(header.contains(&"simulated_p_over_cap_ci95_high"));
    assert_eq!(header.len(), lines[1].split(',').count());
}

#[test]
fn output_files_take_their_format_from_the_extension() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("run.json");
    let csv = dir.path().join("run.csv");
    let md = dir.path().join("run.md");
    shardplan()
        .args(["simulate", "--seconds", "500"])
        .arg("--output")
        .arg(&json)
        .arg("-o")
        .arg(&csv)
        .arg("-o")
        .arg(&md)
        .assert()
        .success()
        .stdout("");
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(v["seconds"], 500);
    assert!(std::fs::read_to_string(&csv)
        .unwrap()
        .starts_with("scenario,rate_likes_per_s,"));
    let md = std::fs::read_to_string(&md).unwrap();
    assert!(md.contains("### Busiest shard per second"));
    assert!(md.contains("|"));
    // No temp files left behind.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 3);
}

#[test]
fn per_second_csv_streams_every_second() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("seconds.csv");
    let v = {
        let out = shardplan()
            .args([
                "simulate",
                "--seconds",
                "10000",
                "--format",
                "json",
                "--per-second",
            ])
            .arg(&path)
            .assert()
            .success();
        serde_json::from_slice::<Value>(&out.get_output().stdout).unwrap()
    };
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("second,likes,busiest,quietest,over_cap"));
    let rows: Vec<Vec<u64>> = lines
        .map(|l| l.split(',').take(4).map(|x| x.parse().unwrap()).collect())
        .collect();
    assert_eq!(rows.len(), 10_000);
    assert!(rows
        .iter()
        .enumerate()
        .all(|(i, r)| r[0] == i as u64 + 1 && r[1] == 14_000));
    let max = rows.iter().map(|r| r[2]).max().unwrap();
    assert_eq!(v["busiest_max"].as_u64().unwrap(), max);
    let min = rows.iter().map(|r| r[3]).min().unwrap();
    assert_eq!(v["quietest_min"].as_u64().unwrap(), min);
}

#[test]
fn flags_override_the_scenario() {
    let v = json_of(&[
        "simulate",
        "--scenario",
        "overload",
        "--rate",
        "14000",
        "--seconds",
        "100",
    ]);
    assert_eq!(v["rate"], 14000.0);
    assert_eq!(v["shards"], 20);
    assert_eq!(v["seconds"], 100);
    // The interview's 1,000 partitions bind: 2,714 shards (see
    // tests/cli/recommendation.rs); the rule of thumb stays 286.
    let v = json_of(&["size", "--scenario", "interview"]);
    assert_eq!(v["shards"], 2714);
    assert_eq!(v["rule_of_thumb_shards"], 286);
    assert_eq!(v["reads_uncached_per_second"], 2_714_000_000.0);
    let v = json_of(&["size", "--scenario", "quiet-reel"]);
    assert_eq!(v["shards"], 1);
}

#[test]
fn scenario_files_load_and_unknown_fields_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("mine.toml");
    std::fs::write(&good, "peak = 7000\nsafe = 700\nseconds = 100\n").unwrap();
    let v = json_of(&["size", "--scenario", good.to_str().unwrap()]);
    assert_eq!(v["shards"], 10);
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, "peak = 7000\nshard = 3\n").unwrap();
    bad_input(&["size", "--scenario", bad.to_str().unwrap()], "shard");
    let broken = dir.path().join("broken.toml");
    std::fs::write(&broken, "peak = = 7000\n").unwrap();
    bad_input(
        &["size", "--scenario", broken.to_str().unwrap()],
        "broken.toml",
    );
    let negative = dir.path().join("neg.toml");
    std::fs::write(&negative, "peak = -5\n").unwrap();
    bad_input(&["size", "--scenario", negative.to_str().unwrap()], "peak");
    bad_input(&["size", "--scenario", "/no/such/file.toml"], "--scenario");
    bad_input(&["size", "--scenario", "viral-reeel"], "viral-reel");
}

#[test]
fn scenarios_lists_the_bundled_ones() {
    shardplan()
        .arg("scenarios")
        .assert()
        .success()
        .stdout(predicate::str::contains("viral-reel"))
        .stdout(predicate::str::contains("overload"))
        .stdout(predicate::str::contains("interview"))
        .stdout(predicate::str::contains("quiet-reel"));
}

#[test]
fn bad_numbers_are_rejected_with_the_flag_named() {
    bad_input(&["size", "--peak", "0"], "--peak");
    bad_input(&["size", "--peak", "-5"], "--peak");
    bad_input(&["size", "--peak", "NaN"], "--peak");
    bad_input(&["size", "--peak", "inf"], "--peak");
    bad_input(&["size", "--peak", "1e30"], "--peak");
    bad_input(&["size", "--peak", "abc"], "--peak");
    bad_input(&["size", "--headroom", "1"], "--headroom");
    bad_input(&["size", "--headroom", "-0.1"], "--headroom");
    bad_input(&["size", "--safe", "1200"], "--safe");
    bad_input(&["size", "--cap", "0"], "--cap");
    bad_input(&["size", "--growth", "0", "--observed", "9000"], "--growth");
    bad_input(&["size", "--views", "-1"], "--views");
    bad_input(&["size", "--servers", "0"], "--servers");
    bad_input(&["size", "--batch-size", "0"], "--batch-size");
    bad_input(&["size", "--cache-seconds", "-2"], "--cache-seconds");
    bad_input(
        &["size", "--peak", "1", "--safe", "700", "--headroom", "0.3"],
        "--safe",
    );
    bad_input(&["simulate", "--seconds", "0"], "--seconds");
    bad_input(
        &["simulate", "--seconds", "99999999999999999999999"],
        "--seconds",
    );
    bad_input(&["simulate", "--seconds", "-3"], "--seconds");
    bad_input(&["simulate", "--shards", "0"], "--shards");
    bad_input(&["simulate", "--rate", "0.5"], "--rate");
    bad_input(&["simulate", "--rate", "1e12"], "--rate");
    bad_input(&["simulate", "--threads", "0"], "--threads");
    bad_input(&["simulate", "--cap", "999.5"], "--cap");
    bad_input(&["simulate", "--traffic", "bursty"], "--traffic");
    bad_input(&["simulate", "--format", "xml"], "--format");
}

#[test]
fn unwritable_outputs_fail_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    bad_input(&["size", "--output", "/no/such/dir/out.json"], "--output");
    let unknown = dir.path().join("out.xyz");
    bad_input(&["size", "--output", unknown.to_str().unwrap()], "--output");
    bad_input(
        &["size", "--output", dir.path().to_str().unwrap()],
        "--output",
    );
    bad_input(
        &[
            "simulate",
            "--seconds",
            "10",
            "--per-second",
            "/no/such/dir/s.csv",
        ],
        "--per-second",
    );
    // A failed run leaves no file: an unwritable --per-second stops the run
    // before the good --output is written.
    let good = dir.path().join("ok.json");
    shardplan()
        .args([
            "simulate",
            "--seconds",
            "10",
            "--per-second",
            "/no/such/dir/s.csv",
            "--output",
        ])
        .arg(&good)
        .assert()
        .code(2);
    assert!(!good.exists());
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    // A device is written in place, never replaced by a file: /dev/full's
    // error names the flag.
    #[cfg(unix)]
    use std::os::unix::fs::FileTypeExt;
    bad_input(
        &["size", "--output", "/dev/full", "--format", "json"],
        "--output",
    );
    assert!(std::fs::metadata("/dev/full")
        .unwrap()
        .file_type()
        .is_char_device());
}

#[cfg(unix)]
#[test]
fn outputs_write_through_symlinks_and_keep_the_mode() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("target.json");
    let link = dir.path().join("link.json");
    // Our own link to our own file (a dangling link is refused: see
    // tests/cli/output_policy.rs).
    std::fs::write(&target, "old").unwrap();
    std::os::unix::fs::symlink(&target, &link).unwrap();
    shardplan()
        .args(["size", "--output"])
        .arg(&link)
        .assert()
        .success();
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(std::fs::read_to_string(&target)
        .unwrap()
        .contains("\"shards\": 20"));
    let private = dir.path().join("private.csv");
    std::fs::write(&private, "old").unwrap();
    std::fs::set_permissions(&private, std::fs::Permissions::from_mode(0o600)).unwrap();
    shardplan()
        .args(["size", "--output"])
        .arg(&private)
        .assert()
        .success();
    let mode = std::fs::metadata(&private).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    assert!(std::fs::read_to_string(&private)
        .unwrap()
        .starts_with("scenario,"));
}

#[test]
fn poisson_traffic_takes_fractional_rates() {
    let v = json_of(&["simulate", "--scenario", "quiet-reel", "--seconds", "3600"]);
    assert_eq!(v["shards"], 1);
    assert_eq!(v["traffic"], "poisson");
    // 3,600 s at 1/12 like/s: 300 likes expected, sd sqrt(300) = 17.3; 6 sd = 104.
    let likes = v["likes_total"].as_u64().unwrap();
    assert!((196..=404).contains(&likes), "{likes}");
}

#[test]
fn help_and_version_work() {
    shardplan()
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains("simulate"));
    shardplan().arg("--version").assert().success();
    shardplan().args(["simulate", "--help"]).assert().success();
}

#[test]
fn completions_and_man_page_generate() {
    // tests/cli/completions.rs drives the scripts in a real bash.
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        shardplan()
            .args(["completions", shell])
            .assert()
            .success()
            .stdout(predicate::str::contains("shardplan"));
    }
    shardplan()
        .arg("man")
        .assert()
        .success()
        .stdout(predicate::str::contains(".TH shardplan 1"))
        .stdout(predicate::str::contains("shardplan\\-simulate(1)"));
    bad_input(&["completions", "tcsh"], "possible values");
    bad_input(&["man", "nope"], "COMMAND");
    // The after-help becomes real sections; names are case-insensitive.
    let top = shardplan().arg("man").assert().success();
    let top = String::from_utf8(top.get_output().stdout.clone()).unwrap();
    for section in [".SH EXAMPLES", ".SH EXIT STATUS", ".SH ENVIRONMENT"] {
        assert!(top.contains(section), "{section}");
    }
    let page = shardplan().args(["man", "SIZE"]).assert().success();
    let page = String::from_utf8(page.get_output().stdout.clone()).unwrap();
    assert!(page.contains(".TH shardplan-size 1") && page.contains(".SH EXAMPLES"));
    shardplan().args(["schema", "Size"]).assert().success();
    shardplan()
        .args(["risk", "--duration", "1H30M"])
        .assert()
        .success();
    bad_input(&["man", "size", "-o", "x"], "--output");
}

/// The long flags `shardplan ARGS --help` lists.
fn flags_in_help(args: &[&str]) -> Vec<String> {
    let out = shardplan().args(args).arg("--help").assert().success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let mut flags: Vec<String> = text
        .lines()
        // Flag lines are indented 2 (`  -o, --output`) or 6 (`      --peak`);
        // wrapped descriptions more.
        .filter(|l| l.len() - l.trim_start().len() <= 6)
        .filter_map(|l| {
            let l = l
                .trim_start()
                .trim_start_matches("-o, ")
                .trim_start_matches("-q, ");
            let l = l.trim_start_matches("-h, ").trim_start_matches("-V, ");
            l.strip_prefix("--")
                .map(|rest| rest.split([' ', '=', ',']).next().unwrap().to_string())
        })
        .collect();
    flags.sort();
    flags.dedup();
    flags
}

#[test]
fn man_pages_cover_every_command_and_every_flag() {
    let dir = tempfile::tempdir().unwrap();
    let pages = dir.path().join("man1");
    shardplan()
        .args(["man", "-o"])
        .arg(&pages)
        .assert()
        .success()
        .stdout("");
    let commands = crate::common::SUBCOMMANDS;
    let mut names: Vec<String> = std::fs::read_dir(&pages)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    let mut wanted: Vec<String> = commands
        .iter()
        .map(|c| format!("shardplan-{c}.1"))
        .chain(["shardplan.1".to_string()])
        .collect();
    wanted.sort();
    assert_eq!(names, wanted);
    for c in commands {
        let file = std::fs::read_to_string(pages.join(format!("shardplan-{c}.1"))).unwrap();
        // `man COMMAND` prints the same page the folder holds.
        let printed = shardplan().args(["man", c]).assert().success();
        assert_eq!(printed.get_output().stdout, file.as_bytes(), "{c}");
        let text = file.replace("\\-", "-");
        assert!(text.contains(&format!(".TH shardplan-{c} 1")), "{c}");
        let flags = flags_in_help(&[c]);
        assert!(!flags.is_empty(), "{c}");
        for flag in flags {
            assert!(
                text.contains(&format!("\\fB--{flag}\\fR")),
                "shardplan-{c}(1) lacks --{flag}"
            );
        }
    }
}

#[test]
fn chart_writes_an_svg() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("busiest.svg");
    shardplan()
        .args([
            "chart",
            "--kind",
            "busiest",
            "--seconds",
            "2000",
            "--output",
        ])
        .arg(&svg)
        .assert()
        .success();
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg"));
    assert!(text.contains("Busiest of 20 shards per second"));
    assert!(text.contains("cap 1,000 writes/s"));
    bad_input(&["chart", "--output", "x.png"], "--output");
}

#[test]
fn clap_tips_survive_in_the_one_line_error() {
    let out = shardplan()
        .args(["size", "--peek", "14000"])
        .assert()
        .code(2);
    let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("tip: a similar argument exists: '--peak'"),
        "{err}"
    );
    let out = shardplan().arg("simulat").assert().code(2);
    let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(err.contains("'simulate'"), "{err}");
}

#[test]
fn values_are_case_insensitive() {
    let a = json_of(&[
        "size",
        "--peak",
        "14000",
        "--risk",
        "0.01",
        "--traffic",
        "Poisson",
    ]);
    let b = json_of(&[
        "size",
        "--peak",
        "14000",
        "--risk",
        "0.01",
        "--traffic",
        "poisson",
    ]);
    assert_eq!(a["shards"], b["shards"]);
    let j = json_of(&["size", "--store", "DynamoDB"]);
    assert_eq!(j["inputs"]["store"]["value"], "dynamodb");
    shardplan()
        .args(["size", "--format", "JSON"])
        .assert()
        .success();
}

#[test]
fn help_is_wrapped_grouped_and_has_examples() {
    let out = shardplan()
        .args(["size", "--help"])
        .env("COLUMNS", "80")
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
    for heading in [
        "Sizing and store:",
        "Risk, partitions and nodes:",
        "Reads:",
        "Output:",
        "Examples:",
    ] {
        assert!(text.contains(heading), "size --help lacks {heading}");
    }
    assert!(text.contains("shardplan size --peak 14000 --safe 700"));
}

#[test]
fn seconds_take_units_like_every_duration() {
    let a = json_of(&["simulate", "--seconds", "33m"]);
    assert_eq!(a["seconds"], 1980);
    let b = json_of(&["simulate", "--seconds", "1h30m"]);
    assert_eq!(b["seconds"], 5400);
    bad_input(&["simulate", "--seconds", "1.5"], "--seconds");
}

#[test]
fn dash_and_dev_stdout_are_standard_output() {
    let plain = shardplan()
        .args(["size", "--format", "json"])
        .output()
        .unwrap();
    for target in ["-", "/dev/stdout"] {
        let out = shardplan()
            .args(["size", "--format", "json", "-o", target])
            .output()
            .unwrap();
        assert!(out.status.success(), "{target}");
        assert_eq!(out.stdout, plain.stdout, "-o {target}");
    }
    let dir = tempfile::tempdir().unwrap();
    assert!(!dir.path().join("-").exists());
    bad_input(&["size", "-o", "-", "-o", "/dev/stdout"], "--output");
}

#[test]
fn every_json_document_is_one_object_with_a_header() {
    // schema_version, version and command first; list results under rows.
    for args in [
        vec!["size"],
        vec!["simulate", "--seconds", "100"],
        vec!["risk"],
        vec!["sweep"],
        vec!["stores"],
        vec!["scenarios"],
        vec!["compare"],
        vec!["keys", "--template", "a:<shard>", "--shards", "4"],
        vec!["partitions", "--shards", "4", "--partitions", "10"],
    ] {
        let v = json_of(&args);
        let map = v
            .as_object()
            .unwrap_or_else(|| panic!("{args:?}: not an object"));
        let keys: Vec<&String> = map.keys().take(3).collect();
        assert_eq!(keys, ["schema_version", "version", "command"], "{args:?}");
        assert_eq!(v["schema_version"], 2);
        assert_eq!(v["version"], env!("CARGO_PKG_VERSION"));
        assert_eq!(v["command"], args[0]);
    }
    assert!(json_of(&["sweep"])["rows"].is_array());
}

/// Issue 32: one flag, one meaning. `--shards` and `--rate` take one
/// syntax everywhere; a command that uses one value refuses a list with one
/// line naming the flag, and the commands that need a value say so.
#[test]
fn shared_flags_keep_one_meaning() {
    // sweep takes the lists users type.
    shardplan()
        .args(["sweep", "--shards", "18..20", "--rate", "9000,14000"])
        .args(["--format", "csv"])
        .assert()
        .success();
    bad_input(&["risk", "--shards", "10..40"], "--shards");
    bad_input(
        &["simulate", "--shards", "10,20", "--seconds", "10"],
        "--shards",
    );
    bad_input(
        &["size", "--peak", "14000", "--shards", "10..40"],
        "--shards",
    );
    bad_input(
        &["risk", "--rate", "9000,14000", "--shards", "20"],
        "--rate",
    );
    bad_input(&["compare", "--rate", "9000,14000"], "--rate");
    bad_input(&["partitions", "--partitions", "1000"], "--shards");
    bad_input(&["partitions", "--shards", "20"], "--partitions");
    bad_input(&["chart", "--kind", "risk"], "--output");
    bad_input(&["chart", "-o", "a.svg", "-o", "b.svg"], "--output");
    bad_input(&["size", "--peak", "14000", "--check"], "--check");
    // compare's --traffic help lists every value it accepts.
    shardplan()
        .args(["compare", "--help"])
        .assert()
        .success()
        .stdout(predicate::str::contains("empirical"));
    // Durations read the same everywhere: compare takes fractions and ms.
    shardplan()
        .args(["compare", "--duration", "1.5h", "--format", "json"])
        .assert()
        .success();
}
