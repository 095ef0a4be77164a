//! The hot-key monitor and the likes servers' settings caches.
//!
//! Every reel starts with few shards (1 by default). The monitor measures
//! the like rate as the mean of the last `window_seconds` seconds' likes
//! (seconds before the run count as 0 likes: the reel is new) and, at the
//! end of the first second t where that mean is at or above `threshold`,
//! decides to raise the reel to `target_shards`. The new settings are
//! stored at the start of second e = t + 1 + delay_seconds.
//!
//! The raise follows the design's rule "readers never sum fewer shards than
//! any writer uses" when `order = reads-first`: read_shards is stored at e
//! and write_shards one TTL later, at e + TTL, when every cache holding the
//! old read_shards has expired. `writes-first` swaps the two (the unsafe
//! order, kept to show the undercount).
//!
//! Each likes server caches the settings and refreshes them every TTL
//! seconds at its own phase: server i (0-based, of n) refreshes at the start
//! of every second s >= 1 with (s - 1) mod TTL = floor(i x TTL / n), so
//! the phases spread evenly over the TTL. A TTL of 0 means no cache.

use crate::model::defaults::MAX_MONITOR_SECONDS;
use serde::{Deserialize, Serialize};

use super::resize::ResizeOrder;
use crate::error::{ParamError, ParamResult, Problem};
use crate::model::validate;

/// The `[monitor]` scenario section.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MonitorConfig {
    /// Likes/s (mean over the window) that trigger the raise. Default 300.
    #[serde(default = "default_threshold")]
    pub threshold: f64,
    /// Default 60.
    #[serde(default = "default_window")]
    pub window_seconds: u64,
    /// Default 20.
    #[serde(default = "default_target")]
    pub target_shards: u64,
    /// How long each likes server caches the shard settings. Default 60.
    #[serde(default = "default_ttl")]
    pub settings_ttl_seconds: u64,
    /// Likes servers; when absent the scenario's top-level `servers`, else 40.
    #[serde(default)]
    pub servers: Option<u64>,
    /// Seconds between the monitor's decision and the settings write. Default 0.
    #[serde(default)]
    pub delay_seconds: u64,
    /// Default reads-first.
    #[serde(default)]
    pub order: ResizeOrder,
}

fn default_threshold() -> f64 {
    crate::model::defaults::DEFAULT_THRESHOLD
}
fn default_window() -> u64 {
    crate::model::defaults::DEFAULT_WINDOW_SECONDS
}
fn default_target() -> u64 {
    crate::model::defaults::DEFAULT_TARGET_SHARDS
}
fn default_ttl() -> u64 {
    crate::model::defaults::DEFAULT_SETTINGS_TTL_SECONDS
}

impl Default for MonitorConfig {
    fn default() -> Self {
        MonitorConfig {
            threshold: crate::model::defaults::DEFAULT_THRESHOLD,
            window_seconds: crate::model::defaults::DEFAULT_WINDOW_SECONDS,
            target_shards: crate::model::defaults::DEFAULT_TARGET_SHARDS,
            settings_ttl_seconds: crate::model::defaults::DEFAULT_SETTINGS_TTL_SECONDS,
            servers: None,
            delay_seconds: 0,
            order: ResizeOrder::ReadsFirst,
        }
    }
}

/// A validated monitor.
///
/// Made by [`MonitorConfig::validate`]; the fields mean what the
/// `[monitor]` section's do, with every default and `servers` resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct Monitor {
    /// Likes/s, as the mean over the window, at or above which the monitor
    /// decides the raise: positive, at most
    /// [`MAX_RATE`](crate::model::defaults::MAX_RATE).
    pub threshold: f64,
    /// Seconds of likes the rate window averages: 1 to
    /// [`MAX_MONITOR_SECONDS`].
    pub window_seconds: u64,
    /// Shards the raise sets read_shards and write_shards to: 1 to
    /// [`MAX_SHARDS`](crate::model::defaults::MAX_SHARDS), and a
    /// [`TimelinePlan`](super::TimelinePlan) needs it above its
    /// `start_shards`.
    pub target_shards: u64,
    /// Seconds each likes server caches the shard settings, 0 to
    /// [`MAX_MONITOR_SECONDS`] (0: no cache); also the wait between the
    /// raise's two settings writes.
    pub settings_ttl_seconds: u64,
    /// Likes servers, each with its own settings cache: 1 to
    /// [`MAX_SERVERS`](crate::model::defaults::MAX_SERVERS).
    pub servers: u64,
    /// Seconds between the monitor's decision and the first settings write:
    /// 0 to [`MAX_MONITOR_SECONDS`].
    pub delay_seconds: u64,
    /// Which of read_shards and write_shards the raise stores first.
    pub order: ResizeOrder,
}

