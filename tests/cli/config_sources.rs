//! Inputs are resolved once and remember where they came from: an invalid
//! scenario field is reported under the scenario file and the field's
//! dotted name (never a flag the user did not pass), a flag with no effect
//! in the chosen mode is refused, a scenario of the wrong kind names the
//! command that fits, and `--explain` / JSON `inputs` show every source.

use std::path::PathBuf;

use crate::common::{bad_input, json_of, shardplan};

/// A scenario file in a fresh temp folder (kept alive by the returned guard).
fn scenario(text: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.toml");
    std::fs::write(&path, text).unwrap();
    (dir, path)
}

/// The exact stderr line of a command that must fail with exit 2.
fn error_line(args: &[&str]) -> String {
    let out = shardplan().args(args).assert().code(2);
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr:?}");
    stderr.trim_end().to_string()
}

const CURVE: &str = "[curve]\npoints = [[0, 50], [600, 9000]]\n";

#[test]
fn every_scenario_section_names_the_file_and_the_dotted_field() {
    // (section text, command, the field the error must name, a flag it must not name)
    let cases: &[(&str, &str, &str, &str)] = &[
        (
            "[curve]\npoints = [[0, 50], [600, 9000]]\n[monitor]\nsettings_ttl_seconds = 100000\n",
            "simulate",
            "monitor.settings_ttl_seconds",
            "--settings-ttl",
        ),
        (
            "[curve]\npoints = [[0, 50], [600, 9000]]\n[monitor]\nthreshold = -5\n",
            "simulate",
            "monitor.threshold",
            "--threshold",
        ),
        (
            "[curve]\npoints = [[0, 50], [600, 9000]]\n[store]\nburst_seconds = 100000\n",
            "simulate",
            "store.burst_seconds",
            "--burst-seconds",
        ),
        (
            "peak = 14000\ncache_seconds = 100000\n",
            "size",
            "cache_seconds",
            "--cache-seconds",
        ),
        (
            "peak = 14000\nservers = 0\n",
            "size",
            "servers",
            "--servers",
        ),
        (
            "[curve]\npoints = [[0, 50], [600, 2e9]]\n",
            "simulate",
            "curve.points",
            "--peak",
        ),
        (
            "[resize]\nfrom = 1\nto = 0\n",
            "resize",
            "resize.to",
            "--to",
        ),
        (
            "[resize]\nfrom = 0\nto = 5\n",
            "resize",
            "resize.from",
            "--from",
        ),
        (
            "[resize]\nfrom = 1\nto = 20\nsettings_ttl_seconds = 100000\n",
            "resize",
            "resize.settings_ttl_seconds",
            "--settings-ttl",
        ),
        (
            "[resize]\nfrom = 1\nto = 20\nlikes_after = 2000000000000\n",
            "resize",
            "resize.likes_after",
            "--likes-after",
        ),
    ];
    for (text, command, field, not_flag) in cases {
        let (_dir, path) = scenario(text);
        let path = path.to_str().unwrap();
        let line = error_line(&[command, "--scenario", path]);
        let want = format!("shardplan: scenario {path}: {field}: ");
        assert!(
            line.starts_with(&want),
            "{text:?}: {line:?} should start {want:?}"
        );
        assert!(
            !line.contains(not_flag),
            "{text:?}: {line:?} names {not_flag}"
        );
    }
}

#[test]
fn a_flag_over_a_bad_scenario_field_is_the_one_checked() {
    // The flag wins, so its value is the one validated and named.
    let (_dir, path) = scenario(&format!("{CURVE}[monitor]\nthreshold = 300\n"));
    let path = path.to_str().unwrap();
    bad_input(
        &["simulate", "--scenario", path, "--threshold", "-1"],
        "--threshold:",
    );
    // A scenario's safe rate above a --cap flag names the flag.
    let (_dir, path) = scenario("peak = 14000\nsafe = 700\n");
    let line = error_line(&["size", "--scenario", path.to_str().unwrap(), "--cap", "500"]);
    assert!(line.starts_with("shardplan: --cap: 500 is below"), "{line}");
}

