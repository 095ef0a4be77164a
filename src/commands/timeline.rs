//! `simulate` on a time line (a rate curve, burst capacity, the hot-key
//! monitor) and `shardplan resize`.

use serde::Serialize;
use serde_json::{json, Value};

use crate::cli::{ResizeArgs, SimulateArgs};
use crate::config::check;
use crate::config::resolve as common;
use crate::config::scenario::Loaded;
use crate::error::{InputError, InputResult};
use crate::model::timeline::curve::RateCurve;
use crate::model::timeline::monitor::MonitorConfig;
use crate::model::timeline::resize::{
    GrowReport, ResizeConfig, ResizePlan, ShrinkReport, ShrinkRow,
};
use crate::model::timeline::{self, MonitorGridRow, TimelinePlan, TimelineReport, TimelineRow};
use crate::output::sink::AtomicFile;
use crate::output::{fmt, row, OutputSet, Report, Section};

/// The name a user types for an enum value (`writes-first`).
fn name<T: clap::ValueEnum>(v: &T) -> String {
    v.to_possible_value()
        .map(|p| p.get_name().to_string())
        .unwrap_or_default()
}

/// Errors from a scenario section name the scenario too.
fn in_scenario(l: &Loaded) -> impl Fn(InputError) -> InputError + '_ {
    move |e| {
        if e.what.starts_with("--") {
            e
        } else {
            InputError::new(l.field(&e.what), e.message)
        }
    }
}

/// A time-line plan from flags over the scenario.
pub fn plan(args: &SimulateArgs) -> anyhow::Result<(Loaded, TimelinePlan)> {
    let sim = &args.sim;
    let t = &args.timeline;
    let loaded = common::load_scenario(&sim.scenario)?;
    let s = &loaded.scenario;
    let scenario_curve = match &s.curve {
        Some(c) => Some(c.validate().map_err(in_scenario(&loaded))?),
        None => None,
    };
    let (peak, sizing) = common::sizing_plan_or(
        &loaded,
        &sim.sizing,
        sim.rate.or(s.rate).or(common::curve_peak(&loaded)),
    )?;
    let curve = match (sim.rate, scenario_curve) {
        (Some(r), _) => RateCurve::flat(check::rate("--rate", r)?)?,
        (None, Some(c)) => c,
        (None, None) => RateCurve::flat(s.rate.unwrap_or(peak.peak))?,
    };
    let mut store = s.store.clone().unwrap_or_default();
    // A --store preset ranks above the scenario: its burst applies.
    let (flag_preset, scenario_preset) = common::presets(&loaded, sim.sizing.store);
    match (flag_preset, &s.store, scenario_preset) {
        (Some(p), _, _) | (None, None, Some(p)) => store.burst_seconds = p.burst_seconds as u64,
        _ => {}
    }
    if let Some(b) = t.burst_seconds {
        store.burst_seconds = b;
    }
    if let Some(b) = t.burst_start {
        store.burst_start = b;
    }
    let wants_monitor = t.monitor
        || t.threshold.is_some()
        || t.window.is_some()
        || t.settings_ttl.is_some()
        || t.target_shards.is_some();
    let monitor = match (&s.monitor, wants_monitor) {
        (None, false) => None,
        (cfg, _) => {
            let mut m: MonitorConfig = cfg.clone().unwrap_or_default();
            if let Some(v) = t.threshold {
                m.threshold = check::rate("--threshold", v)?;
            }
            if let Some(v) = t.window {
                m.window_seconds = v;
            }
            if let Some(v) = t.settings_ttl {
                m.settings_ttl_seconds = v;
            }
            if let Some(v) = t.target_shards {
                m.target_shards = v;
            }
            let servers = sim.reads.servers.or(s.servers);
            Some(m.validate(servers).map_err(in_scenario(&loaded))?)
        }
    };
    // With a monitor every reel starts on one shard unless told otherwise.
    let start_shards = sim.shards.or(s.shards).unwrap_or_else(|| {
        if monitor.is_some() {
            1
        } else {
            sizing.size().shards
        }
    });
    let seconds = sim
        .seconds
        .or(s.seconds)
        .unwrap_or_else(|| match curve.end_seconds() {
            0 => crate::model::defaults::DEFAULT_SECONDS,
            end => end,
        });
    if let (Some(target), Some(_)) = (t.target_shards, &monitor) {
        if target <= start_shards {
            return Err(InputError::new(
                "--target-shards",
                format!("must be above the starting shard count {start_shards} (got {target})"),
            )
            .into());
        }
    }
    let plan = TimelinePlan::new(
        curve,
        sim.traffic.or(s.traffic).unwrap_or_default(),
        sizing.cap,
        seconds,
        sim.seed
            .or(s.seed)
            .unwrap_or(crate::model::defaults::DEFAULT_SEED),
        start_shards,
        store,
        monitor,
    )
    .map_err(in_scenario(&loaded))?;
    Ok((loaded, plan))
}

