//! Every flag more than one command offers, defined once (issue 32): its
//! name, help, value parser and value name live here, in one small
//! `#[derive(Args)]` struct (or a group of flags that always travel
//! together) that each command flattens. A default the help names comes
//! from [`crate::model::defaults`], never a literal. Where a command gives a
//! flag a narrower use (one count where `sweep` takes a list, `partitions`
//! needing `--shards`), the help says so and the command refuses the rest
//! with one line naming the flag. `src/cli/tests.rs` walks the command tree
//! and fails when one long flag has two definitions.

use std::path::PathBuf;

use clap::Args;

use super::parse::{number, whole_number, whole_seconds, whole_seconds_or_zero};
use super::values::{choice, PICKERS, RETRY, STORES, TRAFFIC};
use crate::error::{InputError, InputResult};
use crate::model::defaults as d;
use crate::model::law::TrafficKind;
use crate::model::store::Store;
use crate::output::fmt;

/// A default length of time as typed: `4h`, `60s`.
pub(super) fn typed(seconds: f64) -> String {
    match seconds >= 3600.0 && seconds % 3600.0 == 0.0 {
        true => format!("{}h", seconds / 3600.0),
        false => format!("{seconds}s"),
    }
}

// ---- Values ------------------------------------------------------------

/// `--shards` as typed: one count `20`, a list `10,20,30` or an inclusive
/// range `10..40` (only `sweep` takes more than one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShardCounts {
    /// The text as typed (what `sweep` expands and records).
    pub text: String,
    /// The count, when one was given.
    pub one: Option<u64>,
}

/// `--shards`' parser: whole numbers only; ranges are checked where used.
pub fn shard_counts(text: &str) -> Result<ShardCounts, String> {
    let not_one = match whole_number(text) {
        Ok(n) => {
            return Ok(ShardCounts {
                text: text.to_string(),
                one: Some(n),
            })
        }
        Err(e) => e,
    };
    let pieces: Vec<&str> = match text.split_once("..") {
        Some((a, b)) => vec![a, b.strip_prefix('=').unwrap_or(b)],
        None if text.contains(',') => text.split(',').collect(),
        // One count, not a whole number: whole_number's own words.
        None => return Err(not_one),
    };
    for p in pieces {
        whole_number(p.trim()).map_err(|e| format!("{e}; a list is 10,20,30, a range 10..40"))?;
    }
    Ok(ShardCounts {
        text: text.to_string(),
        one: None,
    })
}

/// `--rate` as typed: one rate or (for `sweep`) a list `9000,14000,18000`.
#[derive(Debug, Clone, PartialEq)]
pub struct Rates {
    /// The text as typed (what `sweep` reads as a list).
    pub text: String,
    /// The rate, when one was given.
    pub one: Option<f64>,
}

/// `--rate`'s parser: numbers only; ranges are checked where used.
pub fn rates(text: &str) -> Result<Rates, String> {
    if !text.contains(',') {
        return number(text).map(|v| Rates {
            text: text.to_string(),
            one: Some(v),
        });
    }
    for p in text.split(',') {
        number(p.trim()).map_err(|e| format!("{e}; a list is 9000,14000,18000"))?;
    }
    Ok(Rates {
        text: text.to_string(),
        one: None,
    })
}

/// `--duration` as typed (`4h`, `90s`, `500ms`) and its seconds.
#[derive(Debug, Clone, PartialEq)]
pub struct Span {
    pub text: String,
    pub seconds: f64,
}

/// `--duration`'s parser: the project's duration syntax.
pub fn span(text: &str) -> Result<Span, String> {
    crate::model::duration::parse_seconds(text).map(|seconds| Span {
        text: text.to_string(),
        seconds,
    })
}

/// One count where only `sweep` takes several.
fn single<T: Copy>(flag: &'static str, text: &str, one: Option<T>, what: &str) -> InputResult<T> {
    one.ok_or_else(|| {
        InputError::new(
            flag,
            format!("this command takes one {what} (got {text:?}); a list or range is for `shardplan sweep`"),
        )
    })
}

// ---- Load --------------------------------------------------------------

/// `--rate`.
#[derive(Debug, Clone, Default, Args)]
pub struct Rate {
    #[arg(long, value_name = "LIKES_PER_S", allow_negative_numbers = true, value_parser = rates,
        help = format!("Likes/s on the counter (default: the planned peak). sweep also takes a \
             list, 9000,14000,18000; partitions, without it, checks no cap; measure --design and \
             --reconcile: likes/s of all the writers together (default {})",
             fmt::num(crate::measure::durability::DEFAULT_DURABILITY_RATE)))]
    pub rate: Option<Rates>,
}

