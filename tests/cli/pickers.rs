//! How writers pick a shard (issue 34), end to end: each picker sized,
//! simulated, judged and compared as a user types it.

use crate::common::{bad_input, json_of, shardplan};

/// `size`'s JSON (flat: the recommendation's fields at the top).
fn size(picker: &str, servers: &str) -> serde_json::Value {
    json_of(&[
        "size",
        "--peak",
        "14000",
        "--risk",
        "0.01",
        "--duration",
        "4h",
        "--picker",
        picker,
        "--servers",
        servers,
    ])
}

#[test]
fn size_recommends_per_picker() {
    // Random: 17 shards, exact (the per-key risk alone).
    let r = &size("random", "40");
    assert_eq!(r["shards"], 17);
    assert_eq!(r["key_method"], "exact");
    // Round-robin, 40 servers: 15 shards can never pass 1,000 (at most
    // 933.3 + 40 x 14/15 = 970): exactly 0.
    let r = &size("round-robin", "40");
    assert_eq!(r["shards"], 15);
    assert_eq!(r["key_method"], "never_over");
    assert_eq!(r["key_p_any_over_cap"], 0.0);
    assert_eq!(r["picker"], "round-robin");
    // Sticky, 30 servers: a count that splits the servers unevenly leaves
    // shards with two servers' likes (933/s); 30 shards take one each.
    let r = &size("sticky", "30");
    assert_eq!(r["shards"], 30);
    assert_eq!(r["key_method"], "exact");
    // Sticky with 40 servers: 20 shards split them evenly (the random law).
    assert_eq!(size("sticky", "40")["shards"], 20);
    // Two-choice: its own bound (7.5e-6 over the 4 h at 15 shards, where
    // random's law needs 17).
    let r = &size("two-choice", "40");
    assert_eq!(r["key_method"], "upper_bound");
    assert_eq!(r["shards"], 15);
    // User-hash: random's law.
    assert_eq!(size("user-hash", "40")["shards"], 17);
}

#[test]
fn simulate_each_picker_the_same_on_any_thread_count() {
    for picker in ["round-robin", "two-choice", "sticky", "user-hash"] {
        let run = |threads: &str| {
            let out = shardplan()
                .args(["simulate", "--seconds", "9000", "--picker", picker])
                .args(["--threads", threads, "--format", "json"])
                .assert()
                .success();
            out.get_output().stdout.clone()
        };
        assert_eq!(run("1"), run("2"), "{picker}");
    }
    let j = json_of(&["simulate", "--seconds", "5000", "--picker", "round-robin"]);
    assert_eq!(j["picker"], "round-robin");
    // 700 + 40 x 19 / 20 = 738 at most, every second.
    assert!(j["busiest_max"].as_u64().unwrap() <= 738);
    assert_eq!(j["sampler"], "multinomial");
}

#[test]
fn sticky_simulation_agrees_with_its_exact_law() {
    // 30 servers on 20 shards: P(a second over 1,000) = 0.116567 exactly
    // (model::exact::sticky, checked by brute force on small cases). The
    // 95% Wilson interval of 20,000 seconds must hold it (a 5% chance of a
    // false failure would be too much: widen to 4 standard errors,
    // sqrt(0.1166 x 0.8834 / 20,000) = 0.00227).
    let j = json_of(&[
        "simulate",
        "--seconds",
        "20000",
        "--picker",
        "sticky",
        "--servers",
        "30",
        "--shards",
        "20",
    ]);
    let p = j["simulated_p_over_cap_per_second"].as_f64().unwrap();
    assert!((p - 0.116567).abs() < 4.0 * 0.00227, "{p}");
}

#[test]
fn risk_shows_the_pickers_own_figure_and_its_run_beside() {
    // One voice: the per-key figures are the picker's (round-robin's exact
    // 0 here), never the random law's (about 0.27 a second at 15 shards);
    // the busiest shard's law is absent, the seeded run stands beside.
    let j = json_of(&["risk", "--shards", "15", "--picker", "round-robin"]);
    assert_eq!(j["key_method"], "never_over");
    assert_eq!(j["busiest_bound"], 970);
    assert_eq!(j["key_p_any_over_cap"], 0.0);
    assert_eq!(j["key_p_over_cap_per_second"], 0.0);
    assert!(j["busiest_mean_per_second"].is_null());
    let run = &j["simulated"];
    assert!(run["busiest_max"].as_u64().unwrap() <= 970);
    assert_eq!(run["seconds_over_cap"], 0);
    let j = json_of(&["risk", "--shards", "17", "--picker", "two-choice"]);
    // Two-choice's own bound where it is under random picks' law (5.97e-9
    // a second at 17 shards), and random's law, said so, where not (the
    // recommendation's 20 shards: 6.5e-23, under the own bound's floor).
    assert_eq!(j["key_method"], "upper_bound");
    assert!(j["key_p_over_cap_per_second"].as_f64().unwrap() < 5.97e-9);
    assert_eq!(j["recommendation"]["key_method"], "random_law");
    assert!(j["busiest_mean_per_second"].is_null());
    // No picker: no simulation block, and the exact law's figures.
    let j = json_of(&["risk", "--shards", "17"]);
    assert!(j.get("simulated").is_none());
    assert!(j["busiest_mean_per_second"].as_f64().unwrap() > 800.0);
}

