//! Resizing a reel's shard count safely, with `read_shards` (the shards
//! readers add up) and `write_shards` (the shards new likes go to) cached
//! by every likes server for a TTL. The design's one rule: readers must
//! never add up fewer shards than any writer uses.
//!
//! Grow (from < to). Step 1 is stored at the start of second 1, step 2 one
//! TTL later (when every cache holding the old value has expired). The
//! reader we follow is the worst one: it refreshed just before each step,
//! so it holds each old value for a full TTL, i.e. until the end of second
//! 2 x TTL; the writers picked up their step at once. `likes_after` arrive
//! evenly over those 2 x TTL seconds (second k gets round(L k / W) -
//! round(L (k - 1) / W), half up, so they total exactly L).
//! - reads-first: read_shards = to, then write_shards = to. New likes land
//!   on shards the reader already adds up: no undercount.
//! - writes-first: write_shards = to while the reader still adds up only
//!   the `from` old shards: it sees likes_before + likes_after x from / to
//!   (expected). With 500 before and 1,000 after: 500 + 1,000 / 20 = 550 of
//!   1,500 (ratio 0.3667).
//!
//! Shrink (from > to). write_shards is lowered first and the caches expire,
//! so no new likes reach the old shards; then each old shard k (k = to,
//! to + 1, ..., from - 1, in order) is folded into shard k mod to: add its
//! value v to the target and subtract v from k. Readers still add up all
//! `from` shards. A reader reads once before the folds, once while each fold
//! is half done, and once after each fold (1 + 2 x folds reads).
//! - fold = separate (two writes): the half-done read sees total + v
//!   (add-first) or total - v (subtract-first), whatever the read mode.
//! - fold = transaction, read = batch (BatchGetItem-like): the items are
//!   read one by one and can see the transaction half applied, which the
//!   DynamoDB docs allow for reads outside TransactGetItems; we take the
//!   half given by `step_order`, so the blip is the same as separate.
//! - fold = transaction, read = transactional (TransactGetItems-like): a
//!   read overlapping the fold is cancelled and retried after it commits,
//!   so it always sees the true total; each half-done read counts one retry.
//!
//! Default shard values for a shrink: shard 1 holds 40 likes and the other
//! from - 1 shards share 100 evenly, the remainder on shard 0 (for 20
//! shards: shard 0 = 10, shard 1 = 40, shards 2..19 = 5 each; 140 in all),
//! so shard 1's fold shows 140 as 180 (add-first) or 100 (subtract-first).

use crate::model::defaults::{MAX_RESIZE_LIKES, MAX_TTL_SECONDS};
use serde::{Deserialize, Serialize};

use crate::error::{ParamError, ParamResult, Problem};
use crate::model::validate;

/// The order of the two settings changes in a grow (and in a monitor raise).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum ResizeOrder {
    /// Raise read_shards, wait a TTL, then raise write_shards (safe).
    #[default]
    ReadsFirst,
    /// Raise write_shards first (undercounts until readers catch up).
    WritesFirst,
}

impl ResizeOrder {
    /// The name flags, scenario files and views use.
    pub fn name(self) -> &'static str {
        match self {
            ResizeOrder::ReadsFirst => "reads-first",
            ResizeOrder::WritesFirst => "writes-first",
        }
    }
}

/// How one old shard is folded into its target in a shrink.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum FoldMode {
    /// Two separate writes: add to the target, subtract from the old shard.
    #[default]
    Separate,
    /// Both writes in one transaction (TransactWriteItems-like).
    Transaction,
}

impl FoldMode {
    /// The name flags, scenario files and views use.
    pub fn name(self) -> &'static str {
        match self {
            FoldMode::Separate => "separate",
            FoldMode::Transaction => "transaction",
        }
    }
}

/// How a reader reads the shards during a shrink.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum ReadMode {
    /// A plain multi-item read (BatchGetItem-like).
    #[default]
    Batch,
    /// A transactional read (TransactGetItems-like), retried when cancelled.
    Transactional,
}

impl ReadMode {
    /// The name flags, scenario files and views use.
    pub fn name(self) -> &'static str {
        match self {
            ReadMode::Batch => "batch",
            ReadMode::Transactional => "transactional",
        }
    }
}

/// Which half of a fold lands first.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum StepOrder {
    /// Add the old shard's value v to its target, then subtract v from the
    /// old shard: a read in between sees total + v.
    #[default]
    AddFirst,
    /// Subtract v from the old shard, then add it to the target: a read in
    /// between sees total - v.
    SubtractFirst,
}

impl StepOrder {
    /// The name flags, scenario files and views use.
    pub fn name(self) -> &'static str {
        match self {
            StepOrder::AddFirst => "add-first",
            StepOrder::SubtractFirst => "subtract-first",
        }
    }
}

/// The `[resize]` scenario section (and the `resize` command's flags).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResizeConfig {
    /// Shards before the resize (read_shards and write_shards both).
    pub from: u64,
    /// Shards after the resize: more than `from` is a grow, fewer a shrink;
    /// it must differ from `from`.
    pub to: u64,
    /// Grow only. Default reads-first.
    #[serde(default)]
    pub order: ResizeOrder,
    /// Grow only. Default 500.
    #[serde(default = "default_before")]
    pub likes_before: u64,
    /// Grow only. Default 1,000.
    #[serde(default = "default_after")]
    pub likes_after: u64,
    /// Grow only. Default 60.
    #[serde(default = "default_ttl")]
    pub settings_ttl_seconds: u64,
    /// Shrink only. Default separate.
    #[serde(default)]
    pub fold: FoldMode,
    /// Shrink only. Default batch.
    #[serde(default)]
    pub read: ReadMode,
    /// Shrink only. Default add-first.
    #[serde(default)]
    pub step_order: StepOrder,
    /// Shrink only: likes on each old shard (one value per shard); default
    /// shard 1 = 40 and 100 shared by the rest (see the module docs).
    #[serde(default)]
    pub shard_likes: Option<Vec<u64>>,
}

