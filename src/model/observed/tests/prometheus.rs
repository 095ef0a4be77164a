//! Prometheus `query_range` responses: one series, a sum, NaN gaps.

use super::*;

/// `rate(likes_total[1m])` at a 15 s step, as `/api/v1/query_range`
/// returns it (times 2026-11-30T18:00:00Z onwards).
const ONE_SERIES: &str = r#"{
  "status": "success",
  "data": {
    "resultType": "matrix",
    "result": [
      {
        "metric": {"__name__": "likes_total", "instance": "likes-0:9100", "job": "likes"},
        "values": [
          [1796061600, "12.5"],
          [1796061615, "14"],
          [1796061630, "13.25"],
          [1796061645, "0"]
        ]
      }
    ]
  },
  "stats": {"seriesFetched": "1"}
}"#;

/// A response of series given as `(offset from T0, value)` points.
fn response(series: &[&[(i64, &str)]]) -> String {
    let result: Vec<String> = series
        .iter()
        .enumerate()
        .map(|(k, points)| {
            let values: Vec<String> = points
                .iter()
                .map(|(dt, v)| format!("[{}, \"{v}\"]", T0 + dt))
                .collect();
            format!(
                r#"{{"metric": {{"instance": "likes-{k}:9100"}}, "values": [{}]}}"#,
                values.join(", ")
            )
        })
        .collect();
    format!(
        r#"{{"status": "success", "data": {{"resultType": "matrix", "result": [{}]}}}}"#,
        result.join(", ")
    )
}

#[test]
fn one_series_of_rates() {
    let t = one(ONE_SERIES);
    assert_eq!(t.format, TraceFormat::Prometheus);
    assert_eq!(t.period_seconds, 15);
    assert_eq!(t.times, vec![T0, T0 + 15, T0 + 30, T0 + 45]);
    // Rates already: not divided by the step.
    assert_eq!(t.per_second, vec![12.5, 14.0, 13.25, 0.0]);
    assert_eq!(t.series_summed, 1);
    assert!(t.gaps.is_empty() && !t.descending_input && t.metric_id.is_none());
}

#[test]
fn two_series_are_summed_time_by_time() {
    let a: &[(i64, &str)] = &[(0, "1"), (15, "2"), (30, "3"), (45, "4")];
    let b: &[(i64, &str)] = &[(0, "10"), (15, "20"), (30, "30"), (45, "40")];
    let t = one(&response(&[a, b]));
    assert_eq!(t.series_summed, 2);
    assert_eq!(t.per_second, vec![11.0, 22.0, 33.0, 44.0]);
    assert!(t.gaps.is_empty());
}

#[test]
fn a_time_a_series_lacks_or_has_nan_is_a_gap_of_the_sum() {
    // b lacks +15, a has NaN at +45; both have +60 and +0 and +30.
    let a: &[(i64, &str)] = &[(0, "1"), (15, "2"), (30, "3"), (45, "NaN"), (60, "5")];
    let b: &[(i64, &str)] = &[(0, "10"), (30, "30"), (45, "40"), (60, "50")];
    let t = one(&response(&[a, b]));
    assert_eq!(t.times, vec![T0, T0 + 30, T0 + 60]);
    assert_eq!(t.per_second, vec![11.0, 33.0, 55.0]);
    assert_eq!(
        t.gaps,
        vec![
            Gap {
                after: T0,
                missing_periods: 1
            },
            Gap {
                after: T0 + 30,
                missing_periods: 1
            }
        ]
    );
}

#[test]
fn nan_and_inf_are_gaps_not_zeros() {
    let s: &[(i64, &str)] = &[
        (0, "NaN"),
        (15, "1"),
        (30, "NaN"),
        (45, "2"),
        (60, "+Inf"),
        (75, "-Inf"),
        (90, "3"),
        (105, "NaN"),
    ];
    let t = one(&response(&[s]));
    assert_eq!(t.period_seconds, 15);
    assert_eq!(t.times, vec![T0 + 15, T0 + 45, T0 + 90]);
    assert_eq!(t.per_second, vec![1.0, 2.0, 3.0]);
    assert_eq!(
        t.gaps,
        vec![
            Gap {
                after: T0 + 15,
                missing_periods: 1
            },
            Gap {
                after: T0 + 45,
                missing_periods: 2
            }
        ]
    );
    assert_eq!(
        (t.start, t.missing_at_start, t.missing_at_end),
        (T0 + 15, 1, 1)
    );
    let e = one_err(&response(&[&[(0, "NaN"), (15, "Inf")]]));
    assert_eq!(e.problem, TraceProblem::NoValues);
    let e = one_err(&response(&[&[(0, "NaN"), (15, "4")]]));
    assert_eq!(e.problem, TraceProblem::OnePoint { time: T0 + 15 });
}

