//! CSV `time,count`: accepted shapes and every refusal, with its row.

use super::*;

#[test]
fn unix_seconds_with_header_ascending_per_second() {
    let t = one("time,count\n1796061600,3\n1796061601,5\n1796061602,4\n");
    assert_eq!(t.format, TraceFormat::Csv);
    assert_eq!(t.period_seconds, 1);
    assert_eq!(t.start, T0);
    assert_eq!(t.times, vec![T0, T0 + 1, T0 + 2]);
    assert_eq!(t.per_second, vec![3.0, 5.0, 4.0]);
    assert!(t.gaps.is_empty());
    assert!(!t.descending_input && !t.partial);
    assert_eq!((t.series_summed, t.metric_id), (1, None));
}

#[test]
fn rfc3339_without_header_descending_per_minute() {
    // Counts per minute: the rate is the count over 60 s.
    let t = one("2026-11-30T18:02:00Z,120\n2026-11-30T18:01:00Z,60\n2026-11-30T18:00:00Z,600\n");
    assert_eq!(t.period_seconds, 60);
    assert_eq!(t.times, vec![T0, T0 + 60, T0 + 120]);
    assert_eq!(t.per_second, vec![10.0, 1.0, 2.0]);
    assert!(t.descending_input);
}

#[test]
fn offsets_zero_fractions_and_unix_floats_name_the_same_seconds() {
    let t = one(concat!(
        "2026-11-30T19:00:00+01:00,1\n",
        "2026-11-30T18:00:01.000Z,2\n",
        "1796061602.0,3\n",
        "1.796061603e9,4\n",
    ));
    assert_eq!(t.times, vec![T0, T0 + 1, T0 + 2, T0 + 3]);
}

#[test]
fn header_case_spaces_quotes_crlf_bom_and_blank_lines() {
    let text = "\u{feff} Time , COUNT \r\n\r\n\"1796061600\", 7 \r\n1796061601,\"8.5\"\r\n\n";
    let t = one(text);
    assert_eq!(t.per_second, vec![7.0, 8.5]);
    // Blank lines count in line numbers: the bad count is on line 5.
    let e = one_err("time,count\n\n1796061600,1\n\n1796061601,-2\n");
    assert_eq!(e.row, line(5));
}

#[test]
fn a_negative_count_names_its_line_and_value() {
    let mut text = String::from("time,count\n");
    for i in 0..20 {
        let count = if i == 15 { -3 } else { 5 };
        text.push_str(&format!("{},{count}\n", T0 + i));
    }
    let e = one_err(&text);
    assert_eq!(e.document, 0);
    assert_eq!(e.row, line(17));
    assert_eq!(e.problem, TraceProblem::NegativeCount { text: "-3".into() });
    assert_eq!(
        e.to_string(),
        "line 17: count -3 is negative; counts must be finite numbers >= 0"
    );
}

#[test]
fn counts_must_be_finite_numbers() {
    let bad = |count: &str| one_err(&format!("1796061600,1\n1796061601,{count}\n"));
    for text in ["NaN", "inf", "-inf"] {
        let e = bad(text);
        assert_eq!(e.row, line(2));
        assert_eq!(
            e.problem,
            TraceProblem::NotFiniteCount { text: text.into() }
        );
    }
    let e = bad("lots");
    assert_eq!(
        e.problem,
        TraceProblem::NonNumericCount {
            text: "lots".into()
        }
    );
    // A long value is cut to 40 characters in the message.
    let long = "9".repeat(30) + &"x".repeat(30);
    let TraceProblem::NonNumericCount { text } = bad(&long).problem else {
        panic!("a non-numeric count");
    };
    assert_eq!(text, format!("{}...", &long[..40]));
    // An empty count is not a number either.
    assert!(matches!(
        bad("").problem,
        TraceProblem::NonNumericCount { .. }
    ));
    // -0 is zero.
    assert_eq!(
        one("1796061600,-0\n1796061601,1\n").per_second,
        vec![0.0, 1.0]
    );
}

#[test]
fn two_fields_a_line() {
    let e = one_err("1796061600,1\n1796061601\n");
    assert_eq!(
        (e.row, e.problem),
        (line(2), TraceProblem::Fields { found: 1 })
    );
    let e = one_err("1796061600,1\n1796061601,2,3\n");
    assert_eq!(
        (e.row, e.problem),
        (line(2), TraceProblem::Fields { found: 3 })
    );
}

