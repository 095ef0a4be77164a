//! Each node's own figures, read from `INFO`: the CPU seconds its process
//! has used (`used_cpu_sys` + `used_cpu_user`) and the INCRs it has served
//! (`cmdstat_incr` in `INFO commandstats`), sampled before and after each
//! phase. A phase's figures are the differences.
//!
//! A node spends some CPU while idle (its cron, the cluster bus). Before the
//! load each node's idle rate is measured over a quiet interval
//! ([`MEASURE_IDLE_INTERVAL`]), and each phase's CPU has that rate times the
//! phase's seconds subtracted, clamped at 0, so the figures are the load's.

use std::time::Instant;

use anyhow::anyhow;
use redis::Connection;

use crate::model::defaults::MEASURE_IDLE_INTERVAL;

use super::cluster::Target;
use super::errors::describe;

/// One node's counters at one moment.
#[derive(Debug, Clone, Copy)]
struct NodeSample {
    /// When the reply came.
    at: Instant,
    /// `used_cpu_sys + used_cpu_user`, seconds; `None` if INFO does not say.
    cpu: Option<f64>,
    /// `cmdstat_incr` calls (0 before the first INCR).
    incr: Option<u64>,
}

/// Every node's counters at one moment, in [`Target::nodes`] order.
#[derive(Debug, Clone)]
pub(super) struct Sample(Vec<NodeSample>);

/// What one node did during one phase.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct NodeDelta {
    /// INCRs the node served (its own count; other clients' show too).
    pub(super) incr: Option<u64>,
    /// CPU seconds the node used, its idle baseline subtracted (at least 0).
    pub(super) cpu_seconds: Option<f64>,
}

/// A connection to every node for reading its INFO, and each node's idle
/// CPU rate.
pub(super) struct Probe {
    conns: Vec<Connection>,
    /// `host:port` of each node, for errors.
    addrs: Vec<String>,
    /// Idle CPU seconds per wall second, per node (0 where unknown).
    idle_rate: Vec<f64>,
    /// `--timeout`, for the words of an error.
    wait: std::time::Duration,
}

impl Probe {
    /// Connect to every node and measure its idle CPU rate over
    /// [`MEASURE_IDLE_INTERVAL`] (nothing of this run's load is running yet).
    pub(super) fn start(target: &Target, wait: std::time::Duration) -> anyhow::Result<Probe> {
        let conns = target
            .nodes
            .iter()
            .map(|n| target.node_connection(n))
            .collect::<anyhow::Result<Vec<_>>>()?;
        let addrs = target.nodes.iter().map(|n| n.addr.clone()).collect();
        let mut probe = Probe {
            idle_rate: vec![0.0; conns.len()],
            conns,
            addrs,
            wait,
        };
        let before = probe.sample()?;
        std::thread::sleep(MEASURE_IDLE_INTERVAL);
        let after = probe.sample()?;
        probe.idle_rate = before
            .0
            .iter()
            .zip(&after.0)
            .map(|(b, a)| match (b.cpu, a.cpu) {
                (Some(x), Some(y)) => {
                    let secs = (a.at - b.at).as_secs_f64().max(1e-9);
                    ((y - x) / secs).max(0.0)
                }
                _ => 0.0,
            })
            .collect();
        Ok(probe)
    }

    /// Each node's idle CPU rate (CPU seconds per second).
    pub(super) fn idle_rates(&self) -> &[f64] {
        &self.idle_rate
    }

    /// Read every node's counters. A node that cannot be reached is an
    /// error; a node that refuses INFO (a renamed command, an ACL) gives
    /// `None` figures.
    pub(super) fn sample(&mut self) -> anyhow::Result<Sample> {
        let mut out = Vec::with_capacity(self.conns.len());
        for (conn, addr) in self.conns.iter_mut().zip(&self.addrs) {
            let reply: redis::RedisResult<(String, String)> = redis::pipe()
                .cmd("INFO")
                .arg("cpu")
                .cmd("INFO")
                .arg("commandstats")
                .query(conn);
            let at = Instant::now();
            match reply {
                Ok((cpu, stats)) => out.push(NodeSample {
                    at,
                    cpu: parse_cpu(&cpu),
                    incr: Some(parse_incr_calls(&stats)),
                }),
                Err(e) if e.is_io_error() || e.is_connection_dropped() || e.is_timeout() => {
                    return Err(anyhow!(
                        "INFO on node {addr} failed: {}",
                        describe(&e, self.wait)
                    ));
                }
                Err(_) => out.push(NodeSample {
                    at,
                    cpu: None,
                    incr: None,
                }),
            }
        }
        Ok(Sample(out))
    }

