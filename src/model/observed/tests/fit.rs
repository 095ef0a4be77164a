//! The fit: exact small cases, and synthetic traces with known parameters.

use rand_distr::{Distribution, Gamma, Poisson};

use super::*;
use crate::model::observed::fit::{Dispersion, Empirical, PerSecond};
use crate::model::rng::chunk_rng;

/// A trace of `values` a period apart from T0, as parse would return it.
fn trace(period_seconds: u64, values: &[f64]) -> ObservedTrace {
    let times: Vec<i64> = (0..values.len() as i64)
        .map(|i| T0 + i * period_seconds as i64)
        .collect();
    ObservedTrace {
        format: TraceFormat::Csv,
        period_seconds,
        start: T0,
        times,
        per_second: values.to_vec(),
        gaps: vec![],
        missing_at_start: 0,
        missing_at_end: 0,
        series_summed: 1,
        descending_input: false,
        partial: false,
        metric_id: None,
    }
}

#[test]
fn five_seconds_by_hand() {
    // Sorted 2, 4, 4, 5, 10: mean 5; deviations -3 -1 -1 0 5, squares sum
    // to 36, so the sample variance is 36 / 4 = 9; 9 / 5 = 1.8; K = 25 / 4.
    let t =
        one("time,count\n1796061600,4\n1796061601,10\n1796061602,2\n1796061604,5\n1796061605,4\n");
    let fit = TraceFit::new(&t);
    assert_eq!(fit.periods, 5);
    assert_eq!((fit.seconds_covered, fit.gap_periods), (5, 1));
    assert_eq!(fit.mean_rate, 5.0);
    assert_eq!((fit.peak_rate, fit.peak_time), (10.0, T0 + 1));
    assert_eq!(fit.variance(), Some(9.0));
    assert_eq!(fit.variance_to_mean(), Some(1.8));
    assert_eq!(fit.dispersion(), Some(6.25));
    assert_eq!(
        fit.empirical(),
        Some(&[(2, 1), (4, 2), (5, 1), (10, 1)][..])
    );
    // The ceil(n q)-th smallest: 3rd for 0.5, 5th for 0.99 and 0.999;
    // five periods support none of them.
    let q: Vec<(f64, f64, bool)> = fit
        .quantile_rates
        .iter()
        .map(|r| (r.q, r.rate, r.supported))
        .collect();
    assert_eq!(
        q,
        vec![(0.5, 4.0, false), (0.99, 10.0, false), (0.999, 10.0, false)]
    );
}

#[test]
fn coarser_data_has_no_per_second_spread() {
    let t = one("time,count\n1796061600,60\n1796061660,120\n1796061720,600\n");
    let fit = TraceFit::new(&t);
    assert_eq!(fit.per_second, PerSecond::CoarserThanSecond);
    assert_eq!(fit.seconds_covered, 180);
    assert_eq!(fit.mean_rate, 13.0 / 3.0);
    assert_eq!((fit.peak_rate, fit.peak_time), (10.0, T0 + 120));
    assert_eq!(fit.quantile_rates[0].rate, 2.0);
    assert_eq!(fit.variance(), None);
    assert_eq!(fit.variance_to_mean(), None);
    assert_eq!(fit.dispersion(), None);
    assert_eq!(fit.empirical(), None);
}

#[test]
fn the_typed_reasons_for_no_value() {
    // Steadier than Poisson: variance 0.25 under a mean of 5.25.
    let fit = TraceFit::new(&trace(1, &[5.0, 5.0, 5.0, 6.0]));
    let PerSecond::Fitted(s) = &fit.per_second else {
        panic!("per-second data is fitted");
    };
    assert_eq!(s.dispersion, Dispersion::NotOverdispersed);
    assert_eq!(fit.dispersion(), None);
    assert_eq!(fit.variance_to_mean(), Some(0.25 / 5.25));
    // Fractional counts: no table of counts, the first one named.
    let fit = TraceFit::new(&trace(1, &[2.0, 1.5, 2.5]));
    let PerSecond::Fitted(s) = &fit.per_second else {
        panic!("per-second data is fitted");
    };
    assert_eq!(
        s.empirical,
        Empirical::NotWholeNumbers {
            time: T0 + 1,
            value: 1.5
        }
    );
    assert!(fit.variance().is_some() && fit.empirical().is_none());
    // No likes at all.
    let fit = TraceFit::new(&trace(1, &[0.0, 0.0, 0.0]));
    assert_eq!(fit.per_second, PerSecond::NoLikes);
}