#[test]
fn sweep_and_compare_show_the_pickers() {
    let rows = json_of(&[
        "sweep",
        "--shards",
        "14..16",
        "--rate",
        "14000",
        "--picker",
        "round-robin",
    ]);
    let methods: Vec<&str> = rows["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["key_method"].as_str().unwrap())
        .collect();
    assert_eq!(methods, ["upper_bound", "never_over", "never_over"]);
    let c = json_of(&["compare"]);
    let names: Vec<&str> = c["pickers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["picker"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["random", "round-robin", "two-choice", "sticky", "user-hash"]
    );
    assert_eq!(c["pickers"][1]["shards_needed"], 15);
    // 2,000 simulated seconds at the reference; at the interview's 200,000
    // likes/s (two-choice past its tables draws every like) the cost
    // model's budget leaves the floor of 200 s, every picker alike.
    let seconds = |c: &serde_json::Value| -> Vec<u64> {
        c["pickers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["seconds"].as_u64().unwrap())
            .collect()
    };
    assert_eq!(seconds(&c), [2000; 5]);
    let interview = json_of(&["compare", "--scenario", "interview"]);
    assert_eq!(seconds(&interview), [200; 5]);
}

#[test]
fn a_scenario_names_its_picker() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("rr.toml");
    std::fs::write(
        &file,
        "peak = 14000\nsafe = 700\nrisk = 0.01\npicker = \"round-robin\"\n",
    )
    .unwrap();
    let j = json_of(&["size", "--scenario", file.to_str().unwrap()]);
    assert_eq!(j["shards"], 15);
    assert_eq!(j["inputs"]["picker"]["value"], "round-robin");
    // The flag outranks it.
    let j = json_of(&[
        "size",
        "--scenario",
        file.to_str().unwrap(),
        "--picker",
        "random",
    ]);
    assert_eq!(j["shards"], 17);
}

#[test]
fn bad_pickers_are_refused() {
    bad_input(&["size", "--picker", "roundrobin"], "--picker");
    bad_input(
        &["size", "--picker", "sticky", "--servers", "0"],
        "--servers",
    );
    bad_input(
        &[
            "simulate",
            "--scenario",
            "viral-evening",
            "--picker",
            "round-robin",
        ],
        "--picker",
    );
    bad_input(
        &["simulate", "--picker", "sticky", "--sampler", "exact-table"],
        "--sampler",
    );
    bad_input(
        &[
            "chart",
            "--kind",
            "risk",
            "--picker",
            "round-robin",
            "-o",
            "-",
        ],
        "--picker",
    );
}

/// Issue 58: round-robin under bursty traffic has an answer, an upper
/// bound from the traffic law's own tail (a second of at least `t` likes,
/// the fewest round-robin's busiest-shard bound puts over the cap). It
/// must bound the simulated truth: at 17 shards the bound is 0.051 a
/// second and 20,000 simulated seconds see about 0.023, whose standard
/// error is sqrt(0.023 x 0.977 / 20,000) = 0.0011: the bound must stay
/// above the estimate less 4 standard errors (a false failure under 1e-4).
#[test]
fn round_robin_under_bursty_traffic_is_bounded() {
    const BURSTY: [&str; 6] = [
        "--picker",
        "round-robin",
        "--traffic",
        "gamma-poisson",
        "--dispersion",
        "100",
    ];
    let with = |command: &str, extra: &[&str]| json_of(&[&[command][..], &BURSTY, extra].concat());
    let j = with("risk", &["--shards", "17", "--duration", "20000s"]);
    assert_eq!(j["key_method"], "upper_bound");
    let bound = j["key_p_over_cap_per_second"].as_f64().unwrap();
    let p = j["simulated"]["simulated_p_over_cap_per_second"]
        .as_f64()
        .unwrap();
    let se = (p * (1.0 - p) / 20_000.0).sqrt();
    assert!(bound >= p - 4.0 * se, "{bound} vs {p} +- {se}");
    // Within a small factor: the bound is the second's likes' tail.
    assert!(bound < 5.0 * p, "{bound} vs {p}");
    // size sizes by it, and simulate runs the plan.
    assert_eq!(with("size", &[])["key_method"], "upper_bound");
    with("simulate", &["--seconds", "100"]);
}

/// Issue 58: round-robin's cursors never forget where they started under
/// fixed traffic, so its Monte Carlo runs are 20 independent replications
/// from uniform starting cursors and the interval covers their spread.
/// 2 likes/s from 2 servers over 4 shards, cap 1: averaged over the
/// starting cursors one second in 8 goes over (0.125; a single chained run
/// gave 0 or 0.25 by seed). The 95% intervals of 20 seeds must cover it
/// at least 16 times (a false failure under 0.3% were they exactly 95%;
/// they are wider, Wilson's and the batch means' together).
#[test]
fn round_robin_intervals_cover_the_start_averaged_chance() {
    let mut covered = 0;
    for seed in 1..=20 {
        let s = seed.to_string();
        let j = json_of(&[
            "simulate",
            "--rate",
            "2",
            "--shards",
            "4",
            "--servers",
            "2",
            "--cap",
            "1",
            "--picker",
            "round-robin",
            "--seed",
            &s,
        ]);
        let ci = &j["simulated_p_over_cap_ci95"];
        let (lo, hi) = (ci[0].as_f64().unwrap(), ci[1].as_f64().unwrap());
        covered += usize::from(lo <= 0.125 && 0.125 <= hi);
    }
    assert!(covered >= 16, "{covered} of 20 intervals cover 0.125");
}

/// Issue 58: two-choice, sized by random picks' law, never needs more
/// shards than random (the Chernoff bound gave 62 against random's 61 at
/// the issue's inputs; random's law gives 61).
#[test]
fn two_choice_needs_no_more_shards_than_random_at_the_issues_inputs() {
    let size = |picker: &str| {
        json_of(&[
            "size",
            "--peak",
            "50000",
            "--cap",
            "1000",
            "--risk",
            "0.001",
            "--picker",
            picker,
            "--servers",
            "40",
        ])["shards"]
            .as_u64()
            .unwrap()
    };
    assert_eq!(size("two-choice"), size("random"));
    assert_eq!(size("random"), 61);
}
