//! Observed traces written for the end-to-end tests.

use std::fmt::Write as _;
use std::path::Path;

/// A per-second CSV `time,count` of `counts`, one a second.
pub fn write_trace(path: &Path, counts: &[u64]) {
    let mut text = String::from("time,count\n");
    for (s, c) in counts.iter().enumerate() {
        writeln!(text, "{},{c}", 1_773_500_000 + s).unwrap();
    }
    std::fs::write(path, text).unwrap();
}

/// A bursty trace: 600 seconds of 8,000 to 9,000 likes and ten bursts of
/// 10,000 to 11,000 (the busiest observed second: 11,000).
pub fn bursty() -> Vec<u64> {
    let mut v: Vec<u64> = (0..600).map(|i| 8_000 + (i * 37) % 1_001).collect();
    v.extend((0..10).map(|i| 10_000 + 100 * i + if i == 9 { 100 } else { 0 }));
    v
}
