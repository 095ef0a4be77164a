//! One connection to either kind of deployment, with the few commands a run
//! sends (INCR, GET, MGET, MSET, EXISTS, DEL).

use anyhow::{anyhow, Context};
use redis::cluster::ClusterConnection;
use redis::Connection;

/// A connection to either kind of deployment, with the few operations the
/// run needs. Cluster pipelines are split per node by the client.
pub(super) enum Conn {
    Single(Connection),
    Cluster(Box<ClusterConnection>),
}

impl Conn {
    /// Run `cmds` (each a command name and its arguments) as one pipeline.
    pub(super) fn pipeline<T: redis::FromRedisValue>(
        &mut self,
        cmds: &[redis::Cmd],
    ) -> redis::RedisResult<T> {
        match self {
            Conn::Single(c) => {
                let mut p = redis::pipe();
                for cmd in cmds {
                    p.add_command(cmd.clone());
                }
                p.query(c)
            }
            Conn::Cluster(c) => {
                let mut p = redis::cluster::cluster_pipe();
                for cmd in cmds {
                    p.add_command(cmd.clone());
                }
                p.query(c)
            }
        }
    }

    /// Run one command.
    pub(super) fn command<T: redis::FromRedisValue>(
        &mut self,
        cmd: &redis::Cmd,
    ) -> redis::RedisResult<T> {
        match self {
            Conn::Single(c) => cmd.query(c),
            Conn::Cluster(c) => cmd.query(c.as_mut()),
        }
    }

    /// INCR `keys[i]` for each i in `batch`; one command or one pipeline.
    pub(super) fn incr(&mut self, keys: &[String], batch: &[usize]) -> anyhow::Result<()> {
        let result = if let [one] = batch {
            self.command::<i64>(redis::cmd("INCR").arg(&keys[*one]))
                .map(|_| ())
        } else {
            let cmds: Vec<redis::Cmd> = batch
                .iter()
                .map(|&i| redis::cmd("INCR").arg(&keys[i]).clone())
                .collect();
            self.pipeline::<Vec<i64>>(&cmds).map(|_| ())
        };
        result.map_err(|e| {
            let hint = if e.to_string().contains("MOVED") {
                " (the server is a cluster node; pass --cluster)"
            } else {
                ""
            };
            anyhow!("INCR failed: {e}{hint}")
        })
    }

    /// Values of `keys` by pipelined GETs (missing keys read as 0).
    pub(super) fn get_values(&mut self, keys: &[String]) -> anyhow::Result<Vec<i64>> {
        let cmds: Vec<redis::Cmd> = keys
            .iter()
            .map(|k| redis::cmd("GET").arg(k).clone())
            .collect();
        let got: Vec<Option<i64>> = self
            .pipeline(&cmds)
            .context("GET of the shard keys failed")?;
        Ok(got.into_iter().map(|v| v.unwrap_or(0)).collect())
    }

    /// One MGET of `keys` (all in one slot on a cluster).
    pub(super) fn mget(&mut self, keys: &[String]) -> anyhow::Result<Vec<i64>> {
        let got: Vec<Option<i64>> = self
            .command(redis::cmd("MGET").arg(keys))
            .context("MGET failed")?;
        Ok(got.into_iter().map(|v| v.unwrap_or(0)).collect())
    }

    /// One MSET of `keys` to `values` (all in one slot on a cluster).
    pub(super) fn mset(&mut self, keys: &[String], values: &[i64]) -> anyhow::Result<()> {
        let mut cmd = redis::cmd("MSET");
        for (k, v) in keys.iter().zip(values) {
            cmd.arg(k).arg(*v);
        }
        self.command::<()>(&cmd)
            .context("MSET of the same-slot copy failed")
    }

    /// How many of `keys` exist, and the first one that does.
    pub(super) fn count_existing(
        &mut self,
        keys: &[String],
    ) -> anyhow::Result<(u64, Option<String>)> {
        let cmds: Vec<redis::Cmd> = keys
            .iter()
            .map(|k| redis::cmd("EXISTS").arg(k).clone())
            .collect();
        let got: Vec<u64> = self.pipeline(&cmds)?;
        let first = keys
            .iter()
            .zip(&got)
            .find(|(_, &n)| n > 0)
            .map(|(k, _)| k.clone());
        Ok((got.iter().sum(), first))
    }

    /// Delete `keys` (none: nothing is sent).
    pub(super) fn del(&mut self, keys: &[String]) -> anyhow::Result<()> {
        if keys.is_empty() {
            return Ok(());
        }
        let cmds: Vec<redis::Cmd> = keys
            .iter()
            .map(|k| redis::cmd("DEL").arg(k).clone())
            .collect();
        self.pipeline::<Vec<u64>>(&cmds)?;
        Ok(())
    }
}
