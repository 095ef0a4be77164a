//! What the counter costs at the user's prices: write units per like and
//! item reads per view, times a price per million request units. No price
//! is built in; without one every figure is `None`.

use serde::Serialize;

use crate::model::fleet::{Policy, PolicyCost};

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
    /// Per GB-month of storage (`fleet` only: its policies count items).
    pub storage_per_gb_month: Option<f64>,
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
    /// a million likes write that many million units; in the prices'
    /// currency.
    pub write_cost_per_million_likes: Option<f64>,
    /// The like row's own write per million likes (1 unit, doubled in a
    /// transaction), in the prices' currency.
    pub like_row_cost_per_million_likes: Option<f64>,
    /// Item reads of one uncached view x the read price: a million views
    /// read that many million items; in the prices' currency.
    pub read_cost_per_million_views_uncached: Option<f64>,
    /// Cached item reads/s / views/s x the read price, per million views,
    /// in the prices' currency.
    pub read_cost_per_million_views_cached: Option<f64>,
    /// 30 x (daily likes / 1e6 x write cost + daily views / 1e6 x cached
    /// read cost), in the prices' currency a month; `None` without daily
    /// volumes or a figure it needs.
    pub monthly_cost: Option<f64>,
}

impl Prices {
    /// True when any price is given.
    pub fn any(&self) -> bool {
        self.write_per_million.is_some()
            || self.read_per_million.is_some()
            || self.storage_per_gb_month.is_some()
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

/// Seconds in the 30-day month every monthly figure uses.
pub const SECONDS_PER_MONTH: f64 = 30.0 * 86_400.0;

/// Bytes in the GB of a GB-month: 10^9 (decimal, as AWS's own DynamoDB
/// cost calculator in aws/agent-toolkit-for-aws divides billed bytes).
pub const BYTES_PER_GB: f64 = 1e9;

/// One `fleet` policy's month at the user's prices (JSON `policy_costs`,
/// CSV columns); a figure is `None` without its price.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub struct PolicyCosts {
    /// The policy priced.
    #[serde(skip)]
    pub policy: Policy,
    /// Bytes billed per counter item (`--item-bytes`), with a storage price.
    pub item_bytes: Option<f64>,
    /// items x item bytes / 10^9, GB, with a storage price.
    pub storage_gb: Option<f64>,
    /// storage_gb x the storage price, in the prices' currency a month.
    pub storage_cost_per_month: Option<f64>,
    /// One increment a like, every like of the month at the table's rates,
    /// in the prices' currency.
    pub write_cost_per_month: Option<f64>,
    /// The policy's cached shard reads over the month, in the prices'
    /// currency.
    pub read_cost_per_month_cached: Option<f64>,
    /// Its shard reads over the month without the cache, in the prices'
    /// currency.
    pub read_cost_per_month_uncached: Option<f64>,
    /// Storage, writes and cached reads, each where priced, in the prices'
    /// currency a month.
    pub monthly_cost: Option<f64>,
}

/// A fleet policy's month: its items stored, one write unit a like at
/// `likes_per_second`, and its shard reads (one item read each), all held
/// for [`SECONDS_PER_MONTH`]. The table's rates are peak-hour rates, so the
/// request figures are an upper bound on a month whose days dip below
/// their peak.
pub fn policy_costs(
    prices: &Prices,
    item_bytes: f64,
    likes_per_second: f64,
    p: &PolicyCost,
) -> PolicyCosts {
    let storage_gb = prices
        .storage_per_gb_month
        .map(|_| p.items as f64 * item_bytes / BYTES_PER_GB);
    let units = |per_second: f64, price: Option<f64>| {
        price.map(|price| per_second * SECONDS_PER_MONTH / 1e6 * price)
    };
    let storage = storage_gb
        .zip(prices.storage_per_gb_month)
        .map(|(gb, price)| gb * price);
    let writes = units(likes_per_second, prices.write_per_million);
    let cached = units(p.shard_reads_per_second_cached, prices.read_per_million);
    let priced = [storage, writes, cached];
    PolicyCosts {
        policy: p.policy,
        item_bytes: storage_gb.map(|_| item_bytes),
        storage_gb,
        storage_cost_per_month: storage,
        write_cost_per_month: writes,
        read_cost_per_month_cached: cached,
        read_cost_per_month_uncached: units(
            p.shard_reads_per_second_uncached,
            prices.read_per_million,
        ),
        monthly_cost: priced
            .iter()
            .any(Option::is_some)
            .then(|| priced.iter().flatten().sum()),
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
            storage_per_gb_month: None,
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

    #[test]
    fn a_fleet_policy_month_by_hand() {
        let policy = PolicyCost {
            policy: Policy::EveryReelSharded,
            items: 2_000_000,
            items_per_reel: 20.0,
            shard_reads_per_second_uncached: 1_000.0,
            shard_reads_per_second_cached: 100.0,
        };
        let prices = Prices {
            write_per_million: Some(1.25),
            read_per_million: Some(0.25),
            storage_per_gb_month: Some(0.25),
            ..Prices::default()
        };
        let c = policy_costs(&prices, 150.0, 2_000.0, &policy);
        // 2e6 items x 150 bytes = 0.3 GB; x 0.25 = 0.075 a month.
        assert_eq!(c.storage_gb, Some(0.3));
        assert!((c.storage_cost_per_month.unwrap() - 0.075).abs() < 1e-15);
        // 2,000 likes/s x 2,592,000 s = 5.184e9 writes: 5,184 million x 1.25.
        assert!((c.write_cost_per_month.unwrap() - 6_480.0).abs() < 1e-9);
        // 100 reads/s cached: 259.2 million x 0.25; uncached 2,592 million.
        assert!((c.read_cost_per_month_cached.unwrap() - 64.8).abs() < 1e-9);
        assert!((c.read_cost_per_month_uncached.unwrap() - 648.0).abs() < 1e-9);
        assert!((c.monthly_cost.unwrap() - (0.075 + 6_480.0 + 64.8)).abs() < 1e-9);
        // Without a storage price: no item size, no storage figure.
        let requests = Prices {
            storage_per_gb_month: None,
            ..prices
        };
        let c = policy_costs(&requests, 150.0, 2_000.0, &policy);
        assert_eq!((c.storage_gb, c.item_bytes), (None, None));
        assert!((c.monthly_cost.unwrap() - 6_544.8).abs() < 1e-9);
        let none = policy_costs(&Prices::default(), 150.0, 2_000.0, &policy);
        assert_eq!(none.monthly_cost, None);
    }
}
