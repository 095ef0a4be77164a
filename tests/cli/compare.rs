//! End-to-end tests of `shardplan compare`, as a user types it.

use crate::common::{bad_input, json_of, shardplan};
use serde_json::Value;

/// `compare --format json`'s rows (the document is `{"inputs", "rows"}`).
fn rows_of(args: &[&str]) -> Value {
    json_of(args)["rows"].clone()
}

fn strategy<'a>(rows: &'a Value, name: &str) -> &'a Value {
    rows.as_array()
        .unwrap()
        .iter()
        .find(|r| r["strategy"] == name)
        .unwrap_or_else(|| panic!("no {name} row in {rows}"))
}

#[test]
fn one_row_per_strategy_with_the_hand_computed_figures() {
    let rows = rows_of(&["compare", "--rate", "9000"]);
    let names: Vec<&str> = rows
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["strategy"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "single",
            "sharded",
            "buffered",
            "sharded-buffered",
            "log",
            // The uniqueness and approximate designs (src/model/compare/approx.rs).
            "set",
            "set-sharded",
            "like-rows",
            "hll",
            "hll-sharded",
            "count-min",
            "hash",
            "hash-sharded",
        ]
    );
    // Every row: store reads per uncached view = cached reads/s / 20 sums/s.
    for r in rows.as_array().unwrap() {
        let per_view = r["reads_per_view"].as_f64().unwrap();
        let per_second = r["reads_per_second"].as_f64().unwrap();
        assert!((per_view * 20.0 - per_second).abs() < 1e-6, "{r}");
    }
    let hll = strategy(&rows, "hll");
    assert_eq!(hll["exact"], false);
    assert_eq!(hll["memory_bytes"], 12_304.0);
    // One key takes all 9,000 likes/s: over its 1,000 cap every second.
    let single = strategy(&rows, "single");
    assert_eq!(single["writes_per_key_per_second"], 9000.0);
    assert_eq!(single["key_p_over_cap_per_second"], 1.0);
    // 20 shards (size's answer for the 14,000 peak): 450 each; 20 sums/s
    // of 20 keys cached = 400 reads/s, 50,000 x 20 uncached.
    let sharded = strategy(&rows, "sharded");
    assert_eq!(sharded["keys"], 20);
    assert_eq!(sharded["writes_per_key_per_second"], 450.0);
    assert_eq!(sharded["reads_per_second"], 400.0);
    assert_eq!(sharded["reads_uncached_per_second"], 1_000_000.0);
    // 40 servers at 1 s: 40 writes/s on the key; one crash loses
    // 9,000 / 40 x 1 = 225 likes.
    let buffered = strategy(&rows, "buffered");
    assert_eq!(buffered["writes_per_key_per_second"], 40.0);
    assert_eq!(buffered["crash_loss_likes"], 225.0);
    assert_eq!(buffered["key_p_over_cap_per_second"], 0.0);
    // Log: 1 write per 5 s; a replay double counts 5 s of likes.
    let log = strategy(&rows, "log");
    assert_eq!(log["writes_per_key_per_second"], 0.2);
    assert_eq!(log["double_count_likes"], 45_000.0);
    assert_eq!(log["freshness_lag_seconds"], 7.0);
}

#[test]
fn sharded_risk_is_the_risk_model() {
    // The same figure `size`'s shards get from exact::Risk (20 shards,
    // 14,000 likes/s fixed, cap 1,000, 4 h).
    let rows = rows_of(&["compare"]);
    let sharded = strategy(&rows, "sharded");
    let risk = shardplan::model::exact::Risk::compute(
        14_000.0,
        20,
        1000.0,
        14_400.0,
        shardplan::model::law::TrafficModel::Fixed,
    )
    .unwrap();
    assert_eq!(
        sharded["key_p_over_cap_per_second"],
        risk.p_over_cap_per_second
    );
    assert_eq!(sharded["key_p_any_over_cap"], risk.p_any_over_cap);
}

#[test]
fn flush_period_and_servers_set_the_buffered_writes() {
    let rows = rows_of(&[
        "compare",
        "--servers",
        "40",
        "--flush-seconds",
        "2",
        "--rate",
        "9000",
    ]);
    let b = strategy(&rows, "buffered");
    assert_eq!(b["writes_per_key_per_second"], 20.0);
    assert_eq!(b["crash_loss_likes"], 450.0);
    // Firestore: 1 write/s per key. 40 servers need a key each at 1 s.
    let rows = rows_of(&["compare", "--store", "firestore", "--rate", "9000"]);
    assert_eq!(
        strategy(&rows, "buffered")["key_p_over_cap_per_second"],
        1.0
    );
    let sb = strategy(&rows, "sharded-buffered");
    assert_eq!(sb["keys"], 40);
    assert_eq!(sb["writes_per_key_per_second"], 1.0);
}

