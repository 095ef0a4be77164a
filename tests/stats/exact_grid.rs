//! The exact busiest-shard tables against a pinned grid of values.
//!
//! `tests/data/exact_grid.csv` holds `ln P(max > c)` and `ln P(max <= c)`
//! for a grid of (likes/s, shards, traffic, c), written by the build of
//! 2026-12-01 (commit 6cc5a35), before issue 18 replaced the O(sigma^2)
//! pair sum of the Bonferroni bracket by an O(1)-per-c recurrence, cut the
//! work to what each figure needs and cached tables. Those changes must not
//! move a value by more than 1e-12 relative (a log difference of 1e-12 is a
//! relative difference of 1e-12 in the probability). The grid covers every
//! part of the table: Levin's formula at the bottom, the Bonferroni band,
//! the one-term tail at the top, and both ends beyond the table.
//!
//! Where a value comes from Levin's formula, `P(max > c)` is `1 - P(max <=
//! c)`, good to an absolute error of `2e-15 max(S, 5)` (docs/exact.md; the
//! bound `p_over_cap_rel_error` reports), not to 1e-12 relative when it is
//! small: the old and the new value each carry up to that error, so there
//! they must agree to twice that in absolute terms. `ln P(max <= c)` must
//! agree to 1e-12 everywhere. For 1,000 likes/s over
//! 7 shards at c = 187 the exact rational value (scripts/check_exact.py's
//! method) is ln P(max > c) = -7.956200726824095: the old build had
//! -7.956200726827965, this one -7.956200726835565, both inside the bound.
//!
//! Re-pinned once, deliberately, in issue 18's second session: at the bottom
//! of the table (tilt far above the cut) Levin's `S ln P(X <= c) - ln
//! P(Poisson(S lambda) = L)` cancelled two terms of size `S |ln P(X <= c)|`
//! (thousands), losing up to 3e-10 in the log; it is now split so nothing
//! of that size cancels (`levin::ln_pmf_ratio`). Six pinned logs moved by
//! more than 1e-12, each toward the exact value (exact integers, or
//! long-double convolutions of the deficit polynomial for R = S c - L up to
//! 9,440, with mpmath's `loggamma`): 14,000/20 at c = 705 (old error
//! 1.2e-12, new 5e-15), 1e6/3 at 333,334 (3.1e-10, 2e-15), 1e7/20 at
//! 500,013 (5.8e-11, 2e-14), 500,015 (3.0e-11, 2e-14), 500,016 (2.7e-12,
//! 2e-14) and 500,472 (1.1e-12, 9e-13). Five of them are unit tests of
//! their own (`levin::tests::bottom_of_the_table_is_exact`).
//!
//! `SHARDPLAN_UPDATE_EXACT_GRID=1 cargo test --test cli stats::exact_grid` rewrites
//! the file; do that only for a deliberate change of the exact values, and say
//! why in the commit.

use std::fmt::Write as _;

use shardplan::model::exact::BusiestShard;
use shardplan::model::law::TrafficModel;

const FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/exact_grid.csv");
/// Allowed difference of the logs: 1e-12 relative in the probability.
const TOLERANCE: f64 = 1e-12;

/// The (likes/s, shards) pairs: small, the article's, the large cases, few
/// shards with a wide spread, and many shards with a narrow one.
const CASES: &[(f64, u64)] = &[
    (50.0, 3),
    (1_000.0, 2),
    (1_000.0, 7),
    (14_000.0, 20),
    (18_000.0, 20),
    (200_000.0, 286),
    (1_000_000.0, 3),
    (1_000_000.0, 1_430),
    (10_000_000.0, 20),
    (10_000_000.0, 100_000),
];

/// The values of `c` checked: the table at 40 evenly spaced points, its
/// ends and a few values past each end.
fn grid(d: &BusiestShard) -> Vec<u64> {
    let (lo, hi) = d.table_range();
    let mut cs: Vec<u64> = (0..=40).map(|k| lo + (hi - lo) * k / 40).collect();
    cs.extend([lo.saturating_sub(3), lo.saturating_sub(1), hi + 1, hi + 5]);
    cs.sort_unstable();
    cs.dedup();
    cs
}

fn rows() -> String {
    let mut out = String::from("rate,shards,traffic,c,ln_sf,ln_cdf\n");
    for &(rate, shards) in CASES {
        for model in [TrafficModel::Fixed, TrafficModel::Poisson] {
            let d = BusiestShard::new(rate, shards, model).unwrap();
            for c in grid(&d) {
                writeln!(
                    out,
                    "{rate},{shards},{},{c},{:?},{:?}",
                    model.name(),
                    d.ln_sf(c),
                    d.ln_cdf(c)
                )
                .unwrap();
            }
        }
    }
    out
}

fn parse(x: &str) -> f64 {
    match x {
        "-inf" => f64::NEG_INFINITY,
        _ => x.parse().unwrap(),
    }
}

/// Logs within 1e-12 (`levin`: or, for `P(max > c)`, probabilities within
/// twice Levin's absolute error).
fn agree(got: f64, want: f64, levin: Option<u64>) -> bool {
    let bound = levin.map_or(0.0, |s| 2.0 * 2e-15 * (s as f64).max(5.0));
    got == want || (got - want).abs() <= TOLERANCE || (got.exp() - want.exp()).abs() <= bound
}

#[test]
fn exact_tables_keep_their_values() {
    if std::env::var_os("SHARDPLAN_UPDATE_EXACT_GRID").is_some() {
        std::fs::write(FILE, rows()).unwrap();
        return;
    }
    let pinned = std::fs::read_to_string(FILE).unwrap();
    let mut checked = 0;
    let mut tables = std::collections::HashMap::new();
    for line in pinned.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let (rate, shards): (f64, u64) = (f[0].parse().unwrap(), f[1].parse().unwrap());
        let model = match f[2] {
            "fixed" => TrafficModel::Fixed,
            _ => TrafficModel::Poisson,
        };
        let c: u64 = f[3].parse().unwrap();
        let d = tables
            .entry((f[0].to_string(), shards, f[2].to_string()))
            .or_insert_with(|| BusiestShard::new(rate, shards, model).unwrap());
        let (want_sf, want_cdf) = (parse(f[4]), parse(f[5]));
        let (got_sf, got_cdf) = (d.ln_sf(c), d.ln_cdf(c));
        assert!(
            agree(got_sf, want_sf, Some(shards)) && agree(got_cdf, want_cdf, None),
            "{rate}/s over {shards} ({}) at c = {c}: ln P(max > c) {got_sf:?} (pinned \
             {want_sf:?}), ln P(max <= c) {got_cdf:?} (pinned {want_cdf:?})",
            f[2]
        );
        checked += 1;
    }
    assert!(checked > 700, "only {checked} pinned values");
}
