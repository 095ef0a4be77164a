//! The time line's view: writes accepted and rejected, the monitor's raise
//! schedule and the grid of monitor settings around it.

use serde::Serialize;
use serde_json::{json, Value};

use crate::model::recommendation::Recommendation;
use crate::model::timeline::monitor::RaiseSchedule;
use crate::model::timeline::{MonitorGridRow, TimelineReport};
use crate::model::verdict::Verdict;
use crate::output::{fmt, row, Report, Section};

/// A time-line run, plus the monitor grid when there is a monitor.
pub struct TimelineView {
    pub scenario: String,
    pub report: TimelineReport,
    pub grid: Option<Vec<MonitorGridRow>>,
    /// The plan's recommendation (`size` for the same scenario), to open
    /// with, and the planned peak it sized for (the curve's peak, or with
    /// `--replay` the observed peak times the growth factor).
    pub recommendation: Option<(Recommendation, f64)>,
}

impl TimelineView {
    /// The verdict on the time line: its counts against the recommendation
    /// for the planned peak; it holds when no write was rejected.
    pub fn verdict(&self) -> Option<Verdict> {
        let (rec, sized_for) = self.recommendation.as_ref()?;
        let r = &self.report;
        Some(Verdict::time_line(
            (r.start_shards, r.final_shards),
            rec.shards,
            *sized_for,
            (r.rejected_writes, r.rejected_share),
        ))
    }

    /// The first line: the verdict, in the one verdict's words.
    pub fn headline(&self) -> Option<String> {
        self.verdict().as_ref().map(super::verdict::line)
    }
}

#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct TimelineHead<'a> {
    /// The scenario the time line came from: a bundled name or a file's path.
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
        if let Some((rec, _)) = &self.recommendation {
            v["recommendation"] = row(rec);
        }
        if let Some(verdict) = self.verdict() {
            v["verdict"] = row(&verdict);
        }
        v
    }

    fn sections(&self) -> Vec<Section> {
        let r = &self.report;
        let fails = r.rejected_writes > 0;
        let mut out: Vec<Section> = self
            .headline()
            .map(|h| Section::verdict(h, fails))
            .into_iter()
            .collect();
        out.extend([run_section(&self.scenario, r), writes_section(r)]);
        if let Some(raise) = &r.raise {
            out.push(monitor_section(r, raise));
        } else if self.grid.is_some() {
            out.push(Section::Note(
                "The monitor never saw the threshold crossed.".into(),
            ));
        }
        if let Some(grid) = &self.grid {
            out.push(grid_section(grid));
        }
        out
    }
}

/// A second, or "none" when it never came.
fn second_or_none(v: Option<u64>) -> String {
    v.map(fmt::count).unwrap_or_else(|| "none".into())
}

/// The run: its scenario, length, traffic, peak, the store's cap and
/// burst, and the shard counts at its start and end.
fn run_section(scenario: &str, r: &TimelineReport) -> Section {
    Section::pairs(
        "Time line",
        vec![
            ("scenario", scenario.to_string()),
            ("seconds", fmt::count(r.seconds)),
            ("traffic", r.traffic.name().to_string()),
            ("seed", r.seed.to_string()),
            ("peak rate", format!("{} likes/s", fmt::rate(r.peak_rate))),
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
    )
}

/// The writes: sent, accepted, rejected and when, and the busiest key.
fn writes_section(r: &TimelineReport) -> Section {
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
            (
                "first rejection in second",
                second_or_none(r.first_rejection_second),
            ),
            (
                "last rejection in second",
                second_or_none(r.last_rejection_second),
            ),
            (
                "busiest shard key, max in a second",
                fmt::count(r.busiest_max),
            ),
        ],
    )
}

/// The hot-key monitor's raise: when it decided, when the settings were
/// stored and every server used them, the rejections either side and the
/// undercount readers showed.
fn monitor_section(r: &TimelineReport, raise: &RaiseSchedule) -> Section {
    Section::pairs(
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
    )
}

/// The grid of monitor settings (same seed): when each raises and what it
/// rejects.
fn grid_section(grid: &[MonitorGridRow]) -> Section {
    Section::Grid {
        title: "How threshold, window and settings TTL change the rejections (same seed)".into(),
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
                    second_or_none(g.raise_decided_second),
                    second_or_none(g.all_servers_second),
                    fmt::count(g.rejected_before_raise),
                    fmt::count(g.rejected_writes),
                    fmt::percent(g.rejected_share),
                ]
            })
            .collect(),
        secondary: Vec::new(),
    }
}
