//! `--traffic-from FILE` end to end, as a user types it: the observed rate
//! is the trace's busiest period, the peak grows it, and the trace chooses
//! the traffic law (fitted from per-second counts, assumed Poisson within
//! coarser periods); the refusals name the flag, the file and the line.

use std::fmt::Write as _;
use std::path::Path;

use crate::common::{bad_input, json_of, schema_errors, shardplan};
use rand::SeedableRng;
use rand_distr::{Distribution, Gamma, Poisson};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde_json::Value;

const SECONDS: usize = 20_000;
const MEAN: f64 = 9_000.0;
const K: f64 = 200.0;

/// A per-second CSV of Gamma-Poisson counts (each second's rate Gamma with
/// mean `MEAN` and shape `K`, the count Poisson at it); returns the largest.
fn write_gamma_poisson_csv(path: &Path, seed: u64) -> f64 {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let gamma = Gamma::new(K, MEAN / K).unwrap();
    let mut text = String::from("time,count\n");
    let mut max = 0.0f64;
    for s in 0..SECONDS {
        let rate: f64 = gamma.sample(&mut rng);
        let count: f64 = Poisson::new(rate).unwrap().sample(&mut rng);
        max = max.max(count);
        writeln!(text, "{},{count}", 1_773_500_000 + s).unwrap();
    }
    std::fs::write(path, text).unwrap();
    max
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

#[test]
fn per_second_csv_fits_gamma_poisson_and_sizes_for_it() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("f.csv");
    let max = write_gamma_poisson_csv(&csv, 19);
    let csv = csv.to_str().unwrap();
    let v = json_of(&["size", "--traffic-from", csv]);
    assert!(
        schema_errors("size", &v).is_empty(),
        "{:?}",
        schema_errors("size", &v)
    );
    assert_eq!(f(&v["observed"]), max);
    assert!((f(&v["peak"]) - max * 1.5).abs() < 1e-9 * max);
    let o = &v["observed_traffic"];
    assert_eq!(o["format"], "csv");
    assert_eq!(o["period_seconds"], 1);
    assert_eq!(o["points"], SECONDS);
    assert_eq!(o["gap_periods"], 0);
    assert_eq!(o["law"], "gamma-poisson");
    assert_eq!(o["law_from"], "fitted");
    let (mean, var, k) = (f(&o["mean_rate"]), f(&o["variance"]), f(&o["dispersion"]));
    // The delta-method standard error of K = m^2 / (v - m): the sample
    // variance's relative error is sqrt((2 + 6 / K) / n) (a Gamma count's
    // excess kurtosis is 6 / K), scaled by dK/dv = -K / (v - m); the mean's
    // error is a hundred times smaller. Five standard errors (about 10
    // here): a false failure once in 1.7 million seeds.
    let se = k * ((2.0 + 6.0 / k) / SECONDS as f64).sqrt() * var / (var - mean);
    assert!(
        (k - K).abs() < 5.0 * se,
        "fitted K {k} +- {se}, drawn with {K}"
    );
    println!("fitted K = {k:.2} (standard error {se:.2}), observed {max}");
    let inputs = &v["inputs"];
    assert_eq!(inputs["traffic"]["value"], "gamma-poisson");
    assert!(
        inputs["dispersion"]["source"]
            .as_str()
            .unwrap()
            .starts_with("fitted from --traffic-from"),
        "{inputs}"
    );
    assert!(inputs["observed"]["source"]
        .as_str()
        .unwrap()
        .contains("--traffic-from"));
    // At an accepted risk the burstier law needs at least the Poisson count.
    let gp = json_of(&["size", "--traffic-from", csv, "--risk", "0.01"]);
    let peak = (max * 1.5).to_string();
    let poisson = json_of(&[
        "size",
        "--peak",
        &peak,
        "--traffic",
        "poisson",
        "--risk",
        "0.01",
    ]);
    let (gp_n, p_n) = (
        gp["recommended_shards"].as_u64().unwrap(),
        poisson["recommended_shards"].as_u64().unwrap(),
    );
    println!("recommended shards: gamma-poisson {gp_n}, poisson {p_n} at peak {peak}");
    assert!(gp_n >= p_n, "{gp_n} < {p_n}");
    assert_eq!(gp["traffic"], "gamma-poisson");
    // The same law reaches risk, sweep and simulate.
    let risk = json_of(&["risk", "--traffic-from", csv]);
    assert_eq!(risk["traffic"], "gamma-poisson");
    assert_eq!(risk["observed_traffic"]["dispersion"], o["dispersion"]);
    let sweep = json_of(&["sweep", "--traffic-from", csv, "--shards", "20,30"]);
    assert!(schema_errors("sweep", &sweep).is_empty());
    assert_eq!(sweep["rows"][0]["traffic"], "gamma-poisson");
    let sim = json_of(&["simulate", "--traffic-from", csv, "--seconds", "300"]);
    assert!(schema_errors("simulate", &sim).is_empty());
    assert_eq!(sim["observed_traffic"]["law"], "gamma-poisson");
}

