//! `measure --picker` against a real standalone Redis: each client is one
//! app server writing with its picker, and the shard keys' own counts (read
//! back by the run, and here with redis-cli) show the picker's law.

use std::time::Duration;

use crate::common;
use crate::common::redis::*;

use shardplan::measure::{run, MeasureConfig};
use shardplan::model::picker::Picker;

const SHARDS: u64 = 20;
const CLIENTS: u64 = 8;

/// One run of 1.2 s phases (a whole second sampled) on `SHARDS` keys.
fn config(url: &str, picker: Picker, clients: u64, shards: u64) -> MeasureConfig {
    let mut c = MeasureConfig::new(
        url,
        false,
        shards,
        clients,
        Duration::from_millis(1200),
        None,
        1,
        Some("likes:<shard>"),
    )
    .unwrap();
    c.runs = 1;
    c.picker = picker;
    c
}

#[test]
fn round_robin_clients_leave_shard_totals_within_one_incr_per_client() {
    let s = Servers::spawn(1, false);
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("rr.json");
    // As a user types it: the flag, its source, the document's schema.
    common::shardplan()
        .args(["measure", "--picker", "Round-Robin", "--shards", "20"])
        .args(["--clients", "8", "--duration", "1200ms", "--runs", "1"])
        .args(["--template", "likes:<shard>", "--keep", "--redis"])
        .arg(s.url())
        .arg("-o")
        .arg(&json)
        .assert()
        .success();
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert!(common::schema_errors("measure", &v).is_empty());
    assert_eq!(v["picker"], "round-robin");
    assert_eq!(v["inputs"]["picker"]["source"], "--picker");
    // Each client's cursor moves one shard an INCR, from the warm-up to
    // the end of the last sharded phase: its INCRs differ by at most one
    // between any two shards, so the totals differ by at most one a client.
    let load = &v["shard_load"];
    let totals: Vec<i64> = (0..SHARDS)
        .map(|i| {
            redis_cli(s.ports[0], &["GET", &format!("likes:{i}")])
                .trim()
                .parse()
                .unwrap()
        })
        .collect();
    assert_eq!(
        load["totals"],
        serde_json::json!(totals),
        "the server's own"
    );
    let spread = totals.iter().max().unwrap() - totals.iter().min().unwrap();
    assert_eq!(load["total_spread"], spread);
    assert!(spread <= CLIENTS as i64, "{totals:?}");
    assert_eq!(totals.iter().sum::<i64>(), v["shard_sum"].as_i64().unwrap());
    assert!(load["seconds_sampled"].as_u64().unwrap() >= 1, "{load}");
    let busiest = &load["busiest_per_second"];
    let mean = load["mean_per_shard_per_second"].as_f64().unwrap();
    assert!(busiest["max"].as_f64().unwrap() >= mean, "{load}");
    assert_eq!(v["shard_load_model"]["figure"], "round_robin_bound");
    eprintln!(
        "round-robin: totals {totals:?}, busiest a second {busiest} (mean {mean:.1}), model {}",
        v["shard_load_model"]
    );
    redis_cli(s.ports[0], &["FLUSHALL"]);

    // Random clients on the same keys: hundreds of INCRs or more a key, so
    // the totals' range is about 3.7 standard deviations of about
    // sqrt(n / S) (13 at 180 a key), far above 8: 20 keys within 8 of each
    // other would take a chance below 1e-10.
    let r = run(&config(&s.url(), Picker::Random, CLIENTS, SHARDS)).unwrap();
    assert_eq!(r.picker, Picker::Random);
    assert!(
        r.shard_load.total_spread > CLIENTS as i64,
        "{:?}",
        r.shard_load
    );
    assert_eq!(r.shard_load.totals.iter().sum::<i64>(), r.shard_sum);
    eprintln!("random: {:?}", r.shard_load);
}

#[test]
fn sticky_clients_each_keep_to_one_shard() {
    let s = Servers::spawn(1, false);
    // Totals only, no second sampled: short phases.
    let short = |clients, shards| {
        let mut c = config(&s.url(), Picker::Sticky, clients, shards);
        c.duration = Duration::from_millis(300);
        c
    };
    // As many clients as shards: every shard gets one client's INCRs.
    let r = run(&short(4, 4)).unwrap();
    assert!(r.counts_match);
    assert!(r.shard_load.totals.iter().all(|&n| n > 0), "{r:?}");
    // Fewer: shards from the client count on get none, nor exist.
    let r = run(&short(2, 5)).unwrap();
    let totals = &r.shard_load.totals;
    assert!(totals[0] > 0 && totals[1] > 0, "{totals:?}");
    assert_eq!(totals[2..], [0, 0, 0], "{totals:?}");
    assert_eq!(r.shard_load.total_min, 0);
    assert_eq!(r.shard_load.total_max, *totals.iter().max().unwrap());
    assert_eq!(keys_on(s.ports[0]).trim(), "", "keys were not cleaned up");
}

#[test]
fn round_robin_on_a_cluster_samples_keys_on_every_node() {
    let s = Servers::spawn(3, true);
    let mut c = config(&s.url(), Picker::RoundRobin, 4, 16);
    c.cluster = true;
    let r = run(&c).unwrap();
    assert!(r.counts_match);
    assert_eq!(r.nodes_reached, 3, "{:?}", r.nodes);
    // The keys span slots: each second's sample is pipelined GETs grouped
    // per node, and the totals keep round-robin's spread.
    assert!(r.read.crossslot_error.is_some());
    assert!(r.shard_load.total_spread <= 4, "{:?}", r.shard_load);
    assert!(r.shard_load.seconds_sampled >= 1, "{:?}", r.shard_load);
    assert_eq!(r.shard_load.totals.iter().sum::<i64>(), r.shard_sum);
}
