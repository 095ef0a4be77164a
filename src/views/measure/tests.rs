use super::*;
use crate::measure::{
    BusiestPerSecond, Latency, MeasureWarning, MgetKeys, NodeOps, PhaseSpread, ReadPath, RunResult,
    ShardLoad, Spread,
};
use crate::model::picker::Picker;
use crate::model::placement::PlacementWarning;
use crate::output::csv::CsvExporter;
use crate::output::json::JsonExporter;
use crate::output::table::TableExporter;
use crate::output::Exporter;

fn run(run: u64, single: f64, sharded: f64) -> RunResult {
    RunResult {
        run,
        single_incr: 1500,
        single_seconds: 1500.0 / single,
        single_ops_per_second: single,
        single_p50_ms: 1.25,
        single_p99_ms: 2.5,
        sharded_incr: 1500,
        sharded_seconds: 1500.0 / sharded,
        sharded_ops_per_second: sharded,
        sharded_p50_ms: 0.75,
        sharded_p99_ms: 2.5,
        ratio: sharded / single,
        single_cpu_seconds: Some(0.2),
        sharded_cpu_seconds: Some(0.2),
        single_max_cpu_share: Some(0.99),
        sharded_max_cpu_share: Some(0.5),
    }
}

pub(super) fn sample(counts_match: bool) -> MeasureReport {
    let latency = |p50_ms| Latency {
        p50_ms,
        p99_ms: 2.5,
        p999_ms: 4.0,
        max_ms: 9.0,
    };
    let node = |address: &str,
                shard_keys,
                single_incr: u64,
                sharded_incr,
                served: Option<u64>,
                cpu: [f64; 2]| {
        NodeOps {
            address: address.into(),
            node: address.into(),
            slots: 8192,
            shard_keys,
            single_incr,
            sharded_incr,
            single_incr_served: served.map(|_| single_incr),
            sharded_incr_served: served,
            server_incr: served,
            single_cpu_seconds: Some(cpu[0]),
            sharded_cpu_seconds: Some(cpu[1]),
            single_cpu_share: Some(cpu[0] / 0.4),
            sharded_cpu_share: Some(cpu[1] / 0.4),
            idle_cpu_per_second: 0.001,
        }
    };
    let run_results = vec![run(1, 6000.0, 12000.0), run(2, 6000.0, 12000.0)];
    let single = PhaseSpread::single(&run_results);
    let sharded = PhaseSpread::sharded(&run_results);
    let ratio = Spread::of(&[2.0, 2.0]);
    MeasureReport {
        redis: "redis://:***@127.0.0.1:7000".into(),
        cluster: true,
        shards: 4,
        clients: 8,
        pipeline: 1,
        template: "shardplan:1a2b3c4d:<shard>".into(),
        run_id: Some("1a2b3c4d".into()),
        single_key: "shardplan:1a2b3c4d:single".into(),
        runs: 2,
        single_ops_per_second_mean: 6000.0,
        sharded_ops_per_second_mean: 12000.0,
        ratio_ci95: ratio.ci95,
        ratio,
        single,
        sharded,
        single_cpu_seconds: Some(0.4),
        sharded_cpu_seconds: Some(0.4),
        single_max_cpu_share: Some(0.99),
        sharded_max_cpu_share: Some(0.5),
        single_incr_sent: 3000,
        single_seconds: 0.5,
        single_ops_per_second: 6000.0,
        single_value: 3000,
        single_latency: latency(1.25),
        incr_sent: 3000,
        warmup_incr_sent: 100,
        sharded_seconds: 0.25,
        sharded_ops_per_second: 12000.0,
        sharded_latency: latency(0.75),
        latency_p99_ms: 2.5,
        shard_sum: if counts_match { 3100 } else { 3099 },
        counts_match,
        speedup: 2.0,
        nodes_reached: 2,
        nodes_possible: 2,
        nodes: vec![
            node("127.0.0.1:7000", 3, 3000, 2250, Some(2250), [0.396, 0.2]),
            node("127.0.0.1:7001", 1, 0, 750, None, [0.004, 0.2]),
        ],
        warnings: Vec::new(),
        read: ReadPath {
            reads: 100,
            nodes_per_read: 2,
            pipelined_get_p50_ms: 0.125,
            mget_p50_ms: Some(0.0625),
            mget_keys: MgetKeys::SameSlotCopy,
            crossslot_error: Some("CROSSSLOT Keys in request don't hash to the same slot".into()),
        },
        keys_kept: false,
        keys_deleted: 9,
        keys_left: Vec::new(),
        keys_restored: 0,
        run_results,
        machine: crate::measure::machine::Machine::here(None),
        picker: Picker::Random,
        // The phases were shorter than a second: none sampled.
        shard_load: ShardLoad {
            totals: vec![776, 775, 774, 775],
            total_min: 774,
            total_max: 776,
            total_spread: 2,
            seconds_sampled: 0,
            busiest_per_second: None,
            mean_per_shard_per_second: None,
        },
        durability: crate::measure::durability::Durability::clean(3100, 3100),
    }
}