#[test]
fn per_minute_cloudwatch_takes_the_busiest_minute_and_assumes_poisson() {
    let dir = tempfile::tempdir().unwrap();
    let cw = dir.path().join("cw.json");
    // As `aws cloudwatch get-metric-data` prints it: newest first, Sums.
    std::fs::write(
        &cw,
        r#"{"MetricDataResults": [{"Id": "likes", "Label": "likes",
            "Timestamps": ["2026-03-14T19:04:00Z", "2026-03-14T19:03:00Z",
                           "2026-03-14T19:02:00Z", "2026-03-14T19:01:00Z"],
            "Values": [480000, 612000, 540000, 420000],
            "StatusCode": "Complete"}], "Messages": []}"#,
    )
    .unwrap();
    let v = json_of(&[
        "size",
        "--traffic-from",
        cw.to_str().unwrap(),
        "--risk",
        "0.01",
    ]);
    assert_eq!(f(&v["observed"]), 612_000.0 / 60.0);
    let o = &v["observed_traffic"];
    assert_eq!(o["format"], "cloudwatch");
    assert_eq!(o["period_seconds"], 60);
    assert_eq!(o["peak_time"], 1_773_514_980);
    assert_eq!(o["law"], "poisson");
    assert_eq!(o["law_from"], "assumed");
    assert!(o["variance_to_mean"].is_null() && o["dispersion"].is_null());
    assert_eq!(v["traffic"], "poisson");
    let src = v["inputs"]["traffic"]["source"].as_str().unwrap();
    assert!(
        src.starts_with("assumed within each period of --traffic-from"),
        "{src}"
    );
    // A given dispersion makes it gamma-poisson; gamma-poisson without one
    // has nothing to fit in minutes.
    let given = json_of(&[
        "size",
        "--traffic-from",
        cw.to_str().unwrap(),
        "--risk",
        "0.01",
        "--dispersion",
        "50",
    ]);
    assert_eq!(given["observed_traffic"]["law"], "gamma-poisson");
    assert_eq!(given["observed_traffic"]["law_from"], "given");
    let cw = cw.to_str().unwrap();
    let args = [
        "size",
        "--traffic-from",
        cw,
        "--risk",
        "0.01",
        "--traffic",
        "gamma-poisson",
    ];
    bad_input(&args, "is per 60 s");
}

