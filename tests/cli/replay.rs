//! `simulate --traffic-from FILE --replay`: the observed trace as the time
//! line, second by second.

use crate::common::{bad_input, json_of};

/// A per-second trace: 300 s at 6,000 likes/s with a 20-second burst to
/// 15,000 from second 100, in a file the test writes.
fn trace(dir: &std::path::Path) -> (String, u64, u64) {
    let mut text = String::from("time,count\n");
    let mut total = 0;
    for i in 0..300u64 {
        let n = if (100..120).contains(&i) {
            15_000
        } else {
            6_000 + i % 7
        };
        total += n;
        text.push_str(&format!("{},{n}\n", 1_764_600_000 + i));
    }
    let path = dir.join("evening.csv");
    std::fs::write(&path, text).unwrap();
    (path.to_str().unwrap().to_string(), total, 15_000)
}

#[test]
fn a_per_second_trace_replays_its_counts_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let (file, total, peak) = trace(dir.path());
    let v = json_of(&[
        "simulate",
        "--traffic-from",
        &file,
        "--replay",
        "--shards",
        "12",
        "--burst-seconds",
        "0",
    ]);
    // Fixed traffic along a step curve: every second sends its count.
    assert_eq!(v["traffic"], "fixed");
    assert_eq!(v["seconds"], 300);
    assert_eq!(v["total_writes"].as_u64().unwrap(), total);
    assert_eq!(v["peak_likes"].as_u64().unwrap(), peak);
    // 15,000 over 12 shards is 1,250 a shard: the burst goes over the cap
    // in every one of its 20 seconds and nowhere else (6,006 / 12 < 501).
    let over = v["seconds_with_rejections"].as_u64().unwrap();
    assert_eq!(over, 20, "{v}");
    assert_eq!(v["first_rejection_second"], 101);
    assert_eq!(
        v["inputs"]["seconds"]["source"],
        "derived: the trace's length"
    );
}

#[test]
fn replay_needs_a_trace_and_takes_its_rate_from_it() {
    bad_input(&["simulate", "--replay"], "--replay: needs --traffic-from");
    let dir = tempfile::tempdir().unwrap();
    let (file, ..) = trace(dir.path());
    bad_input(
        &[
            "simulate",
            "--traffic-from",
            &file,
            "--replay",
            "--rate",
            "9000",
        ],
        "--rate: has no effect with --replay",
    );
}