#[test]
fn counts_spread_wide_are_tabled_by_sorting() {
    let fit = TraceFit::new(&trace(1, &[0.0, 1e12, 5.0, 1e12]));
    assert_eq!(
        fit.empirical(),
        Some(&[(0, 1), (5, 1), (1_000_000_000_000, 2)][..])
    );
}

#[test]
fn quantiles_are_supported_from_ten_expected_periods_above() {
    let supported = |n: usize| -> Vec<bool> {
        TraceFit::new(&trace(1, &vec![1.0; n]))
            .quantile_rates
            .iter()
            .map(|r| r.supported)
            .collect()
    };
    assert_eq!(supported(19), vec![false, false, false]);
    assert_eq!(supported(20), vec![true, false, false]);
    assert_eq!(supported(999), vec![true, false, false]);
    assert_eq!(supported(1_000), vec![true, true, false]);
    assert_eq!(supported(9_999), vec![true, true, false]);
    assert_eq!(supported(10_000), vec![true, true, true]);
}

#[test]
fn quantiles_match_a_sort() {
    let mut rng = chunk_rng(7, 0);
    let poisson = Poisson::new(30.0).unwrap();
    for n in [1, 2, 3, 999, 1_000, 12_345] {
        let x: Vec<f64> = (0..n).map(|_| poisson.sample(&mut rng)).collect();
        let mut sorted = x.clone();
        sorted.sort_by(f64::total_cmp);
        let fit = TraceFit::new(&trace(1, &x));
        for r in &fit.quantile_rates {
            let i = ((n as f64 * r.q).ceil() as usize).max(1) - 1;
            assert_eq!(r.rate, sorted[i], "n {n}, q {}", r.q);
        }
        assert_eq!(fit.peak_rate, sorted[n - 1]);
    }
}

/// A per-second CSV trace: each second's rate Gamma(shape K, mean m) (or m
/// itself for pure Poisson, `k: None`), its count Poisson given the rate.
fn gamma_poisson_csv(m: f64, k: Option<f64>, seconds: i64, seed: u64) -> String {
    let mut rng = chunk_rng(seed, 0);
    let gamma = k.map(|k| Gamma::new(k, m / k).unwrap());
    let mut text = String::from("time,count\n");
    for s in 0..seconds {
        let rate = gamma.as_ref().map_or(m, |g| g.sample(&mut rng));
        let count = Poisson::new(rate).unwrap().sample(&mut rng);
        text.push_str(&format!("{},{count}\n", T0 + s));
    }
    text
}

/// Standard errors of the variance-to-mean ratio and of the shape K, by
/// the delta method, for n seconds of a negative binomial with mean m and
/// shape K (`inv_k` = 1/K; 0 for Poisson).
///
/// The count's cumulants are those of the Gamma-Poisson mixture:
///   k2 = m + m^2/K,  k3 = m + 3m^2/K + 2m^3/K^2,
///   k4 = m + 7m^2/K + 12m^3/K^2 + 6m^4/K^3.
/// For n i.i.d. counts, to order 1/n: Var(mean) = k2/n; Var(s^2) =
/// (mu4 - sigma^4)/n = (k4 + 2 k2^2)/n, as mu4 = k4 + 3 k2^2; and
/// Cov(mean, s^2) = mu3/n = k3/n. A smooth g(mean, s^2) then has
/// Var(g) = gm^2 Var(mean) + gv^2 Var(s^2) + 2 gm gv Cov(mean, s^2), with
/// the partial derivatives at the true (m, k2):
/// - VMR = v/m: gm = -v/m^2, gv = 1/m;
/// - K = m^2/(v - m): gm = 2m/(v - m) + m^2/(v - m)^2, gv = -m^2/(v - m)^2.
///
/// At m = 1,000, K = 20, n = 200,000: VMR 51 with SE 0.167, K with SE
/// 0.066. For Poisson the VMR's SE is sqrt(2/n).
fn delta_method_se(m: f64, inv_k: f64, n: f64) -> (f64, f64) {
    let k2 = m + m * m * inv_k;
    let k3 = m + 3.0 * m * m * inv_k + 2.0 * m.powi(3) * inv_k * inv_k;
    let k4 = m
        + 7.0 * m * m * inv_k
        + 12.0 * m.powi(3) * inv_k.powi(2)
        + 6.0 * m.powi(4) * inv_k.powi(3);
    let (var_m, var_v, cov) = (k2 / n, (k4 + 2.0 * k2 * k2) / n, k3 / n);
    let se = |gm: f64, gv: f64| (gm * gm * var_m + gv * gv * var_v + 2.0 * gm * gv * cov).sqrt();
    let vmr = se(-k2 / (m * m), 1.0 / m);
    let excess = k2 - m;
    let shape = se(
        2.0 * m / excess + m * m / (excess * excess),
        -m * m / (excess * excess),
    );
    (vmr, shape)
}