/// A time-line run, plus the monitor grid when there is a monitor.
pub struct TimelineView {
    pub scenario: String,
    pub report: TimelineReport,
    pub grid: Option<Vec<MonitorGridRow>>,
}

#[derive(Serialize)]
struct TimelineHead<'a> {
    scenario: &'a str,
    #[serde(flatten)]
    report: &'a TimelineReport,
}

impl Report for TimelineView {
    fn rows(&self) -> Vec<Value> {
        let mut v = row(&TimelineHead {
            scenario: &self.scenario,
            report: &self.report,
        });
        // CSV: the raise schedule as flat columns, not a nested object.
        if let Value::Object(map) = &mut v {
            let raise = map.remove("raise");
            for key in [
                "decided_second",
                "read_shards_stored",
                "write_shards_stored",
                "all_read_second",
                "all_write_second",
            ] {
                let value = raise
                    .as_ref()
                    .and_then(|r| r.get(key))
                    .cloned()
                    .unwrap_or(Value::Null);
                map.insert(format!("raise_{key}"), value);
            }
        }
        vec![v]
    }

    fn json(&self) -> Value {
        let mut v = row(&TimelineHead {
            scenario: &self.scenario,
            report: &self.report,
        });
        if let Some(grid) = &self.grid {
            v["monitor_grid"] = json!(grid);
        }
        v
    }

    fn sections(&self) -> Vec<Section> {
        let r = &self.report;
        let opt = |v: Option<u64>| v.map(fmt::count).unwrap_or_else(|| "none".into());
        let mut out = vec![
            Section::pairs(
                "Time line",
                vec![
                    ("scenario", self.scenario.clone()),
                    ("seconds", fmt::count(r.seconds)),
                    ("traffic", r.traffic.name().to_string()),
                    ("seed", r.seed.to_string()),
                    ("peak rate", format!("{} likes/s", fmt::num(r.peak_rate))),
                    (
                        "store per shard key",
                        format!(
                            "cap {} writes/s, {} s of burst",
                            fmt::count(r.cap),
                            r.burst_seconds
                        ),
                    ),
                    (
                        "shards",
                        format!(
                            "{} at the start, {} at the end",
                            r.start_shards, r.final_shards
                        ),
                    ),
                ],
            ),
            Section::pairs(
                "Writes",
                vec![
                    ("likes sent", fmt::count(r.total_writes)),
                    ("accepted", fmt::count(r.accepted_writes)),
                    (
                        "rejected",
                        format!(
                            "{} ({})",
                            fmt::count(r.rejected_writes),
                            fmt::percent(r.rejected_share)
                        ),
                    ),
                    (
                        "seconds with rejections",
                        fmt::count(r.seconds_with_rejections),
                    ),
                    ("first rejection in second", opt(r.first_rejection_second)),
                    ("last rejection in second", opt(r.last_rejection_second)),
                    (
                        "busiest shard key, max in a second",
                        fmt::count(r.busiest_max),
                    ),
                ],
            ),
        ];
        if let Some(raise) = &r.raise {
            out.push(Section::pairs(
                "Hot-key monitor",
                vec![
                    (
                        "threshold crossed at the end of second",
                        fmt::count(raise.decided_second),
                    ),
                    (
                        "read_shards stored from second",
                        fmt::count(raise.read_shards_stored),
                    ),
                    (
                        "write_shards stored from second",
                        fmt::count(raise.write_shards_stored),
                    ),
                    (
                        "every server reads the new shards from",
                        fmt::count(raise.all_read_second),
                    ),
                    (
                        "every server writes the new shards from",
                        fmt::count(raise.all_write_second),
                    ),
                    (
                        "rejected before the raise took effect",
                        fmt::count(r.rejected_before_raise),
                    ),
                    ("rejected after", fmt::count(r.rejected_after_raise)),
                    (
                        "lowest displayed / true total",
                        format!(
                            "{:.4} ({} seconds undercounted)",
                            r.min_displayed_ratio, r.undercount_seconds
                        ),
                    ),
                ],
            ));
        } else if self.grid.is_some() {
            out.push(Section::Note(
                "The monitor never saw the threshold crossed.".into(),
            ));
        }
        if let Some(grid) = &self.grid {
            out.push(Section::Grid {
                title: "How threshold, window and settings TTL change the rejections (same seed)"
                    .into(),
                header: [
                    "threshold",
                    "window s",
                    "TTL s",
                    "raised at",
                    "all servers at",
                    "rejected before raise",
                    "rejected in all",
                    "share",
                ]
                .map(String::from)
                .to_vec(),
                rows: grid
                    .iter()
                    .map(|g| {
                        vec![
                            fmt::num(g.threshold),
                            g.window_seconds.to_string(),
                            g.settings_ttl_seconds.to_string(),
                            opt(g.raise_decided_second),
                            opt(g.all_servers_second),
                            fmt::count(g.rejected_before_raise),
                            fmt::count(g.rejected_writes),
                            fmt::percent(g.rejected_share),
                        ]
                    })
                    .collect(),
            });
        }
        out
    }
}

