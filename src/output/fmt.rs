//! Number formatting for people: thousands separators, probabilities that
//! never print a tiny value as 0.

use crate::model::probability::Probability;

/// A count and its noun, singular or plural: "1 GET", "1,200 GETs".
pub fn counted(n: u64, one: &str, many: &str) -> String {
    match n {
        1 => format!("1 {one}"),
        n => format!("{} {many}", count(n)),
    }
}

/// 1234567 -> "1,234,567".
pub fn count(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// A rate or amount: whole numbers with separators, else up to 3 decimals.
pub fn num(x: f64) -> String {
    if !x.is_finite() {
        return x.to_string();
    }
    // Beyond a trillion, separators stop helping a reader (a conflict
    // storm or a fleet's yearly total): scientific notation.
    if x.abs() >= 1e12 {
        return format!("{x:.3e}");
    }
    if x.fract() == 0.0 {
        let s = count(x.abs() as u64);
        return if x < 0.0 { format!("-{s}") } else { s };
    }
    if x.abs() >= 1000.0 {
        return fixed(x, 1);
    }
    if x != 0.0 && x.abs() < 1e-3 {
        // Never a bare "0" for a value that is not zero.
        return format!("{x:.3e}");
    }
    let s = format!("{x:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// A mean of whole counts (the busiest shard's writes a second): two
/// decimals, with separators ("1,846.72"), the same in every view.
pub fn mean(x: f64) -> String {
    fixed(x, 2)
}

/// `x` rounded once to `decimals` places, separators in the whole part
/// ("14,900.0"; rounding the fraction alone would turn 1,999.97 into
/// "1,999.0").
pub fn fixed(x: f64, decimals: usize) -> String {
    if !x.is_finite() {
        return x.to_string();
    }
    let text = format!("{:.decimals$}", x.abs());
    let (whole, frac) = match text.split_once('.') {
        Some((w, f)) => (w, format!(".{f}")),
        None => (text.as_str(), String::new()),
    };
    let whole: u64 = whole.parse().unwrap_or(0);
    let sign = if x < 0.0 && text.bytes().any(|b| b.is_ascii_digit() && b != b'0') {
        "-"
    } else {
        ""
    };
    format!("{sign}{}{frac}", count(whole))
}

/// A rate (likes/s, writes/s): whole rates as they are, else one decimal
/// from 10 up, with separators ("692.3", "14,000", "18,462.0"); a slower
/// rate as [`num`] ("0.083").
pub fn rate(x: f64) -> String {
    if !x.is_finite() || x.abs() >= 1e12 || x.fract() == 0.0 {
        return num(x);
    }
    if x.abs() < 10.0 {
        // A slow rate keeps its digits (5 likes a minute: 0.083).
        return num(x);
    }
    fixed(x, 1)
}

/// A probability: 4 significant digits, scientific below 1e-3, and never a
/// bare "0" for a positive value.
pub fn prob(p: f64) -> String {
    if p.is_nan() {
        return "n/a".to_string();
    }
    if p == 0.0 {
        return "0".to_string();
    }
    if p == 1.0 {
        return "1".to_string();
    }
    if p < 1e-3 {
        return format!("{p:.3e}");
    }
    if p > 0.999 {
        // Show how close to 1 it is instead of rounding to 1.
        return format!("1 - {:.3e}", 1.0 - p);
    }
    format!("{p:.4}")
}

/// A probability known by its natural log too: where the value underflows
/// f64 (prints 0), the log still gives mantissa and exponent.
pub fn prob_ln(p: f64, ln_p: f64) -> String {
    probability(Probability::new(p, ln_p), Underflow::Said)
}

/// How a chance below f64's range is marked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Underflow {
    /// Followed by "(below f64's range; from its log)": for a line of its own.
    Said,
    /// Followed by `*`, explained once under the table.
    Starred,
}

/// A probability, printed from its log where it underflows f64.
pub fn probability(p: Probability, mark: Underflow) -> String {
    if p.underflows() {
        let (mantissa, exponent) = p.scientific();
        return match mark {
            Underflow::Said => {
                format!("{mantissa:.3}e{exponent} (below f64's range; from its log)")
            }
            Underflow::Starred => format!("{mantissa:.3}e{exponent}*"),
        };
    }
    prob(p.p)
}

/// A length of time: "4 h" for whole hours, else seconds ("90 s").
pub fn duration(seconds: f64) -> String {
    if seconds >= 3600.0 && (seconds / 3600.0).fract() == 0.0 {
        format!("{} h", seconds / 3600.0)
    } else {
        format!("{} s", num(seconds))
    }
}

/// A rough length of time, for estimates: "40 s", "3 min", "7.5 hours",
/// "12 days".
pub fn rough_duration(seconds: f64) -> String {
    if seconds < 90.0 {
        format!("{} s", seconds.round())
    } else if seconds < 5400.0 {
        format!("{} min", (seconds / 60.0).round())
    } else if seconds < 2.0 * 86_400.0 {
        format!("{:.1} hours", seconds / 3600.0)
    } else {
        format!("{} days", num((seconds / 86_400.0).round()))
    }
}

/// A run's length in its largest whole unit: "4 h", "90 min" or "45 s".
pub fn run_length(seconds: f64) -> String {
    if seconds >= 3600.0 && seconds % 3600.0 == 0.0 {
        format!("{} h", num(seconds / 3600.0))
    } else if seconds >= 60.0 && seconds % 60.0 == 0.0 {
        format!("{} min", num(seconds / 60.0))
    } else {
        format!("{} s", num(seconds))
    }
}

/// As [`duration`], with the seconds beside whole hours: "4 h (14,400 s)".
pub fn duration_long(seconds: f64) -> String {
    if seconds >= 3600.0 && (seconds / 3600.0).fract() == 0.0 {
        format!("{} h ({} s)", seconds / 3600.0, num(seconds))
    } else {
        format!("{} s", num(seconds))
    }
}

/// A share as a percentage; a small positive share keeps two significant
/// digits instead of rounding to 0.0%.
pub fn percent(share: f64) -> String {
    let pct = share * 100.0;
    if pct > 0.0 && pct < 0.1 {
        if pct < 1e-6 {
            return format!("{pct:.1e}%");
        }
        let decimals = (-pct.log10()).floor() as usize + 2;
        return format!("{pct:.decimals$}%");
    }
    format!("{}%", fixed(pct, 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_numbers() {
        assert_eq!(count(0), "0");
        assert_eq!(count(999), "999");
        assert_eq!(count(1000), "1,000");
        assert_eq!(count(1_000_000), "1,000,000");
        assert_eq!(num(700.0), "700");
        assert_eq!(num(0.0833333), "0.083");
        assert_eq!(num(13_500.25), "13,500.2");
        assert_eq!(num(-5.0), "-5");
        assert_eq!(num(1_999.97), "2,000.0");
        assert_eq!(num(1e15), "1.000e15");
        assert_eq!(num(1.5e12), "1.500e12");
        assert_eq!(num(999_999_999_999.0), "999,999,999,999");
        assert_eq!(num(1e300), "1.000e300");
        assert_eq!(num(-12_345.44), "-12,345.4");
        assert_eq!(mean(1_846.72), "1,846.72");
        assert_eq!(fixed(-0.04, 1), "0.0");
        assert_eq!(fixed(12_345.678, 2), "12,345.68");
        assert_eq!(rate(9_000.0 / 13.0), "692.3");
        assert_eq!(rate(14_000.0), "14,000");
        assert_eq!(rate(18_462.04), "18,462.0");
        assert_eq!(rate(1.0 / 12.0), "0.083");
    }

    #[test]
    fn underflowed_probabilities_print_from_their_log() {
        // P = 1.347e-377: ln = -867.78 (14,000 likes over 20 shards, cap 2,000).
        let ln = 1.347f64.ln() - 377.0 * std::f64::consts::LN_10;
        assert!(prob_ln(0.0, ln).starts_with("1.347e-377"));
        assert_eq!(prob_ln(0.0, f64::NEG_INFINITY), "0");
        assert_eq!(prob_ln(2.5e-9, 2.5e-9f64.ln()), "2.500e-9");
    }

    #[test]
    fn durations() {
        assert_eq!(duration(14_400.0), "4 h");
        assert_eq!(duration_long(14_400.0), "4 h (14,400 s)");
        assert_eq!(duration(90.0), "90 s");
        assert_eq!(duration_long(5400.0), "5,400 s");
        assert_eq!(run_length(14_400.0), "4 h");
        assert_eq!(run_length(5_400.0), "90 min");
        assert_eq!(run_length(45.0), "45 s");
        let ln = 1.347f64.ln() - 377.0 * std::f64::consts::LN_10;
        assert_eq!(
            probability(Probability::from_ln(ln), Underflow::Starred),
            "1.347e-377*"
        );
    }

    #[test]
    fn probabilities_never_hide_tiny_values() {
        assert_eq!(prob(0.0), "0");
        assert_eq!(prob(1e-300), "1.000e-300");
        assert_eq!(prob(2.5e-9), "2.500e-9");
        assert_eq!(prob(0.01234), "0.0123");
        assert_eq!(prob(0.9999), "1 - 1.000e-4");
        assert_eq!(percent(0.3), "30.0%");
        assert_eq!(percent(1305.0 / 75_603_995.0), "0.0017%");
        assert_eq!(percent(0.0), "0.0%");
        assert_eq!(percent(149.0), "14,900.0%");
        assert_eq!(percent(1e-12), "1.0e-10%");
    }
}