#[test]
fn a_gamma_poisson_trace_gives_back_its_dispersion() {
    let (m, k, n) = (1_000.0, 20.0, 200_000);
    let text = gamma_poisson_csv(m, Some(k), n, 2026);
    let t = one(&text);
    let fit = TraceFit::new(&t);
    let (se_vmr, se_k) = delta_method_se(m, 1.0 / k, n as f64);
    assert!((se_vmr - 0.167).abs() < 0.001 && (se_k - 0.066).abs() < 0.001);
    let vmr = fit.variance_to_mean().unwrap();
    let expected_vmr = 1.0 + m / k;
    assert!(
        (vmr - expected_vmr).abs() < 4.0 * se_vmr,
        "VMR {vmr}, expected {expected_vmr} +- {se_vmr}"
    );
    let shape = fit.dispersion().unwrap();
    assert!(
        (shape - k).abs() < 4.0 * se_k,
        "K {shape}, expected {k} +- {se_k}"
    );
    assert!((fit.mean_rate - m).abs() < 4.0 * (expected_vmr * m / n as f64).sqrt());
    assert_eq!(
        fit.empirical().unwrap().iter().map(|c| c.1).sum::<u64>(),
        n as u64
    );
    // The derivation checked against the spread of 100 batches of 2,000
    // seconds: each batch's VMR varies 100 times as much as the whole
    // trace's, so SE ~ sd(batch VMRs) / 10. Its own error is about 7%.
    let batch_vmrs: Vec<f64> = t
        .per_second
        .chunks(2_000)
        .map(|b| {
            let fit = TraceFit::new(&ObservedTrace {
                times: t.times[..b.len()].to_vec(),
                per_second: b.to_vec(),
                ..t.clone()
            });
            fit.variance_to_mean().unwrap()
        })
        .collect();
    let mean_b = batch_vmrs.iter().sum::<f64>() / 100.0;
    let sd_b = (batch_vmrs.iter().map(|v| (v - mean_b).powi(2)).sum::<f64>() / 99.0).sqrt();
    let se_batches = sd_b / 10.0;
    assert!(
        (0.75..1.33).contains(&(se_batches / se_vmr)),
        "batches {se_batches}, delta method {se_vmr}"
    );
}

#[test]
fn a_poisson_trace_has_a_variance_to_mean_of_one() {
    let n = 200_000;
    let fit = TraceFit::new(&one(&gamma_poisson_csv(1_000.0, None, n, 2027)));
    let (se_vmr, _) = delta_method_se(1_000.0, 0.0, n as f64);
    assert!((se_vmr - (2.0 / n as f64).sqrt()).abs() < 1e-12);
    let vmr = fit.variance_to_mean().unwrap();
    assert!((vmr - 1.0).abs() < 4.0 * se_vmr, "VMR {vmr} +- {se_vmr}");
    // A Gamma-Poisson trace's VMR is far outside that band: the test can
    // tell the two apart.
    assert!(4.0 * se_vmr < 0.02);
}