#[test]
fn transactional_halves_the_cap_and_doubles_the_shards() {
    let plain = json_of(&["size"]);
    let tx = json_of(&["size", "--transactional"]);
    assert_eq!(plain["shards"], 20);
    assert_eq!(tx["shards"], 40);
    assert_eq!(tx["cap"], 500.0);
    assert_eq!(tx["safe_per_shard"], 350.0);
    assert_eq!(tx["headroom"], plain["headroom"]);
    assert_eq!(tx["transactional"], true);
    assert_eq!(tx["write_cost"], 2.0);
    assert_eq!(plain["write_cost"], 1.0);
    // A given safe rate is in write units: 700 units = 350 likes.
    let tx = json_of(&["size", "--transactional", "--safe", "700"]);
    assert_eq!(tx["shards"], 40);
    // simulate takes the halved cap too.
    let sim = json_of(&["simulate", "--transactional", "--seconds", "50"]);
    assert_eq!(sim["cap"], 500);
    assert_eq!(sim["shards"], 40);
}

#[test]
fn transactional_compare_reports_conflicts_and_no_drift() {
    // No conflicts (0 ms): 40 shards, 350 likes/s each, cap 500 likes.
    let rows = rows_of(&["compare", "--transactional", "--txn-ms", "0"]);
    let s = strategy(&rows, "sharded");
    assert_eq!(s["keys"], 40);
    assert_eq!(s["cap_likes_per_key"], 500.0);
    assert_eq!(s["p_conflict"], 0.0);
    assert_eq!(s["net_drift_per_hour"], 0.0);
    assert_eq!(strategy(&rows, "log")["double_count_likes"], 0.0);
    // 2 ms at 40 shards: r d = 0.7, p = 1 - e^-0.7, attempts e^0.7.
    let rows = rows_of(&[
        "compare",
        "--transactional",
        "--txn-ms",
        "2",
        "--shards",
        "40",
    ]);
    let s = strategy(&rows, "sharded");
    let p = 1.0 - (-0.7f64).exp();
    assert!((s["p_conflict"].as_f64().unwrap() - p).abs() < 1e-12);
    let cancels = s["cancellations_per_second"].as_f64().unwrap();
    assert!((cancels - 14_000.0 * (0.7f64.exp() - 1.0)).abs() < 1e-6);
    // Sized for the retries by default: more than 40 shards.
    let rows = rows_of(&["compare", "--transactional", "--txn-ms", "2"]);
    assert!(strategy(&rows, "sharded")["keys"].as_u64().unwrap() > 40);
}

#[test]
fn drift_fields_follow_the_retry_policy() {
    // Never retry: nothing counted twice; t (1 - a) of likes missing:
    // 9,000 x 3,600 x 0.01 x 0.5 = 162,000 an hour.
    let rows = rows_of(&[
        "compare",
        "--rate",
        "9000",
        "--timeout-rate",
        "0.01",
        "--retries",
        "0",
    ]);
    let s = strategy(&rows, "sharded");
    assert_eq!(s["overcount_per_hour"], 0.0);
    let under = s["undercount_per_hour"].as_f64().unwrap();
    assert!((under - 162_000.0).abs() < 1e-6, "{under}");
    assert!((s["net_drift_per_hour"].as_f64().unwrap() + 162_000.0).abs() < 1e-6);
    // With retries the over-count is about rate x 3600 x t x a.
    let rows = rows_of(&["compare", "--rate", "9000", "--timeout-rate", "0.01"]);
    let over = strategy(&rows, "sharded")["overcount_per_hour"]
        .as_f64()
        .unwrap();
    assert!((over / 162_000.0 - 1.0).abs() < 0.02, "{over}");
}

#[test]
fn every_format_works() {
    for format in ["table", "csv", "json", "markdown", "tsv"] {
        let out = shardplan()
            .args(["compare", "--transactional", "--format", format])
            .assert()
            .success();
        let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
        assert!(text.contains("sharded-buffered"), "{format}: {text}");
    }
    let out = shardplan()
        .args(["compare", "--format", "csv"])
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    // A header and thirteen rows, every row with the header's column count.
    let mut reader = csv_rows(&text);
    assert_eq!(reader.len(), 14);
    let width = reader.remove(0);
    assert!(reader.iter().all(|w| *w == width));
}

