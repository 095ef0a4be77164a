//! CloudWatch `get-metric-data` output: one page, pages, several results.

use super::*;

/// One page as `aws cloudwatch get-metric-data` prints it: newest first,
/// per-minute Sums of ConsumedWriteCapacityUnits.
const PAGE: &str = r#"{
    "MetricDataResults": [
        {
            "Id": "m1",
            "Label": "ConsumedWriteCapacityUnits",
            "Timestamps": [
                "2026-11-30T18:05:00+00:00",
                "2026-11-30T18:04:00+00:00",
                "2026-11-30T18:03:00+00:00"
            ],
            "Values": [
                120.0,
                60.0,
                600.0
            ],
            "StatusCode": "Complete"
        }
    ],
    "Messages": []
}"#;

/// One result: `(Id, [(minutes after T0, value)], StatusCode)`.
type Metric<'a> = (&'a str, &'a [(i64, f64)], &'a str);

/// A page of results, with a NextToken or none.
fn page(results: &[Metric], next_token: Option<&str>) -> String {
    let results: Vec<String> = results
        .iter()
        .map(|(id, points, status)| {
            let stamps: Vec<String> = points
                .iter()
                .map(|(m, _)| format!("\"2026-11-30T18:{m:02}:00+00:00\""))
                .collect();
            let values: Vec<String> = points.iter().map(|(_, v)| format!("{v:?}")).collect();
            format!(
                r#"{{"Id": "{id}", "Label": "likes", "Timestamps": [{}], "Values": [{}], "StatusCode": "{status}", "Messages": []}}"#,
                stamps.join(", "),
                values.join(", ")
            )
        })
        .collect();
    let token = next_token.map_or(String::new(), |t| format!(r#", "NextToken": "{t}""#));
    format!(
        r#"{{"MetricDataResults": [{}]{token}, "Messages": []}}"#,
        results.join(", ")
    )
}

#[test]
fn one_page_newest_first() {
    let t = one(PAGE);
    assert_eq!(t.format, TraceFormat::CloudWatch);
    assert_eq!(t.period_seconds, 60);
    assert_eq!(t.times, vec![T0 + 180, T0 + 240, T0 + 300]);
    // Sums over a minute: the rate is the Sum over 60 s.
    assert_eq!(t.per_second, vec![10.0, 1.0, 2.0]);
    assert!(t.descending_input);
    assert!(!t.partial);
    assert_eq!(t.metric_id.as_deref(), Some("m1"));
    // Ascending is accepted too, and gives the same trace.
    let up = page(
        &[("m1", &[(3, 600.0), (4, 60.0), (5, 120.0)], "Complete")],
        None,
    );
    let t_up = one(&up);
    assert_eq!((t_up.times, t_up.per_second), (t.times, t.per_second));
}

#[test]
fn two_pages_newest_first_are_joined() {
    let newest = page(
        &[("m1", &[(5, 60.0), (4, 120.0), (3, 180.0)], "PartialData")],
        Some("token-2"),
    );
    let oldest = page(&[("m1", &[(2, 240.0), (1, 300.0)], "Complete")], None);
    let t = parse(&[&newest, &oldest], None).unwrap();
    assert_eq!(t.times, (1..=5).map(|m| T0 + 60 * m).collect::<Vec<_>>());
    assert_eq!(t.per_second, vec![5.0, 4.0, 3.0, 2.0, 1.0]);
    assert!(t.descending_input);
    // The last page is Complete.
    assert!(!t.partial);
    // Given the other way round, the last page says PartialData.
    let t = parse(&[&oldest, &newest], None).unwrap();
    assert!(t.partial);
    assert_eq!(t.per_second, vec![5.0, 4.0, 3.0, 2.0, 1.0]);
    // Pages back to back in one document (a NextToken loop appending to
    // one file) are the same pages.
    let both = format!("{newest}\n{oldest}\n");
    assert_eq!(one(&both).per_second, vec![5.0, 4.0, 3.0, 2.0, 1.0]);
}

#[test]
fn a_time_in_two_pages_is_a_duplicate() {
    let newest = page(&[("m1", &[(5, 1.0), (4, 1.0)], "PartialData")], Some("t"));
    let oldest = page(&[("m1", &[(4, 1.0), (3, 1.0)], "Complete")], None);
    let e = err(&[&newest, &oldest], None);
    assert_eq!((e.document, e.row), (1, point(1)));
    assert_eq!(
        e.problem,
        TraceProblem::Duplicate {
            time: T0 + 240,
            first: Place {
                document: 0,
                row: Row::Point {
                    group: None,
                    index: 2
                }
            }
        }
    );
    // Within one document, the page is named.
    let e = one_err(&format!("{newest}{oldest}"));
    let on_page = |page, index| Row::Point {
        group: Some(Group::Page(page)),
        index,
    };
    assert_eq!(e.row, Some(on_page(2, 1)));
    assert!(matches!(
        e.problem,
        TraceProblem::Duplicate { first: Place { row, .. }, .. } if row == on_page(1, 2)
    ));
    assert!(e.to_string().starts_with("page 2, point 1: "), "{e}");
}

#[test]
fn several_results_need_a_metric_id() {
    let text = page(
        &[
            ("m1", &[(0, 60.0), (1, 120.0)], "Complete"),
            ("m2", &[(0, 6.0), (1, 12.0)], "Complete"),
        ],
        None,
    );
    let e = one_err(&text);
    assert_eq!(
        e.problem,
        TraceProblem::SeveralMetrics {
            ids: vec!["m1".into(), "m2".into()]
        }
    );
    assert!(e.to_string().contains("Ids m1, m2"), "{e}");
    let t = parse(&[&text], Some("m2")).unwrap();
    assert_eq!(t.per_second, vec![0.1, 0.2]);
    assert_eq!(t.metric_id.as_deref(), Some("m2"));
    let e = err(&[&text], Some("m9"));
    assert_eq!(
        e.problem,
        TraceProblem::NoSuchMetric {
            id: "m9".into(),
            ids: vec!["m1".into(), "m2".into()]
        }
    );
    // One result: an Id is not needed, and the right one is accepted.
    assert_eq!(parse(&[PAGE], Some("m1")).unwrap().times.len(), 3);
}

#[test]
fn timestamps_and_values_of_different_lengths() {
    let text = PAGE.replace("120.0,", "");
    let e = one_err(&text);
    assert_eq!(e.row, None);
    assert_eq!(
        e.problem,
        TraceProblem::LengthMismatch {
            page: None,
            timestamps: 3,
            values: 2
        }
    );
}

#[test]
fn bad_points_name_their_index() {
    let e = one_err(&PAGE.replace("60.0", "-60.0"));
    assert_eq!(e.row, point(2));
    assert_eq!(
        e.problem,
        TraceProblem::NegativeCount { text: "-60".into() }
    );
    let e = one_err(&PAGE.replace("2026-11-30T18:03:00+00:00", "30 Nov 2026 18:03"));
    assert_eq!(e.row, point(3));
    assert!(matches!(e.problem, TraceProblem::BadTime { .. }));
    // Unix seconds as numbers are read too.
    let numeric = PAGE
        .replace("\"2026-11-30T18:05:00+00:00\"", "1796061900")
        .replace("\"2026-11-30T18:04:00+00:00\"", "1796061840")
        .replace("\"2026-11-30T18:03:00+00:00\"", "1796061780.0");
    assert_eq!(one(&numeric).times, one(PAGE).times);
}

#[test]
fn unknown_fields_are_ignored_and_broken_json_is_named() {
    let extra = PAGE.replace(
        "\"Messages\": []",
        "\"Messages\": [{\"Code\": \"x\", \"Value\": \"y\"}], \"ResponseMetadata\": {\"RequestId\": \"r\"}",
    );
    assert_eq!(one(&extra).per_second, one(PAGE).per_second);
    let e = one_err(&PAGE[..PAGE.len() - 10]);
    assert!(matches!(
        e.problem,
        TraceProblem::Json {
            format: JsonKind::CloudWatch,
            ..
        }
    ));
    // Values that are not numbers.
    let e = one_err(&PAGE.replace("60.0", "\"60\""));
    assert!(e.to_string().starts_with("not a valid CloudWatch"), "{e}");
}

#[test]
fn one_point_or_none() {
    let e = one_err(&page(&[("m1", &[(0, 1.0)], "Complete")], None));
    assert_eq!(e.problem, TraceProblem::OnePoint { time: T0 });
    assert_eq!(e.row, point(1));
    assert_eq!(
        one_err(&page(&[("m1", &[], "Complete")], None)).problem,
        TraceProblem::Empty
    );
    assert_eq!(
        one_err(r#"{"MetricDataResults": []}"#).problem,
        TraceProblem::Empty
    );
}