impl Rate {
    /// The one rate given (a list is refused: only `sweep` takes one).
    pub fn one(&self) -> InputResult<Option<f64>> {
        self.rate
            .as_ref()
            .map(|r| single("--rate", &r.text, r.one, "rate"))
            .transpose()
    }
}

/// `--shards`.
#[derive(Debug, Clone, Default, Args)]
pub struct Shards {
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = shard_counts,
        help = format!("Shard keys of the counter (default: the count `size` recommends). size: \
            evaluate this deployed count instead; sweep: also a range 10..40 or a list 10,20,30 \
            (default {}); keys: expand the template for shards 0..N-1 (default {}); measure: \
            shard keys written (default {}); partitions: required; compare: with --transactional, \
            the fewest that absorb the conflicts' retries",
            d::DEFAULT_SWEEP_SHARDS, d::DEFAULT_KEY_SHARDS, d::DEFAULT_MEASURE_SHARDS))]
    pub shards: Option<ShardCounts>,
}

impl Shards {
    /// The one count given (a list or range is refused: only `sweep` takes one).
    pub fn one(&self) -> InputResult<Option<u64>> {
        self.shards
            .as_ref()
            .map(|s| single("--shards", &s.text, s.one, "shard count"))
            .transpose()
    }
}

/// `--duration`: how long the load lasts.
#[derive(Debug, Clone, Default, Args)]
pub struct Duration {
    #[arg(long, value_name = "DURATION", allow_negative_numbers = true, value_parser = span,
        help = format!("How long the load lasts: seconds or 500ms, 90s, 10m, 4h. Planning: the hot \
            spell every second of which the over-cap risk covers (default {}, or the scenario's; \
            fleet: whole seconds, rounded up); measure: how long each phase drives the server \
            (default {})", typed(d::DEFAULT_DURATION_SECONDS), d::DEFAULT_MEASURE_DURATION))]
    pub duration: Option<Span>,
}

impl Duration {
    /// The seconds given, if any.
    pub fn seconds(&self) -> Option<f64> {
        self.duration.as_ref().map(|s| s.seconds)
    }
}

/// `--traffic` and `--dispersion`: the law of each second's likes.
#[derive(Debug, Clone, Default, Args)]
pub struct Traffic {
    #[arg(long, value_parser = choice(TRAFFIC), ignore_case = true,
        help = "Likes per second: exactly the rate, Poisson with that mean, gamma-poisson \
                (burstier), or empirical (the per-second --traffic-from trace's seconds) \
                (default fixed)")]
    pub traffic: Option<TrafficKind>,
    #[arg(long, value_name = "K", allow_negative_numbers = true, value_parser = number,
        help = "Gamma-poisson traffic's shape K: variance rate + rate^2 / K (smaller is burstier)")]
    pub dispersion: Option<f64>,
}

/// `--picker`: how each app server picks a shard.
#[derive(Debug, Clone, Default, Args)]
pub struct PickerArg {
    #[arg(long, value_parser = choice(PICKERS), ignore_case = true,
        help = "How each app server (--servers; measure: each client) picks the shard of a \
                like: random, round-robin, two-choice, sticky or user-hash (default random)")]
    pub picker: Option<crate::model::picker::Picker>,
}

/// `--measure FILE`.
#[derive(Debug, Clone, Default, Args)]
pub struct MeasureFile {
    #[arg(
        long,
        value_name = "FILE",
        help_heading = "Output",
        help = "A measurement: the JSON `shardplan measure` wrote (--redis, --postgres or \
                --design). report: its own section, with the machine it ran on; compare: what it \
                lost, beside the designs"
    )]
    pub measure: Option<std::path::PathBuf>,
}

/// `--seconds`.
#[derive(Debug, Clone, Default, Args)]
pub struct Seconds {
    #[arg(long, value_name = "DURATION", allow_negative_numbers = true, value_parser = whole_seconds,
        help = format!("Simulated seconds: 2000, or with units 33m, 4h, 1h30m (default: the \
            scenario's, else {})", fmt::count(d::DEFAULT_SECONDS)))]
    pub seconds: Option<u64>,
}

