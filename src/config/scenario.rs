//! Scenarios: TOML files of named inputs. The bundled ones are compiled into
//! the binary (`--scenario viral-reel` works from any folder); a path loads a
//! file. Unknown fields are errors that name the field. Flags override.

use std::path::Path;

use serde::Deserialize;

use crate::error::{InputError, InputResult};
use crate::model::store::Store;
use crate::model::timeline::bucket::StoreConfig;
use crate::model::timeline::curve::CurveConfig;
use crate::model::timeline::monitor::MonitorConfig;
use crate::model::timeline::resize::ResizeConfig;
use crate::model::traffic::TrafficModel;

/// The scenario used when none is named.
pub const DEFAULT: &str = "viral-reel";

/// The bundled scenarios: (name, TOML text).
pub const BUNDLED: &[(&str, &str)] = &[
    (
        "viral-reel",
        include_str!("../../scenarios/viral-reel.toml"),
    ),
    ("overload", include_str!("../../scenarios/overload.toml")),
    ("interview", include_str!("../../scenarios/interview.toml")),
    (
        "quiet-reel",
        include_str!("../../scenarios/quiet-reel.toml"),
    ),
    (
        "viral-evening",
        include_str!("../../scenarios/viral-evening.toml"),
    ),
    (
        "viral-evening-monitor",
        include_str!("../../scenarios/viral-evening-monitor.toml"),
    ),
    (
        "grow-wrong-order",
        include_str!("../../scenarios/grow-wrong-order.toml"),
    ),
    (
        "grow-right-order",
        include_str!("../../scenarios/grow-right-order.toml"),
    ),
    (
        "shrink-fold",
        include_str!("../../scenarios/shrink-fold.toml"),
    ),
];

/// Every field a scenario may set; all optional, flags override each one.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// One line shown by `shardplan scenarios`.
    pub description: Option<String>,
    /// Planned peak likes/s (or give observed and growth).
    pub peak: Option<f64>,
    /// The highest rate seen so far, likes/s.
    pub observed: Option<f64>,
    /// Planned peak = observed x growth.
    pub growth: Option<f64>,
    /// The store's write cap per key, writes/s.
    pub cap: Option<f64>,
    /// Safe writes/s per key (or give headroom).
    pub safe: Option<f64>,
    /// Share of the cap kept free: safe = cap x (1 - headroom).
    pub headroom: Option<f64>,
    /// Simulated like rate (default: the peak).
    pub rate: Option<f64>,
    /// Shard count (default: what sizing gives).
    pub shards: Option<u64>,
    pub seconds: Option<u64>,
    /// How long the hot spell lasts, seconds (risk, sweep, size --risk).
    pub duration_seconds: Option<f64>,
    /// Accepted risk of any second over the cap during the duration (size).
    pub risk: Option<f64>,
    pub traffic: Option<TrafficModel>,
    pub seed: Option<u64>,
    pub views: Option<f64>,
    pub servers: Option<u64>,
    pub cache_seconds: Option<f64>,
    pub batch_size: Option<u64>,
    pub read_cap: Option<f64>,
    /// Overall likes a day across all reels (context for the whole table).
    pub likes_per_day: Option<f64>,
    /// A store preset (dynamodb, firestore, redis-cluster, sorted): its cap,
    /// read cap and batch size apply unless the scenario or flags set them.
    pub store_preset: Option<Store>,
    /// The shard key template with a `<shard>` placeholder, e.g.
    /// `reel:8841:likes:<shard>` (`report` checks where the keys land).
    pub key_template: Option<String>,
    /// Redis Cluster masters the 16,384 slots are split over (`report`'s
    /// key placement).
    pub nodes: Option<u64>,
    /// The like rate over time (a time-line simulation).
    pub curve: Option<CurveConfig>,
    /// Burst capacity per shard key (a time-line simulation).
    pub store: Option<StoreConfig>,
    /// The hot-key monitor (a time-line simulation).
    pub monitor: Option<MonitorConfig>,
    /// A grow or shrink (the `resize` command).
    pub resize: Option<ResizeConfig>,
    /// The whole table of reels (the `fleet` command).
    pub fleet: Option<crate::model::fleet::FleetConfig>,
}

impl Scenario {
    /// True when the scenario describes a time-line rather than a flat rate.
    pub fn is_timeline(&self) -> bool {
        self.curve.is_some() || self.store.is_some() || self.monitor.is_some()
    }
}

/// A scenario with where it came from (for error messages).
#[derive(Debug, Clone, PartialEq)]
pub struct Loaded {
    pub name: String,
    pub scenario: Scenario,
}

impl Loaded {
    /// The name to use in an error about `field`.
    pub fn field(&self, field: &str) -> String {
        format!("scenario {}: {field}", self.name)
    }
}

/// Parses TOML text; `origin` names the file in errors.
pub fn parse(origin: &str, text: &str) -> InputResult<Scenario> {
    toml::from_str(text).map_err(|e| {
        // toml's message spans several lines with a source excerpt; keep the first.
        let msg = e
            .message()
            .lines()
            .next()
            .unwrap_or("invalid TOML")
            .to_string();
        let at = e
            .span()
            .map(|s| {
                let line = text[..s.start.min(text.len())].matches('\n').count() + 1;
                format!(" (line {line})")
            })
            .unwrap_or_default();
        InputError::new(format!("--scenario {origin}"), format!("{msg}{at}"))
    })
}

/// A bundled name, or a path to a TOML file.
pub fn load(name_or_path: &str) -> InputResult<Loaded> {
    if let Some((name, text)) = BUNDLED.iter().find(|(n, _)| *n == name_or_path) {
        return Ok(Loaded {
            name: name.to_string(),
            scenario: parse(name, text)?,
        });
    }
    let path = Path::new(name_or_path);
    let looks_like_path = name_or_path.contains('/') || name_or_path.ends_with(".toml");
    if !looks_like_path && !path.exists() {
        let names: Vec<&str> = BUNDLED.iter().map(|(n, _)| *n).collect();
        return Err(InputError::new(
            "--scenario",
            format!(
                "no bundled scenario named {name_or_path:?}; use one of {} or a path to a .toml file",
                names.join(", ")
            ),
        ));
    }
    let text = std::fs::read_to_string(path).map_err(|e| {
        InputError::new("--scenario", format!("cannot read {}: {e}", path.display()))
    })?;
    Ok(Loaded {
        name: path.display().to_string(),
        scenario: parse(&path.display().to_string(), &text)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bundled_scenarios_parse() {
        for (name, _) in BUNDLED {
            let s = load(name).unwrap();
            assert!(s.scenario.description.is_some(), "{name} has a description");
        }
        assert_eq!(load("viral-reel").unwrap().scenario.peak, Some(14_000.0));
    }

    #[test]
    fn unknown_field_is_named() {
        let e = parse("x.toml", "peak = 1\npeek = 2\n").unwrap_err();
        assert!(e.message.contains("peek"), "{}", e.message);
        assert!(e.message.contains("line 2"), "{}", e.message);
    }

    #[test]
    fn wrong_type_is_named() {
        let e = parse("x.toml", "shards = \"many\"\n").unwrap_err();
        assert!(e.to_string().contains("x.toml"), "{e}");
    }

    #[test]
    fn unknown_name_lists_the_bundled_ones() {
        let e = load("viral-reeel").unwrap_err();
        assert!(e.message.contains("viral-reel"), "{}", e.message);
    }
}
