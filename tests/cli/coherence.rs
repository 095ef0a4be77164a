//! The coherence test (issue 57): one plan, one answer, whichever command
//! and format shows it. A seeded generator draws plans over every axis a
//! figure depends on (peak, cap, headroom, traffic law, picker and
//! servers, unlikes, shared partitions, an accepted risk, the hot spell)
//! and runs `size`, `size --shards N`, `risk` and `sweep` on each, in JSON
//! and CSV, with `--check`. On every plan it asserts:
//!
//! - each named quantity is the same number everywhere it appears: the
//!   recommended count, the per-key risk (`key_p_any_over_cap`, its log
//!   and `key_method`), the partition risk, the worst risk, the peak in
//!   likes/s and in writes/s, the likes/s and writes/s of a row;
//! - the headline agrees with the verdict (holds / does NOT hold, an
//!   infeasible plan said first) and the verdict with its table of
//!   constraints;
//! - `--check` exits 1 exactly when the verdict fails, for every command;
//! - an infeasible plan's count fails, in every command;
//! - `compare`'s sharded design is `size`'s count with `size`'s risk;
//! - `simulate`'s recommendation, count, likes/s, writes/s and infeasible
//!   reasons are `size`'s, and the exact chance a second beside its run is
//!   `risk`'s.
//!
//! Beside the generated plans: precedence for every scenario field `size`
//! resolves (flag > scenario > preset, `--store`'s too > default, each
//! value's source named), and every flag of the judging commands either
//! changes the output or is refused in one line.
//!
//! It is the guard that keeps a new axis from adding a second voice: a
//! figure computed twice, or one command missing an axis, fails here.

use crate::common::{shardplan, thousands};
use serde_json::Value;

/// A small seeded generator (xorshift64*): the same plans every run.
struct Draw(u64);

impl Draw {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn pick<'a>(&mut self, of: &[&'a str]) -> &'a str {
        of[(self.next() % of.len() as u64) as usize]
    }

    fn between(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next() % (hi - lo + 1)
    }
}

/// One generated plan, as the flags a user types.
fn plan(d: &mut Draw) -> Vec<String> {
    let mut a: Vec<String> = Vec::new();
    let mut flag = |f: &str, v: String| a.extend([f.to_string(), v]);
    flag("--peak", d.between(300, 20_000).to_string());
    flag("--cap", d.pick(&["500", "1000", "2500"]).into());
    flag("--headroom", d.pick(&["0.1", "0.3", "0.5"]).into());
    let traffic = d.pick(&["fixed", "poisson", "poisson", "fixed"]);
    flag("--traffic", traffic.into());
    // Short spells: the seeded run `risk` shows beside a picker's figure
    // simulates the whole spell, and the suite must stay quick.
    flag("--duration", d.pick(&["2m", "10m"]).into());
    let picker = d.pick(&[
        "random",
        "random",
        "user-hash",
        "round-robin",
        "two-choice",
        "sticky",
    ]);
    flag("--picker", picker.into());
    if picker != "random" {
        flag("--servers", d.between(1, 120).to_string());
    }
    if d.next().is_multiple_of(3) {
        flag("--unlike-share", d.pick(&["0.1", "0.3"]).into());
    }
    if d.next().is_multiple_of(4) && traffic == "poisson" {
        flag("--partitions", d.between(20, 2_000).to_string());
    }
    if d.next().is_multiple_of(3) {
        flag("--risk", d.pick(&["0.01", "0.001"]).into());
    }
    a
}

