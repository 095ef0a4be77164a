//! Value stability: the seed-2026 figures the README prints, pinned
//! exactly. Every one is a pure function of the seed (one RNG stream per
//! fixed chunk of work, whatever the thread count), so a change here means
//! the sampler, the seeding or the model changed: update the README and
//! these values together, deliberately.

mod common;

use common::json_of;
use serde_json::Value;

/// The figures of one run that the README quotes.
fn pick(v: &Value, keys: &[&str]) -> Vec<(String, Value)> {
    keys.iter()
        .map(|k| (k.to_string(), v[*k].clone()))
        .collect()
}

fn pinned(args: &[&str], keys: &[&str], want: &[Value]) {
    let v = json_of(args);
    let got = pick(&v, keys);
    for ((k, got), want) in got.iter().zip(want) {
        assert_eq!(got, want, "{args:?}: {k}");
    }
}

const FLAT: &[&str] = &[
    "busiest_max",
    "quietest_min",
    "busiest_mean",
    "busiest_p50",
    "busiest_p99",
    "busiest_p999",
    "seconds_over_cap",
    "likes_total",
    "sampler",
];

#[test]
fn reference_case_exact_table_sampler() {
    // 14,000 likes/s over 20 shards, 2,000 s (README: `shardplan simulate`).
    pinned(
        &["simulate"],
        FLAT,
        &[
            799.into(),
            595.into(),
            749.935.into(),
            749.into(),
            783.into(),
            796.into(),
            0.into(),
            28_000_000.into(),
            "exact-table".into(),
        ],
    );
}

#[test]
fn reference_case_multinomial_sampler() {
    pinned(
        &["simulate", "--sampler", "multinomial"],
        FLAT,
        &[
            819.into(),
            602.into(),
            750.0635.into(),
            748.into(),
            789.into(),
            806.into(),
            0.into(),
            28_000_000.into(),
            "multinomial".into(),
        ],
    );
}

#[test]
fn overload_goes_over_the_cap() {
    // 18,000 likes/s over the same 20 shards: the busiest shard reaches
    // 1,012 and 12 of 2,000 seconds go over the cap.
    let want = [
        1012.into(),
        781.into(),
        956.5615.into(),
        955.into(),
        994.into(),
        1009.into(),
        12.into(),
        36_000_000.into(),
        "exact-table".into(),
    ];
    pinned(&["simulate", "--scenario", "overload"], FLAT, &want);
    // The same load from flags gives the same run.
    pinned(
        &["simulate", "--rate", "18000", "--shards", "20"],
        FLAT,
        &want,
    );
}

const TIMELINE: &[&str] = &[
    "busiest_max",
    "total_writes",
    "accepted_writes",
    "rejected_writes",
    "first_rejection_second",
    "rejected_before_raise",
];

#[test]
fn viral_evening_on_one_key() {
    pinned(
        &["simulate", "--scenario", "viral-evening"],
        TIMELINE,
        &[
            9367.into(),
            75_603_995.into(),
            9_769_312.into(),
            65_834_683.into(),
            265.into(),
            65_834_683.into(),
        ],
    );
}

#[test]
fn viral_evening_with_the_monitor() {
    pinned(
        &["simulate", "--scenario", "viral-evening-monitor"],
        TIMELINE,
        &[
            1654.into(),
            75_615_812.into(),
            75_615_812.into(),
            0.into(),
            Value::Null,
            0.into(),
        ],
    );
}
