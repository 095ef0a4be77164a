//! Lists typed on the command line: shard counts (`10..40`, `10,20,30`)
//! and rates (`9000,14000,18000`).

use super::Sourced;
use crate::error::{InputError, InputResult};
use crate::model::defaults::MAX_SHARDS;
use crate::model::validate;

/// `10..40` (inclusive), `10,20,30` or `20`.
pub fn shard_counts(flag: &'static str, text: &str) -> InputResult<Vec<u64>> {
    let bad = |why: String| {
        InputError::new(
            flag,
            format!(
                "{why}; use a range like 10..40, a list like 10,20,30, or one count (got {text:?})"
            ),
        )
    };
    let one = |t: &str| -> InputResult<u64> {
        let n: u64 = t
            .trim()
            .parse()
            .map_err(|_| bad(format!("{t:?} is not a whole number")))?;
        Sourced::from_flag(flag, n).check(|v| validate::count("shards", *v, MAX_SHARDS))
    };
    let counts: Vec<u64> = if let Some((a, b)) = text.split_once("..") {
        let (a, b) = (one(a)?, one(b.trim_start_matches('='))?);
        if a > b {
            return Err(bad(format!("the range starts above its end ({a} > {b})")));
        }
        (a..=b).collect()
    } else {
        text.split(',').map(one).collect::<InputResult<_>>()?
    };
    if counts.len() > 10_000 {
        return Err(bad(format!(
            "{} shard counts is too many (at most 10,000)",
            counts.len()
        )));
    }
    Ok(counts)
}

/// `9000,14000,18000` or one rate.
pub fn rates(text: &str) -> InputResult<Vec<f64>> {
    text.split(',')
        .map(|t| {
            let v: f64 = t.trim().parse().map_err(|_| {
                InputError::new(
                    "--rate",
                    format!("{t:?} is not a number; give likes/s, e.g. 9000,14000,18000"),
                )
            })?;
            Sourced::from_flag("--rate", v).check(|v| validate::rate("rate", *v))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_ranges_and_lists() {
        assert_eq!(shard_counts("--shards", "10..40").unwrap().len(), 31);
        assert_eq!(
            shard_counts("--shards", "10..=12").unwrap(),
            vec![10, 11, 12]
        );
        assert_eq!(
            shard_counts("--shards", "10,20,30").unwrap(),
            vec![10, 20, 30]
        );
        assert_eq!(shard_counts("--shards", "20").unwrap(), vec![20]);
        for bad in ["40..10", "a..b", "0..3", "", "1..200000"] {
            assert_eq!(
                shard_counts("--shards", bad).unwrap_err().what,
                "--shards",
                "{bad}"
            );
        }
        assert_eq!(
            rates("9000,14000,18000").unwrap(),
            vec![9000.0, 14000.0, 18000.0]
        );
        assert_eq!(rates("9000,-1").unwrap_err().what, "--rate");
    }
}
