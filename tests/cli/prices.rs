//! End-to-end tests of the cost figures (`--write-price`, `--read-price`,
//! `--daily-likes`, `--daily-views` and a scenario's `[prices]`), each
//! checked against the arithmetic done by hand.

use crate::common;

use crate::common::{bad_input, json_of};
use serde_json::Value;

/// The reference case (bundled viral-reel): 14,000 likes/s on 20 shards,
/// 50,000 views/s, 40 servers caching the sum 2 s: 400 item reads/s cached.
const W: f64 = 1.25;
const R: f64 = 0.25;

fn close(got: &Value, want: f64) {
    let g = got
        .as_f64()
        .unwrap_or_else(|| panic!("{got} is not a number (want {want})"));
    assert!(
        (g - want).abs() <= 1e-12 * want.abs().max(1e-9),
        "got {g}, want {want}"
    );
}

fn row<'a>(doc: &'a Value, name: &str) -> &'a Value {
    doc["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["strategy"] == name)
        .unwrap_or_else(|| panic!("no {name} row"))
}

fn scenario(name: &str, text: &str) -> String {
    let path = std::env::temp_dir().join(format!(
        "shardplan-prices-{}-{name}.toml",
        std::process::id()
    ));
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

const COSTS: [&str; 5] = [
    "write_cost_per_million_likes",
    "like_row_cost_per_million_likes",
    "read_cost_per_million_views_uncached",
    "read_cost_per_million_views_cached",
    "monthly_cost",
];

#[test]
fn size_costs_by_hand() {
    let d = json_of(&[
        "size",
        "--write-price",
        "1.25",
        "--read-price",
        "0.25",
        "--daily-likes",
        "2000000",
        "--daily-views",
        "100000000",
    ]);
    assert_eq!(d["shards"], 20);
    assert_eq!(d["reads_cached_per_second"], 400.0);
    // One increment a like, one unit each.
    close(&d["write_cost_per_million_likes"], 1.0 * W);
    close(&d["like_row_cost_per_million_likes"], 1.0 * W);
    // An uncached view reads 20 items; a cached one 400 / 50,000.
    close(&d["read_cost_per_million_views_uncached"], 20.0 * R);
    close(
        &d["read_cost_per_million_views_cached"],
        400.0 / 50_000.0 * R,
    );
    // 30 x (2 x 1.25 + 100 x 0.002) = 81.
    close(
        &d["monthly_cost"],
        30.0 * (2.0 * W + 100.0 * (400.0 / 50_000.0 * R)),
    );
    assert_eq!(d["inputs"]["write_price"]["value"], 1.25);
    assert_eq!(d["inputs"]["write_price"]["source"], "--write-price");
    assert_eq!(d["inputs"]["daily_views"]["source"], "--daily-views");
    // 0 is a price.
    let free = json_of(&["size", "--read-price", "0"]);
    close(&free["read_cost_per_million_views_cached"], 0.0);
    assert!(free["write_cost_per_million_likes"].is_null());
}

#[test]
fn a_transaction_doubles_the_write_and_the_like_row() {
    let d = json_of(&[
        "size",
        "--transactional",
        "--store",
        "dynamodb",
        "--write-price",
        "1.25",
    ]);
    close(&d["write_cost_per_million_likes"], 2.0 * W);
    close(&d["like_row_cost_per_million_likes"], 2.0 * W);
}

#[test]
fn no_price_no_cost() {
    let d = json_of(&["size"]);
    for f in COSTS {
        assert!(d[f].is_null(), "size {f}: {}", d[f]);
    }
    let c = json_of(&["compare"]);
    for r in c["rows"].as_array().unwrap() {
        for f in COSTS {
            assert!(r[f].is_null(), "{} {f}: {}", r["strategy"], r[f]);
        }
    }
    // Read prices only: the monthly total has no write figure for likes.
    let reads = json_of(&["size", "--read-price", "0.25", "--daily-views", "1000000"]);
    close(&reads["monthly_cost"], 30.0 * (400.0 / 50_000.0 * R));
    let both = json_of(&["size", "--read-price", "0.25", "--daily-likes", "1000000"]);
    assert!(both["monthly_cost"].is_null());
}

#[test]
fn compare_costs_by_hand_for_every_design() {
    let d = json_of(&[
        "compare",
        "--write-price",
        "1.25",
        "--read-price",
        "0.25",
        "--daily-likes",
        "1000000",
    ]);
    let rate = 14_000.0;
    let per_like = [
        ("single", 1.0),
        ("sharded", 1.0),
        // 40 servers flush once a second: 40 writes for 14,000 likes.
        ("buffered", 40.0 / rate),
        ("sharded-buffered", 40.0 / rate),
        // One total every 5 s.
        ("log", 1.0 / 5.0 / rate),
        ("set", 1.0),
        ("set-sharded", 1.0),
        ("like-rows", 1.0),
        ("hll", 1.0),
        ("hll-sharded", 1.0),
    ];
    for (name, units) in per_like {
        let r = row(&d, name);
        close(&r["write_units_per_like"], units);
        close(&r["write_cost_per_million_likes"], units * W);
        close(&r["monthly_cost"], 30.0 * units * W + 0.0);
    }
    for name in ["count-min", "hash", "hash-sharded"] {
        let r = row(&d, name);
        assert!(r["write_cost_per_million_likes"].is_null(), "{name}");
        assert!(r["monthly_cost"].is_null(), "{name}");
    }
    for (name, units) in [
        ("single", 1.0),
        ("sharded", 1.0),
        ("buffered", 1.0),
        ("sharded-buffered", 1.0),
    ] {
        close(&row(&d, name)["like_row_cost_per_million_likes"], units * W);
    }
    assert!(row(&d, "log")["like_row_cost_per_million_likes"].is_null());
    // Reads: one key is one item a view, 20 shards twenty; cached, each of
    // 40 servers sums every 2 s: 20 sums/s.
    let single = row(&d, "single");
    close(&single["read_cost_per_million_views_uncached"], 1.0 * R);
    close(
        &single["read_cost_per_million_views_cached"],
        20.0 / 50_000.0 * R,
    );
    let sharded = row(&d, "sharded");
    close(&sharded["read_cost_per_million_views_uncached"], 20.0 * R);
    close(
        &sharded["read_cost_per_million_views_cached"],
        400.0 / 50_000.0 * R,
    );
    // Every row is priced from its own reads.
    for r in d["rows"].as_array().unwrap() {
        let views = 50_000.0;
        let cached = r["reads_per_second"].as_f64().unwrap() / views * R;
        close(&r["read_cost_per_million_views_cached"], cached);
        close(
            &r["read_cost_per_million_views_uncached"],
            r["reads_per_view"].as_f64().unwrap() * R,
        );
    }
}

#[test]
fn compare_transactions_and_flushes() {
    let d = json_of(&["compare", "--transactional", "--write-price", "1.25"]);
    for name in ["single", "sharded"] {
        let r = row(&d, name);
        // Two units a transactional write, times the conflicts' attempts.
        let attempts = r["attempts_per_like"].as_f64().unwrap();
        close(&r["write_cost_per_million_likes"], 2.0 * attempts * W);
        close(&r["like_row_cost_per_million_likes"], 2.0 * W);
    }
    // The consumer's total and position commit together: 2 units a commit.
    close(
        &row(&d, "log")["write_cost_per_million_likes"],
        2.0 / 5.0 / 14_000.0 * W,
    );
    // A buffered +n cannot share the like row's transaction: plain rows.
    close(&row(&d, "buffered")["like_row_cost_per_million_likes"], W);
    // Flushing every 4 s: 10 flushes/s for 14,000 likes/s.
    let slow = json_of(&["compare", "--flush-seconds", "4", "--write-price", "1.25"]);
    close(
        &row(&slow, "buffered")["write_cost_per_million_likes"],
        10.0 / 14_000.0 * W,
    );
    close(
        &row(&slow, "sharded-buffered")["write_cost_per_million_likes"],
        10.0 / 14_000.0 * W,
    );
}

#[test]
fn bad_prices_are_refused() {
    for cmd in ["size", "compare"] {
        for bad in ["-1", "NaN", "inf"] {
            bad_input(&[cmd, "--write-price", bad], "--write-price");
            bad_input(&[cmd, "--read-price", bad], "--read-price");
            bad_input(
                &[cmd, "--write-price", "1", "--daily-likes", bad],
                "--daily-likes",
            );
            bad_input(
                &[cmd, "--read-price", "1", "--daily-views", bad],
                "--daily-views",
            );
        }
        bad_input(
            &[cmd, "--daily-likes", "1000"],
            "--daily-likes: has no effect without a price",
        );
        bad_input(
            &[cmd, "--daily-views", "1000"],
            "--daily-views: has no effect without a price",
        );
        bad_input(
            &[cmd, "--storage-price", "0.25"],
            "--storage-price: has no effect",
        );
    }
}

/// A scenario with a `[prices]` section: W and R, 2 million likes a day.
const PRICED: &str = "peak = 14000\nviews = 50000\nservers = 40\ncache_seconds = 2\n\
                      [prices]\nwrite_per_million = 1.25\nread_per_million = 0.25\ndaily_likes = 2000000\n";

#[test]
fn a_scenario_prices_section() {
    let s = scenario("ok", PRICED);
    let d = json_of(&["size", "--scenario", &s]);
    close(&d["write_cost_per_million_likes"], W);
    close(
        &d["read_cost_per_million_views_cached"],
        400.0 / 50_000.0 * R,
    );
    close(&d["monthly_cost"], 30.0 * 2.0 * W);
    let src = d["inputs"]["write_price"]["source"].as_str().unwrap();
    assert!(src.ends_with("prices.write_per_million"), "{src}");
    // A flag overrides the section.
    let d = json_of(&["compare", "--scenario", &s, "--write-price", "2"]);
    close(&row(&d, "sharded")["write_cost_per_million_likes"], 2.0);
    assert_eq!(d["inputs"]["write_price"]["source"], "--write-price");

    let unknown = scenario("unknown", "peak = 14000\n[prices]\nwrite_per_milion = 1\n");
    bad_input(&["size", "--scenario", &unknown], "write_per_milion");
    let negative = scenario(
        "negative",
        "peak = 14000\n[prices]\nread_per_million = -0.5\n",
    );
    bad_input(
        &["size", "--scenario", &negative],
        "prices.read_per_million",
    );
    let daily = scenario("daily", "peak = 14000\n[prices]\ndaily_views = 5\n");
    bad_input(
        &["compare", "--scenario", &daily],
        "prices.daily_views: has no effect",
    );
}

#[test]
fn report_prices_from_the_scenario_section() {
    let s = scenario("report", PRICED);
    let dir = std::env::temp_dir().join(format!("shardplan-prices-report-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    common::shardplan()
        .args(["report", "--scenario", &s, "--quiet", "--output"])
        .arg(&dir)
        .assert()
        .success();
    let md = std::fs::read_to_string(dir.join("report.md")).unwrap();
    // 30 x 2 x 1.25 = 75; 400 / 50,000 x 0.25 = 0.002.
    assert!(md.contains("| a month (30 days)"), "{md}");
    assert!(md.contains("| 75 (counter writes"), "{md}");
    assert!(md.contains("| 0.002 "), "{md}");
    assert!(md.contains("| 1.25 (1 write unit a like)"), "{md}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_scenario_storage_price_is_checked_and_said_not_priced() {
    let s = scenario(
        "storage",
        "peak = 14000\n[prices]\nread_per_million = 0.25\nstorage_per_gb_month = 0.25\n",
    );
    let out = common::shardplan()
        .args(["size", "--scenario", &s, "--format", "json"])
        .assert()
        .success();
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(
        stderr.contains("warning") && stderr.contains("prices.storage_per_gb_month: not priced"),
        "{stderr}"
    );
    let bad = scenario(
        "storage-bad",
        "peak = 14000\n[prices]\nstorage_per_gb_month = -1\n",
    );
    bad_input(
        &["compare", "--scenario", &bad],
        "prices.storage_per_gb_month",
    );
}

/// fleet prices each policy's month: 1,000 reels, 1e8 likes a day at a
/// peak factor of 2 (2,314.8 likes/s), 20 shards a reel when sharded.
#[test]
fn fleet_costs_by_hand_for_every_policy() {
    let base = [
        "fleet",
        "--reels",
        "1000",
        "--partitions",
        "10",
        "--trials",
        "8",
        "--max-shards",
        "16",
    ];
    let mut args = base.to_vec();
    args.extend([
        "--write-price",
        "1.25",
        "--read-price",
        "0.25",
        "--storage-price",
        "0.5",
        "--item-bytes",
        "200",
    ]);
    let doc = json_of(&args);
    let month = 30.0 * 86_400.0;
    let likes = doc["total_rate"].as_f64().unwrap();
    let costs = doc["policy_costs"].as_array().unwrap();
    assert_eq!(costs.len(), 3);
    for c in costs {
        let p = doc["policies"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["policy"] == c["policy"])
            .unwrap();
        let items = p["items"].as_f64().unwrap();
        let gb = items * 200.0 / 1e9;
        close(&c["storage_gb"], gb);
        close(&c["storage_cost_per_month"], gb * 0.5);
        close(&c["write_cost_per_month"], likes * month / 1e6 * 1.25);
        let cached = p["shard_reads_per_second_cached"].as_f64().unwrap();
        let uncached = p["shard_reads_per_second_uncached"].as_f64().unwrap();
        close(
            &c["read_cost_per_month_cached"],
            cached * month / 1e6 * 0.25,
        );
        close(
            &c["read_cost_per_month_uncached"],
            uncached * month / 1e6 * 0.25,
        );
        close(
            &c["monthly_cost"],
            gb * 0.5 + likes * month / 1e6 * 1.25 + cached * month / 1e6 * 0.25,
        );
    }
    assert!(common::schema_errors("fleet", &doc).is_empty());
    // Without prices: the figures are null, the item size not assumed.
    let plain = json_of(&base);
    for c in plain["policy_costs"].as_array().unwrap() {
        assert!(c["monthly_cost"].is_null() && c["storage_gb"].is_null());
    }
    // A scenario's [prices] storage price and item size serve fleet.
    let path = scenario(
        "fleet",
        "[fleet]\nreels = 1000\npartitions = 10\n[prices]\nstorage_per_gb_month = 0.5\nitem_bytes = 100\n",
    );
    let doc = json_of(&[
        "fleet",
        "--scenario",
        &path,
        "--trials",
        "8",
        "--max-shards",
        "16",
    ]);
    let one = &doc["policy_costs"][0];
    close(&one["item_bytes"], 100.0);
    let source = doc["inputs"]["item_bytes"]["source"].as_str().unwrap();
    assert!(
        source.ends_with("fleet.toml: prices.item_bytes"),
        "{source}"
    );
    // What fleet refuses: a day's volume (its month comes from its rates),
    // an item size without a storage price, one past DynamoDB's 400 KB.
    let refused = |extra: &[&str], what: &str| {
        let mut a = base.to_vec();
        a.extend(extra);
        bad_input(&a, what);
    };
    refused(
        &["--write-price", "1", "--daily-likes", "5"],
        "--daily-likes",
    );
    refused(&["--item-bytes", "100"], "--item-bytes");
    refused(
        &["--storage-price", "1", "--item-bytes", "0"],
        "--item-bytes",
    );
    refused(
        &["--storage-price", "1", "--item-bytes", "1e6"],
        "--item-bytes",
    );
    refused(&["--storage-price", "-1"], "--storage-price");
}
