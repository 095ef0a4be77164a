//! How the monitor's settings change the outcome: the same time line run
//! over a grid of thresholds, windows and settings TTLs around the ones
//! configured, every run with the same seed.

use rayon::prelude::*;
use serde::Serialize;

use super::{monitor, run, TimelinePlan};
use crate::error::{ParamError, ParamResult, Problem};

/// One cell of a monitor grid: how threshold, window and TTL change the
/// writes rejected before the raise takes effect.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct MonitorGridRow {
    /// This cell's monitor threshold: likes/s, as the mean over the window.
    pub threshold: f64,
    /// This cell's rate window, seconds.
    pub window_seconds: u64,
    /// This cell's settings TTL, seconds (0: no cache).
    pub settings_ttl_seconds: u64,
    /// The second (1-based) at whose end the monitor decided the raise;
    /// None when the window's mean never reached the threshold.
    pub raise_decided_second: Option<u64>,
    /// First second in which every server writes over the new shards.
    pub all_servers_second: Option<u64>,
    /// Writes rejected before every server wrote over the new shards (all
    /// of the run's rejections when that never happened).
    pub rejected_before_raise: u64,
    /// Writes rejected over the whole run.
    pub rejected_writes: u64,
    /// rejected_writes / the run's writes (0 when there were no writes).
    pub rejected_share: f64,
}

/// Runs `plan` once per (threshold, window, TTL) combination, in that
/// nesting order, on rayon (each run is sequential and seeded the same, so
/// the rows do not depend on the thread count). `plan` must have a monitor.
pub fn monitor_grid(
    plan: &TimelinePlan,
    thresholds: &[f64],
    windows: &[u64],
    ttls: &[u64],
) -> ParamResult<Vec<MonitorGridRow>> {
    let base = plan
        .monitor
        .clone()
        .ok_or_else(|| ParamError::new("monitor", Problem::NoMonitorSection))?;
    let mut plans = Vec::new();
    for &threshold in thresholds {
        for &window_seconds in windows {
            for &ttl in ttls {
                let cfg = monitor::MonitorConfig {
                    threshold,
                    window_seconds,
                    target_shards: base.target_shards,
                    settings_ttl_seconds: ttl,
                    servers: Some(base.servers),
                    delay_seconds: base.delay_seconds,
                    order: base.order,
                };
                plans.push(plan.with_monitor(Some(cfg.validate(None)?))?);
            }
        }
    }
    Ok(plans
        .par_iter()
        .map(|p| {
            let r = run(p);
            let m = p.monitor.as_ref().expect("grid plans carry a monitor");
            MonitorGridRow {
                threshold: m.threshold,
                window_seconds: m.window_seconds,
                settings_ttl_seconds: m.settings_ttl_seconds,
                raise_decided_second: r.raise.as_ref().map(|s| s.decided_second),
                all_servers_second: r.raise.as_ref().map(|s| s.all_write_second),
                rejected_before_raise: r.rejected_before_raise,
                rejected_writes: r.rejected_writes,
                rejected_share: r.rejected_share,
            }
        })
        .collect())
}

/// The grid around the configured monitor: half, the same and double the
/// threshold and window; no cache, the TTL and double the TTL. `None`
/// without a monitor.
pub fn grid_around(plan: &TimelinePlan) -> ParamResult<Option<Vec<MonitorGridRow>>> {
    let Some(m) = &plan.monitor else {
        return Ok(None);
    };
    let thresholds = [m.threshold / 2.0, m.threshold, m.threshold * 2.0];
    let mut windows = vec![
        (m.window_seconds / 2).max(1),
        m.window_seconds,
        m.window_seconds * 2,
    ];
    windows.dedup();
    let mut ttls = vec![0, m.settings_ttl_seconds, m.settings_ttl_seconds * 2];
    ttls.dedup();
    monitor_grid(plan, &thresholds, &windows, &ttls).map(Some)
}
