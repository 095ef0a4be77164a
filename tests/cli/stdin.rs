//! `-` means standard input for `--scenario`, `--rates-csv` and `keys`, as
//! in `cat -`; standard input is read once, so two flags naming it are
//! refused before either reads.

use crate::common;

use crate::common::shardplan;
use serde_json::Value;

fn scenario_text(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/scenarios/{name}.toml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

/// `shardplan ARGS --format json` fed `stdin`, parsed.
fn json_with_stdin(args: &[&str], stdin: &str) -> Value {
    let out = shardplan()
        .args(args)
        .args(["--format", "json"])
        .write_stdin(stdin)
        .assert()
        .success();
    serde_json::from_slice(&out.get_output().stdout).unwrap()
}

fn stdout_with_stdin(args: &[&str], stdin: &str) -> String {
    let out = shardplan().args(args).write_stdin(stdin).assert().success();
    String::from_utf8(out.get_output().stdout.clone()).unwrap()
}

#[test]
fn a_scenario_on_standard_input_gives_the_same_plan_as_its_file() {
    for name in ["viral-reel", "interview"] {
        let piped = json_with_stdin(&["size", "--scenario", "-"], &scenario_text(name));
        let bundled = json_with_stdin(&["size", "--scenario", name], "");
        assert_eq!(piped["recommendation"], bundled["recommendation"], "{name}");
        assert_eq!(piped["rows"], bundled["rows"], "{name}");
        assert_eq!(piped["inputs"]["scenario"]["value"], "standard input");
    }
}

#[test]
fn errors_in_a_piped_scenario_name_standard_input() {
    let out = shardplan()
        .args(["size", "--scenario", "-"])
        .write_stdin("peak = 14000\npeek = 2\n")
        .assert()
        .code(2);
    let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("scenario standard input"), "{err}");
    assert!(err.contains("peek") && err.contains("line 2"), "{err}");
}

#[test]
fn rates_csv_from_standard_input_equals_the_file() {
    let csv = "reel_id,rate\nr1,9000\nr2,400\nr3,50\n";
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rates.csv");
    std::fs::write(&path, csv).unwrap();
    let piped = stdout_with_stdin(&["fleet", "--rates-csv", "-", "--format", "csv"], csv);
    let file = stdout_with_stdin(
        &[
            "fleet",
            "--rates-csv",
            path.to_str().unwrap(),
            "--format",
            "csv",
        ],
        "",
    );
    assert_eq!(piped, file);
    assert!(piped.lines().count() > 1, "{piped}");
}

#[test]
fn standard_input_is_read_once() {
    let out = shardplan()
        .args(["fleet", "--scenario", "-", "--rates-csv", "-"])
        .write_stdin("reel_id,rate\nr1,10\n")
        .assert()
        .code(2);
    let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("--rates-csv") && err.contains("--scenario already reads"),
        "{err}"
    );
}

#[test]
fn keys_reads_a_file_or_standard_input_alike() {
    let keys = "reel:1:likes:{0}\nreel:1:likes:{1}\nreel:1:likes:{2}\n";
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("keys.txt");
    std::fs::write(&path, keys).unwrap();
    let dash = stdout_with_stdin(&["keys", "-", "--format", "csv"], keys);
    let flag = stdout_with_stdin(&["keys", "--stdin", "--format", "csv"], keys);
    let file = stdout_with_stdin(&["keys", path.to_str().unwrap(), "--format", "csv"], "");
    assert_eq!(dash, flag);
    assert_eq!(dash, file);
    // CRC16 of "0", "1", "2" (the hash tags): the slots redis-cli reports,
    // on the bundled scenario's 3 masters (0-5460, 5461-10922, 10923-16383).
    assert_eq!(
        dash,
        "key,slot,node\nreel:1:likes:{0},13907,2\nreel:1:likes:{1},9842,1\nreel:1:likes:{2},5649,1\n"
    );
    common::bad_input(&["keys", "/nonexistent/keys.txt"], "FILE");
    common::bad_input(&["keys", "-", "--shards", "3"], "--shards");
}

#[test]
fn an_inner_empty_line_is_the_empty_key_and_trailing_blank_lines_are_not_keys() {
    // Issue 32: the empty key is a valid Redis key (slot 0: CRC16 of no
    // bytes is 0); only the blank lines at the very end are not keys.
    let piped = stdout_with_stdin(&["keys", "-", "--format", "csv"], "a:{1}\n\nb:{1}\n\n");
    assert_eq!(piped, "key,slot,node\na:{1},9842,1\n,0,0\nb:{1},9842,1\n");
}

#[test]
fn a_chart_goes_to_standard_output_and_a_report_folder_cannot() {
    let svg = stdout_with_stdin(&["chart", "--kind", "risk", "-o", "-"], "");
    assert!(svg.starts_with("<svg"), "{}", &svg[..svg.len().min(80)]);
    common::bad_input(&["report", "-o", "-"], "--output");
}

#[test]
fn per_second_rows_stream_to_standard_output_when_the_results_go_to_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("out.json");
    for scenario in ["viral-reel", "viral-evening"] {
        let out = common::shardplan()
            .args(["simulate", "--scenario", scenario, "--seconds", "3"])
            .args(["--per-second", "-", "-o"])
            .arg(&json)
            .assert()
            .success();
        let rows = String::from_utf8(out.get_output().stdout.clone()).unwrap();
        // A header and one row a second, and no file named "-".
        assert_eq!(rows.lines().count(), 4, "{scenario}: {rows}");
        assert!(!std::path::Path::new("-").exists());
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
        assert_eq!(v["command"], "simulate");
    }
    // Standard output cannot carry both.
    let out = common::shardplan()
        .args(["simulate", "--seconds", "3", "--per-second", "-"])
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert_eq!(
        err,
        "shardplan: --per-second: - is standard output, which already carries the results; \
         give them a file with -o FILE, or the rows a file name\n"
    );
}
