//! `--traffic empirical` end to end: the law of a second's count is the
//! observed per-second distribution, each count grown by planned peak /
//! observed peak; `risk`, `sweep`, `size --risk` and `simulate` use it,
//! and what it cannot serve is refused in one line naming the flag.

use crate::common::traces::{bursty, write_trace};
use crate::common::{json_of, schema_errors, shardplan};
use serde_json::Value;
use shardplan::model::exact::BusiestShard;
use shardplan::model::law::TrafficModel;

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

/// The planned law as the CLI must build it: round(n x growth) per second.
fn planned(counts: &[u64], growth: f64) -> Vec<(u64, f64)> {
    let mut grown: Vec<u64> = counts
        .iter()
        .map(|&n| (n as f64 * growth).round() as u64)
        .collect();
    grown.sort_unstable();
    let total = grown.len() as f64;
    grown
        .chunk_by(|a, b| a == b)
        .map(|run| (run[0], run.len() as f64 / total))
        .collect()
}

/// `risk` with empirical traffic: the rate is the grown law's mean (derived),
/// the inputs carry its summary, the tail is the weighted sum of the fixed
/// counts' tails (built here from the library's fixed law, independently
/// of the CLI's grouping and growth) within 1e-12 relative.
#[test]
fn risk_is_the_mixture_of_fixed_counts() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("evening.csv");
    let counts = bursty();
    write_trace(&csv, &counts);
    let csv = csv.to_str().unwrap();
    let args = [
        "risk",
        "--traffic-from",
        csv,
        "--traffic",
        "empirical",
        "--shards",
        "20",
        "--cap",
        "840",
        "--growth",
        "1.5",
    ];
    let v = json_of(&args);
    assert!(
        schema_errors("risk", &v).is_empty(),
        "{:?}",
        schema_errors("risk", &v)
    );
    assert_eq!(v["traffic"], "empirical");
    let law = planned(&counts, 1.5);
    let mean: f64 = law.iter().map(|&(n, w)| n as f64 * w).sum();
    assert!(
        (f(&v["rate"]) - mean).abs() < 1e-9 * mean,
        "{} vs {mean}",
        v["rate"]
    );
    let inputs = &v["inputs"];
    assert_eq!(
        inputs["rate"]["source"],
        "derived: the mean of the empirical law"
    );
    let e = &inputs["empirical"]["value"];
    assert_eq!(e["distinct_counts"], law.len());
    assert_eq!(e["seconds"], counts.len());
    assert_eq!(e["max"], 16_500);
    assert_eq!(f(&e["growth"]), 1.5);
    let mut tail = 0.0;
    for &(n, w) in &law {
        let d = BusiestShard::new(n as f64, 20, TrafficModel::Fixed).unwrap();
        tail += w * d.sf(840);
    }
    let p = f(&v["key_p_over_cap_per_second"]);
    assert!((p - tail).abs() < 1e-12 * tail, "{p} vs {tail}");
    assert!(p > 1e-6 && p < 0.5, "{p}: a figure in the body");
}

/// Every observed second the same: empirical is fixed traffic at the grown
/// count, figure for figure (9,333 x 1.5 = 13,999.5 rounds to 14,000).
#[test]
fn one_count_equals_fixed_traffic() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("flat.csv");
    write_trace(&csv, &[9_333; 120]);
    let csv = csv.to_str().unwrap();
    let common = ["--shards", "20", "--cap", "800", "--duration", "2000"];
    let mut a = vec!["risk", "--traffic-from", csv, "--traffic", "empirical"];
    a.extend(common);
    let emp = json_of(&a);
    let mut b = vec!["risk", "--peak", "14000", "--traffic", "fixed"];
    b.extend(common);
    let fixed = json_of(&b);
    assert_eq!(emp["rate"], 14_000.0);
    for key in [
        "key_p_over_cap_per_second",
        "key_ln_p_over_cap_per_second",
        "key_p_any_over_cap",
        "busiest_mean_per_second",
        "busiest_p999_per_second",
        "busiest_over_run_median",
        "busiest_over_run_q01",
        "busiest_over_run_q99",
    ] {
        assert_eq!(emp[key], fixed[key], "{key}");
    }
}

/// `sweep` and `size --risk`: one law for every shard count; the risk falls
/// as shards are added, and the recommendation is the fewest count meeting
/// the risk (its neighbour below does not).
#[test]
fn sweep_and_size_use_the_law() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("evening.csv");
    write_trace(&csv, &bursty());
    let csv = csv.to_str().unwrap();
    let v = json_of(&[
        "sweep",
        "--traffic-from",
        csv,
        "--traffic",
        "empirical",
        "--shards",
        "18..22",
    ]);
    assert!(
        schema_errors("sweep", &v).is_empty(),
        "{:?}",
        schema_errors("sweep", &v)
    );
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 5);
    let ln: Vec<f64> = rows
        .iter()
        .map(|r| f(&r["key_ln_p_any_over_cap"]))
        .collect();
    assert!(ln.windows(2).all(|w| w[1] < w[0]), "{ln:?}");
    assert!(rows.iter().all(|r| r["traffic"] == "empirical"));

    let s = json_of(&[
        "size",
        "--traffic-from",
        csv,
        "--traffic",
        "empirical",
        "--risk",
        "0.01",
    ]);
    assert!(
        schema_errors("size", &s).is_empty(),
        "{:?}",
        schema_errors("size", &s)
    );
    let shards = s["key_risk_shards"].as_u64().unwrap();
    assert_eq!(s["shards"], shards);
    // No capacity rate: the law is the observed seconds at one growth.
    assert!(s["capacity_rate"].is_null());
    let at = |n: u64| {
        let n = n.to_string();
        let r = json_of(&[
            "risk",
            "--traffic-from",
            csv,
            "--traffic",
            "empirical",
            "--shards",
            &n,
        ]);
        f(&r["key_p_any_over_cap"])
    };
    assert!(at(shards) <= 0.01 && at(shards - 1) > 0.01, "{shards}");
}

