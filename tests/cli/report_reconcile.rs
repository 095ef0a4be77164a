//! `report --reconcile-from FILE`: the model's reconciliation (`shardplan
//! reconcile`) and a measured run (`shardplan measure --reconcile`, a real
//! run's JSON in tests/data) as the report's own section; a file that is
//! neither is refused naming the flag, and `--measure` points a reconcile
//! run to it.

use crate::common::{bad_input, shardplan, thousands};

const MEASURED: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/measure_reconcile.json"
);

#[test]
fn the_model_and_a_measured_run_are_the_reports_reconciliation_section() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("model.json");
    shardplan()
        .args([
            "reconcile",
            "--daily-likes",
            "100000000",
            "--peak",
            "14000",
            "-o",
        ])
        .arg(&model)
        .assert()
        .success();
    let out = dir.path().join("out");
    shardplan()
        .args(["report", "--quiet", "--peak", "14000", "--safe", "700"])
        .arg("--reconcile-from")
        .arg(&model)
        .arg("--reconcile-from")
        .arg(MEASURED)
        .arg("--output")
        .arg(&out)
        .assert()
        .success();
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    let section = md
        .split("\n## Reconciliation\n")
        .nth(1)
        .expect("the section");
    let section = section.split("\n## ").next().unwrap();
    for needle in [
        "The model (`shardplan reconcile`, model.json)",
        "net +40,000 likes a day (50,000 over-counted, 10,000 under-counted)",
        "| transactions          | none ",
        "Measured (`shardplan measure --reconcile`, tests/data/measure_reconcile.json): 5,000 likes",
        "| replies dropped         | 258; 258 applied (the server's ledger) |",
        "-24 (the faults' -103 + the jobs during the writes' +79)",
        "After the final job the counter equals the rows (5,000)",
    ] {
        assert!(section.contains(needle), "{needle}:\n{section}");
    }
    assert!(
        md.contains("--reconcile-from"),
        "the command that writes it again"
    );
    // One answer: the section's drift and the measured run's counts are
    // the files' own figures, as their JSON holds them.
    let json = |p: &std::path::Path| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
    };
    let d = &json(&model)["drift"];
    let whole = |v: &serde_json::Value| thousands(v.as_f64().unwrap().round() as u64);
    let drift = format!(
        "net +{} likes a day ({} over-counted, {} under-counted)",
        whole(&d["net_per_day"]),
        whole(&d["over_per_day"]),
        whole(&d["under_per_day"])
    );
    assert!(section.contains(&drift), "{drift}:\n{section}");
    let run = json(std::path::Path::new(MEASURED));
    let (r, w) = (&run["reconciliation"], &run["writes"]);
    for needle in [
        format!("{} likes", thousands(w["likes"].as_u64().unwrap())),
        format!(
            "| replies dropped         | {}; {} applied",
            w["lost_replies"], w["lost_applied"]
        ),
        format!("{} (the faults'", r["drift_before"]),
        format!(
            "the counter equals the rows ({})",
            thousands(r["counted_after"].as_u64().unwrap())
        ),
    ] {
        assert!(section.contains(&needle), "{needle}:\n{section}");
    }
}

#[test]
fn a_file_that_is_no_reconciliation_is_refused_naming_the_flag() {
    let dir = tempfile::tempdir().unwrap();
    let size = dir.path().join("size.json");
    shardplan()
        .args(["size", "--peak", "14000", "-o"])
        .arg(&size)
        .assert()
        .success();
    let out = dir.path().join("out");
    let (size, out) = (size.to_str().unwrap(), out.to_str().unwrap());
    bad_input(
        &["report", "--reconcile-from", size, "-o", out],
        "--reconcile-from",
    );
    bad_input(
        &["report", "--measure", MEASURED, "-o", out],
        "report reads it with --reconcile-from",
    );
}
