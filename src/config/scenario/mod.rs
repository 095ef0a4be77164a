//! Scenarios: TOML files of named inputs. The bundled ones are compiled into
//! the binary (`--scenario viral-reel` works from any folder); a path loads a
//! file. Unknown fields are errors that name the field. Every field is
//! optional, so the resolver can tell a field the file sets from one it
//! leaves to the default; flags override each one.
//!
//! Each scenario declares what it [describes](Kind) (`describes =
//! ["flat-load", "fleet"]`); a command given a scenario of no kind it
//! serves names the command that fits.

use std::path::Path;

use serde::Deserialize;

pub mod check;
mod fields;
mod kind;
pub(crate) mod sections;

pub use kind::Kind;
pub use sections::{
    CurveSection, FleetSection, MonitorSection, PricesSection, ReconcileSection, ResizeSection,
    StoreSection,
};

use super::source::{Source, Sourced};
use crate::error::{InputError, InputResult};
use crate::files::input as input_file;
use crate::model::defaults::MAX_SCENARIO_BYTES;
use crate::model::law::TrafficKind;
use crate::model::store::Store;
use kind::kinds;

pub use crate::files::bundled::{BUNDLED, DEFAULT};

/// Every field a scenario may set; all optional, flags override each one.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// What the scenario describes (inferred from its sections when absent).
    pub describes: Option<Vec<Kind>>,
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
    /// Simulated seconds.
    pub seconds: Option<u64>,
    /// How long the hot spell lasts, seconds (risk, sweep, size --risk).
    pub duration_seconds: Option<f64>,
    /// Accepted risk of any second over the cap during the duration (size).
    pub risk: Option<f64>,
    /// Likes per second: exactly the rate, Poisson with that mean, or
    /// gamma-poisson (a Poisson count at a Gamma rate; needs `dispersion`).
    pub traffic: Option<TrafficKind>,
    /// Gamma-poisson traffic's shape K: a second's count has variance
    /// rate + rate^2 / K.
    pub dispersion: Option<f64>,
    /// Observed likes to plan from (CSV, CloudWatch or Prometheus), a path
    /// relative to the scenario file's folder: its busiest period is the
    /// observed rate, and per-second data fits the traffic law.
    pub traffic_from: Option<String>,
    /// CloudWatch: the `Id` of the result `traffic_from` reads.
    pub metric_id: Option<String>,
    /// Unlikes per like, 0 to 1: each is a write, so writes = likes x (1 + share).
    pub unlike_share: Option<f64>,
    /// The quiet stretch, from empty shards, the negative-shard chance covers.
    pub cool_down_seconds: Option<f64>,
    /// Likes/s during the cool-down.
    pub cool_down_rate: Option<f64>,
    /// Master seed.
    pub seed: Option<u64>,
    /// Views of the count per second.
    pub views: Option<f64>,
    /// App (likes) servers: each writes with the picker and caches the sum.
    pub servers: Option<u64>,
    /// How each app server picks the shard a like goes to (random,
    /// round-robin, two-choice, sticky, user-hash).
    pub picker: Option<crate::model::picker::Picker>,
    /// Seconds each server caches the sum.
    pub cache_seconds: Option<f64>,
    /// Items one batch read fetches.
    pub batch_size: Option<u64>,
    /// The store's read cap per key, reads/s.
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
    /// Partitions of a hashed store the shard keys land on: shards that
    /// share one add up against its cap (the recommendation counts it).
    pub partitions: Option<u64>,
    /// The like rate over time (a time-line simulation).
    pub curve: Option<CurveSection>,
    /// Burst capacity per shard key (a time-line simulation).
    pub store: Option<StoreSection>,
    /// The hot-key monitor (a time-line simulation).
    pub monitor: Option<MonitorSection>,
    /// A grow or shrink (the `resize` command).
    pub resize: Option<ResizeSection>,
    /// The whole table of reels (the `fleet` command).
    pub fleet: Option<FleetSection>,
    /// Prices and daily volumes (`size` and `compare` cost figures).
    pub prices: Option<PricesSection>,
    /// The drift and the nightly job (the `reconcile` command).
    pub reconcile: Option<ReconcileSection>,
}

impl Scenario {
    /// The kinds its sections show, whatever it declares.
    pub fn content_kinds(&self) -> Vec<Kind> {
        let mut kinds = Vec::new();
        let timeline = self.curve.is_some() || self.store.is_some() || self.monitor.is_some();
        if timeline {
            kinds.push(Kind::TimeLine);
        } else if self.peak.is_some()
            || self.observed.is_some()
            || self.rate.is_some()
            || self.traffic_from.is_some()
        {
            kinds.push(Kind::FlatLoad);
        }
        if self.resize.is_some() {
            kinds.push(Kind::Resize);
        }
        if self.fleet.is_some() {
            kinds.push(Kind::Fleet);
        }
        kinds
    }
}

/// A scenario with where it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Loaded {
    /// The bundled name, or the path as given.
    pub name: String,
    /// The file name errors and `--explain` cite (`viral-reel.toml` for a
    /// bundled scenario, the path as given for a file).
    pub file: String,
    /// Its fields.
    pub scenario: Scenario,
    /// What it describes (declared, or inferred from its sections).
    pub kinds: Vec<Kind>,
}

impl Loaded {
    /// No scenario: every input from flags and defaults.
    pub fn none() -> Self {
        Loaded {
            name: "(none)".into(),
            file: "(none)".into(),
            scenario: Scenario::default(),
            kinds: Vec::new(),
        }
    }