/// The simulator draws one observed second uniformly and spreads its count
/// as fixed traffic does: 100,000 seconds against the exact law. The mean
/// within 5 standard errors (sd / sqrt(n)), the share of seconds over the
/// cap within 5 binomial standard errors (sqrt(p (1 - p) / n)): a false
/// failure about once in 1.7 million seeds each. `auto` must choose the
/// multinomial sampler (empirical traffic has no quietest-shard table), and
/// the result is the same for any number of threads.
#[test]
fn simulation_samples_the_same_law() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("evening.csv");
    write_trace(&csv, &bursty());
    let csv = csv.to_str().unwrap();
    let args = |threads: &'static str| {
        vec![
            "simulate",
            "--traffic-from",
            csv,
            "--traffic",
            "empirical",
            "--shards",
            "20",
            "--cap",
            "800",
            "--seconds",
            "100000",
            "--seed",
            "7",
            "--threads",
            threads,
        ]
    };
    let v = json_of(&args("2"));
    assert!(
        schema_errors("simulate", &v).is_empty(),
        "{:?}",
        schema_errors("simulate", &v)
    );
    assert_eq!(v["traffic"], "empirical");
    assert_eq!(v["sampler"], "multinomial");
    let (mut n, mut s, mut s2) = (0.0, 0.0, 0.0);
    for bin in v["busiest"]["bins"]
        .as_array()
        .or(v["busiest_histogram"].as_array())
        .unwrap()
    {
        let (x, k) = (f(&bin["value"]), f(&bin["count"]));
        n += k;
        s += k * x;
        s2 += k * x * x;
    }
    let mean = s / n;
    let sd = (s2 / n - mean * mean).sqrt();
    let exact = f(&v["exact_busiest_mean"]);
    let se = sd / n.sqrt();
    assert!((mean - exact).abs() < 5.0 * se, "{mean} +- {se} vs {exact}");
    let p = f(&v["key_p_over_cap_per_second"]);
    let share = f(&v["seconds_over_cap"]) / n;
    let se = (p * (1.0 - p) / n).sqrt();
    assert!((share - p).abs() < 5.0 * se, "{share} vs {p} +- {se}");
    assert!(p > 0.01, "{p}: the check needs a common event");
    let one = shardplan()
        .args(args("1"))
        .args(["--format", "json"])
        .output()
        .unwrap();
    let two = shardplan()
        .args(args("2"))
        .args(["--format", "json"])
        .output()
        .unwrap();
    assert_eq!(one.stdout, two.stdout);
}

/// Shared partitions and Redis Cluster nodes: with every observed second
/// the same count, the union bounds over the mixture of binomial tails are
/// fixed traffic's, figure for figure; a bursty trace needs at least as
/// many shards as its flat mean would.
#[test]
fn partitions_and_nodes_bound_the_shared_count() {
    let dir = tempfile::tempdir().unwrap();
    let flat = dir.path().join("flat.csv");
    write_trace(&flat, &[9_333; 120]);
    let flat = flat.to_str().unwrap();
    let keys = [
        "shards",
        "binding",
        "partition_shards",
        "partition_shards_stable",
        "partition_p_any_over_cap",
        "node_shards",
        "node_p_any_over_cap",
        "worst_p_any_over_cap",
    ];
    for extra in [
        &["--partitions", "1000"][..],
        &[
            "--store",
            "redis-cluster",
            "--template",
            "r:{<shard>}",
            "--nodes",
            "3",
        ][..],
    ] {
        let mut a = vec![
            "size",
            "--traffic-from",
            flat,
            "--traffic",
            "empirical",
            "--risk",
            "0.01",
        ];
        a.extend(extra);
        let emp = json_of(&a);
        assert!(
            schema_errors("size", &emp).is_empty(),
            "{:?}",
            schema_errors("size", &emp)
        );
        let mut b = vec![
            "size",
            "--peak",
            "14000",
            "--traffic",
            "fixed",
            "--risk",
            "0.01",
        ];
        b.extend(extra);
        let fixed = json_of(&b);
        for key in keys {
            assert_eq!(emp[key], fixed[key], "{extra:?}: {key}");
        }
    }
    let evening = dir.path().join("evening.csv");
    write_trace(&evening, &bursty());
    let v = json_of(&[
        "size",
        "--traffic-from",
        evening.to_str().unwrap(),
        "--traffic",
        "empirical",
        "--risk",
        "0.01",
        "--partitions",
        "1000",
    ]);
    let notes = v.to_string();
    assert!(v["partition_shards"].as_u64().unwrap() >= 1, "{notes}");
}