#[test]
fn a_measure_file_is_named_as_the_cap_source() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.json");
    std::fs::write(&path, r#"{"single_key": {"ops_per_second": 5e9}}"#).unwrap();
    let line = error_line(&[
        "size",
        "--peak",
        "14000",
        "--cap-from-measure",
        path.to_str().unwrap(),
    ]);
    assert!(line.contains("--cap-from-measure"), "{line}");
    assert!(!line.starts_with("shardplan: --cap:"), "{line}");
}

#[test]
fn scenarios_of_another_kind_name_the_command_that_fits() {
    assert_eq!(
        error_line(&["simulate", "--scenario", "grow-wrong-order"]),
        "shardplan: --scenario grow-wrong-order: shardplan simulate needs a flat load or a time \
         line; it describes a resize: run shardplan resize --scenario grow-wrong-order"
    );
    // A --peak flag does not turn a resize into a flat simulation.
    bad_input(
        &[
            "simulate",
            "--scenario",
            "grow-wrong-order",
            "--peak",
            "14000",
        ],
        "run shardplan resize --scenario grow-wrong-order",
    );
    bad_input(
        &["resize", "--scenario", "viral-reel"],
        "run shardplan size --scenario viral-reel",
    );
    bad_input(
        &["fleet", "--scenario", "viral-evening"],
        "describes a time line",
    );
    bad_input(
        &[
            "chart",
            "--kind",
            "busiest",
            "--scenario",
            "viral-evening",
            "-o",
            "x.svg",
        ],
        "run shardplan chart --kind timeline --scenario viral-evening",
    );
    // A declared kind must match the sections.
    let (_dir, path) = scenario("describes = [\"resize\"]\npeak = 5\n");
    bad_input(
        &["size", "--scenario", path.to_str().unwrap()],
        ": describes: lists resize",
    );
}

#[test]
fn flags_with_no_effect_are_refused() {
    let cases: &[(&[&str], &str)] = &[
        (
            &[
                "simulate",
                "--scenario",
                "viral-evening",
                "--sampler",
                "multinomial",
            ],
            "--sampler: has no effect on a time-line simulation",
        ),
        (
            &["simulate", "--scenario", "viral-evening", "--views", "5"],
            "--views: has no effect",
        ),
        (
            &[
                "simulate",
                "--scenario",
                "viral-evening",
                "--cache-seconds",
                "5",
            ],
            "--cache-seconds: has no effect",
        ),
        (
            &[
                "simulate",
                "--scenario",
                "viral-evening",
                "--batch-size",
                "5",
            ],
            "--batch-size: has no effect",
        ),
        (
            &["simulate", "--scenario", "viral-evening", "--read-cap", "5"],
            "--read-cap: has no effect",
        ),
        (
            &["simulate", "--scenario", "viral-evening", "--peak", "5000"],
            "--peak: has no effect on this time line",
        ),
        (
            &["chart", "--kind", "risk", "--seconds", "100", "-o", "x.svg"],
            "--seconds: has no effect on --kind risk",
        ),
        (
            &[
                "resize",
                "--from",
                "20",
                "--to",
                "1",
                "--order",
                "writes-first",
            ],
            "--order: has no effect on a shrink",
        ),
        (
            &["resize", "--from", "20", "--to", "1", "--likes-before", "5"],
            "--likes-before: has no effect on a shrink",
        ),
        (
            &["resize", "--from", "20", "--to", "1", "--settings-ttl", "5"],
            "--settings-ttl: has no effect on a shrink",
        ),
        (
            &["resize", "--from", "1", "--to", "20", "--fold", "separate"],
            "--fold: has no effect on a grow",
        ),
        (
            &["resize", "--from", "1", "--to", "20", "--read", "batch"],
            "--read: has no effect on a grow",
        ),
        (
            &[
                "resize",
                "--from",
                "1",
                "--to",
                "20",
                "--step-order",
                "add-first",
            ],
            "--step-order: has no effect on a grow",
        ),
        (
            &["keys", "--stdin", "--shards", "5"],
            "--shards: has no effect with --stdin",
        ),
        (
            &["keys", "--stdin", "--pad", "3"],
            "--pad: has no effect with --stdin",
        ),
        (
            &["size", "--format", "csv", "-o", "b.json"],
            "--format: csv contradicts --output b.json",
        ),
    ];
    for (args, what) in cases {
        bad_input(args, what);
    }
}