/// A run's exit code, stdout and stderr.
fn run(args: &[String], extra: &[&str]) -> (i32, String, String) {
    let out = shardplan().args(args).args(extra).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// A JSON run with `--check`: the document, and whether the check passed
/// (exit 0) or failed (exit 1); anything else fails the test.
fn checked(args: &[String], extra: &[&str], what: &str) -> (Value, bool) {
    let mut e = extra.to_vec();
    e.extend(["--format", "json", "--check"]);
    let (code, out, err) = run(args, &e);
    assert!(
        code == 0 || code == 1,
        "{what} {args:?} {extra:?}: exit {code}: {err}"
    );
    (serde_json::from_str(&out).unwrap(), code == 0)
}

/// Two figures that must be the one figure: equal as JSON values.
fn same(a: &Value, b: &Value, what: &str, args: &[String]) {
    assert_eq!(a, b, "{what} differs for {args:?}");
}

/// The CSV's first row as (column, cell) pairs.
fn csv_row(args: &[String], extra: &[&str]) -> Vec<(String, String)> {
    let mut e = extra.to_vec();
    e.extend(["--format", "csv"]);
    let (code, out, err) = run(args, &e);
    assert_eq!(code, 0, "{args:?} {extra:?}: {err}");
    let mut lines = csv::Reader::from_reader(out.as_bytes());
    let header: Vec<String> = lines.headers().unwrap().iter().map(String::from).collect();
    let row = lines.records().next().unwrap().unwrap();
    header
        .into_iter()
        .zip(row.iter().map(String::from))
        .collect()
}

fn cell<'a>(row: &'a [(String, String)], column: &str) -> &'a str {
    &row.iter()
        .find(|(c, _)| c == column)
        .unwrap_or_else(|| panic!("no column {column}"))
        .1
}

/// A CSV cell and a JSON number are the one figure: the same f64 (an
/// empty cell for a null).
fn agree(cell: &str, v: &Value, what: &str) {
    match v.as_f64() {
        Some(x) => assert_eq!(cell.parse::<f64>().ok(), Some(x), "{what}: {cell} vs {v}"),
        None => assert_eq!(cell, "", "{what}: {cell} vs {v}"),
    }
}