/// The grid around the configured monitor: half, same and double the
/// threshold and window; no cache, the TTL and double the TTL.
pub fn grid(plan: &TimelinePlan) -> InputResult<Option<Vec<MonitorGridRow>>> {
    let Some(m) = &plan.monitor else {
        return Ok(None);
    };
    let thresholds = [m.threshold / 2.0, m.threshold, m.threshold * 2.0];
    let windows = [
        (m.window_seconds / 2).max(1),
        m.window_seconds,
        m.window_seconds * 2,
    ];
    let ttls = [0, m.settings_ttl_seconds, m.settings_ttl_seconds * 2];
    let mut windows = windows.to_vec();
    windows.dedup();
    let mut ttls = ttls.to_vec();
    ttls.dedup();
    timeline::monitor_grid(plan, &thresholds, &windows, &ttls).map(Some)
}

/// `simulate` in time-line mode.
pub fn run_simulate(args: &SimulateArgs) -> anyhow::Result<()> {
    let (loaded, plan) = plan(args)?;
    let out = OutputSet::prepare(args.out.format, &args.out.output)?;
    let mut per_second = match &args.per_second {
        Some(p) => Some(AtomicFile::create("--per-second", p)?),
        None => None,
    };
    let report = match per_second.as_mut() {
        Some(file) => {
            let mut w = csv::Writer::from_writer(file.writer());
            let cannot = |e: &dyn std::fmt::Display| {
                InputError::new("--per-second", format!("cannot write the rows: {e}"))
            };
            let r = timeline::run_with_rows(&plan, |row: &TimelineRow| w.serialize(row))
                .map_err(|e| cannot(&e))?;
            w.flush().map_err(|e| cannot(&e))?;
            r
        }
        None => timeline::run(&plan),
    };
    if let Some(f) = per_second {
        f.commit()?;
    }
    let view = TimelineView {
        scenario: loaded.name.clone(),
        report,
        grid: grid(&plan)?,
    };
    out.emit(&view)
}

/// `resize`: a grow (arithmetic and a seeded simulation) or a shrink.
enum ResizeView {
    Grow {
        expected: GrowReport,
        simulated: GrowReport,
    },
    Shrink {
        report: ShrinkReport,
        reads: Vec<ShrinkRow>,
    },
}

impl Report for ResizeView {
    fn rows(&self) -> Vec<Value> {
        match self {
            ResizeView::Grow {
                expected,
                simulated,
            } => vec![row(expected), row(simulated)],
            ResizeView::Shrink { report, .. } => vec![row(report)],
        }
    }

    fn json(&self) -> Value {
        match self {
            ResizeView::Grow {
                expected,
                simulated,
            } => {
                let mut v = row(expected);
                v["simulated"] = row(simulated);
                v
            }
            ResizeView::Shrink { report, reads } => {
                let mut v = row(report);
                v["reads_seen"] = json!(reads);
                v
            }
        }
    }