#[test]
fn flags_that_now_take_effect() {
    // compare honours the scenario's duration_seconds.
    let (_dir, path) = scenario("peak = 14000\nduration_seconds = 3600\n");
    let v = json_of(&["compare", "--scenario", path.to_str().unwrap()]);
    assert_eq!(v["inputs"]["duration_seconds"]["value"], 3600.0);
    // The busiest chart of a flat scenario still works; the time-line chart
    // follows the curve of a time-line scenario.
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("t.svg");
    shardplan()
        .args([
            "chart",
            "--kind",
            "timeline",
            "--scenario",
            "viral-evening",
            "-o",
        ])
        .arg(&svg)
        .assert()
        .success();
}

#[test]
fn explain_and_json_inputs_show_every_source() {
    let v = json_of(&[
        "size",
        "--peak",
        "14000",
        "--cap",
        "1000",
        "--store",
        "firestore",
    ]);
    let inputs = &v["inputs"];
    assert_eq!(inputs["peak"]["source"], "--peak");
    assert_eq!(inputs["cap"]["source"], "--cap");
    assert_eq!(
        inputs["headroom"]["source"],
        "scenario viral-reel.toml: headroom"
    );
    assert_eq!(inputs["store"]["value"], "firestore");
    // A named scenario's field ranks above the preset; a figure it leaves
    // open (viral-evening gives no read cap) names the preset and what
    // named it.
    let v = json_of(&["size", "--scenario", "interview", "--store", "dynamodb"]);
    assert_eq!(v["inputs"]["cap"]["source"], "scenario interview.toml: cap");
    let v = json_of(&["size", "--scenario", "viral-evening", "--store", "dynamodb"]);
    assert_eq!(
        v["inputs"]["read_cap"]["source"],
        "store preset dynamodb (--store)"
    );
    assert_eq!(v["inputs"]["scenario"]["source"], "--scenario");
    // A default says so; a derived value says how.
    let v = json_of(&["risk", "--peak", "14000"]);
    assert_eq!(v["inputs"]["duration_seconds"]["source"], "default");
    assert_eq!(
        v["inputs"]["shards"]["source"],
        "derived: the recommendation (shardplan size)"
    );
    // --explain: the table opens with the inputs.
    let out = shardplan().args(["size", "--explain"]).assert().success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(
        text.starts_with("Inputs (value and where it came from)"),
        "{text}"
    );
    assert!(text.contains("scenario viral-reel.toml: peak"), "{text}");
    // With CSV the inputs go to stderr and the rows stay one clean table.
    let out = shardplan()
        .args(["size", "--explain", "--format", "csv"])
        .assert()
        .success();
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(stderr.contains("scenario viral-reel.toml: cap"), "{stderr}");
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert_eq!(stdout.lines().count(), 2, "{stdout}");
}

#[test]
fn scenarios_lists_the_commands_each_serves() {
    let v = json_of(&["scenarios"]);
    let rows = v["rows"].as_array().unwrap();
    let find = |name: &str| rows.iter().find(|r| r["name"] == name).unwrap().clone();
    assert_eq!(find("grow-wrong-order")["describes"], "resize");
    assert_eq!(find("grow-wrong-order")["commands"], "resize");
    assert_eq!(find("interview")["describes"], "flat-load, fleet");
    assert!(find("interview")["commands"]
        .as_str()
        .unwrap()
        .contains("fleet"));
    assert!(find("viral-evening")["commands"]
        .as_str()
        .unwrap()
        .contains("chart --kind timeline"));
}

#[test]
fn a_store_preset_without_a_read_cap_or_batch_read_leaves_them_unset() {
    // Firestore and Redis Cluster document no per-key read cap and no batch
    // read: no DynamoDB figure (3,000 reads/s, 100 items) may appear.
    for store in ["firestore", "redis-cluster"] {
        let j = json_of(&["size", "--store", store, "--peak", "14000"]);
        let reads = &j;
        assert!(reads["read_cap"].is_null(), "{store}: {reads}");
        assert!(reads["batch_size"].is_null(), "{store}: {reads}");
        assert!(
            reads["batch_requests_cached_per_second"].is_null(),
            "{store}"
        );
        let table = shardplan()
            .args(["size", "--store", store, "--peak", "14000"])
            .output()
            .unwrap();
        let text = String::from_utf8(table.stdout).unwrap();
        assert!(
            !text.contains("3,000") && !text.contains("100 items"),
            "{store}: {text}"
        );
    }
    // DynamoDB's preset and the plain defaults keep them.
    let j = json_of(&["size", "--store", "dynamodb", "--peak", "14000"]);
    assert_eq!(j["read_cap"], 3000.0);
    assert_eq!(j["batch_size"], 100);
}