/// Fields per CSV record (quotes respected).
fn csv_rows(text: &str) -> Vec<usize> {
    text.lines()
        .map(|line| {
            let mut fields = 1;
            let mut quoted = false;
            for ch in line.chars() {
                match ch {
                    '"' => quoted = !quoted,
                    ',' if !quoted => fields += 1,
                    _ => {}
                }
            }
            fields
        })
        .collect()
}

#[test]
fn bad_input_names_the_flag() {
    bad_input(&["compare", "--rate", "0"], "--rate");
    bad_input(&["compare", "--rate", "-5"], "--rate");
    bad_input(&["compare", "--rate", "9000.5"], "--rate");
    bad_input(&["compare", "--shards", "0"], "--shards");
    bad_input(&["compare", "--flush-seconds", "0"], "--flush-seconds");
    bad_input(
        &["compare", "--log-commit-seconds", "-1"],
        "--log-commit-seconds",
    );
    bad_input(&["compare", "--timeout-rate", "1"], "--timeout-rate");
    bad_input(&["compare", "--applied-share", "2"], "--applied-share");
    bad_input(&["compare", "--retries", "1000"], "--retries");
    bad_input(&["compare", "--txn-ms", "5"], "--txn-ms");
    bad_input(
        &["compare", "--transactional", "--txn-ms", "-1"],
        "--txn-ms",
    );
    bad_input(&["compare", "--duration", "0"], "--duration");
    bad_input(&["compare", "--servers", "0"], "--servers");
}

#[test]
fn size_table_says_the_cap_was_divided() {
    let out = shardplan()
        .args(["size", "--transactional"])
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(
        text.contains("500 likes/s = 1,000 writes/s / 2 units"),
        "{text}"
    );
    assert!(text.contains("40 = ceil(14,000 / 350)"), "{text}");
}

/// The header line of the table titled `title` in `text`.
fn header_after(text: &str, title: &str) -> String {
    let mut lines = text.lines().skip_while(|l| *l != title);
    lines
        .nth(2)
        .unwrap_or_else(|| panic!("no {title} in {text}"))
        .to_string()
}

#[test]
fn the_default_table_is_compact_and_wide_adds_every_column() {
    let text = |columns: &str, args: &[&str]| {
        let out = shardplan()
            .env("COLUMNS", columns)
            .args(args)
            .assert()
            .success();
        String::from_utf8(out.get_output().stdout.clone()).unwrap()
    };
    let compact = text("80", &["compare"]);
    let head = header_after(&compact, "Strategies");
    for column in [
        "strategy",
        "keys",
        "writes/key/s",
        "P(any over, 4 h)",
        "reads/s cached",
    ] {
        assert!(head.contains(column), "{column} missing from {head}");
    }
    for column in ["P(second", "lag s", "crash loss", "verdict"] {
        assert!(!head.contains(column), "{column} in the compact {head}");
    }
    // The verdicts get a table of their own, sentences whole on one line
    // where they fit.
    assert!(compact.contains("│ Verdicts "), "{compact}");
    assert!(compact.contains("exact and live; each read sums 20 keys, so cache the sum"));
    assert!(compact.contains("--wide adds P(second over cap)"));

    // Every column wants more than 80 (at 80 the cells wrap to fit).
    let wide = text("400", &["compare", "--wide"]);
    let head = header_after(&wide, "Strategies");
    for column in ["P(second", "lag s", "crash loss", "verdict"] {
        assert!(
            head.contains(column),
            "{column} missing from the wide {head}"
        );
    }
    assert!(!wide.contains("Verdicts"), "{wide}");

    // Every design says how many keys its writes spread over.
    let rows = rows_of(&["compare"]);
    for r in rows.as_array().unwrap() {
        assert!(r["keys"].as_u64().is_some(), "{r}");
    }
    assert_eq!(strategy(&rows, "set-sharded")["keys"], 20);
    assert_eq!(strategy(&rows, "hll")["keys"], 1);

    // The machine formats carry every field whatever the table shows, so
    // --wide there would change nothing: refused.
    bad_input(&["compare", "--wide", "--format", "csv"], "--wide");
    bad_input(&["compare", "--wide", "--format", "json"], "--wide");
    shardplan()
        .args(["compare", "--wide", "--format", "markdown"])
        .assert()
        .success();
}