impl MonitorConfig {
    /// Checks the section and resolves `servers`: this section's value, else
    /// `default_servers`, else
    /// [`DEFAULT_SERVERS`](crate::model::defaults::DEFAULT_SERVERS) (40).
    /// The limits are those listed on [`Monitor`]'s fields; the error names
    /// the field, e.g. `monitor.threshold`.
    ///
    /// `default_servers` is the scenario's top-level `servers` (or 40).
    pub fn validate(&self, default_servers: Option<u64>) -> ParamResult<Monitor> {
        let threshold = validate::rate("monitor.threshold", self.threshold)?;
        let window_seconds = validate::count(
            "monitor.window_seconds",
            self.window_seconds,
            crate::model::defaults::MAX_MONITOR_SECONDS,
        )?;
        let target_shards = validate::count(
            "monitor.target_shards",
            self.target_shards,
            crate::model::defaults::MAX_SHARDS,
        )?;
        if self.settings_ttl_seconds > crate::model::defaults::MAX_MONITOR_SECONDS {
            return Err(ParamError::new(
                "monitor.settings_ttl_seconds",
                Problem::SecondsOutside {
                    got: self.settings_ttl_seconds,
                    max: MAX_MONITOR_SECONDS,
                },
            ));
        }
        if self.delay_seconds > crate::model::defaults::MAX_MONITOR_SECONDS {
            return Err(ParamError::new(
                "monitor.delay_seconds",
                Problem::SecondsOutside {
                    got: self.delay_seconds,
                    max: MAX_MONITOR_SECONDS,
                },
            ));
        }
        let servers = validate::count(
            "monitor.servers",
            self.servers
                .or(default_servers)
                .unwrap_or(crate::model::defaults::DEFAULT_SERVERS),
            crate::model::defaults::MAX_SERVERS,
        )?;
        Ok(Monitor {
            threshold,
            window_seconds,
            target_shards,
            settings_ttl_seconds: self.settings_ttl_seconds,
            servers,
            delay_seconds: self.delay_seconds,
            order: self.order,
        })
    }
}

/// The likes servers' cache refresh phases.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettingsCaches {
    ttl: u64,
    /// Server i's refresh phase, floor(i x TTL / n), in 0..TTL.
    phases: Vec<u64>,
}

impl SettingsCaches {
    /// Caches for `servers` likes servers, each refreshing every `ttl`
    /// seconds at its own phase: server i at floor(i x ttl / servers). A
    /// `ttl` of 0 means no cache: every server sees new settings in the
    /// second they are stored.
    pub fn new(servers: u64, ttl: u64) -> Self {
        let phases = (0..servers)
            .map(|i| {
                if ttl == 0 {
                    0
                } else {
                    (i as u128 * ttl as u128 / servers as u128) as u64
                }
            })
            .collect();
        SettingsCaches { ttl, phases }
    }

    /// The number of likes servers.
    pub fn servers(&self) -> u64 {
        self.phases.len() as u64
    }

    /// The first second (1-based) in which `server` uses settings stored at
    /// the start of second `stored` (>= 1): its first refresh at or after it.
    pub fn pickup(&self, server: usize, stored: u64) -> u64 {
        if self.ttl == 0 {
            return stored;
        }
        let now = (stored - 1) % self.ttl;
        stored + (self.phases[server] + self.ttl - now) % self.ttl
    }

    /// Every server's pickup second, sorted.
    pub fn pickups(&self, stored: u64) -> Vec<u64> {
        let mut v: Vec<u64> = (0..self.phases.len())
            .map(|i| self.pickup(i, stored))
            .collect();
        v.sort_unstable();
        v
    }
}

/// When a raise happened and when each server saw it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct RaiseSchedule {
    /// The second at whose end the monitor saw the threshold crossed.
    pub decided_second: u64,
    /// The second from whose start the store holds the new read_shards.
    pub read_shards_stored: u64,
    /// The second from whose start the store holds the new write_shards.
    pub write_shards_stored: u64,
    /// First second in which every server reads the new read_shards.
    pub all_read_second: u64,
    /// First second in which every server writes over the new write_shards.
    pub all_write_second: u64,
    #[serde(skip)]
    read_pickups: Vec<u64>,
    #[serde(skip)]
    write_pickups: Vec<u64>,
}

