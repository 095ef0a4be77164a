//! The read-cost block: shard reads with and without the cache, batch
//! requests, reads per shard against the read cap. `size`, `simulate` and
//! `report` all show it.

use crate::model::read_cost::ReadCost;
use crate::output::{fmt, Section};

/// The read-cost block.
pub fn read_cost_section(r: &ReadCost) -> Section {
    let over = if r.reads_per_shard_uncached > r.read_cap {
        format!(
            " ({:.1}x the read cap!)",
            r.reads_per_shard_uncached / r.read_cap
        )
    } else {
        String::new()
    };
    Section::pairs(
        "Read cost",
        vec![
            (
                "views",
                format!(
                    "{}/s on {} servers, sum cached {} s",
                    fmt::num(r.views),
                    r.servers,
                    fmt::num(r.cache_seconds)
                ),
            ),
            (
                "shard reads, no cache",
                format!(
                    "{}/s = {} views x {} shards",
                    fmt::num(r.reads_uncached_per_second),
                    fmt::num(r.views),
                    r.shards
                ),
            ),
            (
                "shard reads, cached",
                format!(
                    "{}/s = {} sums/s x {} shards",
                    fmt::num(r.reads_cached_per_second),
                    fmt::num(r.sums_cached_per_second),
                    r.shards
                ),
            ),
            (
                "batch requests (no cache / cached)",
                format!(
                    "{}/s / {}/s (up to {} items each)",
                    fmt::num(r.batch_requests_uncached_per_second),
                    fmt::num(r.batch_requests_cached_per_second),
                    r.batch_size
                ),
            ),
            (
                "reads per shard (no cache / cached)",
                format!(
                    "{}/s{} / {}/s, read cap {}/s",
                    fmt::num(r.reads_per_shard_uncached),
                    over,
                    fmt::num(r.reads_per_shard_cached),
                    fmt::num(r.read_cap)
                ),
            ),
        ],
    )
}