    /// What each node did between `before` and `after`, the idle CPU rate
    /// times each node's own interval subtracted and clamped at 0.
    pub(super) fn delta(&self, before: &Sample, after: &Sample) -> Vec<NodeDelta> {
        before
            .0
            .iter()
            .zip(&after.0)
            .zip(&self.idle_rate)
            .map(|((b, a), rate)| {
                let secs = (a.at - b.at).as_secs_f64();
                NodeDelta {
                    incr: b.incr.zip(a.incr).map(|(x, y)| y.saturating_sub(x)),
                    cpu_seconds: b
                        .cpu
                        .zip(a.cpu)
                        .map(|(x, y)| (y - x - rate * secs).max(0.0)),
                }
            })
            .collect()
    }
}

/// `used_cpu_sys + used_cpu_user` from `INFO cpu`; `None` if either is
/// missing.
fn parse_cpu(info: &str) -> Option<f64> {
    let field = |name: &str| {
        info.lines()
            .find_map(|l| l.trim().strip_prefix(name)?.strip_prefix(':'))
            .and_then(|v| v.trim().parse::<f64>().ok())
    };
    Some(field("used_cpu_sys")? + field("used_cpu_user")?)
}

/// `cmdstat_incr:calls=N,...` from `INFO commandstats` (absent: 0 calls).
pub(super) fn parse_incr_calls(info: &str) -> u64 {
    info.lines()
        .find_map(|l| l.trim().strip_prefix("cmdstat_incr:calls="))
        .and_then(|rest| rest.split(',').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

/// Each value's share of their sum (all 0 when the sum is 0).
pub(super) fn shares(values: &[f64]) -> Vec<f64> {
    let total: f64 = values.iter().sum();
    values
        .iter()
        .map(|v| if total > 0.0 { v / total } else { 0.0 })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_is_sys_plus_user() {
        let info = "# CPU\r\nused_cpu_sys:1.250000\r\nused_cpu_user:0.500000\r\nused_cpu_sys_children:9.0\r\nused_cpu_sys_main_thread:1.0\r\n";
        assert_eq!(parse_cpu(info), Some(1.75));
        assert_eq!(parse_cpu("# CPU\r\nused_cpu_sys:1.0\r\n"), None);
    }

    #[test]
    fn incr_calls_from_commandstats() {
        let info = "# Commandstats\r\ncmdstat_get:calls=3,usec=1\r\ncmdstat_incr:calls=4711,usec=9,usec_per_call=0.1\r\n";
        assert_eq!(parse_incr_calls(info), 4711);
        assert_eq!(parse_incr_calls("# Commandstats\r\n"), 0);
    }

    #[test]
    fn shares_sum_to_one() {
        let s = shares(&[3.0, 1.0, 0.0]);
        assert_eq!(s, vec![0.75, 0.25, 0.0]);
        assert_eq!(shares(&[0.0, 0.0]), vec![0.0, 0.0]);
    }

    #[test]
    fn the_idle_rate_is_subtracted_and_clamped() {
        let t = Instant::now();
        let at = |ms| t + std::time::Duration::from_millis(ms);
        let s = |ms, cpu, incr| NodeSample {
            at: at(ms),
            cpu: Some(cpu),
            incr: Some(incr),
        };
        let probe = Probe {
            conns: Vec::new(),
            addrs: Vec::new(),
            idle_rate: vec![0.01, 0.01],
            wait: std::time::Duration::from_secs(1),
        };
        let before = Sample(vec![s(0, 1.0, 10), s(0, 2.0, 0)]);
        let after = Sample(vec![s(1000, 1.5, 110), s(1000, 2.005, 0)]);
        let d = probe.delta(&before, &after);
        assert!((d[0].cpu_seconds.unwrap() - 0.49).abs() < 1e-9);
        assert_eq!(d[0].incr, Some(100));
        assert_eq!(d[1].cpu_seconds, Some(0.0), "clamped at 0");
    }
}
