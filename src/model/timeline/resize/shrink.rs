//! A shrink: each old shard folded into its target, as two writes or one
//! transaction, and what readers see mid-fold.

use serde::Serialize;

use super::grow::ratio;
use super::{FoldMode, ReadMode, StepOrder};

/// A validated shrink (from > to), made by
/// [`ResizeConfig::validate`](super::ResizeConfig::validate).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShrinkPlan {
    /// Shards before the shrink; readers add up all of them throughout.
    pub from: u64,
    /// Shards after the shrink, below `from`: old shard k (0-based,
    /// to <= k < from) is folded into shard k mod to.
    pub to: u64,
    /// Whether a fold is two separate writes or one transaction.
    pub fold: FoldMode,
    /// How readers read the shards: batch or transactional.
    pub read: ReadMode,
    /// Which half of a fold lands first; a transactional read of a
    /// transactional fold never sees either half.
    pub step_order: StepOrder,
    /// Likes on each old shard before the folds, indexed by 0-based shard
    /// number: `from` values.
    pub shard_likes: Vec<u64>,
}

/// What a reader saw during a shrink.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct ShrinkReport {
    /// The plan's shards before the shrink.
    pub from: u64,
    /// The plan's shards after the shrink.
    pub to: u64,
    /// The plan's fold mode.
    pub fold: FoldMode,
    /// The plan's read mode.
    pub read: ReadMode,
    /// The plan's step order.
    pub step_order: StepOrder,
    /// Likes on all shards (the sum of `shard_likes`); folds move likes but
    /// never change it.
    pub true_total: u64,
    /// Old shards folded away: from - to.
    pub folds: u64,
    /// Reads taken: 1 + 2 x folds (one before the folds, then one mid-fold
    /// and one after each fold).
    pub reads: u64,
    /// Reads that showed a total other than the true one.
    pub wrong_reads: u64,
    /// Transactional reads cancelled by a running fold and retried.
    pub read_retries: u64,
    /// The lowest total any read showed (at most `true_total`).
    pub min_displayed_total: u64,
    /// The highest total any read showed (at least `true_total`).
    pub max_displayed_total: u64,
    /// min_displayed_total / true_total (1.0 when there are no likes).
    pub min_displayed_ratio: f64,
    /// max_displayed_total / true_total (1.0 when there are no likes).
    pub max_displayed_ratio: f64,
    /// The old shards' values after the folds (only the first `to` non-zero).
    #[serde(skip)]
    pub final_shards: Vec<u64>,
}

/// One read during a shrink.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct ShrinkRow {
    /// The read's number, 1-based: read 1 comes before any fold; folding
    /// old shard k gives reads 2 x (k - to) + 2 (mid-fold) and the one after
    /// it.
    pub read: u64,
    /// The old shard being folded (None for the read before any fold).
    pub folding_shard: Option<u64>,
    /// True for the read taken while the fold was half done.
    pub mid_fold: bool,
    /// The total this read showed: the sum of all `from` shards as read
    /// (after the retry, for a cancelled transactional read).
    pub displayed_total: u64,
    /// The true total, the same for every read of a shrink.
    pub true_total: u64,
}

impl ShrinkPlan {
    /// Runs the folds; `on_row` gets one row per read.
    pub fn run<E>(
        &self,
        mut on_row: impl FnMut(&ShrinkRow) -> Result<(), E>,
    ) -> Result<ShrinkReport, E> {
        let mut shards = self.shard_likes.clone();
        let truth: u64 = shards.iter().sum();
        let (mut lo, mut hi) = (truth, truth);
        let (mut reads, mut wrong, mut retries) = (0u64, 0u64, 0u64);
        let mut record = |row: ShrinkRow| {
            reads += 1;
            wrong += u64::from(row.displayed_total != row.true_total);
            lo = lo.min(row.displayed_total);
            hi = hi.max(row.displayed_total);
            on_row(&row)
        };
        record(ShrinkRow {
            read: 1,
            folding_shard: None,
            mid_fold: false,
            displayed_total: truth,
            true_total: truth,
        })?;
        for k in self.to..self.from {
            let target = (k % self.to) as usize;
            let v = shards[k as usize];
            let half_done = match self.step_order {
                StepOrder::AddFirst => truth + v,
                StepOrder::SubtractFirst => truth - v,
            };
            let seen = match (self.fold, self.read) {
                (FoldMode::Transaction, ReadMode::Transactional) => {
                    // Cancelled while the fold runs, retried after it commits.
                    retries += 1;
                    truth
                }
                _ => half_done,
            };
            let n = 2 * (k - self.to) + 2;
            record(ShrinkRow {
                read: n,
                folding_shard: Some(k),
                mid_fold: true,
                displayed_total: seen,
                true_total: truth,
            })?;
            shards[target] += v;
            shards[k as usize] = 0;
            record(ShrinkRow {
                read: n + 1,
                folding_shard: Some(k),
                mid_fold: false,
                displayed_total: shards.iter().sum(),
                true_total: truth,
            })?;
        }
        Ok(ShrinkReport {
            from: self.from,
            to: self.to,
            fold: self.fold,
            read: self.read,
            step_order: self.step_order,
            true_total: truth,
            folds: self.from - self.to,
            reads,
            wrong_reads: wrong,
            read_retries: retries,
            min_displayed_total: lo,
            max_displayed_total: hi,
            min_displayed_ratio: ratio(lo as f64, truth as f64),
            max_displayed_ratio: ratio(hi as f64, truth as f64),
            final_shards: shards,
        })
    }
}
