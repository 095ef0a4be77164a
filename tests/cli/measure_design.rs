//! `measure --design`'s flags, refused before any server is reached: each
//! flag with no effect on the chosen design, and each bad value, names
//! itself on one line with exit code 2.

use crate::common::bad_input;

const URL: &str = "redis://127.0.0.1:1";

fn design(args: &[&str], what: &str) {
    let mut all = vec!["measure", "--redis", URL];
    all.extend_from_slice(args);
    bad_input(&all, what);
}

#[test]
fn flags_without_a_use_in_the_chosen_design_are_refused() {
    design(&["--rate", "100"], "--rate");
    design(&["--design", "sharded", "--flush", "1s"], "--flush");
    design(&["--design", "single", "--shards", "4"], "--shards");
    design(&["--design", "sharded", "--rebuild"], "--rebuild");
    design(
        &[
            "--design",
            "sharded",
            "--fault-at",
            "1s",
            "--fault",
            "kill-writer",
        ],
        "--fault",
    );
    design(&["--design", "buffered", "--fault-at", "1s"], "--fault-at");
    design(&["--fault-command", "true"], "--fault-at");
    design(&["--design", "log", "--runs", "3"], "--runs");
    design(&["--design", "log", "--picker", "sticky"], "--picker");
}

#[test]
fn bad_values_name_their_flag() {
    design(&["--design", "sharded", "--rate", "0"], "--rate");
    design(&["--design", "sharded", "--rate", "NaN"], "--rate");
    design(&["--design", "sharded", "--rate", "2e6"], "--rate");
    design(&["--design", "buffered", "--flush", "1ms"], "--flush");
    design(
        &[
            "--design",
            "buffered",
            "--flush",
            "20s",
            "--duration",
            "10s",
        ],
        "--flush",
    );
    let late = [
        "--design",
        "sharded",
        "--duration",
        "2s",
        "--fault-at",
        "2s",
    ];
    design(
        &[&late[..], &["--fault-command", "true"]].concat(),
        "--fault-at",
    );
    design(
        &[
            "--design",
            "sharded",
            "--fault-at",
            "1s",
            "--fault-command",
            " ",
        ],
        "--fault-command",
    );
    design(
        &["--design", "sharded", "--wait-replicas", "0"],
        "--wait-replicas",
    );
    design(&["--design", "sideways"], "--design");
}

#[test]
fn a_short_run_of_a_design_without_a_flush_is_not_refused() {
    // The flush (default 1 s) is the buffered design's only: a 500 ms
    // sharded run passes the checks and fails only at the connection; a
    // buffered one shorter than a second flushes at its end.
    for design in ["sharded", "buffered"] {
        let args = [
            "measure",
            "--redis",
            URL,
            "--design",
            design,
            "--duration",
            "500ms",
        ];
        let out = crate::common::shardplan().args(args).assert().code(1);
        let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
        assert!(stderr.contains("cannot connect"), "{design}: {stderr}");
    }
}
