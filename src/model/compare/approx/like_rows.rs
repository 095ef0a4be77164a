//! Like rows keyed by (user, reel): the durable uniqueness record, its
//! size, its partitions and what counting a post's rows costs.

use serde::Serialize;

use super::ApproxInputs;

/// DynamoDB adds 100 bytes of index overhead to every item's stored size.
pub const DYNAMODB_ITEM_OVERHEAD_BYTES: u64 = 100;
/// A DynamoDB Query (also `Select=COUNT`) reads at most 1 MB per page.
pub const DYNAMODB_QUERY_PAGE_BYTES: u64 = 1 << 20;
/// Like row attribute names: "user_id" + "reel_id" + "liked_at".
pub const LIKE_ROW_NAME_BYTES: u64 = 7 + 7 + 8;
/// Like row: reel id and timestamp values, 8 bytes each.
pub const LIKE_ROW_OTHER_VALUE_BYTES: u64 = 8 + 8;
/// Auto partitions for like rows: the store splits until a partition runs
/// at most at this share of its cap (DynamoDB splits hot partitions; the
/// share is our assumption).
pub const LIKE_ROWS_PARTITION_LOAD: f64 = 0.5;

/// Stored bytes of one like row (user_id, reel_id, liked_at), DynamoDB
/// sizing: attribute names + values + 100 bytes of per-item overhead
/// (DynamoDB developer guide, "Item sizes and formats"). An estimate.
pub fn like_row_bytes(user_id_bytes: u64) -> u64 {
    LIKE_ROW_NAME_BYTES + user_id_bytes + LIKE_ROW_OTHER_VALUE_BYTES + DYNAMODB_ITEM_OVERHEAD_BYTES
}

/// The like-row table's daily growth.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct LikeRows {
    /// Stored bytes of one like row.
    pub row_bytes: u64,
    /// Rows written a day: one per like over the fleet.
    pub rows_per_day: f64,
    /// Bytes the table grows a day.
    pub bytes_per_day: f64,
    /// Partitions of the table.
    pub partitions: u64,
    /// Hot post's likes spread over the partitions by user id: rate / partitions.
    pub writes_per_partition: f64,
    /// Pages a `Select=COUNT` query over a reel_id index reads for the hot post.
    pub count_pages: f64,
}

/// The like-row table for these inputs: its growth, partitions and count pages.
pub fn like_rows(inputs: &ApproxInputs) -> LikeRows {
    let row_bytes = like_row_bytes(inputs.user_id_bytes);
    let partitions = inputs.partitions();
    LikeRows {
        row_bytes,
        rows_per_day: inputs.likes_per_day,
        bytes_per_day: inputs.likes_per_day * row_bytes as f64,
        partitions,
        writes_per_partition: inputs.rate / partitions as f64,
        count_pages: (inputs.post_likes() * row_bytes as f64 / DYNAMODB_QUERY_PAGE_BYTES as f64)
            .ceil(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::compare::approx::tests::inputs;

    #[test]
    fn like_row_sizes() {
        // 22 name bytes + 8 user id + 16 (reel id, time) + 100 overhead.
        assert_eq!(like_row_bytes(8), 146);
        let lr = like_rows(&inputs());
        assert_eq!(lr.rows_per_day, 100e6);
        assert_eq!(lr.bytes_per_day, 14.6e9);
        // 200,000 / (1,000 x 0.5) = 400 partitions, 500 writes/s each.
        assert_eq!(lr.partitions, 400);
        assert_eq!(lr.writes_per_partition, 500.0);
        // The hot post: min(200K x 86,400, 100M) = 100M rows x 146 B / 1 MiB.
        assert_eq!(lr.count_pages, (100e6 * 146.0 / 1_048_576.0f64).ceil());
    }
}
