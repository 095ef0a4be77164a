//! The bundled time-line scenarios, parsed section by section the way the
//! scenario loader will, and run end to end. Prints the figures quoted in
//! docs/timeline.md (`cargo test --test cli stats::timeline_scenarios -- --nocapture`).

use std::convert::Infallible;

use shardplan::model::law::{TrafficKind, TrafficModel};
use shardplan::model::timeline::bucket::StoreConfig;
use shardplan::model::timeline::curve::CurveConfig;
use shardplan::model::timeline::monitor::MonitorConfig;
use shardplan::model::timeline::resize::{ResizeConfig, ResizePlan};
use shardplan::model::timeline::{monitor_grid, run, TimelinePlan, TimelineReport};

fn load(name: &str) -> toml::Table {
    let path = format!("{}/scenarios/{name}.toml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    text.parse::<toml::Table>().unwrap()
}

fn int(t: &toml::Table, k: &str) -> u64 {
    t[k].as_integer().unwrap() as u64
}

fn timeline(name: &str) -> TimelinePlan {
    let t = load(name);
    let curve: CurveConfig = t["curve"].clone().try_into().unwrap();
    let store: StoreConfig = t["store"].clone().try_into().unwrap();
    let monitor = t
        .get("monitor")
        .map(|m| m.clone().try_into::<MonitorConfig>().unwrap())
        .map(|m| m.validate(Some(int(&t, "servers"))).unwrap());
    // The bundled time lines use fixed or Poisson traffic (no dispersion).
    let traffic = match t["traffic"].clone().try_into::<TrafficKind>().unwrap() {
        TrafficKind::Fixed => TrafficModel::Fixed,
        TrafficKind::Poisson => TrafficModel::Poisson,
        TrafficKind::GammaPoisson => panic!("{name}: gamma-poisson needs its dispersion"),
        TrafficKind::Empirical => panic!("{name}: a time line takes no empirical traffic"),
    };
    TimelinePlan::new(
        curve.validate().unwrap(),
        traffic,
        t["cap"].as_integer().unwrap() as f64,
        int(&t, "seconds"),
        int(&t, "seed"),
        int(&t, "shards"),
        store,
        monitor,
    )
    .unwrap()
}

fn show(name: &str, r: &TimelineReport) {
    println!("{name}: {}", serde_json::to_string_pretty(r).unwrap());
}

#[test]
fn viral_evening_without_and_with_monitor() {
    let plain = run(&timeline("viral-evening"));
    show("viral-evening", &plain);
    // 75,615,000 likes expected (see curve tests); Poisson sd 8,696.
    assert!((plain.total_writes as f64 - 75_615_000.0).abs() < 5.0 * 8696.0);
    // One key accepts at most 1,000/s plus the 300,000 burst.
    assert!(plain.accepted_writes <= 9600 * 1000 + 300_000);
    assert!(plain.rejected_share > 0.85, "{}", plain.rejected_share);
    let first = plain.first_rejection_second.unwrap();
    // The rate passes 1,000/s at t = 63.7 s; the excess 7.458 (t - 63.7)^2
    // reaches 300,000 at t = 264 s: the burst runs out in about second 264.
    assert!((255..=275).contains(&first), "{first}");

    let mon = run(&timeline("viral-evening-monitor"));
    show("viral-evening-monitor", &mon);
    let raise = mon.raise.clone().unwrap();
    assert!(raise.decided_second < 120);
    assert_eq!(mon.final_shards, 20);
    // The burst covers the excess until every server writes over 20 shards,
    // and 9,000/s over 20 shards stays far below the cap.
    assert_eq!(mon.rejected_writes, 0);
    assert_eq!(mon.undercount_seconds, 0);
}

#[test]
fn monitor_grid_on_an_empty_bucket() {
    // With the bucket empty at the start, the writes rejected before the
    // raise depend on how fast the monitor and the caches react.
    let mut plan = timeline("viral-evening-monitor");
    plan.store.burst_start = shardplan::model::timeline::bucket::BurstStart::Empty;
    plan.seconds = 900;
    let grid = monitor_grid(&plan, &[300.0, 1000.0, 2000.0], &[10, 60], &[10, 60]).unwrap();
    for g in &grid {
        println!(
            "threshold {:>6} window {:>3} s ttl {:>3} s: decided {:?}, all servers {:?}, rejected before raise {}",
            g.threshold, g.window_seconds, g.settings_ttl_seconds, g.raise_decided_second, g.all_servers_second,
            g.rejected_before_raise
        );
    }
    let by = |th: f64, w: u64, ttl: u64| {
        grid.iter()
            .find(|g| g.threshold == th && g.window_seconds == w && g.settings_ttl_seconds == ttl)
            .unwrap()
            .rejected_before_raise
    };
    // The empty bucket fills while the rate is still under the cap (the
    // first ~64 s), so a 300/s threshold raises in time whatever the
    // window and TTL; a higher threshold, a longer window or a longer TTL
    // each let rejections in before every server writes over 20 shards.
    for w in [10, 60] {
        for ttl in [10, 60] {
            assert_eq!(by(300.0, w, ttl), 0);
            assert!(by(1000.0, w, ttl) <= by(2000.0, w, ttl));
        }
    }
    assert!(by(1000.0, 10, 10) < by(1000.0, 10, 60));
    assert!(by(1000.0, 10, 60) < by(1000.0, 60, 60));
    assert!(by(2000.0, 10, 10) < by(2000.0, 60, 10));
}

fn resize(name: &str) -> (ResizePlan, u64) {
    let t = load(name);
    let cfg: ResizeConfig = t["resize"].clone().try_into().unwrap();
    (cfg.validate().unwrap(), int(&t, "seed"))
}

#[test]
fn grow_and_shrink_scenarios() {
    let (ResizePlan::Grow(wrong), seed) = resize("grow-wrong-order") else {
        panic!()
    };
    let exp = wrong.expected();
    let sim = wrong.simulate(seed, |_| Ok::<(), Infallible>(())).unwrap();
    println!(
        "grow-wrong-order expected: {}",
        serde_json::to_string(&exp).unwrap()
    );
    println!(
        "grow-wrong-order simulated: {}",
        serde_json::to_string(&sim).unwrap()
    );
    assert_eq!(exp.displayed_total, 550.0);
    assert!((sim.displayed_total - 550.0).abs() < 5.0 * 6.9);

    let (ResizePlan::Grow(right), _) = resize("grow-right-order") else {
        panic!()
    };
    assert_eq!(right.expected().min_displayed_ratio, 1.0);

    let (ResizePlan::Shrink(shrink), _) = resize("shrink-fold") else {
        panic!()
    };
    let r = shrink.run(|_| Ok::<(), Infallible>(())).unwrap();
    println!("shrink-fold: {}", serde_json::to_string(&r).unwrap());
    assert_eq!((r.min_displayed_total, r.max_displayed_total), (140, 180));
}
