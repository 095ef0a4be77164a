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

/// A whole number as typed on the command line (0 passes here; each
/// command says whether it accepts 0).
pub fn whole_number(text: &str) -> Result<u64, String> {
    let t = text.trim();
    if t.starts_with('-') {
        return Err(format!("must be a whole number >= 0 (got {t})"));
    }
    t.replace('_', "")
        .parse::<u64>()
        .map_err(|e| match e.kind() {
            std::num::IntErrorKind::PosOverflow => {
                format!("{t} is too large (at most {})", u64::MAX)
            }
            _ => format!("must be a whole number (got {t:?})"),
        })
}
