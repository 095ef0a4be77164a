use super::*;
use std::convert::Infallible;

fn grow(order: ResizeOrder) -> GrowPlan {
    let mut c = ResizeConfig::new(1, 20);
    c.order = order;
    match c.validate().unwrap() {
        ResizePlan::Grow(g) => g,
        other => panic!("not a grow: {other:?}"),
    }
}

fn shrink(fold: FoldMode, read: ReadMode, step_order: StepOrder) -> ShrinkPlan {
    let mut c = ResizeConfig::new(20, 1);
    c.fold = fold;
    c.read = read;
    c.step_order = step_order;
    match c.validate().unwrap() {
        ResizePlan::Shrink(s) => s,
        other => panic!("not a shrink: {other:?}"),
    }
}

#[test]
fn grow_writes_first_shows_550_of_1500() {
    let r = grow(ResizeOrder::WritesFirst).expected();
    assert_eq!(r.true_total, 1500);
    // 500 + 1,000 / 20 = 550.
    assert_eq!(r.displayed_total, 550.0);
    assert_eq!(r.min_displayed_ratio, 550.0 / 1500.0);
    // Second 1 gets round(1000 / 120) = 8 likes: (500 + 8/20) / 508.
    assert_eq!(r.max_displayed_ratio, 500.4 / 508.0);
    assert_eq!((r.stale_window_seconds, r.undercount_seconds), (120, 120));
}

#[test]
fn grow_reads_first_never_undercounts() {
    let r = grow(ResizeOrder::ReadsFirst).expected();
    assert_eq!(r.displayed_total, 1500.0);
    assert_eq!((r.min_displayed_ratio, r.max_displayed_ratio), (1.0, 1.0));
    assert_eq!(r.undercount_seconds, 0);
    let s = grow(ResizeOrder::ReadsFirst)
        .simulate(3, |_| Ok::<(), Infallible>(()))
        .unwrap();
    assert_eq!((s.min_displayed_ratio, s.max_displayed_ratio), (1.0, 1.0));
    assert_eq!(s.undercount_seconds, 0);
}

#[test]
fn grow_simulation_gives_about_550() {
    // The stale reader sees 500 + Binomial(1000, 1/20): sd
    // sqrt(1000 x 0.05 x 0.95) = 6.9; allow 5 sd.
    let mut rows = 0;
    let mut last = None;
    let r = grow(ResizeOrder::WritesFirst)
        .simulate(42, |row| {
            rows += 1;
            last = Some(*row);
            Ok::<(), Infallible>(())
        })
        .unwrap();
    assert_eq!(rows, 120);
    let last = last.unwrap();
    assert_eq!(last.true_total, 1500);
    assert_eq!(r.displayed_total, last.displayed_total as f64);
    assert!(
        (r.displayed_total - 550.0).abs() < 5.0 * 6.9,
        "{}",
        r.displayed_total
    );
    assert_eq!(r.expected_displayed_total, 550.0);
    assert_eq!(r.seed, Some(42));
    // Same seed, same run.
    let again = grow(ResizeOrder::WritesFirst)
        .simulate(42, |_| Ok::<(), Infallible>(()))
        .unwrap();
    assert_eq!(r, again);
}

#[test]
fn grow_with_no_cache_is_safe_either_way() {
    let mut c = ResizeConfig::new(1, 20);
    c.order = ResizeOrder::WritesFirst;
    c.settings_ttl_seconds = 0;
    let ResizePlan::Grow(g) = c.validate().unwrap() else {
        panic!()
    };
    let r = g.expected();
    assert_eq!((r.min_displayed_ratio, r.undercount_seconds), (1.0, 0));
}

#[test]
fn default_shard_layout() {
    let v = default_shard_likes(20);
    assert_eq!(v[0], 10);
    assert_eq!(v[1], 40);
    assert!(v[2..].iter().all(|&x| x == 5));
    assert_eq!(v.iter().sum::<u64>(), 140);
    assert_eq!(default_shard_likes(2), vec![100, 40]);
}

fn run(p: &ShrinkPlan) -> ShrinkReport {
    p.run(|_| Ok::<(), Infallible>(())).unwrap()
}

#[test]
fn separate_fold_blips_both_ways() {
    let add = run(&shrink(
        FoldMode::Separate,
        ReadMode::Batch,
        StepOrder::AddFirst,
    ));
    assert_eq!(
        (add.min_displayed_total, add.max_displayed_total),
        (140, 180)
    );
    assert_eq!(add.max_displayed_ratio, 180.0 / 140.0);
    assert_eq!(add.min_displayed_ratio, 1.0);
    // 19 folds: 1 + 38 reads, each half-done read is wrong.
    assert_eq!((add.folds, add.reads, add.wrong_reads), (19, 39, 19));
    assert_eq!(add.final_shards[0], 140);
    assert!(add.final_shards[1..].iter().all(|&x| x == 0));
    let sub = run(&shrink(
        FoldMode::Separate,
        ReadMode::Transactional,
        StepOrder::SubtractFirst,
    ));
    assert_eq!(
        (sub.min_displayed_total, sub.max_displayed_total),
        (100, 140)
    );
    assert_eq!(sub.min_displayed_ratio, 100.0 / 140.0);
    assert_eq!(sub.read_retries, 0);
}

#[test]
fn transaction_needs_a_transactional_read() {
    let batch = run(&shrink(
        FoldMode::Transaction,
        ReadMode::Batch,
        StepOrder::AddFirst,
    ));
    assert_eq!(batch.max_displayed_total, 180);
    let tx = run(&shrink(
        FoldMode::Transaction,
        ReadMode::Transactional,
        StepOrder::AddFirst,
    ));
    assert_eq!((tx.min_displayed_ratio, tx.max_displayed_ratio), (1.0, 1.0));
    assert_eq!((tx.wrong_reads, tx.read_retries), (0, 19));
}

#[test]
fn shrink_to_several_shards_folds_modulo() {
    let mut c = ResizeConfig::new(4, 2);
    c.shard_likes = Some(vec![1, 2, 3, 4]);
    let ResizePlan::Shrink(s) = c.validate().unwrap() else {
        panic!()
    };
    let r = run(&s);
    assert_eq!(r.final_shards, vec![4, 6, 0, 0]);
    assert_eq!(r.max_displayed_total, 14);
}

#[test]
fn validation_names_the_flag() {
    assert_eq!(
        ResizeConfig::new(5, 5).validate().unwrap_err().param,
        "resize.to"
    );
    assert_eq!(
        ResizeConfig::new(0, 5).validate().unwrap_err().param,
        "resize.from"
    );
    let mut c = ResizeConfig::new(20, 1);
    c.shard_likes = Some(vec![1, 2]);
    assert_eq!(c.validate().unwrap_err().param, "resize.shard_likes");
    let t: ResizeConfig =
        toml::from_str("from = 20\nto = 1\nfold = \"transaction\"\nread = \"transactional\"")
            .unwrap();
    assert_eq!(
        (t.fold, t.read),
        (FoldMode::Transaction, ReadMode::Transactional)
    );
    let t: ResizeConfig = toml::from_str("from = 1\nto = 20\norder = \"writes-first\"").unwrap();
    assert_eq!(t.order, ResizeOrder::WritesFirst);
    assert!(toml::from_str::<ResizeConfig>("from = 1\nto = 2\nttl = 3").is_err());
}