    /// The source of `field` (a dotted name such as `monitor.threshold`).
    pub fn source(&self, field: &str) -> Source {
        Source::Scenario {
            file: self.file.clone(),
            field: field.to_string(),
        }
    }

    /// The name to use in an error about `field`.
    pub fn field(&self, field: &str) -> String {
        self.source(field).to_string()
    }

    /// The value of `field` when the scenario sets it.
    pub fn get<T: Clone>(&self, field: &str, value: &Option<T>) -> Option<Sourced<T>> {
        value.clone().map(|v| Sourced::new(v, self.source(field)))
    }

    /// True when the scenario describes `kind`.
    pub fn describes(&self, kind: Kind) -> bool {
        self.kinds.contains(&kind)
    }

    /// Refuses a scenario that describes none of `served`, naming the
    /// command that fits (`... describes a resize: run shardplan resize
    /// --scenario grow-wrong-order`).
    pub fn require(&self, command: &str, served: &[Kind]) -> InputResult<()> {
        if served.iter().any(|k| self.describes(*k)) {
            return Ok(());
        }
        let wanted: Vec<&str> = served.iter().map(|k| k.described()).collect();
        let hint = match self.kinds.first() {
            Some(k) => format!(
                "it describes {}: run shardplan {} --scenario {}",
                k.described(),
                k.commands()[0],
                self.name
            ),
            None => {
                "it describes nothing a command runs (no peak, rate, [curve], [resize] or [fleet])"
                    .to_string()
            }
        };
        Err(InputError::new(
            format!("--scenario {}", self.name),
            format!("shardplan {command} needs {}; {hint}", wanted.join(" or ")),
        ))
    }
}

/// Parses TOML text; `file` names the file in errors.
pub fn parse(file: &str, text: &str) -> InputResult<Scenario> {
    // An unknown field is named with the closest real one, not serde's list
    // of all of them.
    if let Some((key, line, near)) = fields::unknown_key(text, fields::field_names::<Scenario>()) {
        let hint = match near {
            Some(f) => format!("did you mean `{f}`?"),
            None => "the fields are in docs/scenarios.md".to_string(),
        };
        return Err(InputError::new(
            format!("scenario {file}"),
            format!("unknown field `{key}` (line {line}); {hint}"),
        ));
    }
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
        InputError::new(format!("scenario {file}"), format!("{msg}{at}"))
    })
}

/// Parses scenario text as a file would be: its TOML, what it describes
/// and its fields' ranges (the fuzz target's entry; `file` names it in
/// errors).
pub fn from_text(file: &str, text: &str) -> InputResult<Loaded> {
    let scenario = parse(file, text)?;
    let loaded = Loaded {
        name: file.to_string(),
        kinds: kinds(file, &scenario)?,
        file: file.to_string(),
        scenario,
    };
    check::fields(&loaded)?;
    Ok(loaded)
}

/// A bundled name, or a path to a TOML file.
pub fn load(claims: &crate::files::Claims, name_or_path: &str) -> InputResult<Loaded> {
    if let Some((name, text)) = BUNDLED.iter().find(|(n, _)| *n == name_or_path) {
        let file = format!("{name}.toml");
        let scenario = parse(&file, text)?;
        return Ok(Loaded {
            name: name.to_string(),
            kinds: kinds(&file, &scenario)?,
            file,
            scenario,
        });
    }
    let path = Path::new(name_or_path);
    let looks_like_path = name_or_path.contains('/') || name_or_path.ends_with(".toml");
    if !looks_like_path && !input_file::is_stdin(path) && !path.exists() {
        let names: Vec<&str> = BUNDLED.iter().map(|(n, _)| *n).collect();
        return Err(InputError::new(
            "--scenario",
            format!(
                "no bundled scenario named {name_or_path:?}; use one of {}, a path to a .toml \
                 file or - for standard input",
                names.join(", ")
            ),
        ));
    }
    let bytes = input_file::read_bounded(
        claims,
        "--scenario",
        path,
        MAX_SCENARIO_BYTES,
        "a scenario is a page of TOML",
    )?;
    let shown = input_file::shown(path);
    let text = String::from_utf8(bytes).map_err(|_| {
        InputError::new("--scenario", format!("cannot read {shown}: not UTF-8 text"))
    })?;
    let scenario = parse(&shown, &text)?;
    Ok(Loaded {
        name: shown.clone(),
        kinds: kinds(&shown, &scenario)?,
        file: shown,
        scenario,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bundled_scenarios_parse_and_declare_their_kinds() {
        for (name, _) in BUNDLED {
            let s = load(&Default::default(), name).unwrap();
            assert!(s.scenario.description.is_some(), "{name} has a description");
            assert!(s.scenario.describes.is_some(), "{name} declares its kinds");
            assert!(!s.kinds.is_empty(), "{name}");
        }
        assert_eq!(
            load(&Default::default(), "viral-reel")
                .unwrap()
                .scenario
                .peak,
            Some(14_000.0)
        );
        assert_eq!(
            load(&Default::default(), "interview").unwrap().kinds,
            vec![Kind::FlatLoad, Kind::Fleet]
        );
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
        let e = load(&Default::default(), "viral-reeel").unwrap_err();
        assert!(e.message.contains("viral-reel"), "{}", e.message);
    }

    #[test]
    fn a_scenario_of_another_kind_names_the_command_that_fits() {
        let l = load(&Default::default(), "grow-wrong-order").unwrap();
        let e = l
            .require("simulate", &[Kind::FlatLoad, Kind::TimeLine])
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "--scenario grow-wrong-order: shardplan simulate needs a flat load or a time line; \
             it describes a resize: run shardplan resize --scenario grow-wrong-order"
        );
    }
}
