//! The read path: every read of the total sums every shard, and each likes
//! server caches the sum for a while. The one place the cached-sums formula
//! lives.

use serde::Serialize;

use crate::error::{ParamError, ParamResult};
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
    /// Items one batch read fetches (DynamoDB BatchGetItem: 100).
    pub batch_size: u64,
    /// The store's read cap per key (DynamoDB: 3,000 reads/s per partition).
    pub read_cap: f64,
}

/// What reading the count costs, with and without the cache.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReadCost {
    /// Views of the count per second.
    pub views: f64,
    /// Likes servers, each with its own cache of the sum.
    pub servers: u64,
    /// How long a server keeps a sum; 0 means no cache.
    pub cache_seconds: f64,
    /// Items one batch read fetches.
    pub batch_size: u64,
    /// Shards a sum reads.
    pub shards: u64,
    /// Every view sums every shard: views x shards.
    pub reads_uncached_per_second: f64,
    /// Each server sums at most once per cache period (and no more often
    /// than views arrive): min(views, servers / cache) x shards.
    pub reads_cached_per_second: f64,
    /// Sums per second with the cache: min(views, servers / cache).
    pub sums_cached_per_second: f64,
    /// Batch reads per second without the cache: views x ceil(shards / batch).
    pub batch_requests_uncached_per_second: f64,
    /// Batch reads per second with the cache: sums x ceil(shards / batch).
    pub batch_requests_cached_per_second: f64,
    /// Reads each shard key takes per second without the cache (= views).
    pub reads_per_shard_uncached: f64,
    /// Reads each shard key takes per second with the cache (= sums).
    pub reads_per_shard_cached: f64,
    /// The store's read cap per key.
    pub read_cap: f64,
}

impl ReadPlan {
    /// Checks the inputs; errors name the parameters `views`, `servers`,
    /// `cache_seconds`, `batch_size` and `read_cap`.
    pub fn new(
        views: f64,
        servers: u64,
        cache_seconds: f64,
        batch_size: u64,
        read_cap: f64,
    ) -> ParamResult<Self> {
        validate::rate("views", views)?;
        validate::count("servers", servers, MAX_SERVERS)?;
        validate::non_negative("cache_seconds", cache_seconds)?;
        if cache_seconds > 86_400.0 {
            return Err(ParamError::other(
                "cache_seconds",
                format!("must be at most 86400 (one day) (got {cache_seconds})"),
            ));
        }
        validate::count("batch_size", batch_size, MAX_BATCH)?;
        validate::rate("read_cap", read_cap)?;
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
    /// What reading the count costs over `shards` shard keys.
    pub fn cost(&self, shards: u64) -> ReadCost {
        let s = shards as f64;
        let sums_cached = sums_per_second(self.views, self.servers, self.cache_seconds);
        let batches_per_sum = shards.div_ceil(self.batch_size) as f64;
        ReadCost {
            views: self.views,
            servers: self.servers,
            cache_seconds: self.cache_seconds,
            batch_size: self.batch_size,
            shards,
            reads_uncached_per_second: self.views * s,
            reads_cached_per_second: sums_cached * s,
            sums_cached_per_second: sums_cached,
            batch_requests_uncached_per_second: self.views * batches_per_sum,
            batch_requests_cached_per_second: sums_cached * batches_per_sum,
            reads_per_shard_uncached: self.views,
            reads_per_shard_cached: sums_cached,
            read_cap: self.read_cap,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_read_cost() {
        let plan = ReadPlan::new(50_000.0, 40, 2.0, 100, 3000.0).unwrap();
        let c = plan.cost(20);
        assert_eq!(c.reads_uncached_per_second, 1_000_000.0);
        assert_eq!(c.reads_cached_per_second, 400.0);
        assert_eq!(c.batch_requests_uncached_per_second, 50_000.0);
        assert_eq!(c.batch_requests_cached_per_second, 20.0);
        assert_eq!(c.reads_per_shard_uncached, 50_000.0);
        // 286 shards need 3 batch reads of 100 per sum.
        assert_eq!(plan.cost(286).batch_requests_cached_per_second, 60.0);
        // No cache: every view sums.
        let nocache = ReadPlan::new(50_000.0, 40, 0.0, 100, 3000.0).unwrap();
        assert_eq!(nocache.cost(20).reads_cached_per_second, 1_000_000.0);
        // Fewer views than cache refreshes: the cache cannot refresh more often than views arrive.
        let quiet = ReadPlan::new(5.0, 40, 2.0, 100, 3000.0).unwrap();
        assert_eq!(quiet.cost(1).reads_cached_per_second, 5.0);
    }
}
