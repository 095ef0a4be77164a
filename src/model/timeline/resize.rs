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

use crate::error::{ParamError, ParamResult};
use crate::model::sampler::{chunk_rng, split_uniform};
use crate::model::validate;

/// The order of the two settings changes in a grow (and in a monitor raise).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, clap::ValueEnum,
)]
#[serde(rename_all = "kebab-case")]
pub enum ResizeOrder {
    /// Raise read_shards, wait a TTL, then raise write_shards (safe).
    #[default]
    ReadsFirst,
    /// Raise write_shards first (undercounts until readers catch up).
    WritesFirst,
}

/// How one old shard is folded into its target in a shrink.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, clap::ValueEnum,
)]
#[serde(rename_all = "kebab-case")]
pub enum FoldMode {
    /// Two separate writes: add to the target, subtract from the old shard.
    #[default]
    Separate,
    /// Both writes in one transaction (TransactWriteItems-like).
    Transaction,
}

/// How a reader reads the shards during a shrink.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, clap::ValueEnum,
)]
#[serde(rename_all = "kebab-case")]
pub enum ReadMode {
    /// A plain multi-item read (BatchGetItem-like).
    #[default]
    Batch,
    /// A transactional read (TransactGetItems-like), retried when cancelled.
    Transactional,
}

/// Which half of a fold lands first.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, clap::ValueEnum,
)]
#[serde(rename_all = "kebab-case")]
pub enum StepOrder {
    #[default]
    AddFirst,
    SubtractFirst,
}

