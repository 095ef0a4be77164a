//! What a CSV column is called and how its numbers are written, so a sheet
//! pasted into a design doc reads on its own: a quantity's column names its
//! unit (`rate_likes_per_s`, `cap_writes_per_s`), and one quantity is
//! written alike by every command (`cap` is `1000` in `size` and in
//! `simulate`, `0` is never `-0`).
//!
//! JSON keeps the serde field names: its schema documents each field's
//! unit, and a renamed JSON field would break its consumers.

use std::borrow::Cow;

use serde_json::Number;

/// The fields whose names do not say their unit, and their CSV columns.
/// A name that already ends in its unit (`reads_cached_per_second`,
/// `freshness_lag_seconds`, `memory_bytes`), a count (`shards`, `keys`), a
/// probability (`p_*`, `risk`) or a label keeps its name. Loads on one
/// shard or partition are writes (the cap counts writes, unlikes included);
/// the traffic is likes.
const UNITS: &[(&str, &str)] = &[
    // The traffic.
    ("rate", "rate_likes_per_s"),
    ("peak", "peak_likes_per_s"),
    ("observed", "observed_likes_per_s"),
    ("total_rate", "total_rate_likes_per_s"),
    ("capacity_rate", "capacity_likes_per_s"),
    ("safe_capacity_rate", "safe_capacity_likes_per_s"),
    ("hottest_reel_rate", "hottest_reel_likes_per_s"),
    ("threshold", "threshold_likes_per_s"),
    ("search_threshold", "search_threshold_likes_per_s"),
    ("views", "views_per_s"),
    // What one key, shard or partition takes.
    ("cap", "cap_writes_per_s"),
    ("cap_per_key", "cap_per_key_likes_per_s"),
    ("cap_likes_per_key", "cap_per_key_likes_per_s"),
    ("safe_per_shard", "safe_per_shard_writes_per_s"),
    ("peak_writes", "peak_writes_per_s"),
    (
        "mean_per_shard_at_peak",
        "mean_per_shard_at_peak_writes_per_s",
    ),
    ("write_cap_per_key", "write_cap_per_key_writes_per_s"),
    ("read_cap_per_key", "read_cap_per_key_reads_per_s"),
    ("read_cap", "read_cap_reads_per_s"),
    ("shard_rate", "shard_writes_per_s"),
    ("write_rate", "write_rate_writes_per_s"),
    ("mean_per_shard", "mean_per_shard_writes_per_s"),
    ("busiest_bound", "busiest_bound_writes_per_s"),
    (
        "busiest_partition_mean_rate",
        "busiest_partition_mean_writes_per_s",
    ),
    ("hottest_partition_rate", "hottest_partition_writes_per_s"),
    // The busiest shard a second: the same names in simulate, risk and sweep.
    ("busiest_max", "busiest_max_writes_per_s"),
    ("quietest_min", "quietest_min_writes_per_s"),
    ("busiest_mean", "busiest_mean_writes_per_s"),
    ("busiest_mean_per_second", "busiest_mean_writes_per_s"),
    ("busiest_p50", "busiest_p50_writes_per_s"),
    ("busiest_p99", "busiest_p99_writes_per_s"),
    ("busiest_p999", "busiest_p999_writes_per_s"),
    ("busiest_p999_per_second", "busiest_p999_writes_per_s"),
    (
        "busiest_over_run_median",
        "busiest_over_run_median_writes_per_s",
    ),
    ("busiest_over_run_q01", "busiest_over_run_q01_writes_per_s"),
    ("busiest_over_run_q99", "busiest_over_run_q99_writes_per_s"),
    ("exact_busiest_mean", "exact_busiest_mean_writes_per_s"),
    ("exact_busiest_p50", "exact_busiest_p50_writes_per_s"),
    ("exact_busiest_p99", "exact_busiest_p99_writes_per_s"),
    ("exact_busiest_p999", "exact_busiest_p999_writes_per_s"),
    (
        "exact_busiest_over_run_median",
        "exact_busiest_over_run_median_writes_per_s",
    ),
    (
        "exact_busiest_over_run_q01",
        "exact_busiest_over_run_q01_writes_per_s",
    ),
    (
        "exact_busiest_over_run_q99",
        "exact_busiest_over_run_q99_writes_per_s",
    ),
    // Time.
    ("seconds", "duration_s"),
    ("duration_seconds", "duration_s"),
    ("cache_seconds", "cache_s"),
    ("cache_seconds_for_read_cap", "cache_s_for_read_cap"),
    // Ratios and shares.
    ("growth", "growth_factor"),
    ("headroom", "headroom_share"),
    ("headroom_left", "headroom_left_share"),
    ("margin", "margin_share"),
    // Write units.
    ("write_cost", "write_cost_units"),
    ("transactional_write_cost", "transactional_write_cost_units"),
    ("batch_size", "batch_size_items"),
];

/// The CSV column of the serde field `field`.
pub fn column(field: &str) -> Cow<'_, str> {
    match UNITS.iter().find(|(f, _)| *f == field) {
        Some((_, column)) => Cow::Borrowed(column),
        None => Cow::Borrowed(field),
    }
}

/// `n` as CSV writes it: a whole number without a fractional part (`1000`,
/// whether the row held it as an integer or as `1000.0`), zero without a
/// sign, anything else in its shortest round-trip form (`749.86`,
/// `4.519434727291834e-27`). Whole numbers up to 2^53 are written out;
/// beyond that an f64 is not exact and keeps its exponent form.
pub fn number(n: &Number) -> String {
    match n.as_f64() {
        Some(x) if n.is_f64() && x == 0.0 => "0".into(),
        Some(x) if n.is_f64() && x.fract() == 0.0 && x.abs() <= 9_007_199_254_740_992.0 => {
            format!("{}", x as i64)
        }
        _ => n.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn num(v: serde_json::Value) -> String {
        match v {
            serde_json::Value::Number(n) => number(&n),
            _ => unreachable!(),
        }
    }

    #[test]
    fn whole_numbers_have_one_form_and_zero_no_sign() {
        assert_eq!(num(json!(1000)), "1000");
        assert_eq!(num(json!(1000.0)), "1000");
        assert_eq!(num(json!(14400.0)), "14400");
        assert_eq!(num(json!(-0.0)), "0");
        assert_eq!(num(json!(0.0)), "0");
        assert_eq!(num(json!(-3.0)), "-3");
        assert_eq!(num(json!(749.8635997770815)), "749.8635997770815");
        assert_eq!(num(json!(4.519434727291834e-27)), "4.519434727291834e-27");
        assert_eq!(num(json!(1e300)), "1e+300");
        assert_eq!(num(json!(u64::MAX)), u64::MAX.to_string());
    }

    /// docs/output.md lists every renamed field beside its column.
    #[test]
    fn the_docs_list_every_column() {
        let doc = include_str!("../../docs/output.md");
        for (field, column) in UNITS {
            assert!(
                doc.contains(&format!("| `{field}` | `{column}` |")),
                "docs/output.md lacks the row | `{field}` | `{column}` |"
            );
        }
    }

    #[test]
    fn each_column_names_one_field_and_no_unit_twice() {
        for (i, (field, column)) in UNITS.iter().enumerate() {
            assert!(
                UNITS[..i].iter().all(|(f, _)| f != field),
                "{field} is renamed twice"
            );
            assert_ne!(field, column);
            // A renamed column is not itself a field name that another
            // field is renamed from (the mapping is applied once).
            assert!(UNITS.iter().all(|(f, _)| f != column), "{column}");
        }
    }
}
