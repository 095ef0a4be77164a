//! The read path: every read of the total sums every shard, and each likes
//! server caches the sum for a while. The one place the cached-sums formula
//! lives.

use serde::Serialize;

use crate::error::{ParamError, ParamResult, Problem};
use crate::model::defaults::{MAX_BATCH, MAX_SERVERS};
use crate::model::validate;

/// Sums of the count computed per second: each of `servers` sums at most
/// once per `cache_seconds`, and never more often than views arrive;
/// without a cache (0 s) every view sums.
pub fn sums_per_second(views: f64, servers: u64, cache_seconds: f64) -> f64 {
    if cache_seconds > 0.0 {
        views.min(servers as f64 / cache_seconds)
    } else {
        views
    }
}

/// How the reads of a sharded count are served.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ReadPlan {
    /// Views of the count per second.
    pub views: f64,
    /// Likes servers, each with its own cache of the sum.
    pub servers: u64,
    /// How long a server keeps a sum; 0 means no cache.
    pub cache_seconds: f64,
    /// Items one batch read fetches (DynamoDB BatchGetItem: 100); `None`
    /// when the store has no batch read (a sum is one read per shard).
    pub batch_size: Option<u64>,
    /// The store's read cap per key (DynamoDB: 3,000 reads/s per partition);
    /// `None` when the store documents none.
    pub read_cap: Option<f64>,
}

/// What reading the count costs, with and without the cache.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct ReadCost {
    /// Views of the count per second.
    pub views: f64,
    /// Likes servers, each with its own cache of the sum.
    pub servers: u64,
    /// How long a server keeps a sum, seconds; 0 means no cache.
    pub cache_seconds: f64,
    /// Items one batch read fetches; `None` without batch reads.
    pub batch_size: Option<u64>,
    /// Shards a sum reads.
    pub shards: u64,
    /// Every view sums every shard: views x shards.
    pub reads_uncached_per_second: f64,
    /// Each server sums at most once per cache period (and no more often
    /// than views arrive): min(views, servers / cache) x shards.
    pub reads_cached_per_second: f64,
    /// Sums per second with the cache: min(views, servers / cache).
    pub sums_cached_per_second: f64,
    /// Batch reads one sum needs: ceil(shards / batch); `None` without
    /// batch reads.
    pub batches_per_sum: Option<u64>,
    /// Batch reads per second without the cache: views x ceil(shards / batch).
    pub batch_requests_uncached_per_second: Option<f64>,
    /// Batch reads per second with the cache: sums x ceil(shards / batch).
    pub batch_requests_cached_per_second: Option<f64>,
    /// Reads each shard key takes per second without the cache (= views).
    pub reads_per_shard_uncached: f64,
    /// Reads each shard key takes per second with the cache (= sums).
    pub reads_per_shard_cached: f64,
    /// The store's read cap per key, reads/s; `None` when it documents
    /// none.
    pub read_cap: Option<f64>,
    /// The cached reads per shard are over the read cap.
    pub over_read_cap_cached: bool,
    /// The shortest cache period that keeps the cached reads per shard
    /// within the read cap, servers / read cap (more shards cannot: every
    /// sum reads every shard); `None` when they fit or there is no cap.
    pub cache_seconds_for_read_cap: Option<f64>,
}

impl ReadPlan {
    /// Checks the inputs; errors name the parameters `views`, `servers`,
    /// `cache_seconds`, `batch_size` and `read_cap`.
    pub fn new(
        views: f64,
        servers: u64,
        cache_seconds: f64,
        batch_size: Option<u64>,
        read_cap: Option<f64>,
    ) -> ParamResult<Self> {
        validate::rate("views", views)?;
        validate::count("servers", servers, MAX_SERVERS)?;
        validate::non_negative("cache_seconds", cache_seconds)?;
        if cache_seconds > 86_400.0 {
            return Err(ParamError::new(
                "cache_seconds",
                Problem::AboveOneDay(cache_seconds),
            ));
        }
        if let Some(b) = batch_size {
            validate::count("batch_size", b, MAX_BATCH)?;
        }
        if let Some(c) = read_cap {
            validate::rate("read_cap", c)?;
        }
        Ok(ReadPlan {
            views,
            servers,
            cache_seconds,
            batch_size,
            read_cap,
        })
    }

    /// What reading the sum of `shards` shards costs, with and without the
    /// cache.
    pub fn cost(&self, shards: u64) -> ReadCost {
        let s = shards as f64;
        let sums_cached = sums_per_second(self.views, self.servers, self.cache_seconds);
        let batches_per_sum = self.batch_size.map(|b| shards.div_ceil(b));
        let over = self.read_cap.is_some_and(|c| sums_cached > c);
        ReadCost {
            views: self.views,
            servers: self.servers,
            cache_seconds: self.cache_seconds,
            batch_size: self.batch_size,
            shards,
            reads_uncached_per_second: self.views * s,
            reads_cached_per_second: sums_cached * s,
            sums_cached_per_second: sums_cached,
            batches_per_sum,
            batch_requests_uncached_per_second: batches_per_sum.map(|b| self.views * b as f64),
            batch_requests_cached_per_second: batches_per_sum.map(|b| sums_cached * b as f64),
            reads_per_shard_uncached: self.views,
            reads_per_shard_cached: sums_cached,
            read_cap: self.read_cap,
            over_read_cap_cached: over,
            cache_seconds_for_read_cap: self
                .read_cap
                .filter(|_| over)
                .map(|c| self.servers as f64 / c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_read_cost() {
        let plan = ReadPlan::new(50_000.0, 40, 2.0, Some(100), Some(3000.0)).unwrap();
        let c = plan.cost(20);
        assert_eq!(c.reads_uncached_per_second, 1_000_000.0);
        assert_eq!(c.reads_cached_per_second, 400.0);
        assert_eq!(c.batch_requests_uncached_per_second, Some(50_000.0));
        assert_eq!(c.batch_requests_cached_per_second, Some(20.0));
        assert_eq!(c.reads_per_shard_uncached, 50_000.0);
        assert!(!c.over_read_cap_cached);
        assert_eq!(c.cache_seconds_for_read_cap, None);
        // 286 shards need 3 batch reads of 100 per sum.
        assert_eq!(plan.cost(286).batches_per_sum, Some(3));
        assert_eq!(plan.cost(286).batch_requests_cached_per_second, Some(60.0));
        // No cache: every view sums, 50,000 reads/s per shard against 3,000;
        // 40 servers need a cache of at least 40 / 3,000 s.
        let nocache = ReadPlan::new(50_000.0, 40, 0.0, Some(100), Some(3000.0)).unwrap();
        let c = nocache.cost(20);
        assert_eq!(c.reads_cached_per_second, 1_000_000.0);
        assert!(c.over_read_cap_cached);
        assert_eq!(c.cache_seconds_for_read_cap, Some(40.0 / 3000.0));
        // Fewer views than cache refreshes: the cache cannot refresh more often than views arrive.
        let quiet = ReadPlan::new(5.0, 40, 2.0, Some(100), Some(3000.0)).unwrap();
        assert_eq!(quiet.cost(1).reads_cached_per_second, 5.0);
        // A store without batch reads or a read cap: neither figure is made up.
        let bare = ReadPlan::new(50_000.0, 40, 2.0, None, None)
            .unwrap()
            .cost(20);
        assert_eq!(bare.batch_requests_cached_per_second, None);
        assert_eq!((bare.read_cap, bare.over_read_cap_cached), (None, false));
    }
}