#[test]
fn a_scenario_field_outranks_the_store_flags_preset() {
    // Flag > scenario field > preset (the --store flag's, else the
    // scenario's own store) > default: --store picks the figures the file
    // leaves open, it does not override the ones it gives.
    let (_dir, path) = scenario("peak = 14000\ncap = 900\nbatch_size = 21\nread_cap = 1234\n");
    let file = path.to_str().unwrap();
    let v = json_of(&["size", "--scenario", file, "--store", "dynamodb"]);
    let inputs = &v["inputs"];
    for (field, value) in [("cap", 900.0), ("batch_size", 21.0), ("read_cap", 1234.0)] {
        assert_eq!(
            inputs[field]["value"].as_f64(),
            Some(value),
            "{field}: {inputs}"
        );
        assert_eq!(
            inputs[field]["source"],
            format!("scenario {file}: {field}"),
            "{field}"
        );
    }
    assert_eq!(inputs["store"]["source"], "--store");
    assert_eq!(v["cap"], 900.0);
    assert_eq!(v["batch_size"], 21);
    assert_eq!(v["read_cap"], 1234.0);
    // What the file leaves open comes from the flag's preset.
    let (_dir2, open) = scenario("peak = 14000\n");
    let v = json_of(&[
        "size",
        "--scenario",
        open.to_str().unwrap(),
        "--store",
        "dynamodb",
    ]);
    for field in ["cap", "batch_size", "read_cap"] {
        assert_eq!(
            v["inputs"][field]["source"], "store preset dynamodb (--store)",
            "{field}"
        );
    }
    // A flag still outranks the file.
    let v = json_of(&[
        "size",
        "--scenario",
        file,
        "--store",
        "dynamodb",
        "--cap",
        "800",
    ]);
    assert_eq!(v["inputs"]["cap"]["source"], "--cap");
    assert_eq!(v["cap"], 800.0);
}

#[test]
fn the_bundled_default_scenario_ranks_below_a_store_the_user_names() {
    // Unnamed, viral-reel stands in for the defaults: --store's figures
    // (Firestore: one write a second per document) come before its cap.
    let v = json_of(&["size", "--peak", "140", "--store", "firestore"]);
    assert_eq!(
        v["inputs"]["cap"]["source"],
        "store preset firestore (--store)"
    );
    // Named, its cap comes first.
    let v = json_of(&["size", "--scenario", "viral-reel", "--store", "firestore"]);
    assert_eq!(
        v["inputs"]["cap"]["source"],
        "scenario viral-reel.toml: cap"
    );
}

#[test]
fn a_time_lines_burst_from_the_scenario_outranks_the_store_flags_preset() {
    let (_dir, path) = scenario(&format!(
        "shards = 20\ncap = 1000\n{CURVE}[store]\nburst_seconds = 7\n"
    ));
    let file = path.to_str().unwrap();
    let v = json_of(&["simulate", "--scenario", file, "--store", "dynamodb"]);
    let burst = &v["inputs"]["store.burst_seconds"];
    assert_eq!(burst["value"], 7, "{burst}");
    assert_eq!(
        burst["source"],
        format!("scenario {file}: store.burst_seconds")
    );
}

