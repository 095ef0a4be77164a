//! `report --reconcile-from FILE`: the model's reconciliation (`shardplan
//! reconcile`) and a measured run (`shardplan measure --reconcile`, a real
//! run's JSON in tests/data) as the report's own section; a file that is
//! neither is refused naming the flag, and `--measure` points a reconcile
//! run to it.

use crate::common::{bad_input, shardplan};

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
