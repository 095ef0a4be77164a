//! Durations as users type them: `90`, `90s`, `500ms`, `10m`, `4h`, `2d`, `1.5h`.

/// Seconds in a duration string; the error says what is accepted.
pub fn parse_seconds(text: &str) -> Result<f64, String> {
    let t = text.trim();
    let (number, unit) = match t
        .char_indices()
        .rfind(|(_, c)| c.is_ascii_digit() || *c == '.')
    {
        Some((i, c)) => t.split_at(i + c.len_utf8()),
        None => (t, ""),
    };
    let scale = match unit.trim() {
        "" | "s" => 1.0,
        "ms" => 0.001,
        "m" | "min" => 60.0,
        "h" => 3600.0,
        "d" => 86_400.0,
        other => {
            return Err(format!(
                "unknown unit {other:?} in {text:?}; use a number of seconds or a unit: 90s, 10m, 4h, 2d"
            ))
        }
    };
    let value: f64 = number.trim().parse().map_err(|_| {
        format!("{text:?} is not a duration; use a number of seconds or a unit: 90s, 10m, 4h, 2d")
    })?;
    let seconds = value * scale;
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
    }

    #[test]
    fn rejects_nonsense() {
        for bad in ["", "h", "4x", "-5s", "0", "nan", "inf", "1e300h"] {
            assert!(parse_seconds(bad).is_err(), "{bad}");
        }
    }
}