#[test]
fn flags_that_change_nothing_in_the_mode_chosen_are_refused() {
    let exact = "has no effect here: 20 shards over 8 partitions are summed exactly (Monte Carlo, \
                 which draws placements, is used past 1,000 shards over more than 100,000 \
                 partitions)";
    let batch = |on: &str| {
        format!(
            "shardplan: --batch-size: has no effect on {on}: only the read cost's batch reads \
             take it (shardplan size or simulate shows them)"
        )
    };
    let partitions = ["partitions", "--shards", "20", "--partitions", "8"];
    let cases: Vec<(Vec<&str>, String)> =
        vec![
        (
            [&partitions[..], &["--trials", "300"]].concat(),
            format!("shardplan: --trials: {exact}"),
        ),
        (
            [&partitions[..], &["--seed", "7"]].concat(),
            format!("shardplan: --seed: {exact}"),
        ),
        (
            [&partitions[..], &["--batch-size", "10"]].concat(),
            batch("partitions"),
        ),
        (
            vec!["chart", "--kind", "risk", "--seed", "7", "-o", "x.svg"],
            "shardplan: --seed: has no effect on --kind risk: the chart is exact, over --duration"
                .into(),
        ),
        (
            vec!["chart", "--kind", "risk", "--batch-size", "10", "-o", "x.svg"],
            batch("--kind risk"),
        ),
        (
            vec!["chart", "--kind", "busiest", "--batch-size", "10", "-o", "x.svg"],
            batch("--kind busiest"),
        ),
        (vec!["sweep", "--batch-size", "10"], batch("sweep")),
        (
            vec!["keys", "--template", "r:<shard>", "--transactional"],
            "shardplan: --transactional: has no effect on keys with redis-cluster: a \
             transactional like costs it one write unit, as a plain one does (only DynamoDB's 2 \
             shrinks the cap per key)"
                .into(),
        ),
        (
            vec![
                "chart",
                "--kind",
                "timeline",
                "--scenario",
                "viral-evening",
                "--servers",
                "7",
                "-o",
                "x.svg",
            ],
            "shardplan: --servers: has no effect on --kind timeline without a hot-key monitor: \
             only the monitor's settings refresh takes them (add --monitor, or see the read cost \
             with shardplan simulate)"
                .into(),
        ),
        (
            vec!["keys", "--template", "r:<shard>", "--batch-size", "10"],
            batch("keys"),
        ),
        (
            vec!["size", "--scenario", "quiet-reel", "--store", "redis-cluster", "--nodes", "6"],
            "shardplan: --nodes: has no effect without a key template: give --template (or the \
             scenario's key_template) so the keys can be placed on the nodes"
                .into(),
        ),
        (
            vec![
                "size",
                "--scenario",
                "quiet-reel",
                "--store",
                "redis-cluster",
                "--template",
                "r:<shard>",
            ],
            "shardplan: --template: has no effect without a node count: give --nodes (or the \
             scenario's nodes) so the keys' nodes are weighed"
                .into(),
        ),
    ];
    let dir = tempfile::tempdir().unwrap();
    for (args, line) in cases {
        let out = shardplan()
            .current_dir(dir.path())
            .args(&args)
            .assert()
            .code(2);
        let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
        assert_eq!(stderr.trim_end(), line, "{args:?}");
        assert!(!dir.path().join("x.svg").exists(), "{args:?}");
    }
}

#[test]
fn flags_that_do_change_the_mode_chosen_stay_accepted() {
    // Monte Carlo placements take the seed and the trials.
    let v = json_of(&[
        "partitions",
        "--shards",
        "1001",
        "--partitions",
        "100001",
        "--seed",
        "3",
        "--trials",
        "50",
    ]);
    assert_eq!(v["inputs"]["seed"]["source"], "--seed");
    assert_eq!(v["inputs"]["trials"]["value"], 50);
    // Exact placements record neither.
    let v = json_of(&["partitions", "--shards", "20", "--partitions", "8"]);
    assert!(v["inputs"].get("seed").is_none(), "{}", v["inputs"]);
    // The read path reaches a chart's footer: the verdict's read cap check.
    let dir = tempfile::tempdir().unwrap();
    for kind in ["risk", "busiest"] {
        shardplan()
            .current_dir(dir.path())
            .args(["chart", "--kind", kind, "--read-cap", "5", "-o", "c.svg"])
            .assert()
            .success();
        let svg = std::fs::read_to_string(dir.path().join("c.svg")).unwrap();
        assert!(svg.contains("they fail the read cap"), "{kind}");
    }
    // A template and a node count together weigh the nodes.
    let v = json_of(&[
        "size",
        "--scenario",
        "quiet-reel",
        "--store",
        "redis-cluster",
        "--template",
        "r:<shard>",
        "--nodes",
        "6",
    ]);
    assert_eq!(v["nodes"], 6);
}
