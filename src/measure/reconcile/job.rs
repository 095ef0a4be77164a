//! The reconcile job: count the reel's like rows, read the shards, add the
//! difference to one shard with one INCRBY (an increment, so likes landing
//! meanwhile are not overwritten).

use std::time::{Duration, Instant};

use anyhow::{anyhow, Context};
use postgres::Client;
use rand::RngExt;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::writers::Shared;
use super::{Job, REEL};
use crate::measure::conn::Conn;
use crate::measure::durability::pace;
use crate::measure::postgres::conn::describe;

/// The job's connections and its draw of the shard it corrects.
pub(super) struct Jobber {
    pub(super) pg: Client,
    pub(super) redis: Conn,
    pub(super) rng: Xoshiro256PlusPlus,
}

impl Jobber {
    /// The shards' values, by one MGET.
    pub(super) fn shards(&mut self, s: &Shared) -> anyhow::Result<Vec<i64>> {
        self.redis.mget(&s.shards)
    }

    /// One run of the job; `after_writes` for the final one.
    pub(super) fn run(&mut self, s: &Shared, after_writes: bool) -> anyhow::Result<Job> {
        let began = Instant::now();
        let before: i64 = self.shards(s)?.iter().sum();
        let rows: i64 = self
            .pg
            .query_one(
                &format!("SELECT count(*) FROM {} WHERE reel = $1", s.table),
                &[&REEL],
            )
            .map_err(|e| anyhow!("the job's count of the like rows: {}", describe(&e)))?
            .get(0);
        let counted: i64 = self.shards(s)?.iter().sum();
        let difference = rows - counted;
        let shard = (difference != 0).then(|| self.rng.random_range(0..s.shards.len()));
        if let Some(k) = shard {
            self.redis
                .command::<i64>(redis::cmd("INCRBY").arg(&s.shards[k]).arg(difference))
                .context("the job's INCRBY failed")?;
        }
        Ok(Job {
            at_seconds: began.saturating_duration_since(s.start).as_secs_f64(),
            after_writes,
            rows: rows as u64,
            counted,
            difference,
            shard: shard.map(|k| k as u64),
            landed: counted - before,
            seconds: began.elapsed().as_secs_f64(),
        })
    }

    /// The jobs during the writes: one every `every` from the start, while
    /// the writes go on.
    pub(super) fn during(&mut self, s: &Shared, every: Duration) -> anyhow::Result<Vec<Job>> {
        let mut jobs = Vec::new();
        for k in 1u32.. {
            let at = s.start + every * k;
            if at >= s.end {
                break;
            }
            while Instant::now() < at {
                if s.stopping() {
                    return Ok(jobs);
                }
                pace::sleep_until(at.min(Instant::now() + Duration::from_millis(20)));
            }
            jobs.push(self.run(s, false)?);
        }
        Ok(jobs)
    }
}