    fn sections(&self) -> Vec<Section> {
        match self {
            ResizeView::Grow {
                expected: e,
                simulated: s,
            } => {
                let verdict = if e.min_displayed_ratio < 1.0 {
                    format!(
                        "UNDERCOUNT: a server still holding read_shards = {} sums only the old shards; raise read_shards first, then write_shards after every cache has expired.",
                        e.from
                    )
                } else {
                    "No undercount: readers already sum every shard a writer may use.".to_string()
                };
                vec![
                    Section::pairs(
                        "Grow",
                        vec![
                            ("shards", format!("{} -> {}", e.from, e.to)),
                            ("order", name(&e.order)),
                            (
                                "likes before / during",
                                format!(
                                    "{} / {}",
                                    fmt::count(e.likes_before),
                                    fmt::count(e.likes_after)
                                ),
                            ),
                            (
                                "settings TTL",
                                format!(
                                    "{} s (a stale reader for up to {} s)",
                                    e.settings_ttl_seconds, e.stale_window_seconds
                                ),
                            ),
                        ],
                    ),
                    Section::Grid {
                        title: "What the worst reader shows at the end".into(),
                        header: [
                            "method",
                            "displayed",
                            "true",
                            "lowest ratio",
                            "highest ratio",
                            "seconds undercounted",
                        ]
                        .map(String::from)
                        .to_vec(),
                        rows: [("expected (arithmetic)", e), ("simulated (seed)", s)]
                            .iter()
                            .map(|(name, r)| {
                                vec![
                                    match r.seed {
                                        Some(seed) => format!("simulated (seed {seed})"),
                                        None => name.to_string(),
                                    },
                                    fmt::num(r.displayed_total),
                                    fmt::count(r.true_total),
                                    format!("{:.4}", r.min_displayed_ratio),
                                    format!("{:.4}", r.max_displayed_ratio),
                                    r.undercount_seconds.to_string(),
                                ]
                            })
                            .collect(),
                    },
                    Section::Note(verdict),
                ]
            }
            ResizeView::Shrink { report: r, reads } => vec![
                Section::pairs(
                    "Shrink",
                    vec![
                        ("shards", format!("{} -> {}", r.from, r.to)),
                        ("fold", name(&r.fold)),
                        ("read", name(&r.read)),
                        ("true total", fmt::count(r.true_total)),
                        ("folds / reads", format!("{} / {}", r.folds, r.reads)),
                        ("reads showing a wrong total", fmt::count(r.wrong_reads)),
                        ("transactional reads retried", fmt::count(r.read_retries)),
                        (
                            "displayed range",
                            format!(
                                "{} to {} (ratio {:.4} to {:.4})",
                                fmt::count(r.min_displayed_total),
                                fmt::count(r.max_displayed_total),
                                r.min_displayed_ratio,
                                r.max_displayed_ratio
                            ),
                        ),
                    ],
                ),
                Section::Grid {
                    title: "Reads taken mid-fold".into(),
                    header: ["read", "folding shard", "displayed", "true"]
                        .map(String::from)
                        .to_vec(),
                    rows: reads
                        .iter()
                        .filter(|x| x.mid_fold)
                        .take(5)
                        .map(|x| {
                            vec![
                                x.read.to_string(),
                                x.folding_shard.map(|s| s.to_string()).unwrap_or_default(),
                                fmt::count(x.displayed_total),
                                fmt::count(x.true_total),
                            ]
                        })
                        .collect(),
                },
            ],
        }
    }
}

pub fn run_resize(args: ResizeArgs) -> anyhow::Result<()> {
    let loaded = match &args.scenario.scenario {
        Some(_) => Some(common::load_scenario(&args.scenario)?),
        None => None,
    };
    let from_scenario = loaded.as_ref().and_then(|l| l.scenario.resize.clone());
    let mut cfg = match (from_scenario, args.from, args.to) {
        (Some(c), _, _) => c,
        (None, Some(f), Some(t)) => ResizeConfig::new(f, t),
        (None, None, _) => {
            return Err(InputError::new(
                "--from",
                "is required (or a --scenario with a [resize] section)",
            )
            .into())
        }
        (None, _, None) => {
            return Err(InputError::new(
                "--to",
                "is required (or a --scenario with a [resize] section)",
            )
            .into())
        }
    };
    if let Some(v) = args.from {
        cfg.from = v;
    }
    if let Some(v) = args.to {
        cfg.to = v;
    }
    if let Some(v) = args.order {
        cfg.order = v;
    }
    if let Some(v) = args.likes_before {
        cfg.likes_before = v;
    }
    if let Some(v) = args.likes_after {
        cfg.likes_after = v;
    }
    if let Some(v) = args.settings_ttl {
        cfg.settings_ttl_seconds = v;
    }
    if let Some(v) = args.fold {
        cfg.fold = v;
    }
    if let Some(v) = args.read {
        cfg.read = v;
    }
    if let Some(v) = args.step_order {
        cfg.step_order = v;
    }
    let plan = match &loaded {
        Some(l) => cfg.validate().map_err(in_scenario(l))?,
        None => cfg.validate()?,
    };
    let seed = args
        .seed
        .or(loaded.as_ref().and_then(|l| l.scenario.seed))
        .unwrap_or(crate::model::defaults::DEFAULT_SEED);
    let out = OutputSet::prepare(args.out.format, &args.out.output)?;
    let view = match plan {
        ResizePlan::Grow(g) => ResizeView::Grow {
            expected: g.expected(),
            simulated: g.simulate(seed, |_| Ok::<(), std::convert::Infallible>(()))?,
        },
        ResizePlan::Shrink(s) => {
            let mut reads = Vec::new();
            let report = s.run(|r| {
                reads.push(*r);
                Ok::<(), std::convert::Infallible>(())
            })?;
            ResizeView::Shrink { report, reads }
        }
    };
    out.emit(&view)
}