impl RaiseSchedule {
    /// The raise the monitor decided at the end of second `decided_second`
    /// (1-based). The first setting is stored at the start of second
    /// e = decided_second + 1 + `delay_seconds` and the other one TTL later,
    /// at e + `settings_ttl_seconds`: read_shards first for reads-first,
    /// write_shards first for writes-first. Each server picks each one up
    /// at its next refresh in `caches`, which should hold the monitor's
    /// servers and TTL.
    pub fn new(monitor: &Monitor, caches: &SettingsCaches, decided_second: u64) -> Self {
        let e = decided_second + 1 + monitor.delay_seconds;
        let later = e + monitor.settings_ttl_seconds;
        let (read_at, write_at) = match monitor.order {
            ResizeOrder::ReadsFirst => (e, later),
            ResizeOrder::WritesFirst => (later, e),
        };
        let read_pickups = caches.pickups(read_at);
        let write_pickups = caches.pickups(write_at);
        RaiseSchedule {
            decided_second,
            read_shards_stored: read_at,
            write_shards_stored: write_at,
            all_read_second: *read_pickups.last().unwrap_or(&read_at),
            all_write_second: *write_pickups.last().unwrap_or(&write_at),
            read_pickups,
            write_pickups,
        }
    }

    /// Servers reading the new read_shards in second `s`.
    pub fn readers_on_new(&self, s: u64) -> u64 {
        self.read_pickups.partition_point(|&p| p <= s) as u64
    }

    /// Servers writing over the new write_shards in second `s`.
    pub fn writers_on_new(&self, s: u64) -> u64 {
        self.write_pickups.partition_point(|&p| p <= s) as u64
    }
}

/// The sliding-window rate meter.
#[derive(Debug, Clone)]
pub struct RateWindow {
    likes: Vec<u64>,
    next: usize,
    sum: u128,
}

impl RateWindow {
    /// A meter over the last `window_seconds` seconds, all 0 likes at first
    /// (the reel is new), so the mean ramps up over the first window.
    /// `window_seconds` must be at least 1: [`RateWindow::push`] panics on
    /// an empty window.
    pub fn new(window_seconds: u64) -> Self {
        RateWindow {
            likes: vec![0; window_seconds as usize],
            next: 0,
            sum: 0,
        }
    }

    /// Records one second and returns the mean over the window.
    pub fn push(&mut self, likes: u64) -> f64 {
        self.sum = self.sum + likes as u128 - self.likes[self.next] as u128;
        self.likes[self.next] = likes;
        self.next = (self.next + 1) % self.likes.len();
        self.sum as f64 / self.likes.len() as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phases_spread_evenly() {
        let c = SettingsCaches::new(4, 60);
        assert_eq!(c.phases, vec![0, 15, 30, 45]);
        // Stored at the start of second 11 (phase 10): server 0 (phase 0)
        // next refreshes at phase 0 of the next cycle, second 61.
        assert_eq!(c.pickup(0, 11), 61);
        assert_eq!(c.pickup(1, 11), 16);
        assert_eq!(c.pickup(2, 11), 31);
        assert_eq!(c.pickup(3, 11), 46);
        // A server refreshing right at the store picks it up at once.
        assert_eq!(c.pickup(1, 16), 16);
        assert_eq!(c.pickups(11), vec![16, 31, 46, 61]);
        assert_eq!(SettingsCaches::new(3, 0).pickups(7), vec![7, 7, 7]);
    }

    #[test]
    fn schedule_orders_reads_and_writes() {
        let m = MonitorConfig::default().validate(Some(4)).unwrap();
        let c = SettingsCaches::new(4, 60);
        let s = RaiseSchedule::new(&m, &c, 10);
        assert_eq!((s.read_shards_stored, s.write_shards_stored), (11, 71));
        assert_eq!((s.all_read_second, s.all_write_second), (61, 121));
        assert_eq!(s.readers_on_new(15), 0);
        assert_eq!(s.readers_on_new(16), 1);
        assert_eq!(s.readers_on_new(61), 4);
        assert_eq!(s.writers_on_new(75), 0);
        assert_eq!(s.writers_on_new(76), 1);
    }

    #[test]
    fn window_mean() {
        let mut w = RateWindow::new(3);
        assert_eq!(w.push(300), 100.0);
        assert_eq!(w.push(300), 200.0);
        assert_eq!(w.push(300), 300.0);
        assert_eq!(w.push(0), 200.0);
    }

    #[test]
    fn validates_fields() {
        let bad = MonitorConfig {
            threshold: 0.0,
            ..MonitorConfig::default()
        };
        assert_eq!(bad.validate(None).unwrap_err().param, "monitor.threshold");
        let bad = MonitorConfig {
            window_seconds: 0,
            ..MonitorConfig::default()
        };
        assert_eq!(
            bad.validate(None).unwrap_err().param,
            "monitor.window_seconds"
        );
        let m: MonitorConfig = toml::from_str("threshold = 500\norder = \"writes-first\"").unwrap();
        let m = m.validate(None).unwrap();
        assert_eq!(
            (m.threshold, m.servers, m.order),
            (500.0, 40, ResizeOrder::WritesFirst)
        );
        assert!(toml::from_str::<MonitorConfig>("ttl = 5").is_err());
    }
}