/// [`sample`] with round-robin clients over 3 seconds sampled.
fn round_robin() -> MeasureReport {
    let mut r = sample(true);
    r.picker = Picker::RoundRobin;
    r.shard_load.seconds_sampled = 3;
    r.shard_load.busiest_per_second = Some(BusiestPerSecond {
        mean: 3002.2,
        p99: 3004,
        max: 3004,
    });
    r.shard_load.mean_per_shard_per_second = Some(3000.0);
    r
}

fn render(e: &dyn Exporter, r: MeasureReport) -> String {
    String::from_utf8(e.render(&MeasureView(r)).unwrap()).unwrap()
}

fn table(r: MeasureReport) -> String {
    render(
        &TableExporter {
            style: crate::output::terminal::Style::plain(
                crate::output::terminal::ColorChoice::Never,
            ),
        },
        r,
    )
}

#[test]
fn table_shows_the_cpu_headline_both_phases_the_nodes_the_runs_and_the_read_path() {
    let text = table(sample(true));
    for needle in [
        "busiest node's CPU",
        "one key 99.0%, shard keys 50.0% of the Redis CPU (2 nodes)",
        "6,000 ± 0 (95% CI 6,000 to 6,000) INCR/s; p50 1.250 ± 0.000",
        "12,000 ± 0 (95% CI 12,000 to 12,000) INCR/s over 4 keys",
        "2.00x ± 0.00x (95% CI 2.00x to 2.00x): sharded measurably faster",
        "3,100 INCRs sent (100 in the warm-up), shards sum to 3100: nothing lost or doubled",
        "2 (one key and sharded alternating, after a warm-up)",
        "Per node (all runs)",
        "0.396 (99.0%)",
        "3,000 / 2,250",
        "- / -",
        "Each run",
        "0.125 ms median over 2 nodes",
        "idle rate",
    ] {
        assert!(text.contains(needle), "{needle}:\n{text}");
    }
    let text = table(sample(false));
    assert!(text.contains("MISMATCH"), "{text}");
    assert!(text.contains("WARNING: the shard values"), "{text}");
    // A user's template that bunches the keys, and a key another client
    // changed: both said, and CSV counts the left keys.
    let mut r = sample(false);
    r.run_id = None;
    r.template = "{likes}:<shard>".into();
    r.nodes_reached = 1;
    r.keys_deleted = 8;
    r.keys_left = vec!["{likes}:0".into()];
    r.warnings = vec![
        MeasureWarning::NodesUnreached {
            reached: 1,
            nodes: 2,
            shards: 4,
        },
        MeasureWarning::Placement {
            warning: PlacementWarning::SharedSlot {
                shards: 4,
                of: 4,
                slot: 7,
                slot_shards: 4,
                share: 1.0,
                by_hash_tag: true,
            },
        },
    ];
    let text = table(r.clone());
    for needle in [
        "{likes}:<shard> (--template)",
        "1 of 2 possible",
        "8 keys deleted, 1 left (changed by another client)",
        "WARNING: the 4 shard keys reach 1 of the 2 nodes",
        "WARNING: SHARED SLOT: 4 of 4 shard keys",
        "WARNING: 1 keys this run wrote held something else at the end (e.g. {likes}:0)",
    ] {
        assert!(text.contains(needle), "{needle}: {text}");
    }
    let csv = render(&CsvExporter { delimiter: b',' }, r.clone());
    assert!(csv.lines().next().unwrap().contains("keys_left"), "{csv}");
    let json: Value = serde_json::from_str(&render(&JsonExporter, r)).unwrap();
    assert!(json["warnings"][1]
        .as_str()
        .unwrap()
        .starts_with("SHARED SLOT"));
}

#[test]
fn one_run_says_it_has_no_interval_and_an_interval_over_1_no_difference() {
    let mut r = sample(true);
    r.runs = 1;
    r.run_results.truncate(1);
    r.ratio = Spread::of(&[2.0]);
    r.ratio_ci95 = None;
    r.single = PhaseSpread::single(&r.run_results);
    let text = table(r);
    assert!(text.contains("one run gives no interval"), "{text}");
    assert!(
        text.contains("2.00x: one run: no interval, so no verdict"),
        "{text}"
    );
    let mut r = sample(true);
    r.ratio = Spread::of(&[0.8, 1.3, 1.0]);
    let text = table(r);
    assert!(text.contains("no measurable difference"), "{text}");
}