#[test]
fn a_header_of_another_shape_is_refused() {
    let e = one_err("timestamp,likes\n1796061600,1\n1796061601,2\n");
    assert_eq!(e.row, line(1));
    assert_eq!(
        e.problem,
        TraceProblem::Header {
            found: "timestamp,likes".into()
        }
    );
    assert!(e.to_string().contains("`time,count`"));
    // `time` with another second name is not the header either.
    assert!(matches!(
        one_err("time,likes\n1796061600,1\n").problem,
        TraceProblem::Header { .. }
    ));
}

#[test]
fn times_neither_unix_nor_rfc3339_are_refused() {
    let bad = |time: &str| one_err(&format!("1796061600,1\n{time},2\n"));
    for text in [
        "2026-11-30T18:00:01",
        "2026-11-30",
        "12:00:00Z",
        "1796061601x",
    ] {
        let e = bad(text);
        assert_eq!(e.row, line(2), "{text}");
        assert_eq!(
            e.problem,
            TraceProblem::BadTime { text: text.into() },
            "{text}"
        );
    }
    for text in ["2026-11-30T18:00:01.5Z", "1796061601.5"] {
        assert_eq!(
            bad(text).problem,
            TraceProblem::FractionalTime { text: text.into() }
        );
    }
    let e = bad("99999999999999");
    assert!(matches!(e.problem, TraceProblem::TimeOutOfRange { .. }));
}

#[test]
fn no_rows_or_one_row_is_not_a_trace() {
    assert_eq!(one_err("").problem, TraceProblem::Empty);
    assert_eq!(one_err(" \n\n").problem, TraceProblem::Empty);
    assert_eq!(one_err("time,count\n").problem, TraceProblem::Empty);
    let e = one_err("time,count\n1796061600,4\n");
    assert_eq!(e.problem, TraceProblem::OnePoint { time: T0 });
    assert_eq!(e.row, line(2));
}

#[test]
fn several_documents_are_joined_in_time_order() {
    // Two days of files given out of order, the later one newest first.
    let first = "time,count\n1796061600,1\n1796061601,2\n";
    let second = "time,count\n1796061603,4\n1796061602,3\n";
    let t = parse(&[second, first], None).unwrap();
    assert_eq!(t.times, vec![T0, T0 + 1, T0 + 2, T0 + 3]);
    assert_eq!(t.per_second, vec![1.0, 2.0, 3.0, 4.0]);
    // One ran each way: not newest first as a whole.
    assert!(!t.descending_input);
    // Interleaved documents are merged.
    let odd = "1796061601,2\n1796061603,4\n";
    let even = "1796061600,1\n1796061602,3\n";
    let t = parse(&[odd, even], None).unwrap();
    assert_eq!(t.per_second, vec![1.0, 2.0, 3.0, 4.0]);
    assert_eq!(t.period_seconds, 1);
}

#[test]
fn a_time_in_two_documents_is_a_duplicate_naming_both() {
    let first = "time,count\n1796061600,1\n1796061601,2\n";
    let second = "time,count\n1796061601,5\n1796061602,3\n";
    let e = err(&[first, second], None);
    assert_eq!((e.document, e.row), (1, line(2)));
    let first_place = Place {
        document: 0,
        row: Row::Line(3),
    };
    assert_eq!(
        e.problem,
        TraceProblem::Duplicate {
            time: T0 + 1,
            first: first_place
        }
    );
    assert!(e.to_string().contains("line 3 of input 1"), "{e}");
    // Interleaved, the same.
    let e = err(
        &[
            "1796061600,1\n1796061602,1\n",
            "1796061601,1\n1796061602,1\n",
        ],
        None,
    );
    assert_eq!((e.document, e.row), (1, line(2)));
}

#[test]
fn a_metric_id_has_no_effect_on_csv_so_is_refused() {
    let e = err(&["1796061600,1\n1796061601,2\n"], Some("m1"));
    assert_eq!(
        e.problem,
        TraceProblem::MetricIdNotApplicable {
            format: TraceFormat::Csv
        }
    );
}