/// `size` on the plan, then the same plan judged at its count by `size
/// --shards`, `risk` and `sweep`: every shared figure and verdict agrees.
fn one_plan(args: &[String], with_csv: bool) {
    let mut size = vec!["size".to_string()];
    size.extend_from_slice(args);
    let (code, out, err) = run(&size, &["--format", "json"]);
    if code == 2 {
        // A refusal is one line naming a flag (a picker without a figure
        // for this traffic, say); the other commands must refuse it too.
        assert_eq!(err.lines().count(), 1, "{size:?}: {err}");
        let mut risk = vec!["risk".to_string()];
        risk.extend_from_slice(args);
        assert_eq!(
            run(&risk, &[]).0,
            2,
            "risk accepts what size refused: {args:?}"
        );
        return;
    }
    assert_eq!(code, 0, "{size:?}: {err}");
    let rec: Value = serde_json::from_str(&out).unwrap();
    let n = rec["shards"].as_u64().unwrap();
    let ns = n.to_string();
    let infeasible = !rec["infeasible"].as_array().unwrap().is_empty();
    // An infeasible plan's count fails its verdict.
    if infeasible {
        assert_eq!(rec["holds"], false, "{size:?}");
    }
    same(
        &rec["holds"],
        &rec["verdict"]["holds"],
        "size: holds vs verdict",
        args,
    );

    let (at, at_ok) = checked(&size, &["--shards", &ns], "size --shards");
    let mut risk = vec!["risk".to_string()];
    risk.extend_from_slice(args);
    let (r, r_ok) = checked(&risk, &["--shards", &ns], "risk");
    let mut sweep = vec!["sweep".to_string()];
    sweep.extend_from_slice(args);
    let (sw, sw_ok) = checked(&sweep, &["--shards", &ns], "sweep");
    let row = &sw["rows"][0];

    // The count, the verdict and --check: one answer.
    for (doc, what) in [(&at, "size --shards"), (&r["verdict"], "risk")] {
        same(&doc["recommended_shards"], &rec["shards"], what, args);
    }
    same(
        &r["recommendation"]["shards"],
        &rec["shards"],
        "risk's recommendation",
        args,
    );
    same(
        &row["recommended_shards"],
        &rec["shards"],
        "sweep's count",
        args,
    );
    let holds = rec["holds"].as_bool().unwrap();
    same(&at["holds"], &rec["holds"], "size --shards N holds", args);
    same(
        &r["verdict"]["holds"],
        &rec["holds"],
        "risk's verdict",
        args,
    );
    same(&row["holds"], &rec["holds"], "sweep's verdict", args);
    assert_eq!(
        (at_ok, r_ok, sw_ok),
        (holds, holds, holds),
        "--check: {args:?}"
    );
    same(&at["fails"], &rec["fails"], "size --shards fails", args);
    same(&row["fails"], &rec["fails"], "sweep's fails", args);
    same(&at["infeasible"], &rec["infeasible"], "infeasible", args);
    same(
        &r["verdict"]["infeasible"],
        &rec["infeasible"],
        "risk's infeasible",
        args,
    );

    // The per-key risk: one figure, one method, in every command.
    for (doc, what) in [(&at, "size --shards"), (&r, "risk"), (row, "sweep")] {
        same(
            &doc["key_p_any_over_cap"],
            &rec["key_p_any_over_cap"],
            what,
            args,
        );
        same(
            &doc["key_ln_p_any_over_cap"],
            &rec["key_ln_p_any_over_cap"],
            what,
            args,
        );
        same(&doc["key_method"], &rec["key_method"], what, args);
    }
    same(
        &r["key_p_over_cap_per_second"],
        &row["key_p_over_cap_per_second"],
        "per second",
        args,
    );
    // Partitions: the same risk, named the same, in size and sweep.
    same(
        &row["partition_p_any_over_cap"],
        &rec["partition_p_any_over_cap"],
        "partitions",
        args,
    );
    same(
        &at["worst_p_any_over_cap"],
        &rec["worst_p_any_over_cap"],
        "worst",
        args,
    );
    // Likes/s and writes/s: the peak in size, the rate of risk and sweep.
    same(&r["rate"], &rec["peak"], "likes/s", args);
    same(&row["rate"], &rec["peak"], "sweep's likes/s", args);
    same(
        &r["write_rate"],
        &rec["verdict"]["planned_rate"],
        "writes/s",
        args,
    );
    same(
        &row["write_rate"],
        &rec["verdict"]["planned_rate"],
        "sweep's writes/s",
        args,
    );
    // The busiest shard's law only where the picker's law is random's.
    let law = matches!(r["picker"].as_str(), Some("random" | "user-hash"));
    assert_eq!(r["busiest_mean_per_second"].is_number(), law, "{args:?}");

    headline_agrees(&size, &rec, holds, infeasible);
    if with_csv {
        csv_agrees(&size, &risk, &rec, &r, &ns);
        compare_agrees(args, &rec);
        simulate_agrees(args, &rec, &r);
        sensitivity_agrees(&size, &rec);
    }
}

/// The table's first line says the verdict the JSON has: an infeasible
/// plan first, a holding count "hold", a failing one "do NOT hold".
fn headline_agrees(size: &[String], rec: &Value, holds: bool, infeasible: bool) {
    let (_, text, _) = run(size, &[]);
    let first = text.lines().next().unwrap_or("");
    match (infeasible, holds) {
        (true, _) => assert!(
            first.starts_with("No shard count holds this plan"),
            "{first}"
        ),
        (false, true) => assert!(
            first.starts_with("Recommendation: ") && !text.contains("do NOT hold"),
            "{size:?}: {first}"
        ),
        (false, false) => assert!(text.contains("NOT hold"), "{size:?}: {text}"),
    }
    let count = rec["shards"].as_u64().unwrap();
    let said = match count {
        1 => "1 shard".to_string(),
        n => format!("{} shards", thousands(n)),
    };
    assert!(text.contains(&said), "{size:?}: {said} not in {first}");
}

/// CSV and JSON: the same numbers under the same names.
fn csv_agrees(size: &[String], risk: &[String], rec: &Value, r: &Value, n: &str) {
    let s = csv_row(size, &[]);
    agree(cell(&s, "peak_likes_per_s"), &rec["peak"], "size's peak");
    agree(
        cell(&s, "peak_writes_per_s"),
        &rec["peak_writes"],
        "size's writes",
    );
    agree(
        cell(&s, "key_p_any_over_cap"),
        &rec["key_p_any_over_cap"],
        "size's key risk",
    );
    agree(cell(&s, "shards"), &rec["shards"], "size's shards");
    let k = csv_row(risk, &["--shards", n]);
    agree(
        cell(&k, "key_p_any_over_cap"),
        &r["key_p_any_over_cap"],
        "risk's key risk",
    );
    agree(cell(&k, "rate_likes_per_s"), &r["rate"], "risk's likes/s");
    agree(
        cell(&k, "write_rate_writes_per_s"),
        &r["write_rate"],
        "risk's writes/s",
    );
}

