//! Value parsers for flags: whole numbers and durations, with messages that
//! say what is accepted.

/// A duration in whole seconds (`90`, `90s`, `10m`, `4h`).
pub fn whole_seconds(text: &str) -> Result<u64, String> {
    let s = crate::model::duration::parse_seconds(text)?;
    if s.fract() != 0.0 {
        return Err(format!("must be a whole number of seconds (got {text:?})"));
    }
    Ok(s as u64)
}

/// Like [`whole_seconds`], but 0 is accepted (no cache).
pub fn whole_seconds_or_zero(text: &str) -> Result<u64, String> {
    if text.trim().trim_end_matches('s') == "0" {
        return Ok(0);
    }
    whole_seconds(text)
}

/// What a number may not hold: `1_000`, `+5` and ` 5` are typos or
/// another tool's syntax, refused rather than guessed at.
fn strict(text: &str, what: &str) -> Result<(), String> {
    let shown = shorten(text);
    if text.trim() != text || text.is_empty() {
        return Err(format!("must be {what} without spaces (got {shown:?})"));
    }
    if text.contains('_') {
        return Err(format!(
            "must be {what} without underscores (got {shown:?})"
        ));
    }
    if text.starts_with('+') {
        return Err(format!(
            "must be {what} without a leading + (got {shown:?})"
        ));
    }
    Ok(())
}

pub use crate::error::shorten;

/// A number as typed on the command line: what Rust's `f64` parser reads
/// (`14000`, `1.5e4`, `-1` for the checks that follow to name), without
/// spaces, underscores or a leading `+`. Ranges are each flag's own check.
pub fn number(text: &str) -> Result<f64, String> {
    strict(text, "a number")?;
    text.parse::<f64>()
        .map_err(|_| format!("must be a number (got {:?})", shorten(text)))
}

/// A percentage, `25%` or `25`, above 0 and below 100, as a share (0.25).
pub fn percent(text: &str) -> Result<f64, String> {
    let digits = text.strip_suffix('%').unwrap_or(text);
    let value = number(digits)
        .map_err(|_| format!("must be a percentage such as 25% (got {:?})", shorten(text)))?;
    match value > 0.0 && value < 100.0 {
        true => Ok(value / 100.0),
        false => Err(format!(
            "must be above 0% and below 100% (got {})",
            shorten(text)
        )),
    }
}

/// A whole number as typed on the command line (0 passes here; each
/// command says whether it accepts 0).
pub fn whole_number(text: &str) -> Result<u64, String> {
    let t = text;
    if t.starts_with('-') {
        return Err(format!("must be a whole number >= 0 (got {})", shorten(t)));
    }
    strict(t, "a whole number")?;
    t.parse::<u64>().map_err(|e| match e.kind() {
        std::num::IntErrorKind::PosOverflow => {
            format!("{} is too large (at most {})", shorten(t), u64::MAX)
        }
        _ => format!("must be a whole number (got {:?})", shorten(t)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_read_strictly() {
        assert_eq!(number("14000"), Ok(14000.0));
        assert_eq!(number("1.5e4"), Ok(15000.0));
        assert_eq!(number("-1"), Ok(-1.0)); // the flag's own check names it
        for bad in ["1_000", "+5", " 5", "5 ", "", "abc"] {
            assert!(number(bad).is_err(), "{bad:?}");
        }
        assert_eq!(whole_number("20"), Ok(20));
        for bad in ["1_0", "+2", " 2", "2.0", "-1"] {
            assert!(whole_number(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn long_values_are_cut_in_errors() {
        let huge = "9".repeat(100_000);
        let e = whole_number(&huge).unwrap_err();
        assert!(e.len() < 200, "{e}");
        assert!(shorten(&"x".repeat(50)).ends_with("..."));
    }
}