/// `--seed`.
#[derive(Debug, Clone, Default, Args)]
pub struct Seed {
    #[arg(long, allow_negative_numbers = true, value_parser = whole_number,
        help = format!("Master seed of every random draw: the same seed gives the same output \
            for any --threads (default: the scenario's, else {})", d::DEFAULT_SEED))]
    pub seed: Option<u64>,
}

/// `--threads`.
#[derive(Debug, Clone, Default, Args)]
pub struct Threads {
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number,
        help = "Worker threads (default: all cores)")]
    pub threads: Option<u64>,
}

/// `--trials`.
#[derive(Debug, Clone, Default, Args)]
pub struct Trials {
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number,
        help = format!("Placements sampled for the partition load (default: partitions {} when \
            Monte Carlo is used, fewer on a large draw; fleet {})",
            fmt::count(d::DEFAULT_PARTITION_TRIALS), d::DEFAULT_FLEET_TRIALS))]
    pub trials: Option<u64>,
}

// ---- The store ---------------------------------------------------------

/// `--cap`.
#[derive(Debug, Clone, Default, Args)]
pub struct Cap {
    #[arg(long, value_name = "WRITES_PER_S", allow_negative_numbers = true, value_parser = number,
        help = format!("The store's write cap per key (partition), writes/s (default: the store \
            preset's, else {})", fmt::num(d::DEFAULT_CAP)))]
    pub cap: Option<f64>,
}

/// `--reels`.
#[derive(Debug, Clone, Default, Args)]
pub struct Reels {
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number,
        help = format!("Reels: fleet's background reels; reconcile's reels the job counts a run \
            (default {}; at most {})", fmt::count(d::DEFAULT_REELS), fmt::count(d::MAX_REELS)))]
    pub reels: Option<u64>,
}

/// `--applied-share`.
#[derive(Debug, Clone, Default, Args)]
pub struct AppliedShare {
    #[arg(long, value_name = "SHARE", allow_negative_numbers = true, value_parser = number,
        help = format!("Share of timed-out increments that had in fact been applied (default {})",
            d::DEFAULT_APPLIED_SHARE))]
    pub applied_share: Option<f64>,
}

/// `--retry`.
#[derive(Debug, Clone, Default, Args)]
pub struct RetryArg {
    #[arg(long, value_parser = choice(RETRY), ignore_case = true,
        help = format!("What the service does after a lost reply: none or once (default {}; \
            measure: with --reconcile)", d::DEFAULT_RETRY.name()))]
    pub retry: Option<crate::model::reconcile::Retry>,
}

/// `--store`.
#[derive(Debug, Clone, Default, Args)]
pub struct StoreArg {
    #[arg(long, value_parser = choice(STORES), ignore_case = true,
        help = "A store preset: sets the cap, read cap, burst and batch size (flags still \
                override). keys checks redis-cluster (the default: slots and nodes) or sorted \
                (key order) and refuses the others")]
    pub store: Option<Store>,
}

/// `--partitions`.
#[derive(Debug, Clone, Default, Args)]
pub struct Partitions {
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number,
        help = format!("Partitions of a hashed store the shard keys land on: shards sharing one \
            add up against its cap, at the accepted risk (--risk, else {}%; fleet: default {}; \
            partitions: required)", d::DEFAULT_RISK * 100.0, fmt::count(d::DEFAULT_FLEET_PARTITIONS)))]
    pub partitions: Option<u64>,
}

/// `--risk`.
#[derive(Debug, Clone, Default, Args)]
pub struct Risk {
    #[arg(long, value_name = "PROBABILITY", allow_negative_numbers = true, value_parser = number,
        help = format!("Accepted chance of any second over the cap during --duration, e.g. 0.01: \
            size gives the fewest shards that meet it; fleet asks it of every partition \
            (default there {})", d::DEFAULT_RISK))]
    pub risk: Option<f64>,
}

/// `--template`.
#[derive(Debug, Clone, Default, Args)]
pub struct Template {
    #[arg(long, value_name = "TEMPLATE",
        help = format!("The shard key template, with a <shard> placeholder, e.g. \
            'reel:8841:likes:<shard>' (size: Redis Cluster's slots; measure's default: {}, a fresh \
            random id per run)", d::DEFAULT_MEASURE_TEMPLATE))]
    pub template: Option<String>,
}

/// `--nodes`.
#[derive(Debug, Clone, Default, Args)]
pub struct Nodes {
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number,
        help = "Redis Cluster: masters the 16,384 slots are split over (as redis-cli --cluster \
                create does)")]
    pub nodes: Option<u64>,
}

