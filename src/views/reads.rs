//! The read-cost block: shard reads with and without the cache, batch
//! requests, reads per shard against the read cap. `size`, `simulate` and
//! `report` all show it.

use crate::model::read_cost::ReadCost;
use crate::output::{fmt, Section};

/// The read cap and how many times over it a shard is without the cache,
/// when it is over.
fn uncached_over_read_cap(r: &ReadCost) -> Option<(f64, f64)> {
    let cap = r.read_cap?;
    (r.reads_per_shard_uncached > cap).then(|| (cap, r.reads_per_shard_uncached / cap))
}

/// The read-cost block.
pub fn read_cost_section(r: &ReadCost) -> Section {
    let over = uncached_over_read_cap(r)
        .map(|(_, times)| format!(" ({times:.1}x the read cap!)"))
        .unwrap_or_default();
    let cap = match r.read_cap {
        Some(cap) => format!("read cap {}/s", fmt::rate(cap)),
        None => "no documented read cap".to_string(),
    };
    let mut rows = vec![
        (
            "views",
            format!(
                "{}/s on {}, sum cached {} s",
                fmt::num(r.views),
                fmt::counted(r.servers, "server", "servers"),
                fmt::num(r.cache_seconds)
            ),
        ),
        (
            "shard reads, no cache",
            format!(
                "{}/s = {} views x {}",
                fmt::num(r.reads_uncached_per_second),
                fmt::num(r.views),
                crate::views::verdict::shards(r.shards)
            ),
        ),
        (
            "shard reads, cached",
            format!(
                "{}/s = {} sums/s x {}",
                fmt::num(r.reads_cached_per_second),
                fmt::num(r.sums_cached_per_second),
                crate::views::verdict::shards(r.shards)
            ),
        ),
    ];
    rows.push((
        "batch requests (no cache / cached)",
        match (
            r.batch_size,
            r.batch_requests_uncached_per_second,
            r.batch_requests_cached_per_second,
        ) {
            (Some(b), Some(u), Some(c)) => format!(
                "{}/s / {}/s (up to {b} items each)",
                fmt::num(u),
                fmt::num(c)
            ),
            _ => "no batch read: one read per shard".to_string(),
        },
    ));
    rows.push((
        "reads per shard (no cache / cached)",
        format!(
            "{}/s{} / {}/s, {cap}",
            fmt::num(r.reads_per_shard_uncached),
            over,
            fmt::num(r.reads_per_shard_cached),
        ),
    ));
    if let Some(t) = r.cache_seconds_for_read_cap {
        rows.push((
            "cache needed for the read cap",
            format!(
                "at least {} s (more shards cannot help: every sum reads every shard)",
                fmt::num(t)
            ),
        ));
    }
    Section::pairs("Read cost", rows)
}
