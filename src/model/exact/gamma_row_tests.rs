//! The table-free row against the table it replaces, against exact values
//! by another method, and its own pieces against plain sums.

use super::*;
use crate::model::exact::gamma_mix::tests::brute_cdf;
use crate::model::exact::gamma_parts::ln_tail_first_form;
use crate::model::exact::BusiestShard;
use crate::model::law::Dispersion;

fn gamma(k: f64) -> TrafficModel {
    TrafficModel::GammaPoisson(Dispersion::new_unchecked(k))
}

/// The inputs of the rows checked against the table: the case
/// (22,231.5 likes/s, K = 6.9) at 10, 57, 100, 497, 600, 875 and 1,000
/// shards, and at K = 2 over 958 (past a few hundred shards the busiest
/// mean ripples with the second's rate: the sums whose gaps the ripple
/// fooled were 5e-12 off at 497 shards, 2e-9 at 875 and 1.4e-7 at K = 2;
/// the shifted check sees it), a mild and a very bursty law, a
/// near-Poisson one, a small rate.
const ROWS: &[(f64, f64, u64)] = &[
    (22_231.5, 6.9, 57),
    (22_231.5, 6.9, 10),
    (22_231.5, 6.9, 100),
    (22_231.5, 6.9, 497),
    (22_231.5, 6.9, 600),
    (22_231.5, 6.9, 875),
    (22_231.5, 6.9, 1_000),
    (22_231.5, 2.0, 958),
    (14_000.0, 300.0, 20),
    (500.0, 0.3, 7),
    (50_000.0, 1e5, 100),
    (20.0, 10.0, 3),
    (3.0, 2.0, 2),
];

/// Every figure of a row as the table gives it: the same quantiles, the
/// chance over the cap to the claimed 1e-10 of itself (an absolute 1e-10
/// on its log), the mean to 1e-12.
#[test]
fn rows_agree_with_the_table() {
    for &(rate, k, shards) in ROWS {
        let table = BusiestShard::new(rate, shards, gamma(k)).unwrap();
        if shards == 10 {
            // Just inside the table's limit: 19,113 rows (see
            // `the_tables_refusal_stands`).
            let (lo, hi) = table.table_range();
            assert!(hi - lo > 15_000, "{lo}..{hi}");
        }
        for &(cap, seconds) in &[(2_000.0, 14_400.0), (40.0, 1.0)] {
            let old = Risk::from_busiest(&table, cap, seconds).unwrap();
            let new = Risk::compute(rate, shards, cap, seconds, gamma(k)).unwrap();
            let what = format!("rate {rate} K {k} S {shards} cap {cap} T {seconds}");
            assert_eq!(new.quantiles(), old.quantiles(), "{what}");
            let (m_new, m_old) = (new.busiest_mean_per_second, old.busiest_mean_per_second);
            assert!(
                (m_new / m_old - 1.0).abs() < 1e-12,
                "{what}: {m_new} vs {m_old}"
            );
            // The table integrates eight cuts at once: the same integral
            // to the quadrature's tolerance, not bit for bit.
            let (p_new, p_old) = (new.ln_p_over_cap_per_second, old.ln_p_over_cap_per_second);
            assert!(
                (p_new - p_old).abs() < MIX_REL_ERROR,
                "{what}: {p_new} vs {p_old}"
            );
            assert_eq!(new.p_over_cap_rel_error, old.p_over_cap_rel_error, "{what}");
        }
    }
}

/// Small cases against `gamma_mix_tests`' `brute_cdf`: the mean (`sum_c (1 - P(max <=
/// c))`) to 1e-10 relative, and every quantile of the row exactly, for
/// two runs (a second, and 14,400 seconds).
#[test]
fn rows_match_exact_values() {
    for &(r, k, s, n_max) in &[
        (20.0, 10.0, 3usize, 150usize),
        (6.0, 1.0, 2, 200),
        (12.0, 50.0, 5, 120),
    ] {
        let cdf: Vec<f64> = (0..n_max).map(|c| brute_cdf(r, k, s, c, n_max)).collect();
        let mean: f64 = cdf.iter().map(|f| 1.0 - f).sum();
        for seconds in [1.0, 14_400.0] {
            let row = Risk::compute(r, s as u64, 10.0, seconds, gamma(k)).unwrap();
            let got = row.busiest_mean_per_second;
            assert!(
                (got / mean - 1.0).abs() < 1e-10,
                "r {r} K {k} S {s}: {got} vs {mean}"
            );
            let quantile = |t: f64, q: f64| {
                cdf.iter()
                    .position(|f| t * f.ln() >= q.ln())
                    .expect("within n_max") as u64
            };
            let what = format!("r {r} K {k} S {s} T {seconds}");
            assert_eq!(row.busiest_p999_per_second, quantile(1.0, 0.999), "{what}");
            assert_eq!(
                row.busiest_over_run_median,
                quantile(seconds, 0.5),
                "{what}"
            );
            assert_eq!(row.busiest_over_run_q01, quantile(seconds, 0.01), "{what}");
            assert_eq!(row.busiest_over_run_q99, quantile(seconds, 0.99), "{what}");
        }
    }
}

