//! Uniqueness and approximate counters as `compare` rows (issue 11).
//!
//! "Likes" are one per user, so something must remember who liked: a set
//! per post (`SADD`/`SCARD`) or a like row per (user, reel). Approximate
//! structures (HyperLogLog, Count-Min) trade exactness for a fixed, small
//! memory. A hash (`HINCRBY`) keeps likes, shares and views in one key.
//! Every figure here is a closed-form estimate from the cited sources; the
//! over-cap risk of the hottest key comes from [`crate::model::exact::OverCap`].

mod inputs;
mod like_rows;
mod rows;
mod sets;
mod sketch;

pub use inputs::{ApproxInputs, SECONDS_PER_DAY};
pub use like_rows::{
    like_row_bytes, like_rows, LikeRows, DYNAMODB_ITEM_OVERHEAD_BYTES, DYNAMODB_QUERY_PAGE_BYTES,
    LIKE_ROWS_PARTITION_LOAD, LIKE_ROW_NAME_BYTES, LIKE_ROW_OTHER_VALUE_BYTES,
};
pub use rows::approx_rows;
pub use sets::{
    expected_random_double_count, jemalloc_size_class, redis_set_bytes, set_bytes_sharded,
    REDIS_DICT_ENTRY_BYTES, REDIS_INTSET_MAX_ENTRIES,
};
pub use sketch::{
    count_min_detection, hll_standard_error, redis_hll_dense_bytes, CountMinSize, HotDetection,
    COUNT_MIN_COUNTER_BYTES, REDIS_HLL_BITS, REDIS_HLL_HEADER_BYTES, REDIS_HLL_REGISTERS,
};

#[cfg(test)]
mod tests;
