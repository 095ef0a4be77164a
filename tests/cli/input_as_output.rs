//! An input that is also an output of the same run is refused as that,
//! before it is read, whatever it holds (a file of the wrong shape says
//! "the same file", not what is wrong with its content), in every command
//! that reads a file; the file is left as it was.

use crate::common::shardplan;

/// Runs shardplan in `dir`, which must refuse (exit 2, one line) saying
/// that `flag`'s file is an output of this run; the file is unchanged.
fn refused_as_output(dir: &std::path::Path, args: &[&str], flag: &str, file: &str) {
    let path = dir.join(file);
    let before = std::fs::read(&path).unwrap();
    let out = shardplan().current_dir(dir).args(args).assert().code(2);
    let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(
        err.starts_with(&format!("shardplan: {flag}")),
        "{args:?}: {err}"
    );
    assert!(err.contains("an output of this run"), "{args:?}: {err}");
    assert!(err.contains("is never written over"), "{args:?}: {err}");
    assert_eq!(std::fs::read(&path).unwrap(), before, "{args:?}");
    let temps = std::fs::read_dir(dir)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .ends_with(".tmp")
        })
        .count();
    assert_eq!(temps, 0, "{args:?}");
}

#[test]
fn every_file_a_run_reads_is_refused_as_its_output() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Nothing any reader would accept: the alias is found first.
    for name in ["r.csv", "s.toml", "m.json", "t.csv", "k.csv", "rows.csv"] {
        std::fs::write(d.join(name), "not what the reader wants\n").unwrap();
    }
    let cases: [(&[&str], &str, &str); 8] = [
        (
            &["fleet", "--rates-csv", "r.csv", "-o", "r.csv"],
            "--rates-csv",
            "r.csv",
        ),
        (
            &["fleet", "--rates-csv", "./r.csv", "-o", "r.csv"],
            "--rates-csv",
            "r.csv",
        ),
        (
            &[
                "size",
                "--scenario",
                "s.toml",
                "--format",
                "json",
                "-o",
                "s.toml",
            ],
            "--scenario",
            "s.toml",
        ),
        (
            &[
                "size",
                "--peak",
                "9000",
                "--cap-from-measure",
                "m.json",
                "-o",
                "m.json",
            ],
            "--cap-from-measure",
            "m.json",
        ),
        (
            &["size", "--traffic-from", "t.csv", "-o", "t.csv"],
            "--traffic-from",
            "t.csv",
        ),
        (
            &[
                "simulate",
                "--traffic-from",
                "t.csv",
                "--per-second",
                "t.csv",
                "-o",
                "x.csv",
            ],
            "--traffic-from",
            "t.csv",
        ),
        (&["keys", "k.csv", "-o", "k.csv"], "FILE", "k.csv"),
        (
            &[
                "simulate",
                "--seconds",
                "5",
                "--scenario",
                "s.toml",
                "--per-second",
                "s.toml",
            ],
            "--scenario",
            "s.toml",
        ),
    ];
    for (args, flag, file) in cases {
        refused_as_output(d, args, flag, file);
    }
}

#[test]
fn a_report_does_not_read_a_file_it_writes() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("out")).unwrap();
    std::fs::write(d.join("out/report.md"), "{}").unwrap();
    refused_as_output(
        d,
        &["report", "-q", "--measure", "out/report.md", "-o", "out"],
        "--measure",
        "out/report.md",
    );
    // The default folder, report/, without -o.
    std::fs::create_dir(d.join("report")).unwrap();
    std::fs::write(d.join("report/risk.svg"), "{}").unwrap();
    refused_as_output(
        d,
        &["report", "-q", "--measure", "report/risk.svg"],
        "--measure",
        "report/risk.svg",
    );
}

#[test]
fn a_hard_link_to_the_input_is_the_same_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("r.csv"), "reel_id,rate\nr1,5\n").unwrap();
    std::fs::hard_link(d.join("r.csv"), d.join("copy.csv")).unwrap();
    refused_as_output(
        d,
        &["fleet", "--rates-csv", "copy.csv", "-o", "r.csv"],
        "--rates-csv",
        "r.csv",
    );
}