/// The `[resize]` scenario section (and the `resize` command's flags).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResizeConfig {
    pub from: u64,
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

    pub fn validate(&self) -> ParamResult<ResizePlan> {
        let from = validate::count("resize.from", self.from, crate::model::defaults::MAX_SHARDS)?;
        let to = validate::count("resize.to", self.to, crate::model::defaults::MAX_SHARDS)?;
        if from == to {
            return Err(ParamError::other(
                "resize.to",
                format!("must differ from the shards before to grow or shrink (both are {from})"),
            ));
        }
        if from < to {
            for (what, v) in [
                ("resize.likes_before", self.likes_before),
                ("resize.likes_after", self.likes_after),
            ] {
                if v > crate::model::defaults::MAX_RESIZE_LIKES {
                    return Err(ParamError::other(
                        what,
                        format!("must be a whole number from 0 to {MAX_RESIZE_LIKES} (got {v})"),
                    ));
                }
            }
            if self.settings_ttl_seconds > crate::model::defaults::MAX_TTL_SECONDS {
                return Err(ParamError::other(
                    "resize.settings_ttl_seconds",
                    format!(
                        "must be a whole number of seconds from 0 to {MAX_TTL_SECONDS} (got {})",
                        self.settings_ttl_seconds
                    ),
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
                    return Err(ParamError::other(
                        "resize.shard_likes",
                        format!(
                            "must list one value per old shard: {from} values (got {})",
                            v.len()
                        ),
                    ));
                }
                if v.iter()
                    .any(|&x| x > crate::model::defaults::MAX_RESIZE_LIKES)
                {
                    return Err(ParamError::other(
                        "resize.shard_likes",
                        format!("each value must be a whole number from 0 to {MAX_RESIZE_LIKES}"),
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
    Grow(GrowPlan),
    Shrink(ShrinkPlan),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GrowPlan {
    pub from: u64,
    pub to: u64,
    pub order: ResizeOrder,
    pub likes_before: u64,
    pub likes_after: u64,
    pub settings_ttl_seconds: u64,
}

/// What the worst reader saw during a grow.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GrowReport {
    pub from: u64,
    pub to: u64,
    pub order: ResizeOrder,
    pub likes_before: u64,
    pub likes_after: u64,
    pub settings_ttl_seconds: u64,
    /// 2 x TTL: how long the worst reader can hold an old read_shards.
    pub stale_window_seconds: u64,
    /// None for the exact arithmetic, the seed for a simulation.
    pub seed: Option<u64>,
    pub true_total: u64,
    /// What the worst reader shows at the end of the window (expected value
    /// for the arithmetic, a whole number when simulated).
    pub displayed_total: f64,
    /// The arithmetic's value, for comparison with a simulation.
    pub expected_displayed_total: f64,
    pub min_displayed_ratio: f64,
    pub max_displayed_ratio: f64,
    /// Seconds of the window in which the reader showed less than the truth.
    pub undercount_seconds: u64,
}

/// One second of a simulated grow or one read of a shrink.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct GrowRow {
    pub second: u64,
    pub likes: u64,
    pub displayed_total: u64,
    pub true_total: u64,
}

fn ratio(displayed: f64, truth: f64) -> f64 {
    if truth == 0.0 {
        1.0
    } else {
        displayed / truth
    }
}

impl GrowPlan {
    pub fn stale_window_seconds(&self) -> u64 {
        2 * self.settings_ttl_seconds
    }

    /// Likes arriving in second k (1-based) of the window: round(L k / W) -
    /// round(L (k - 1) / W), half up, in integers.
    fn likes_in(&self, k: u64) -> u64 {
        let w = self.stale_window_seconds() as u128;
        let l = self.likes_after as u128;
        let upto = |k: u128| (2 * l * k + w) / (2 * w);
        (upto(k as u128) - upto(k as u128 - 1)) as u64
    }

    fn stale(&self) -> bool {
        self.order == ResizeOrder::WritesFirst && self.settings_ttl_seconds > 0
    }

    /// The exact expected figures (no randomness).
    pub fn expected(&self) -> GrowReport {
        let w = self.stale_window_seconds();
        let truth = self.likes_before + self.likes_after;
        let seen_share = if self.stale() {
            self.from as f64 / self.to as f64
        } else {
            1.0
        };
        let displayed = self.likes_before as f64 + self.likes_after as f64 * seen_share;
        let (mut min_r, mut max_r, mut under) = (1.0f64, 0.0f64, 0);
        let mut cum = 0u64;
        for k in 1..=w {
            cum += self.likes_in(k);
            let t = (self.likes_before + cum) as f64;
            let d = self.likes_before as f64 + cum as f64 * seen_share;
            let r = ratio(d, t);
            min_r = min_r.min(r);
            max_r = max_r.max(r);
            under += u64::from(d < t);
        }
        if w == 0 {
            max_r = 1.0;
        }
        GrowReport {
            from: self.from,
            to: self.to,
            order: self.order,
            likes_before: self.likes_before,
            likes_after: self.likes_after,
            settings_ttl_seconds: self.settings_ttl_seconds,
            stale_window_seconds: w,
            seed: None,
            true_total: truth,
            displayed_total: displayed,
            expected_displayed_total: displayed,
            min_displayed_ratio: min_r,
            max_displayed_ratio: max_r,
            undercount_seconds: under,
        }
    }

    /// A seeded run with each like going to a uniformly random shard;
    /// `on_row` gets one row per second of the window.
    pub fn simulate<E>(
        &self,
        seed: u64,
        mut on_row: impl FnMut(&GrowRow) -> Result<(), E>,
    ) -> Result<GrowReport, E> {
        let mut rng = chunk_rng(seed, 0);
        let mut shards = vec![0u64; self.to as usize];
        split_uniform(
            &mut rng,
            self.likes_before,
            &mut shards[..self.from as usize],
        );
        let mut scratch = vec![0u64; self.to as usize];
        let w = self.stale_window_seconds();
        let stale = self.stale();
        let (mut min_r, mut max_r, mut under) = (1.0f64, 0.0f64, 0);
        let mut displayed = self.likes_before;
        for k in 1..=w {
            let likes = self.likes_in(k);
            // reads-first: writers keep the old shards for the first TTL.
            let writing = if !stale && k <= self.settings_ttl_seconds {
                self.from
            } else {
                self.to
            };
            let part = &mut scratch[..writing as usize];
            split_uniform(&mut rng, likes, part);
            for (s, add) in shards.iter_mut().zip(part.iter()) {
                *s += add;
            }
            let truth: u64 = shards.iter().sum();
            let read = if stale { self.from } else { self.to } as usize;
            displayed = shards[..read].iter().sum();
            let r = ratio(displayed as f64, truth as f64);
            min_r = min_r.min(r);
            max_r = max_r.max(r);
            under += u64::from(displayed < truth);
            on_row(&GrowRow {
                second: k,
                likes,
                displayed_total: displayed,
                true_total: truth,
            })?;
        }
        let mut report = self.expected();
        if w > 0 {
            report.displayed_total = displayed as f64;
            report.min_displayed_ratio = min_r;
            report.max_displayed_ratio = max_r;
            report.undercount_seconds = under;
        }
        report.seed = Some(seed);
        Ok(report)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShrinkPlan {
    pub from: u64,
    pub to: u64,
    pub fold: FoldMode,
    pub read: ReadMode,
    pub step_order: StepOrder,
    pub shard_likes: Vec<u64>,
}

/// What a reader saw during a shrink.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ShrinkReport {
    pub from: u64,
    pub to: u64,
    pub fold: FoldMode,
    pub read: ReadMode,
    pub step_order: StepOrder,
    pub true_total: u64,
    pub folds: u64,
    pub reads: u64,
    /// Reads that showed a total other than the true one.
    pub wrong_reads: u64,
    /// Transactional reads cancelled by a running fold and retried.
    pub read_retries: u64,
    pub min_displayed_total: u64,
    pub max_displayed_total: u64,
    pub min_displayed_ratio: f64,
    pub max_displayed_ratio: f64,
    /// The old shards' values after the folds (only the first `to` non-zero).
    #[serde(skip)]
    pub final_shards: Vec<u64>,
}

/// One read during a shrink.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ShrinkRow {
    pub read: u64,
    /// The old shard being folded (None for the read before any fold).
    pub folding_shard: Option<u64>,
    /// True for the read taken while the fold was half done.
    pub mid_fold: bool,
    pub displayed_total: u64,
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::convert::Infallible;

    fn grow(order: ResizeOrder) -> GrowPlan {
        let mut c = ResizeConfig::new(1, 20);
        c.order = order;
        match c.validate().unwrap() {
            ResizePlan::Grow(g) => g,
            other => panic!("not a grow: {other:?}"),
        }
    }

    fn shrink(fold: FoldMode, read: ReadMode, step_order: StepOrder) -> ShrinkPlan {
        let mut c = ResizeConfig::new(20, 1);
        c.fold = fold;
        c.read = read;
        c.step_order = step_order;
        match c.validate().unwrap() {
            ResizePlan::Shrink(s) => s,
            other => panic!("not a shrink: {other:?}"),
        }
    }

    #[test]
    fn grow_writes_first_shows_550_of_1500() {
        let r = grow(ResizeOrder::WritesFirst).expected();
        assert_eq!(r.true_total, 1500);
        // 500 + 1,000 / 20 = 550.
        assert_eq!(r.displayed_total, 550.0);
        assert_eq!(r.min_displayed_ratio, 550.0 / 1500.0);
        // Second 1 gets round(1000 / 120) = 8 likes: (500 + 8/20) / 508.
        assert_eq!(r.max_displayed_ratio, 500.4 / 508.0);
        assert_eq!((r.stale_window_seconds, r.undercount_seconds), (120, 120));
    }

    #[test]
    fn grow_reads_first_never_undercounts() {
        let r = grow(ResizeOrder::ReadsFirst).expected();
        assert_eq!(r.displayed_total, 1500.0);
        assert_eq!((r.min_displayed_ratio, r.max_displayed_ratio), (1.0, 1.0));
        assert_eq!(r.undercount_seconds, 0);
        let s = grow(ResizeOrder::ReadsFirst)
            .simulate(3, |_| Ok::<(), Infallible>(()))
            .unwrap();
        assert_eq!((s.min_displayed_ratio, s.max_displayed_ratio), (1.0, 1.0));
        assert_eq!(s.undercount_seconds, 0);
    }

    #[test]
    fn grow_simulation_gives_about_550() {
        // The stale reader sees 500 + Binomial(1000, 1/20): sd
        // sqrt(1000 x 0.05 x 0.95) = 6.9; allow 5 sd.
        let mut rows = 0;
        let mut last = None;
        let r = grow(ResizeOrder::WritesFirst)
            .simulate(42, |row| {
                rows += 1;
                last = Some(*row);
                Ok::<(), Infallible>(())
            })
            .unwrap();
        assert_eq!(rows, 120);
        let last = last.unwrap();
        assert_eq!(last.true_total, 1500);
        assert_eq!(r.displayed_total, last.displayed_total as f64);
        assert!(
            (r.displayed_total - 550.0).abs() < 5.0 * 6.9,
            "{}",
            r.displayed_total
        );
        assert_eq!(r.expected_displayed_total, 550.0);
        assert_eq!(r.seed, Some(42));
        // Same seed, same run.
        let again = grow(ResizeOrder::WritesFirst)
            .simulate(42, |_| Ok::<(), Infallible>(()))
            .unwrap();
        assert_eq!(r, again);
    }

    #[test]
    fn grow_with_no_cache_is_safe_either_way() {
        let mut c = ResizeConfig::new(1, 20);
        c.order = ResizeOrder::WritesFirst;
        c.settings_ttl_seconds = 0;
        let ResizePlan::Grow(g) = c.validate().unwrap() else {
            panic!()
        };
        let r = g.expected();
        assert_eq!((r.min_displayed_ratio, r.undercount_seconds), (1.0, 0));
    }

    #[test]
    fn default_shard_layout() {
        let v = default_shard_likes(20);
        assert_eq!(v[0], 10);
        assert_eq!(v[1], 40);
        assert!(v[2..].iter().all(|&x| x == 5));
        assert_eq!(v.iter().sum::<u64>(), 140);
        assert_eq!(default_shard_likes(2), vec![100, 40]);
    }

    fn run(p: &ShrinkPlan) -> ShrinkReport {
        p.run(|_| Ok::<(), Infallible>(())).unwrap()
    }

    #[test]
    fn separate_fold_blips_both_ways() {
        let add = run(&shrink(
            FoldMode::Separate,
            ReadMode::Batch,
            StepOrder::AddFirst,
        ));
        assert_eq!(
            (add.min_displayed_total, add.max_displayed_total),
            (140, 180)
        );
        assert_eq!(add.max_displayed_ratio, 180.0 / 140.0);
        assert_eq!(add.min_displayed_ratio, 1.0);
        // 19 folds: 1 + 38 reads, each half-done read is wrong.
        assert_eq!((add.folds, add.reads, add.wrong_reads), (19, 39, 19));
        assert_eq!(add.final_shards[0], 140);
        assert!(add.final_shards[1..].iter().all(|&x| x == 0));
        let sub = run(&shrink(
            FoldMode::Separate,
            ReadMode::Transactional,
            StepOrder::SubtractFirst,
        ));
        assert_eq!(
            (sub.min_displayed_total, sub.max_displayed_total),
            (100, 140)
        );
        assert_eq!(sub.min_displayed_ratio, 100.0 / 140.0);
        assert_eq!(sub.read_retries, 0);
    }

    #[test]
    fn transaction_needs_a_transactional_read() {
        let batch = run(&shrink(
            FoldMode::Transaction,
            ReadMode::Batch,
            StepOrder::AddFirst,
        ));
        assert_eq!(batch.max_displayed_total, 180);
        let tx = run(&shrink(
            FoldMode::Transaction,
            ReadMode::Transactional,
            StepOrder::AddFirst,
        ));
        assert_eq!((tx.min_displayed_ratio, tx.max_displayed_ratio), (1.0, 1.0));
        assert_eq!((tx.wrong_reads, tx.read_retries), (0, 19));
    }

    #[test]
    fn shrink_to_several_shards_folds_modulo() {
        let mut c = ResizeConfig::new(4, 2);
        c.shard_likes = Some(vec![1, 2, 3, 4]);
        let ResizePlan::Shrink(s) = c.validate().unwrap() else {
            panic!()
        };
        let r = run(&s);
        assert_eq!(r.final_shards, vec![4, 6, 0, 0]);
        assert_eq!(r.max_displayed_total, 14);
    }

    #[test]
    fn validation_names_the_flag() {
        assert_eq!(
            ResizeConfig::new(5, 5).validate().unwrap_err().param,
            "resize.to"
        );
        assert_eq!(
            ResizeConfig::new(0, 5).validate().unwrap_err().param,
            "resize.from"
        );
        let mut c = ResizeConfig::new(20, 1);
        c.shard_likes = Some(vec![1, 2]);
        assert_eq!(c.validate().unwrap_err().param, "resize.shard_likes");
        let t: ResizeConfig =
            toml::from_str("from = 20\nto = 1\nfold = \"transaction\"\nread = \"transactional\"")
                .unwrap();
        assert_eq!(
            (t.fold, t.read),
            (FoldMode::Transaction, ReadMode::Transactional)
        );
        let t: ResizeConfig =
            toml::from_str("from = 1\nto = 20\norder = \"writes-first\"").unwrap();
        assert_eq!(t.order, ResizeOrder::WritesFirst);
        assert!(toml::from_str::<ResizeConfig>("from = 1\nto = 2\nttl = 3").is_err());
    }
}