/// `compare` on the same plan: its sharded design is `size`'s count, with
/// `size`'s per-key risk (the plan's law and picker), and its verdict.
fn compare_agrees(args: &[String], rec: &Value) {
    let mut compare = vec!["compare".to_string()];
    compare.extend_from_slice(args);
    let (code, out, err) = run(&compare, &["--format", "json"]);
    assert_eq!(code, 0, "{compare:?}: {err}");
    let c: Value = serde_json::from_str(&out).unwrap();
    let sharded = c["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["strategy"] == "sharded")
        .unwrap();
    same(
        &sharded["keys"],
        &rec["shards"],
        "compare's sharded keys",
        args,
    );
    same(
        &sharded["key_p_any_over_cap"],
        &rec["key_p_any_over_cap"],
        "compare's key risk",
        args,
    );
    same(
        &c["verdict"]["holds"],
        &rec["holds"],
        "compare's verdict",
        args,
    );
    // The pickers table's row for the plan's picker: the shards it needs
    // are `size`'s per-key count, and where that is the recommendation its
    // risk and kind are `size`'s.
    let mine = c["pickers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["picker"] == rec["picker"])
        .unwrap();
    if rec["key_risk_shards"].is_u64() {
        same(
            &mine["shards_needed"],
            &rec["key_risk_shards"],
            "compare's pickers table, shards",
            args,
        );
    }
    if mine["shards_needed"] == rec["shards"] {
        same(
            &mine["ln_risk"],
            &rec["key_ln_p_any_over_cap"],
            "compare's pickers table, risk",
            args,
        );
        same(
            &mine["method"],
            &rec["key_method"],
            "compare's pickers table, kind",
            args,
        );
    }
}

/// `size --sensitivity` on the same plan: its planned count is `size`'s,
/// and its peak moved up is what `size` answers with that `--peak`.
fn sensitivity_agrees(args: &[String], rec: &Value) {
    let (code, out, err) = run(args, &["--sensitivity", "--format", "json"]);
    assert_eq!(code, 0, "{args:?} --sensitivity: {err}");
    let s: Value = serde_json::from_str(&out).unwrap();
    let s = &s["sensitivity"];
    same(
        &s["planned_shards"],
        &rec["shards"],
        "sensitivity's count",
        args,
    );
    let Some(peak) = s["entries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["input"] == "peak")
    else {
        return;
    };
    // The plan's flags with --peak set to the entry's high end.
    let mut moved: Vec<String> = Vec::new();
    let mut rest = args.iter();
    while let Some(a) = rest.next() {
        match a == "--peak" {
            true => _ = rest.next(),
            false => moved.push(a.clone()),
        }
    }
    moved.extend([
        "--peak".to_string(),
        peak["high"].as_f64().unwrap().to_string(),
    ]);
    let (code, out, err) = run(&moved, &["--format", "json"]);
    assert_eq!(code, 0, "{moved:?}: {err}");
    let at: Value = serde_json::from_str(&out).unwrap();
    same(
        &peak["shards_high"],
        &at["shards"],
        "sensitivity's peak, shards",
        args,
    );
    same(
        &peak["binding_high"],
        &at["binding"],
        "sensitivity's peak, binding",
        args,
    );
}

/// `simulate` on the same plan (a short run at the planned peak): its
/// recommendation, count, likes/s and writes/s are `size`'s, and the
/// exact per-key chance a second beside its run is `risk`'s.
fn simulate_agrees(args: &[String], rec: &Value, r: &Value) {
    let mut simulate = vec!["simulate".to_string()];
    simulate.extend_from_slice(args);
    let (code, out, err) = run(&simulate, &["--seconds", "20", "--format", "json"]);
    assert_eq!(code, 0, "{simulate:?}: {err}");
    let sim: Value = serde_json::from_str(&out).unwrap();
    let plan = &sim["recommendation"];
    same(
        &plan["shards"],
        &rec["shards"],
        "simulate's recommendation",
        args,
    );
    same(
        &plan["key_p_any_over_cap"],
        &rec["key_p_any_over_cap"],
        "simulate's key risk",
        args,
    );
    same(&sim["shards"], &rec["shards"], "simulate's count", args);
    same(&sim["rate"], &rec["peak"], "simulate's likes/s", args);
    same(
        &sim["write_rate"],
        &rec["verdict"]["planned_rate"],
        "simulate's writes/s",
        args,
    );
    same(
        &sim["verdict"]["infeasible"],
        &rec["infeasible"],
        "simulate's infeasible",
        args,
    );
    if !sim["key_p_over_cap_per_second"].is_null() {
        let (a, b) = (
            &sim["key_ln_p_over_cap_per_second"],
            &r["key_ln_p_over_cap_per_second"],
        );
        same(a, b, "simulate's exact chance a second", args);
    }
}

/// 200 generated plans, all commands on each, CSV and `compare` on every
/// third (the CSV is the JSON's rows: a third covers every axis). The
/// plans are drawn first, then checked on two threads (the runs are
/// processes: a second core halves the wall time).
#[test]
fn one_plan_one_answer_over_generated_plans() {
    let mut d = Draw(0x005e_ed20_2657);
    let plans: Vec<Vec<String>> = (0..200).map(|_| plan(&mut d)).collect();
    let has = |flag: &str| plans.iter().filter(|a| a.iter().any(|x| x == flag)).count();
    let pickers = plans
        .iter()
        .filter(|a| !a.windows(2).any(|w| w == ["--picker", "random"]))
        .count();
    // The draw covers every axis (pickers, partitions, unlikes, risks).
    let kinds = (
        pickers,
        has("--partitions"),
        has("--unlike-share"),
        has("--risk"),
    );
    assert!(
        kinds.0 > 80 && kinds.1 > 15 && kinds.2 > 40 && kinds.3 > 40,
        "{kinds:?}"
    );
    std::thread::scope(|s| {
        for half in [0, 1] {
            let plans = &plans;
            s.spawn(move || {
                for (i, args) in plans.iter().enumerate().filter(|(i, _)| i % 2 == half) {
                    one_plan(args, i.is_multiple_of(3));
                }
            });
        }
    });
}

/// Precedence, for every scenario field `size` resolves: the scenario's
/// value beats a store preset (named by `--store` too) and the default,
/// its flag beats the scenario, and `inputs` names where each came from
/// (the file and field, or the flag).
#[test]
fn every_scenario_field_yields_to_its_flag_and_beats_the_preset() {
    let dir = tempfile::tempdir().unwrap();
    // (field = scenario value, its flag and value, its `inputs` key and
    // the value the flag gives there).
    let fields: &[(&str, &str, &str, &str, f64)] = &[
        ("peak = 12000", "--peak", "15000", "peak", 15_000.0),
        ("cap = 900", "--cap", "800", "cap", 800.0),
        ("headroom = 0.2", "--headroom", "0.4", "headroom", 0.4),
        ("safe = 600", "--safe", "500", "safe", 500.0),
        ("views = 7000", "--views", "9000", "views", 9_000.0),
        ("servers = 12", "--servers", "30", "servers", 30.0),
        (
            "cache_seconds = 3",
            "--cache-seconds",
            "5",
            "cache_seconds",
            5.0,
        ),
        ("batch_size = 21", "--batch-size", "30", "batch_size", 30.0),
        ("read_cap = 1234", "--read-cap", "2000", "read_cap", 2_000.0),
        (
            "duration_seconds = 600",
            "--duration",
            "1200",
            "duration_seconds",
            1_200.0,
        ),
        ("risk = 0.02", "--risk", "0.005", "risk", 0.005),
        (
            "partitions = 400",
            "--partitions",
            "700",
            "partitions",
            700.0,
        ),
    ];
    for (i, &(line, flag, value, key, given)) in fields.iter().enumerate() {
        let path = dir.path().join(format!("s{i}.toml"));
        // A flat load needs a peak: the scenario gives one unless the field
        // under test is the peak.
        let peak = if field_of(line) == "peak" {
            ""
        } else {
            "peak = 11000\n"
        };
        let text = format!("describes = [\"flat-load\"]\n{peak}{line}\n");
        std::fs::write(&path, text).unwrap();
        let file = path.to_str().unwrap();
        let field = field_of(line);
        let written: f64 = line.split(" = ").nth(1).unwrap().parse().unwrap();
        let from_file = format!("scenario {file}: {field}");
        for store in [&[][..], &["--store", "dynamodb"][..]] {
            let mut args = vec!["size", "--scenario", file];
            args.extend_from_slice(store);
            let doc = crate::common::json_of(&args);
            let input = &doc["inputs"][key];
            assert_eq!(
                input["source"],
                from_file.as_str(),
                "{line} {store:?}: {input}"
            );
            assert_eq!(input["value"].as_f64(), Some(written), "{line} {store:?}");
            args.extend([flag, value]);
            let doc = crate::common::json_of(&args);
            let input = &doc["inputs"][key];
            assert_eq!(input["source"], flag, "{line} {flag} {store:?}: {input}");
            assert_eq!(input["value"].as_f64(), Some(given), "{line} {flag}");
        }
    }
}

/// Every flag a command accepts changes its output, or is refused with
/// one line naming it (exit 2): never accepted and ignored. Each flag is
/// given a value other than the one in force, on the bundled scenario.
#[test]
fn every_accepted_flag_changes_the_output_or_is_refused() {
    let flags: &[&[&str]] = &[
        &["--cap", "800"],
        &["--safe", "600"],
        &["--headroom", "0.2"],
        &["--traffic", "poisson"],
        &["--dispersion", "50"],
        &["--duration", "1h"],
        &["--risk", "0.001"],
        &["--partitions", "500"],
        &["--picker", "round-robin"],
        &["--servers", "7000"],
        &["--views", "900000"],
        &["--cache-seconds", "0.01"],
        &["--batch-size", "3"],
        &["--read-cap", "5"],
        &["--unlike-share", "0.2"],
        &["--store", "dynamodb"],
        &["--transactional"],
        &["--nodes", "5"],
        &["--node-cap", "900"],
        &["--seed", "7"],
        &["--trials", "300"],
        &["--growth", "2"],
    ];
    let commands: &[&[&str]] = &[
        &["size"],
        &["size", "--shards", "18"],
        &["risk", "--shards", "18"],
        &["sweep", "--shards", "17..19"],
        &["partitions", "--shards", "20", "--partitions", "100"],
        &["keys", "--template", "reel:1:<shard>", "--shards", "6"],
        &["compare", "--duration", "10m"],
    ];
    let mut ignored = Vec::new();
    for command in commands {
        let base = run_strs(command, &[]);
        assert_eq!(base.0, 0, "{command:?}: {}", base.2);
        for flag in flags {
            let with = run_strs(command, flag);
            match with.0 {
                2 => assert_eq!(
                    with.2.lines().count(),
                    1,
                    "{command:?} {flag:?}: {}",
                    with.2
                ),
                0 | 1 if with.1 != base.1 => {}
                code => ignored.push(format!("{command:?} {flag:?} (exit {code})")),
            }
        }
    }
    assert!(
        ignored.is_empty(),
        "accepted and ignored:\n{}",
        ignored.join("\n")
    );
}

/// The field a `field = value` line sets.
fn field_of(line: &str) -> &str {
    line.split(" = ").next().unwrap()
}

/// `shardplan ARGS EXTRA --format json`: exit code, stdout, stderr.
fn run_strs(args: &[&str], extra: &[&str]) -> (i32, String, String) {
    let out = shardplan()
        .args(args)
        .args(extra)
        .args(["--format", "json"])
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}
