//! What the counter costs at the user's prices: write units per like and
//! item reads per view, times a price per million request units. No price
//! is built in; without one every figure is `None`.

use serde::Serialize;

use crate::model::compare::strategies::{CompareInputs, StrategyRow};

/// The user's prices (their currency) and daily volumes, each checked
/// finite and >= 0 by the configuration layer.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Prices {
    /// Per million write request units (one unit = one increment).
    pub write_per_million: Option<f64>,
    /// Per million read request units (one unit = one item read).
    pub read_per_million: Option<f64>,
    /// Likes a day, for the monthly total.
    pub daily_likes: Option<f64>,
    /// Views a day, for the monthly total.
    pub daily_views: Option<f64>,
}

/// What one design's writes and reads use, from the figures its model
/// already computes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Usage {
    /// Counter write units per like; `None` when the design has no write
    /// path figure.
    pub write_units_per_like: Option<f64>,
    /// The like row's own write units per like; `None` when the design
    /// keeps no row per like.
    pub like_row_units_per_like: Option<f64>,
    /// Item reads one uncached view costs (the shards one sum reads; a batch
    /// is billed per item).
    pub reads_per_view_uncached: f64,
    /// Item reads per second with the servers' cache.
    pub reads_cached_per_second: f64,
    /// Views per second.
    pub views_per_second: f64,
}

impl Usage {
    /// Usage counted per write (a like or an unlike), as a plan with
    /// unlikes counts its rate, turned into usage per like: every write
    /// figure x `writes_per_like` (1 + the unlike share; an unlike removes
    /// a like row and decrements a shard, one write each). Reads are per
    /// view and do not change.
    pub fn per_like(self, writes_per_like: f64) -> Usage {
        Usage {
            write_units_per_like: self.write_units_per_like.map(|w| w * writes_per_like),
            like_row_units_per_like: self.like_row_units_per_like.map(|w| w * writes_per_like),
            ..self
        }
    }
}

/// The cost figures (JSON fields, CSV columns); all `None` without prices.
#[derive(Debug, Clone, Default, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Costs {
    /// Counter write units one like costs.
    pub write_units_per_like: Option<f64>,
    /// Counter write units per like x the write price (per million units):
    /// a million likes write that many million units.
    pub write_cost_per_million_likes: Option<f64>,
    /// The like row's own write per million likes (1 unit, doubled in a transaction).
    pub like_row_cost_per_million_likes: Option<f64>,
    /// Item reads of one uncached view x the read price: a million views
    /// read that many million items.
    pub read_cost_per_million_views_uncached: Option<f64>,
    /// Cached item reads/s / views/s x the read price.
    pub read_cost_per_million_views_cached: Option<f64>,
    /// 30 x (daily likes / 1e6 x write cost + daily views / 1e6 x cached
    /// read cost); `None` without daily volumes or a figure it needs.
    pub monthly_cost: Option<f64>,
}

impl Prices {
    /// True when any price is given.
    pub fn any(&self) -> bool {
        self.write_per_million.is_some() || self.read_per_million.is_some()
    }

    /// The cost figures of one design's usage.
    pub fn costs(&self, u: &Usage) -> Costs {
        let write = |units: Option<f64>| Some(units? * self.write_per_million?);
        let read = |per_view: f64| self.read_per_million.map(|p| per_view * p);
        let cached_per_view = if u.views_per_second > 0.0 {
            u.reads_cached_per_second / u.views_per_second
        } else {
            0.0
        };
        let write_cost = write(u.write_units_per_like);
        let cached = read(cached_per_view);
        let monthly = || -> Option<f64> {
            if self.daily_likes.is_none() && self.daily_views.is_none() {
                return None;
            }
            let likes = match self.daily_likes {
                Some(d) => d / 1e6 * write_cost?,
                None => 0.0,
            };
            let views = match self.daily_views {
                Some(d) => d / 1e6 * cached?,
                None => 0.0,
            };
            Some(30.0 * (likes + views))
        };
        Costs {
            write_units_per_like: u.write_units_per_like,
            write_cost_per_million_likes: write_cost,
            like_row_cost_per_million_likes: write(u.like_row_units_per_like),
            read_cost_per_million_views_uncached: read(u.reads_per_view_uncached),
            read_cost_per_million_views_cached: cached,
            monthly_cost: monthly(),
        }
    }
}

/// What one `compare` row uses, from the figures the comparison computed:
/// per-like designs write one increment a like (the transactional cost and
/// the conflicts' attempts with transactions) beside a like row of the same
/// cost; buffered designs write one +n per server per flush (never more
/// than one a like), min(servers / flush, rate) / rate increments a like,
/// beside a plain like row; the log's consumer writes one total per commit
/// period, (1 / commit) x cost / rate (its events live in the log, not the
/// store). The set, HyperLogLog and like-rows designs add once a like, evenly
/// over their keys: keys x writes per key / rate. count-min and hash give
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_costs() {
        let p = Prices {
            write_per_million: Some(1.25),
            read_per_million: Some(0.25),
            daily_likes: Some(2e6),
            daily_views: Some(1e8),
        };
        let u = Usage {
            write_units_per_like: Some(2.0),
            like_row_units_per_like: Some(2.0),
            reads_per_view_uncached: 20.0,
            reads_cached_per_second: 400.0,
            views_per_second: 50_000.0,
        };
        let c = p.costs(&u);
        assert_eq!(c.write_cost_per_million_likes, Some(2.5));
        assert_eq!(c.like_row_cost_per_million_likes, Some(2.5));
        assert_eq!(c.read_cost_per_million_views_uncached, Some(5.0));
        // 400 / 50,000 = 0.008 item reads a view: 8,000 units per million views.
        let cached = c.read_cost_per_million_views_cached.unwrap();
        assert!((cached - 0.002).abs() < 1e-15);
        // 30 x (2 x 2.5 + 100 x 0.002) = 156.
        assert!((c.monthly_cost.unwrap() - 156.0).abs() < 1e-9);
        let none = Costs {
            write_units_per_like: Some(2.0),
            ..Costs::default()
        };
        assert_eq!(Prices::default().costs(&u), none);
    }
}
