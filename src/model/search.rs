//! The one fewest-shards search. Every sizing question shardplan answers
//! ("the fewest shards whose risk is at most P", "the fewest at which the
//! retries fit the safe rate", "the fewest that keep every partition under
//! its cap") has the same shape: a test that fails for too few shards and
//! holds from some count on. This finds that count.

/// The fewest `S` in `1..=max_shards` for which `meets(S)` holds, or `None`
/// when even `max_shards` does not do.
///
/// `meets` must be monotone: false up to some count, true from it on (more
/// shards never make the risk worse). The search doubles from 1 until
/// `meets` holds, then bisects the last gap: about 2 log2(S) evaluations,
/// and the answer's own neighbourhood is where the evaluations cluster, so
/// costly tests of huge shard counts are avoided when the answer is small.
pub fn fewest_shards<E>(
    max_shards: u64,
    mut meets: impl FnMut(u64) -> Result<bool, E>,
) -> Result<Option<u64>, E> {
    if max_shards == 0 {
        return Ok(None);
    }
    if meets(1)? {
        return Ok(Some(1));
    }
    // Exponential search: `lo` fails, and `hi` is the next count to try.
    let mut lo = 1u64;
    let mut hi = 2u64.min(max_shards);
    loop {
        if meets(hi)? {
            break;
        }
        if hi == max_shards {
            return Ok(None);
        }
        lo = hi;
        hi = hi.saturating_mul(2).min(max_shards);
    }
    // meets(hi) and !meets(lo): bisect.
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if meets(mid)? {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Ok(Some(hi))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::convert::Infallible;

    fn search(max: u64, edge: u64) -> (Option<u64>, u64) {
        let mut calls = 0;
        let found = fewest_shards(max, |s| {
            calls += 1;
            Ok::<_, Infallible>(s >= edge)
        })
        .unwrap();
        (found, calls)
    }

    #[test]
    fn finds_every_edge_by_brute_force() {
        // Against the obvious linear scan, for every edge and limit up to 70.
        for max in 1..70u64 {
            for edge in 1..80u64 {
                let want = (1..=max).find(|&s| s >= edge);
                assert_eq!(search(max, edge).0, want, "max {max}, edge {edge}");
            }
        }
    }

    #[test]
    fn evaluations_grow_with_the_log_of_the_answer() {
        // Edge 20 of 100,000: 1, 2, 4, .., 32 (6 calls), then bisect 16..32
        // (4 calls), so 10 evaluations at most 2 log2(20) + 2.
        let (found, calls) = search(100_000, 20);
        assert_eq!(found, Some(20));
        assert!(calls <= 11, "{calls}");
        assert_eq!(search(0, 1).0, None);
    }

    #[test]
    fn errors_stop_the_search() {
        let r = fewest_shards(10, |s| if s == 4 { Err("boom") } else { Ok(false) });
        assert_eq!(r, Err("boom"));
    }
}
