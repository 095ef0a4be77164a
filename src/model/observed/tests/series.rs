//! The series rules shared by every format: order, duplicates, the period
//! and its gaps, the row limit.

use super::*;
use crate::model::observed::fields::count_rows;

/// A CSV document of `(time offset from T0, count)` lines, no header.
fn csv_of(points: &[(i64, u64)]) -> String {
    points
        .iter()
        .map(|(dt, c)| format!("{},{c}\n", T0 + dt))
        .collect()
}

#[test]
fn a_time_against_the_direction_names_its_row() {
    let e = one_err(&csv_of(&[(0, 1), (1, 1), (2, 1), (1, 1)]));
    assert_eq!(e.row, line(4));
    assert_eq!(
        e.problem,
        TraceProblem::OutOfOrder {
            time: T0 + 1,
            previous: T0 + 2,
            descending: false
        }
    );
    // Newest first from the first two rows, then a step up.
    let e = one_err(&csv_of(&[(5, 1), (4, 1), (3, 1), (6, 1)]));
    assert_eq!(e.row, line(4));
    assert!(matches!(
        e.problem,
        TraceProblem::OutOfOrder {
            descending: true,
            ..
        }
    ));
    assert!(e.to_string().contains("newest first"), "{e}");
}

#[test]
fn a_duplicate_names_both_rows() {
    let e = one_err(&format!(
        "time,count\n{}",
        csv_of(&[(0, 1), (1, 1), (1, 2)])
    ));
    assert_eq!(e.row, line(4));
    assert_eq!(
        e.problem,
        TraceProblem::Duplicate {
            time: T0 + 1,
            first: Place {
                document: 0,
                row: Row::Line(3)
            }
        }
    );
}

#[test]
fn a_step_not_a_multiple_of_the_period_is_mixed_periods() {
    let e = one_err(&csv_of(&[(0, 1), (10, 1), (20, 1), (35, 1)]));
    assert_eq!(e.row, line(4));
    assert_eq!(
        e.problem,
        TraceProblem::MixedPeriods {
            step: 15,
            period: 10
        }
    );
    // The period is the smallest step, wherever it is: here the last one,
    // so the first step (12 s) is the one named.
    let e = one_err(&csv_of(&[(0, 1), (12, 1), (22, 1), (27, 1)]));
    assert_eq!(e.row, line(2));
    assert_eq!(
        e.problem,
        TraceProblem::MixedPeriods {
            step: 12,
            period: 5
        }
    );
}

#[test]
fn longer_steps_are_gaps_reported_not_filled() {
    // Per minute, with 2 minutes missing after +60 and 1 after +300.
    let t = one(&csv_of(&[
        (0, 60),
        (60, 120),
        (240, 60),
        (300, 60),
        (420, 0),
    ]));
    assert_eq!(t.period_seconds, 60);
    assert_eq!(t.times.len(), 5);
    assert_eq!(t.per_second, vec![1.0, 2.0, 1.0, 1.0, 0.0]);
    assert_eq!(
        t.gaps,
        vec![
            Gap {
                after: T0 + 60,
                missing_periods: 2
            },
            Gap {
                after: T0 + 300,
                missing_periods: 1
            }
        ]
    );
    let fit = TraceFit::new(&t);
    assert_eq!(fit.gap_periods, 3);
    assert_eq!(fit.seconds_covered, 300);
}

#[test]
fn descending_gaps_are_the_same_gaps() {
    let up = one(&csv_of(&[(0, 5), (2, 6), (3, 7)]));
    let down = one(&csv_of(&[(3, 7), (2, 6), (0, 5)]));
    assert_eq!(up.gaps, down.gaps);
    assert_eq!(up.per_second, down.per_second);
    assert_eq!(
        up.gaps,
        vec![Gap {
            after: T0,
            missing_periods: 1
        }]
    );
    assert!(down.descending_input && !up.descending_input);
}

#[test]
fn the_row_limit_is_a_clear_error() {
    let mut rows = MAX_ROWS - 1;
    assert_eq!(count_rows(&mut rows, 1), Ok(()));
    assert_eq!(
        count_rows(&mut rows, 1),
        Err(TraceProblem::TooManyRows { limit: MAX_ROWS })
    );
    assert!(TraceProblem::TooManyRows { limit: MAX_ROWS }
        .to_string()
        .contains("more than 50000000 data points"));
}

#[test]
fn formats_are_detected_from_the_content() {
    assert_eq!(detect_format("time,count\n"), Ok(TraceFormat::Csv));
    assert_eq!(
        detect_format(" \n{\"MetricDataResults\": []}"),
        Ok(TraceFormat::CloudWatch)
    );
    assert_eq!(
        detect_format("{\"status\": \"success\", \"data\": {}}"),
        Ok(TraceFormat::Prometheus)
    );
    assert_eq!(
        detect_format("{\"rows\": 3}"),
        Err(TraceProblem::UnknownJson)
    );
    assert_eq!(detect_format("[1, 2]"), Err(TraceProblem::UnknownJson));
    assert!(matches!(
        detect_format("{\"status\": "),
        Err(TraceProblem::Json {
            format: JsonKind::Json,
            ..
        })
    ));
    assert_eq!(detect_format("\n \t"), Err(TraceProblem::Empty));
}

#[test]
fn documents_of_different_formats_are_refused() {
    let cw = r#"{"MetricDataResults": [{"Id": "m1", "Timestamps": [], "Values": []}]}"#;
    let e = err(&["1796061600,1\n1796061601,2\n", cw], None);
    assert_eq!(e.document, 1);
    assert_eq!(
        e.problem,
        TraceProblem::MixedFormats {
            first: TraceFormat::Csv,
            found: TraceFormat::CloudWatch
        }
    );
    assert_eq!(err(&[], None).problem, TraceProblem::Empty);
}