#[test]
fn errors_and_other_result_types_are_refused() {
    let failed =
        r#"{"status": "error", "errorType": "bad_data", "error": "invalid parameter \"query\""}"#;
    let e = one_err(failed);
    assert_eq!(
        e.problem,
        TraceProblem::PrometheusStatus {
            status: "error".into(),
            error: "bad_data: invalid parameter \"query\"".into()
        }
    );
    let instant = r#"{"status": "success", "data": {"resultType": "vector",
        "result": [{"metric": {}, "value": [1796061600, "12"]}]}}"#;
    let e = one_err(instant);
    assert_eq!(
        e.problem,
        TraceProblem::PrometheusResultType {
            found: "vector".into()
        }
    );
    let scalar =
        r#"{"status": "success", "data": {"resultType": "scalar", "result": [1796061600, "1"]}}"#;
    assert!(matches!(
        one_err(scalar).problem,
        TraceProblem::PrometheusResultType { .. }
    ));
    assert_eq!(one_err(&response(&[])).problem, TraceProblem::Empty);
}

#[test]
fn bad_points_name_their_series_and_index() {
    let e = one_err(&response(&[&[(0, "1"), (15, "-2")]]));
    assert_eq!(e.row, point(2));
    assert_eq!(e.problem, TraceProblem::NegativeRate { text: "-2".into() });
    let ok: &[(i64, &str)] = &[(0, "1"), (15, "2")];
    let e = one_err(&response(&[ok, &[(0, "1"), (15, "two")]]));
    let in_series = |series, index| {
        Some(Row::Point {
            group: Some(Group::Series(series)),
            index,
        })
    };
    assert_eq!(e.row, in_series(2, 2));
    assert_eq!(
        e.problem,
        TraceProblem::NonNumericRate { text: "two".into() }
    );
    assert!(
        e.to_string().starts_with("series 2, point 2: value `two`"),
        "{e}"
    );
    // Fractional times.
    let e = one_err(&ONE_SERIES.replace("1796061615", "1796061615.5"));
    assert_eq!(e.row, point(2));
    assert!(matches!(e.problem, TraceProblem::FractionalTime { .. }));
    // A duplicate within a series.
    let e = one_err(&response(&[ok, &[(0, "1"), (0, "1")]]));
    assert_eq!(e.row, in_series(2, 2));
    assert!(matches!(e.problem, TraceProblem::Duplicate { .. }));
    // Series out of step: the sum's times are 0, 7, 15, 30, so the period
    // is 7 s and the step to 15 (series 1's second point) is 8 s.
    let e = one_err(&response(&[
        &[(0, "1"), (15, "1"), (30, "1")],
        &[(0, "1"), (7, "1")],
    ]));
    assert_eq!(e.row, in_series(1, 2));
    assert_eq!(e.problem, TraceProblem::MixedPeriods { step: 8, period: 7 });
}

#[test]
fn one_response_only_and_no_metric_id() {
    let e = err(&[ONE_SERIES, ONE_SERIES], None);
    assert_eq!(
        e.problem,
        TraceProblem::SeveralPrometheusDocuments { count: 2 }
    );
    let e = err(&[ONE_SERIES], Some("m1"));
    assert_eq!(
        e.problem,
        TraceProblem::MetricIdNotApplicable {
            format: TraceFormat::Prometheus
        }
    );
    let e = one_err(&ONE_SERIES[..200]);
    assert!(matches!(
        e.problem,
        TraceProblem::Json {
            format: JsonKind::Prometheus,
            ..
        }
    ));
}
