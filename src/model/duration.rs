//! Durations as users type them: `90`, `90s`, `500ms`, `10m`, `4h`, `2d`, `1.5h`.

/// Seconds in a duration string; the error says what is accepted.
pub fn parse_seconds(text: &str) -> Result<f64, String> {
    let hint = "use a number of seconds or units: 90s, 10m, 4h, 2d, 1h30m";
    // Parsed from `t`; echoed as `text`, cut to 40 characters, so a huge
    // value makes a one-line error.
    let t = text;
    let shown = crate::error::shorten(t);
    let text = shown.as_str();
    // Read strictly, as numbers are: no spaces around, no `+`, no `_`.
    if t.trim() != t || t.contains('+') {
        return Err(format!(
            "{text:?} is not a duration (no spaces around it, no +); {hint}"
        ));
    }
    // A number in scientific notation is seconds, as numeric flags read it
    // (`--seconds 1e6` as `--peak 1e6`).
    if t.contains(['e', 'E']) && t.starts_with(|c: char| c.is_ascii_digit() || c == '-') {
        if let Ok(seconds) = t.parse::<f64>() {
            return checked(seconds, text);
        }
    }
    // Segments of a number and a unit: "1h30m" -> (1, h), (30, m); a lone
    // number is seconds.
    let mut segments: Vec<(&str, &str)> = Vec::new();
    let mut rest = t;
    while !rest.is_empty() {
        let num_end = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-' || c == '+'))
            .unwrap_or(rest.len());
        let (number, after) = rest.split_at(num_end);
        let unit_end = after
            .find(|c: char| c.is_ascii_digit() || c == '.' || c == '-' || c == '+')
            .unwrap_or(after.len());
        let (unit, next) = after.split_at(unit_end);
        if number.is_empty() {
            return Err(format!("{text:?} is not a duration; {hint}"));
        }
        segments.push((number, unit.trim()));
        rest = next.trim_start();
    }
    if segments.is_empty() {
        return Err(format!("{text:?} is not a duration; {hint}"));
    }
    let mut seconds = 0.0;
    for (number, unit) in &segments {
        let scale = match unit.to_ascii_lowercase().as_str() {
            "" if segments.len() == 1 => 1.0,
            "s" => 1.0,
            "ms" => 0.001,
            "m" | "min" => 60.0,
            "h" => 3600.0,
            "d" => 86_400.0,
            "" => return Err(format!("{text:?} mixes a bare number with units; {hint}")),
            other => return Err(format!("unknown unit {other:?} in {text:?}; {hint}")),
        };
        let value: f64 = number
            .parse()
            .map_err(|_| format!("{text:?} is not a duration; {hint}"))?;
        seconds += value * scale;
    }
    checked(seconds, text)
}

/// A duration in range: positive, finite, at most 1e12 seconds (`text`
/// the value as typed, for the message).
fn checked(seconds: f64, text: &str) -> Result<f64, String> {
    if !seconds.is_finite() || seconds <= 0.0 {
        return Err(format!(
            "must be a positive, finite duration (got {text:?})"
        ));
    }
    if seconds > 1e12 {
        return Err(format!("must be at most 1e12 seconds (got {text:?})"));
    }
    Ok(seconds)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units() {
        assert_eq!(parse_seconds("90"), Ok(90.0));
        assert_eq!(parse_seconds("90s"), Ok(90.0));
        assert_eq!(parse_seconds("10m"), Ok(600.0));
        assert_eq!(parse_seconds("4h"), Ok(14_400.0));
        assert_eq!(parse_seconds("1.5h"), Ok(5_400.0));
        assert_eq!(parse_seconds("2d"), Ok(172_800.0));
        assert_eq!(parse_seconds("500ms"), Ok(0.5));
        // Compound durations add up.
        assert_eq!(parse_seconds("1h30m"), Ok(5_400.0));
        assert_eq!(parse_seconds("1h 30m"), Ok(5_400.0));
        assert_eq!(parse_seconds("2m30s"), Ok(150.0));
        assert_eq!(parse_seconds("1d2h"), Ok(93_600.0));
        assert_eq!(parse_seconds("90 s"), Ok(90.0));
        // Scientific notation, as numeric flags take it.
        assert_eq!(parse_seconds("1e6"), Ok(1e6));
        assert_eq!(parse_seconds("2.5E3"), Ok(2_500.0));
        assert_eq!(parse_seconds("1e12"), Ok(1e12));
        for bad in ["1e13", "-1e3", "0e0", "1e400", "1e", "e5"] {
            assert!(parse_seconds(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn rejects_nonsense() {
        for bad in [
            "", "h", "4x", "-5s", "0", "nan", "inf", "1e300h", "30m10", "1h-2h", "+5", " 5", "5 ",
            "1_000", "+1h",
        ] {
            assert!(parse_seconds(bad).is_err(), "{bad}");
        }
        // A huge value is echoed cut short.
        let huge = "9".repeat(100_000) + "x";
        let e = parse_seconds(&huge).unwrap_err();
        assert!(e.len() < 200, "{e}");
    }
}