#[test]
fn prometheus_series_are_summed() {
    let dir = tempfile::tempdir().unwrap();
    let prom = dir.path().join("prom.json");
    std::fs::write(
        &prom,
        r#"{"status": "success", "data": {"resultType": "matrix", "result": [
            {"metric": {"pod": "a"}, "values": [[1773500000, "4000"], [1773500015, "4500.5"], [1773500030, "4100"]]},
            {"metric": {"pod": "b"}, "values": [[1773500000, "5000"], [1773500015, "5200"], [1773500030, "5900"]]}
        ]}}"#,
    )
    .unwrap();
    let v = json_of(&["size", "--traffic-from", prom.to_str().unwrap()]);
    let o = &v["observed_traffic"];
    assert_eq!(o["format"], "prometheus");
    assert_eq!(o["series_summed"], 2);
    assert_eq!(o["period_seconds"], 15);
    assert_eq!(f(&v["observed"]), 10_000.0);
    assert_eq!(o["peak_time"], 1_773_500_030);
    // The table says what the values are.
    let out = shardplan()
        .args([
            "size",
            "--traffic-from",
            prom.to_str().unwrap(),
            "--format",
            "markdown",
        ])
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(
        text.contains("per-second rates, as rate() returns"),
        "{text}"
    );
    assert!(text.contains("2 series summed"), "{text}");
    assert!(
        text.contains("do not capture a burst that lasts minutes"),
        "{text}"
    );
}

#[test]
fn refusals_name_the_flag_the_file_and_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("evening.csv");
    std::fs::write(&bad, "time,count\n1773500000,5\n1773500001,-3\n").unwrap();
    let bad = bad.to_str().unwrap();
    bad_input(
        &["size", "--traffic-from", bad],
        "line 3: count -3 is negative",
    );
    bad_input(&["size", "--traffic-from", bad], "--traffic-from");
    bad_input(&["size", "--traffic-from", bad], "evening.csv");
    bad_input(&["size", "--traffic-from", bad, "--peak", "100"], "--peak");
    bad_input(
        &["size", "--traffic-from", bad, "--peak", "100"],
        "cannot be given with --traffic-from",
    );
    bad_input(
        &["risk", "--traffic-from", bad, "--observed", "100"],
        "--observed",
    );
    bad_input(
        &["size", "--metric-id", "likes"],
        "has no effect without --traffic-from",
    );
    bad_input(
        &["simulate", "--traffic-from", bad, "--monitor"],
        "--traffic-from: has no effect on a time line",
    );
}

#[test]
fn a_scenario_names_its_trace_beside_itself() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir(&data).unwrap();
    let mut csv = String::from("time,count\n");
    for (s, c) in [7000, 7100, 8000, 7900, 7600].iter().enumerate() {
        writeln!(csv, "{},{c}", 1_773_500_000 + s).unwrap();
    }
    std::fs::write(data.join("evening.csv"), csv).unwrap();
    let scenario = dir.path().join("s.toml");
    std::fs::write(
        &scenario,
        "traffic_from = \"data/evening.csv\"\ngrowth = 2\n",
    )
    .unwrap();
    let v = json_of(&["size", "--scenario", scenario.to_str().unwrap()]);
    assert_eq!(f(&v["observed"]), 8000.0);
    assert_eq!(f(&v["peak"]), 16_000.0);
    let src = v["inputs"]["observed"]["source"].as_str().unwrap();
    assert!(src.contains("traffic_from data/evening.csv"), "{src}");
    // A --peak flag outranks the scenario's trace, as every flag does.
    let flagged = json_of(&[
        "size",
        "--scenario",
        scenario.to_str().unwrap(),
        "--peak",
        "9000",
    ]);
    assert_eq!(f(&flagged["peak"]), 9000.0);
    assert!(flagged.get("observed_traffic").is_none());
}

#[test]
fn steady_seconds_are_poisson_and_have_no_shape_to_fit() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("steady.csv");
    let mut text = String::from("time,count\n");
    for s in 0..100 {
        writeln!(text, "{},{}", 1_773_500_000 + s, 9000 + s % 2).unwrap();
    }
    std::fs::write(&csv, text).unwrap();
    let csv = csv.to_str().unwrap();
    let v = json_of(&["size", "--traffic-from", csv]);
    assert_eq!(v["observed_traffic"]["law"], "poisson");
    assert_eq!(v["observed_traffic"]["law_from"], "fitted");
    assert!(v["observed_traffic"]["dispersion"].is_null());
    let args = [
        "size",
        "--traffic-from",
        csv,
        "--risk",
        "0.01",
        "--traffic",
        "gamma-poisson",
    ];
    bad_input(&args, "is not overdispersed");
}