#[test]
fn netting_designs_write_per_flush_whatever_the_unlike_share() {
    // Issue 32: a buffered server adds likes and subtracts unlikes in its
    // buffer and writes one INCRBY of the net per flush, so unlikes add no
    // write: 40 servers flushing every second at 14,000 likes/s write
    // 40 / 14,000 units a like with or without unlikes. The log's consumer
    // writes one total per commit (5 s): 0.2 / 14,000. Designs that write
    // once an event (and every like row) pay 1 + 0.3 = 1.3 units a like.
    let args = |share: &'static str| {
        let mut a = vec!["compare", "--peak", "14000", "--write-price", "1.25"];
        a.extend(["--read-price", "0.25", "--unlike-share", share]);
        a
    };
    let with = rows_of(&args("0.3"));
    let without = rows_of(&args("0"));
    let units = |rows: &Value, name: &str| {
        strategy(rows, name)["write_units_per_like"]
            .as_f64()
            .unwrap()
    };
    let close = |got: f64, want: f64| ((got - want) / want).abs() < 1e-12;
    for name in ["buffered", "sharded-buffered"] {
        assert!(close(units(&with, name), 40.0 / 14_000.0), "{name}");
        assert!(close(units(&without, name), 40.0 / 14_000.0), "{name}");
    }
    assert!(close(units(&with, "log"), 0.2 / 14_000.0));
    assert!(close(units(&without, "log"), 0.2 / 14_000.0));
    for name in ["single", "sharded", "set", "like-rows"] {
        assert!(close(units(&with, name), 1.3), "{name}");
        assert!(close(units(&without, name), 1.0), "{name}");
    }
    // Each row's own like row: 1.3 units at 1.25 a million.
    let like_row = |name: &str| strategy(&with, name)["like_row_cost_per_million_likes"].as_f64();
    assert!(close(like_row("buffered").unwrap(), 1.625));
    assert!(close(like_row("sharded").unwrap(), 1.625));
    // CSV and the table say the same figures as JSON.
    let mut a = args("0.3");
    a.extend(["--format", "csv"]);
    let out = shardplan().args(&a).assert().success();
    let mut csv = csv::Reader::from_reader(out.get_output().stdout.as_slice());
    let col = csv
        .headers()
        .unwrap()
        .iter()
        .position(|h| h == "write_units_per_like")
        .unwrap();
    let mut seen = 0;
    for record in csv.records() {
        let record = record.unwrap();
        if matches!(&record[0], "buffered" | "sharded-buffered" | "log") {
            let got: f64 = record[col].parse().unwrap();
            assert_eq!(got, units(&with, &record[0]), "{record:?}");
            seen += 1;
        }
    }
    assert_eq!(seen, 3);
    let out = shardplan()
        .args(args("0.3"))
        .env("COLUMNS", "200")
        .assert()
        .success();
    let table = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let row = table
        .lines()
        .find(|l| l.contains("│ buffered ") && l.contains("0.002857"))
        .unwrap_or_else(|| panic!("{table}"));
    assert!(row.contains("0.003571"), "{row}");
}

/// Issue 57: `compare` judges every design on the plan `size` judged: the
/// traffic law, the picker, partitions and an accepted risk. The sharded
/// designs over the same keys carry the same per-key chance (not the
/// fixed-traffic value under bursty traffic), and the sharded row's keys
/// are `size`'s answer.
#[test]
fn every_design_is_judged_on_sizes_plan() {
    let rows = |args: &[&str]| {
        let mut a = vec!["compare"];
        a.extend_from_slice(args);
        json_of(&a)
    };
    let c = rows(&[
        "--peak",
        "14000",
        "--traffic",
        "gamma-poisson",
        "--dispersion",
        "100",
    ]);
    let by = |c: &serde_json::Value, s: &str| {
        c["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["strategy"] == s)
            .unwrap()
            .clone()
    };
    let sharded = by(&c, "sharded");
    assert_eq!(sharded["keys"], 24);
    let p = sharded["key_p_any_over_cap"].as_f64().unwrap();
    assert!(
        p > 1e-3 && p < 1e-2,
        "{p}: gamma-poisson's, not fixed traffic's 6e-53"
    );
    for s in ["set-sharded", "hll-sharded"] {
        assert_eq!(
            by(&c, s)["key_p_any_over_cap"],
            sharded["key_p_any_over_cap"],
            "{s}"
        );
    }
    let plan = [
        "--risk",
        "0.001",
        "--picker",
        "round-robin",
        "--servers",
        "40",
        "--partitions",
        "1000",
        "--traffic",
        "poisson",
    ];
    let c = rows(&plan);
    let mut size = vec!["size"];
    size.extend_from_slice(&plan);
    let s = json_of(&size);
    assert_eq!(by(&c, "sharded")["keys"], s["shards"]);
    assert_eq!(
        by(&c, "sharded")["key_p_any_over_cap"],
        s["key_p_any_over_cap"]
    );
    assert_eq!(c["recommendation"]["binding"], "shared_partitions");
}