/// A sweep's rows are each count's own row, bit for bit: a cut's value
/// comes from its aligned block whichever search asked, and a first read
/// through a peak carried from a neighbouring row only decides what its
/// honest bound decides, so the guesses and peaks a neighbouring row gives
/// (and the chunking) change nothing; among the ripple's rows too.
#[test]
fn sweep_rows_are_each_counts_row() {
    let counts: Vec<u64> = (40..=60).chain([90, 300]).chain(870..=880).collect();
    let rows = super::sweep(22_231.5, &counts, (2_000.0, 14_400.0), gamma(6.9), &|| {}).unwrap();
    for (row, &shards) in rows.iter().zip(&counts) {
        let alone = Risk::compute(22_231.5, shards, 2_000.0, 14_400.0, gamma(6.9)).unwrap();
        assert_eq!(
            serde_json::to_string(row).unwrap(),
            serde_json::to_string(&alone).unwrap(),
            "{shards}"
        );
    }
}

/// The spread the table refuses is refused here too, naming
/// `dispersion` and the table's ends; one just inside the limit (22,231.5
/// likes/s over 10 shards at K = 6.9, a table of 19,113 rows, built and
/// compared in `rows_agree_with_the_table`) passes.
#[test]
fn the_tables_refusal_stands() {
    let err = Risk::compute(1e9, 10, 1_000.0, 14_400.0, gamma(1.0)).unwrap_err();
    assert_eq!(err.param, "dispersion");
    let table_err = BusiestShard::new(1e9, 10, gamma(1.0)).unwrap_err();
    assert_eq!(err.problem.to_string(), table_err.problem.to_string());
    Risk::compute(22_231.5, 10, 2_000.0, 14_400.0, gamma(6.9)).unwrap();
}

/// The table's rows, integrated eight cuts at a time (`gamma_blocks::table_tails`),
/// against each cut's own integral in the first form (`E[F^S]` and `E[1 -
/// F^S]`, adaptively; the table's blocks are by parts where they can be) on
/// every row: 1e-10 of each probability (that much on its log), across a
/// table's bottom (`P(max <= c)` from 1e-30) and top (`P(max > c)` to
/// 1e-17), blocks cut by both ends included.
#[test]
fn table_blocks_are_each_cuts_own_integral() {
    for &(rate, k, shards) in &[(40.0, 0.5, 3), (20.0, 10.0, 3), (3_000.0, 50.0, 9)] {
        let table = BusiestShard::new(rate, shards, gamma(k)).unwrap();
        let mix = GammaMix::new(rate, k);
        let (lo, hi) = table.table_range();
        for c in lo..=hi {
            let (ln_cdf, ln_sf, _) = table.stored(c).unwrap();
            let what = format!("rate {rate} K {k} S {shards} c {c}");
            let (cdf, sf) = (
                ln_tail_first_form(&mix, shards, c, false).min(0.0),
                ln_tail_first_form(&mix, shards, c, true).min(0.0),
            );
            assert!((ln_cdf - cdf).abs() <= 1e-10, "{what}: {ln_cdf} vs {cdf}");
            assert!((ln_sf - sf).abs() <= 1e-10, "{what}: {ln_sf} vs {sf}");
        }
    }
}

/// Each quantile the search finds (blocks read coarsely, the cut below
/// the answer again in full where its interval is in doubt) is the first
/// cut that meets it by each cut's own first-form integral, adaptively:
/// `x(c - 1)` above the threshold and `x(c)` at or below it, for the
/// run's and the second's quantiles, searched from a far guess and from
/// the mean, on laws from 10 to 1,000 shards and K from 0.3 to 300.
#[test]
fn quantiles_are_the_first_cut_that_meets_them() {
    let laws = [
        (22_231.5, 6.9, 10),
        (22_231.5, 6.9, 57),
        (22_231.5, 6.9, 1000),
        (9902.0, 21.0, 16),
        (14_000.0, 0.3, 20),
        (14_000.0, 300.0, 20),
    ];
    for &(rate, k, shards) in &laws {
        let row = GammaRow::new(rate, k, shards);
        let mix = GammaMix::new(rate, k);
        let mean = row.mean().round() as u64;
        for &(seconds, q) in &[(1.0, 0.999), (1.0, 0.01), (14_400.0, 0.5), (14_400.0, 0.99)] {
            let x_star = (-f64::ln(q)).ln() - f64::ln(seconds);
            // ln(-ln P(max <= c)) from the side below 1/2.
            let x = |c: u64| {
                let ln_sf = ln_tail_first_form(&mix, shards, c, true).min(0.0);
                if ln_sf < -std::f64::consts::LN_2 {
                    (-ln_1m_exp(ln_sf)).ln()
                } else {
                    (-ln_tail_first_form(&mix, shards, c, false).min(0.0)).ln()
                }
            };
            for guess in [mean, 3 * mean + 100] {
                let c = row.run_quantile(seconds, q, guess);
                let what = format!("rate {rate} K {k} S {shards} T {seconds} q {q} from {guess}");
                assert!(x(c) <= x_star, "{what}: {c} does not meet it");
                assert!(c == 0 || x(c - 1) > x_star, "{what}: {} meets it", c - 1);
            }
        }
    }
}
