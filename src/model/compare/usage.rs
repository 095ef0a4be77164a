//! What each `compare` design uses at the user's prices: write units a
//! like and item reads a view, from the figures the comparison computed
//! (priced by [`crate::model::price::Prices`]).

use super::strategies::{CompareInputs, StrategyRow};
use crate::model::price::Usage;

/// What one `compare` row uses, from the figures the comparison computed:
/// per-like designs write one increment a like (the transactional cost and
/// the conflicts' attempts with transactions) beside a like row of the same
/// cost; buffered designs write one +n per server per flush (never more
/// than one a like), min(servers / flush, rate) / rate increments a like,
/// beside a plain like row; the log's consumer writes one total per commit
/// period, (1 / commit) x cost / rate (its events live in the log, not the
/// store). The set, HyperLogLog and like-rows designs add once a like, evenly
/// over their keys: keys x writes per key / rate.
///
/// With unlikes `i.rate` counts writes (likes and unlikes) and
/// [`Usage::per_like`] scales by 1 + share: the per-event designs then pay
/// 1 + share units a like, while the buffered designs and the log, whose
/// servers net likes and unlikes before one write per flush (or commit),
/// keep min(servers / flush, writes/s) / likes/s: unlikes add no flush. count-min and hash give
/// only their hottest key's writes: no write path figure, `None`.
pub fn design_usage(row: &StrategyRow, i: &CompareInputs) -> Usage {
    let tx = i.transactional.map_or(1.0, |t| t.write_cost);
    let servers = i.reads.servers as f64;
    let (writes, like_row) = match row.row.strategy.as_str() {
        "single" | "sharded" => (Some(tx * row.attempts_per_like.unwrap_or(1.0)), Some(tx)),
        "buffered" | "sharded-buffered" => {
            let flushes = (servers / i.flush_seconds).min(i.rate);
            (Some(flushes / i.rate), Some(1.0))
        }
        "log" => (Some(tx / i.log_commit_seconds / i.rate), None),
        // One add a like, spread evenly over the keys: the keys' writes over
        // the likes (the like rows are this design's count: its writes).
        "set" | "set-sharded" | "hll" | "hll-sharded" | "like-rows" => (
            row.keys
                .map(|k| row.row.writes_per_key_per_second * k as f64 / i.rate),
            None,
        ),
        // count-min and hash: the hottest key's writes only, not per like.
        _ => (None, None),
    };
    Usage {
        write_units_per_like: writes,
        like_row_units_per_like: like_row,
        reads_per_view_uncached: row.row.reads_per_view,
        reads_cached_per_second: row.row.reads_per_second,
        views_per_second: i.reads.views,
    }
}