fn default_before() -> u64 {
    crate::model::defaults::DEFAULT_LIKES_BEFORE
}
fn default_after() -> u64 {
    crate::model::defaults::DEFAULT_LIKES_AFTER
}
fn default_ttl() -> u64 {
    crate::model::defaults::DEFAULT_SETTINGS_TTL_SECONDS
}

impl ResizeConfig {
    /// A config with every default, for `from` -> `to`.
    pub fn new(from: u64, to: u64) -> Self {
        ResizeConfig {
            from,
            to,
            order: ResizeOrder::default(),
            likes_before: crate::model::defaults::DEFAULT_LIKES_BEFORE,
            likes_after: crate::model::defaults::DEFAULT_LIKES_AFTER,
            settings_ttl_seconds: crate::model::defaults::DEFAULT_SETTINGS_TTL_SECONDS,
            fold: FoldMode::default(),
            read: ReadMode::default(),
            step_order: StepOrder::default(),
            shard_likes: None,
        }
    }

    /// Checks the section and picks the grow or the shrink.
    ///
    /// `from` and `to` must be from 1 to
    /// [`MAX_SHARDS`](crate::model::defaults::MAX_SHARDS) and differ. A grow
    /// (from < to) checks `likes_before` and `likes_after` (at most
    /// [`MAX_RESIZE_LIKES`]) and `settings_ttl_seconds` (at most
    /// [`MAX_TTL_SECONDS`]); a shrink checks `shard_likes` when given (one
    /// value per old shard, each at most [`MAX_RESIZE_LIKES`]), else uses
    /// [`default_shard_likes`]. The other kind's fields are neither checked
    /// nor kept. The error names the field, e.g. `resize.to`.
    pub fn validate(&self) -> ParamResult<ResizePlan> {
        let from = validate::count("resize.from", self.from, crate::model::defaults::MAX_SHARDS)?;
        let to = validate::count("resize.to", self.to, crate::model::defaults::MAX_SHARDS)?;
        if from == to {
            return Err(ParamError::new("resize.to", Problem::SameShardCount(from)));
        }
        if from < to {
            for (what, v) in [
                ("resize.likes_before", self.likes_before),
                ("resize.likes_after", self.likes_after),
            ] {
                if v > crate::model::defaults::MAX_RESIZE_LIKES {
                    return Err(ParamError::new(
                        what,
                        Problem::WholeAbove {
                            got: v,
                            max: MAX_RESIZE_LIKES,
                        },
                    ));
                }
            }
            if self.settings_ttl_seconds > crate::model::defaults::MAX_TTL_SECONDS {
                return Err(ParamError::new(
                    "resize.settings_ttl_seconds",
                    Problem::SecondsOutside {
                        got: self.settings_ttl_seconds,
                        max: MAX_TTL_SECONDS,
                    },
                ));
            }
            return Ok(ResizePlan::Grow(GrowPlan {
                from,
                to,
                order: self.order,
                likes_before: self.likes_before,
                likes_after: self.likes_after,
                settings_ttl_seconds: self.settings_ttl_seconds,
            }));
        }
        let shard_likes = match &self.shard_likes {
            Some(v) => {
                if v.len() as u64 != from {
                    return Err(ParamError::new(
                        "resize.shard_likes",
                        Problem::ValuesPerShard {
                            got: v.len(),
                            want: from,
                        },
                    ));
                }
                if v.iter()
                    .any(|&x| x > crate::model::defaults::MAX_RESIZE_LIKES)
                {
                    return Err(ParamError::new(
                        "resize.shard_likes",
                        Problem::EachWholeAbove {
                            max: MAX_RESIZE_LIKES,
                        },
                    ));
                }
                v.clone()
            }
            None => default_shard_likes(from),
        };
        Ok(ResizePlan::Shrink(ShrinkPlan {
            from,
            to,
            fold: self.fold,
            read: self.read,
            step_order: self.step_order,
            shard_likes,
        }))
    }
}

/// Shard 1 holds 40; the other `from - 1` shards share 100 evenly with the
/// remainder on shard 0. Needs from >= 2.
pub fn default_shard_likes(from: u64) -> Vec<u64> {
    let others = from.saturating_sub(1).max(1);
    let each = 100 / others;
    let mut v = vec![each; from as usize];
    v[0] += 100 - each * others;
    if from >= 2 {
        v[1] = 40;
    }
    v
}

/// A validated resize.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResizePlan {
    /// from < to: read_shards and write_shards raised, one TTL apart.
    Grow(GrowPlan),
    /// from > to: write_shards lowered, then each old shard folded into
    /// its target.
    Shrink(ShrinkPlan),
}

mod grow;
mod shrink;

pub use grow::{GrowPlan, GrowReport, GrowRow};
pub use shrink::{ShrinkPlan, ShrinkReport, ShrinkRow};

#[cfg(test)]
mod tests;
