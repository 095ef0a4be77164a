//! One connection to either kind of deployment, with the few commands a run
//! sends (INCR, GET, MGET, MSET); errors come back in words.

use anyhow::{anyhow, Context};
use redis::cluster::ClusterConnection;
use redis::Connection;
use std::time::Duration;

use super::errors::describe;

/// Most GETs in one pipeline of the read path.
pub(super) const GET_PIPELINE: usize = 10_000;

/// A connection to either kind of deployment, with the few operations the
/// run needs. Cluster pipelines are split per node by the client.
pub(super) struct Conn {
    link: Link,
    /// How long a reply may take (`--timeout`), for the words of an error.
    wait: Duration,
}

enum Link {
    Single(Connection),
    Cluster(Box<ClusterConnection>),
}

impl Conn {
    /// A standalone connection.
    pub(super) fn single(c: Connection, wait: Duration) -> Conn {
        Conn {
            link: Link::Single(c),
            wait,
        }
    }

    /// A cluster-routing connection.
    pub(super) fn cluster(c: ClusterConnection, wait: Duration) -> Conn {
        Conn {
            link: Link::Cluster(Box::new(c)),
            wait,
        }
    }

    /// Run `cmds` (each a command name and its arguments) as one pipeline;
    /// an error comes back in words ([`describe`]).
    pub(super) fn pipeline<T: redis::FromRedisValue>(
        &mut self,
        cmds: &[redis::Cmd],
    ) -> anyhow::Result<T> {
        self.raw_pipeline(cmds)
            .map_err(|e| anyhow!(describe(&e, self.wait)))
    }

    fn raw_pipeline<T: redis::FromRedisValue>(
        &mut self,
        cmds: &[redis::Cmd],
    ) -> redis::RedisResult<T> {
        match &mut self.link {
            Link::Single(c) => {
                let mut p = redis::pipe();
                for cmd in cmds {
                    p.add_command(cmd.clone());
                }
                p.query(c)
            }
            Link::Cluster(c) => {
                let mut p = redis::cluster::cluster_pipe();
                for cmd in cmds {
                    p.add_command(cmd.clone());
                }
                p.query(c)
            }
        }
    }

    /// Run one command; an error comes back in words ([`describe`]).
    pub(super) fn command<T: redis::FromRedisValue>(
        &mut self,
        cmd: &redis::Cmd,
    ) -> anyhow::Result<T> {
        self.raw_command(cmd)
            .map_err(|e| anyhow!(describe(&e, self.wait)))
    }

    fn raw_command<T: redis::FromRedisValue>(&mut self, cmd: &redis::Cmd) -> redis::RedisResult<T> {
        match &mut self.link {
            Link::Single(c) => cmd.query(c),
            Link::Cluster(c) => cmd.query(c.as_mut()),
        }
    }

    /// INCR `keys[i]` for each i in `batch`; one command or one pipeline.
    pub(super) fn incr(&mut self, keys: &[String], batch: &[usize]) -> anyhow::Result<()> {
        let result = if let [one] = batch {
            self.raw_command::<i64>(redis::cmd("INCR").arg(&keys[*one]))
                .map(|_| ())
        } else {
            let cmds: Vec<redis::Cmd> = batch
                .iter()
                .map(|&i| redis::cmd("INCR").arg(&keys[i]).clone())
                .collect();
            self.raw_pipeline::<Vec<i64>>(&cmds).map(|_| ())
        };
        result.map_err(|e| {
            let moved = redis::ErrorKind::Server(redis::ServerErrorKind::Moved);
            let hint = if e.kind() == moved {
                " (the server is a cluster node; pass --cluster)"
            } else {
                ""
            };
            anyhow!("INCR failed: {}{hint}", describe(&e, self.wait))
        })
    }

    /// Values of `keys` by pipelined GETs (missing keys read as 0), at
    /// most [`GET_PIPELINE`] to a pipeline so 100,000 shards do not build
    /// one 30 MB request.
    pub(super) fn get_values(&mut self, keys: &[String]) -> anyhow::Result<Vec<i64>> {
        let mut values = Vec::with_capacity(keys.len());
        for chunk in keys.chunks(GET_PIPELINE) {
            let cmds: Vec<redis::Cmd> = chunk
                .iter()
                .map(|k| redis::cmd("GET").arg(k).clone())
                .collect();
            let got: Vec<Option<i64>> = self
                .pipeline(&cmds)
                .context("GET of the shard keys failed")?;
            values.extend(got.into_iter().map(|v| v.unwrap_or(0)));
        }
        Ok(values)
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
}