#[test]
fn csv_is_one_flat_row_and_json_the_whole_report() {
    let csv = render(&CsvExporter { delimiter: b',' }, sample(true));
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 2, "{csv}");
    let header: Vec<&str> = lines[0].split(',').collect();
    let values: Vec<&str> = lines[1].splitn(header.len(), ',').collect();
    let cell = |name: &str| {
        let at = header.iter().position(|h| *h == name);
        values[at.unwrap_or_else(|| panic!("no column {name}: {csv}"))]
    };
    assert!(!header.contains(&"nodes"), "{csv}");
    assert!(!header.contains(&"run_results"), "{csv}");
    assert_eq!(cell("run_id"), "1a2b3c4d");
    assert_eq!(cell("runs"), "2");
    assert_eq!(cell("keys_left"), "0");
    assert_eq!(cell("warnings"), "0");
    assert_eq!(cell("single_ops_per_second"), "6000");
    assert_eq!(cell("ratio_ci95_low"), "2");
    assert_eq!(cell("sharded_ops_per_second_ci95_high"), "12000");
    assert_eq!(cell("single_max_cpu_share_mean"), "0.99");
    assert_eq!(cell("sharded_latency_p999_ms"), "4");
    assert_eq!(cell("read_mget_p50_ms"), "0.0625");
    assert_eq!(cell("read_mget_keys"), "same_slot_copy");
    assert_eq!(
        cell("read_crossslot_error"),
        "CROSSSLOT Keys in request don't hash to the same slot"
    );
    let json: Value = serde_json::from_str(&render(&JsonExporter, sample(true))).unwrap();
    assert_eq!(json, MeasureView(sample(true)).json());
    assert_eq!(json["nodes"][1]["sharded_incr_served"], Value::Null);
    assert_eq!(json["read"]["mget_keys"], "same_slot_copy");
    for field in [
        "runs",
        "single_ops_per_second_mean",
        "sharded_ops_per_second_mean",
        "ratio_ci95",
        "single_ops_per_second",
    ] {
        assert!(json.get(field).is_some(), "{field}");
    }
    assert_eq!(json["run_results"].as_array().unwrap().len(), 2);
    for field in [
        "address",
        "single_incr",
        "sharded_incr",
        "single_cpu_seconds",
        "sharded_cpu_seconds",
    ] {
        assert!(json["nodes"][0].get(field).is_some(), "{field}");
    }
}

#[test]
fn the_load_on_the_shards_is_beside_the_models_figure() {
    let text = table(sample(true));
    for needle in [
        "Load on the shards",
        "random: each write to a uniformly random shard",
        "min 774, max 776, max - min 2 over 4 keys",
        "no whole second sampled",
        "3,000 a second: the mean per shard at 12,000 likes/s",
    ] {
        assert!(text.contains(needle), "{needle}:\n{text}");
    }
    let text = table(round_robin());
    for needle in [
        "round-robin: each of the 8 clients is one app server",
        "mean 3,002.2, p99 3,004, max 3,004 over 3 seconds sampled",
        // 3,000 + 8 x 3 / 4 = 3,006.
        "at most 3,006 a second: round-robin's bound at 12,000 likes/s",
    ] {
        assert!(text.contains(needle), "{needle}:\n{text}");
    }
    let json: Value = serde_json::from_str(&render(&JsonExporter, round_robin())).unwrap();
    assert_eq!(json["picker"], "round-robin");
    assert_eq!(
        json["shard_load"]["totals"],
        serde_json::json!([776, 775, 774, 775])
    );
    assert_eq!(json["shard_load"]["busiest_per_second"]["p99"], 3004);
    assert_eq!(json["shard_load_model"]["figure"], "round_robin_bound");
    assert_eq!(json["shard_load_model"]["busiest_per_second"], 3006.0);
    // CSV: the same columns with and without a second sampled; the totals
    // stay in JSON.
    let header = |r: MeasureReport| {
        let csv = render(&CsvExporter { delimiter: b',' }, r);
        let mut reader = ::csv::Reader::from_reader(csv.as_bytes());
        let header = reader.headers().unwrap().clone();
        let row = reader.records().next().unwrap().unwrap();
        let cells: Vec<(String, String)> = header
            .iter()
            .zip(row.iter())
            .map(|(h, c)| (h.to_string(), c.to_string()))
            .collect();
        cells
    };
    let (none, three) = (header(sample(true)), header(round_robin()));
    let names = |c: &[(String, String)]| c.iter().map(|x| x.0.clone()).collect::<Vec<_>>();
    assert_eq!(names(&none), names(&three));
    let cell = |c: &[(String, String)], k: &str| {
        c.iter()
            .find(|x| x.0 == k)
            .unwrap_or_else(|| panic!("no {k}"))
            .1
            .clone()
    };
    assert_eq!(cell(&none, "shard_load_busiest_per_second_p99"), "");
    assert_eq!(cell(&three, "shard_load_busiest_per_second_p99"), "3004");
    assert_eq!(cell(&three, "shard_load_total_spread"), "2");
    assert_eq!(cell(&three, "shard_load_model_figure"), "round_robin_bound");
    assert!(!names(&three).iter().any(|n| n.contains("totals")));
}
