use super::*;

fn plan(seconds: u64, seed: u64) -> SimPlan {
    SimPlan::new(14_000.0, 20, 1000.0, seconds, TrafficModel::Fixed, seed).unwrap()
}

#[test]
fn counts_every_like_and_second() {
    let t = run(&plan(10_000, 1), None, &|_| {}).unwrap();
    assert_eq!(t.seconds, 10_000);
    assert_eq!(t.likes, 140_000_000);
    assert_eq!(t.busiest.total(), 10_000);
    // The busiest of 20 shards holds at least the average.
    assert!(t.busiest.min().unwrap() >= 700);
    assert!(t.quietest_min.unwrap() <= 700);
}

#[test]
fn same_seed_same_tally_any_thread_count() {
    let p = plan(20_000, 99);
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let two = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let a = one.install(|| run(&p, None, &|_| {}).unwrap());
    let b = two.install(|| run(&p, None, &|_| {}).unwrap());
    assert_eq!(a, b);
    let c = run(&plan(20_000, 100), None, &|_| {}).unwrap();
    assert_ne!(a.busiest, c.busiest);
}

#[test]
fn per_second_rows_match_tally() {
    let p = plan(5_000, 3);
    let mut buf = Vec::new();
    let t = run(&p, Some(&mut buf), &|_| {}).unwrap();
    let text = String::from_utf8(buf).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("second,likes,busiest,quietest,over_cap"));
    let rows: Vec<_> = lines.collect();
    assert_eq!(rows.len(), 5_000);
    assert!(rows[0].starts_with("1,14000,"));
    assert!(rows[4_999].starts_with("5000,14000,"));
    // The same run without rows gives the same tally.
    assert_eq!(t, run(&p, None, &|_| {}).unwrap());
}

#[test]
fn rejects_bad_plans() {
    let e = SimPlan::new(14_000.0, 20, 1000.0, 0, TrafficModel::Fixed, 1).unwrap_err();
    assert_eq!(e.param, "seconds");
    let e = SimPlan::new(14_000.0, 0, 1000.0, 10, TrafficModel::Fixed, 1).unwrap_err();
    assert_eq!(e.param, "shards");
    let e = SimPlan::new(14_000.0, 20, 999.5, 10, TrafficModel::Fixed, 1).unwrap_err();
    assert_eq!(e.param, "cap");
}