// ---- Reads and the monitor ---------------------------------------------

/// `--servers`: the app (likes) servers.
#[derive(Debug, Clone, Default, Args)]
pub struct Servers {
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number,
        help = format!("App (likes) servers: each writes with --picker and caches the sum \
            (default {})", d::DEFAULT_SERVERS))]
    pub servers: Option<u64>,
}

/// `--servers` and `--cache-seconds`: the likes servers caching the sum.
#[derive(Debug, Clone, Default, Args)]
pub struct Cache {
    #[command(flatten)]
    pub servers: Servers,
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true, value_parser = number,
        help = format!("Seconds each server caches the sum; 0 = no cache (default {})",
            d::DEFAULT_CACHE_SECONDS))]
    pub cache_seconds: Option<f64>,
}

/// `--threshold` and `--target-shards`: when the hot-key monitor raises a
/// reel, and to what.
#[derive(Debug, Clone, Default, Args)]
pub struct Monitor {
    #[arg(long, value_name = "LIKES_PER_S", allow_negative_numbers = true, value_parser = number,
        help = format!("Monitor: likes/s (mean over the window) that raise a reel (default {})",
            d::DEFAULT_THRESHOLD))]
    pub threshold: Option<f64>,
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole_number,
        help = format!("Monitor: shards a raised reel gets (default {})", d::DEFAULT_TARGET_SHARDS))]
    pub target_shards: Option<u64>,
}

/// `--settings-ttl`.
#[derive(Debug, Clone, Default, Args)]
pub struct SettingsTtl {
    #[arg(long, value_name = "DURATION", allow_negative_numbers = true,
        value_parser = whole_seconds_or_zero,
        help = format!("How long each likes server caches the shard settings, e.g. 60s; 0 = no \
            cache (default {})", typed(d::DEFAULT_SETTINGS_TTL_SECONDS as f64)))]
    pub settings_ttl: Option<u64>,
}

// ---- Running and output ------------------------------------------------

/// `--check`.
#[derive(Debug, Clone, Default, Args)]
pub struct Check {
    #[arg(
        long,
        help = "Exit 1 when the verdict on the shard count fails: the count does not hold \
                the plan (every command judges it alike; see docs/verdict.md). A gate for CI"
    )]
    pub check: bool,
}

/// `-q/--quiet`.
#[derive(Debug, Clone, Default, Args)]
pub struct Quiet {
    #[arg(long, short = 'q', help = "No progress bar")]
    pub quiet: bool,
}

/// `--wide`.
#[derive(Debug, Clone, Default, Args)]
pub struct Wide {
    #[arg(
        long,
        help = "Every column in tables: a narrow terminal otherwise leaves out secondary \
            columns (compare: always, unless --wide). CSV, TSV and JSON have every field"
    )]
    pub wide: bool,
}

/// `--explain`.
#[derive(Debug, Clone, Default, Args)]
pub struct Explain {
    #[arg(
        long,
        help = "List every resolved input with its value and where it came from (flag, \
                scenario field, store preset or default): before the results; chart prints it \
                to stderr, report adds it as a section"
    )]
    pub explain: bool,
}

/// `--long-run`.
#[derive(Debug, Clone, Default, Args)]
pub struct LongRun {
    /// Run even when the cost model puts the run over an hour on the workers given (without
    /// it such a run is refused, so a typo in --seconds is not an hour of work).
    #[arg(long)]
    pub long_run: bool,
}

/// `-o/--output`.
#[derive(Debug, Clone, Default, Args)]
pub struct Output {
    #[arg(long, short = 'o', value_name = "PATH",
        help = format!("Write to PATH instead of stdout; its extension picks the format (.csv, \
            .json, .md, .txt, .tsv); repeat for several files. chart: one .svg file (required); \
            report: the folder for report.md and its charts (default {}); man: a folder for every \
            page", d::DEFAULT_REPORT_DIR))]
    pub output: Vec<PathBuf>,
}

impl Output {
    /// The one path a command writes to (`chart`, `report`, `man`): more
    /// than one is refused.
    pub fn one(&self) -> InputResult<Option<&PathBuf>> {
        match self.output.as_slice() {
            [] => Ok(None),
            [one] => Ok(Some(one)),
            more => Err(InputError::new(
                "--output",
                format!(
                    "this command writes one path (got {}); repeat -o only where files are written",
                    more.len()
                ),
            )),
        }
    }
}
