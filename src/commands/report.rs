//! `shardplan report`: a Markdown design doc (report.md) and the SVG charts
//! it links to, written to one folder. Every table is the same run's
//! `--format markdown` output of size, sweep, simulate and keys, so the
//! report and the JSON of those commands hold the same numbers. No
//! timestamps and no absolute paths: the same seed gives the same bytes.

use std::path::Path;

use serde_json::Value;

use super::chart::{self as charts, duration_text};
use super::risk::{whole_rate, SweepView};
use super::simulate::{self, SimulateReport};
use super::size::{self, read_cost_section, SizeRow};
use super::timeline::{self, TimelineView};
use crate::cli::{
    OutputArgs, ReadArgs, ReportArgs, RiskSpan, SimInputs, SimulateArgs, SizingArgs, TimelineArgs,
};
use crate::config::resolve as common;
use crate::config::scenario::Loaded;
use crate::error::{InputError, InputResult};
use crate::model::placement::{KeysReport, ShardTemplate, SortedReport};
use crate::model::simulation::SamplerKind;
use crate::model::sizing::ReadCost;
use crate::model::store::Store;
use crate::output::markdown::MarkdownExporter;
use crate::output::sink::AtomicFile;
use crate::output::{fmt, Exporter, Report, Section};

/// The file names inside the report folder.
pub const REPORT_FILE: &str = "report.md";
pub const BUSIEST_SVG: &str = "busiest.svg";
pub const RISK_SVG: &str = "risk.svg";
pub const TIMELINE_SVG: &str = "timeline.svg";

/// A list of sections as a report (for rendering part of a command's view).
struct Sections(Vec<Section>);

impl Report for Sections {
    fn rows(&self) -> Vec<Value> {
        Vec::new()
    }

    fn sections(&self) -> Vec<Section> {
        self.0.clone()
    }
}

/// A report's sections as Markdown, the same bytes `--format markdown` gives.
fn markdown(report: &dyn Report) -> anyhow::Result<String> {
    Ok(String::from_utf8(MarkdownExporter.render(report)?)?)
}

/// As [`markdown`], under a `##` heading of the same name: the first
/// section's own `###` heading would only repeat it.
fn markdown_under(heading: &str, report: &dyn Report) -> anyhow::Result<String> {
    let md = markdown(report)?;
    let repeat = format!("### {heading}\n\n");
    Ok(md.strip_prefix(&repeat).unwrap_or(&md).to_string())
}

fn is_read_cost(s: &Section) -> bool {
    matches!(s, Section::Pairs { title, .. } if title == "Read cost")
}

/// The simulation part of the report: a flat Monte Carlo run or a time line.
enum Simulation {
    Flat {
        report: Box<SimulateReport>,
        chart: (String, String),
    },
    Timeline {
        view: Box<TimelineView>,
        chart: (String, String),
    },
}

/// The folder, created if missing; anything that stops it is `--out`'s fault.
fn prepare_dir(dir: &Path) -> InputResult<()> {
    if dir.as_os_str().is_empty() {
        return Err(InputError::new(
            "--out",
            "needs a folder (got an empty path)",
        ));
    }
    if dir.exists() && !dir.is_dir() {
        return Err(InputError::new(
            "--out",
            format!("{} is a file; give a folder", dir.display()),
        ));
    }
    std::fs::create_dir_all(dir)
        .map_err(|e| InputError::new("--out", format!("cannot create {}: {e}", dir.display())))
}

fn no_sizing() -> SizingArgs {
    SizingArgs {
        peak: None,
        observed: None,
        growth: None,
        cap: None,
        safe: None,
        headroom: None,
        store: None,
        cap_from_measure: None,
        transactional: false,
    }
}

fn no_reads() -> ReadArgs {
    ReadArgs {
        views: None,
        servers: None,
        cache_seconds: None,
        batch_size: None,
        read_cap: None,
    }
}

/// The report's inputs: scenario values and the defaults that filled gaps.
fn inputs_section(l: &Loaded, size: &SizeRow, sim: &Simulation, risk_given: bool) -> Section {
    let s = &l.scenario;
    let z = &size.sizing;
    let mut rows = vec![
        ("scenario", l.name.clone()),
        ("planned peak", format!("{} likes/s", fmt::num(z.peak))),
        ("cap per shard key", format!("{} writes/s", fmt::num(z.cap))),
        (
            "safe per shard key",
            format!(
                "{} writes/s ({} headroom)",
                fmt::num(z.safe_per_shard),
                fmt::percent(z.headroom)
            ),
        ),
        (
            "hot spell",
            format!(
                "{} ({} traffic){}",
                duration_text(size.duration_seconds.unwrap_or_default()),
                size.traffic.unwrap_or("fixed"),
                if s.duration_seconds.is_none() {
                    " (default)"
                } else {
                    ""
                }
            ),
        ),
        (
            "accepted risk",
            format!(
                "{}{}",
                fmt::prob(size.risk.unwrap_or(crate::model::defaults::DEFAULT_RISK)),
                if risk_given { "" } else { " (default)" }
            ),
        ),
    ];
    match sim {
        Simulation::Flat { report, .. } => {
            let r = &report.row;
            rows.push((
                "simulation",
                format!(
                    "{} likes/s over {} shards, {} s, seed {}",
                    fmt::num(r.rate),
                    r.shards,
                    fmt::count(r.seconds),
                    r.seed
                ),
            ));
        }
        Simulation::Timeline { view, .. } => {
            let r = &view.report;
            rows.push((
                "simulation",
                format!(
                    "time line of {} s, {} shards at the start, seed {}",
                    fmt::count(r.seconds),
                    r.start_shards,
                    r.seed
                ),
            ));
        }
    }
    let c = &size.reads;
    rows.push((
        "reads",
        format!(
            "{} views/s on {} servers, sum cached {} s",
            fmt::num(c.views),
            c.servers,
            fmt::num(c.cache_seconds)
        ),
    ));
    if let Some(p) = s.store_preset {
        rows.push(("store preset", p.name().to_string()));
    }
    if let Some(t) = &s.key_template {
        rows.push(("shard key template", format!("`{t}`")));
    }
    if let Some(n) = s.nodes {
        rows.push(("cluster masters", n.to_string()));
    }
    Section::pairs("Inputs", rows)
}

/// Prose for Markdown: a bare `<shard>` would be read as an HTML tag and
/// vanish in a viewer.
fn html_text(text: &str) -> String {
    text.replace('<', "&lt;").replace('>', "&gt;")
}

/// Where the shard keys land, when the scenario names keys or a store.
fn placement_sections(l: &Loaded, shards: u64) -> InputResult<Option<Vec<Section>>> {
    let s = &l.scenario;
    let store = s.store_preset;
    let Some(template) = &s.key_template else {
        return Ok(store.map(|p| {
            vec![Section::Note(format!(
                "The scenario names the {} store but no key_template: add one (e.g. \
                 key_template = \"reel:8841:likes:<shard>\") to see where the {shards} shard keys land, \
                 or run `shardplan keys` / `shardplan partitions`.",
                p.name()
            ))]
        }));
    };
    let in_scenario = |e: InputError| InputError::new(l.field("key_template"), e.message);
    let t = ShardTemplate::new(template, 0).map_err(in_scenario)?;
    if store == Some(Store::Sorted) {
        let r = SortedReport::from_template(&t, shards).map_err(in_scenario)?;
        return Ok(Some(vec![
            Section::pairs(
                "Sorted store key order",
                vec![
                    ("template", format!("`{}`", r.template)),
                    ("shard keys", r.shards.to_string()),
                    (
                        "contiguous",
                        if r.contiguous { "yes" } else { "no" }.to_string(),
                    ),
                    (
                        "shard-first template",
                        format!("`{}`", r.shard_first_template),
                    ),
                ],
            ),
            Section::Note(if r.contiguous {
                format!("WARNING: {}", html_text(&r.note))
            } else {
                html_text(&r.note)
            }),
        ]));
    }
    let nodes = s.nodes.map(|n| n as u32); // checked 1..=16384 with the scenario
    let r = KeysReport::from_template(&t, shards, nodes).map_err(in_scenario)?;
    let mut rows = vec![
        ("template", format!("`{template}`")),
        ("shard keys", r.shards.to_string()),
        ("distinct slots", r.distinct_slots.to_string()),
        ("shards sharing a slot", r.shards_sharing_a_slot.to_string()),
    ];
    if let (Some(n), Some(d), Some(busiest), Some(share), Some(fair)) = (
        r.nodes,
        r.distinct_nodes,
        r.busiest_node_shards,
        r.busiest_node_share,
        r.fair_node_share,
    ) {
        rows.push(("masters used", format!("{d} of {n}")));
        rows.push((
            "busiest master",
            format!(
                "{busiest} shards, {} of the writes (fair share {})",
                fmt::percent(share),
                fmt::percent(fair)
            ),
        ));
    }
    rows.push((
        "commands per read of the total",
        format!("{} ({})", r.read_commands, r.read_note),
    ));
    let mut out = vec![Section::pairs("Redis Cluster key placement", rows)];
    if r.warnings.is_empty() {
        out.push(Section::Note(
            "No placement warnings: no two shards share a slot and no master carries more than its share."
                .into(),
        ));
    }
    out.extend(
        r.warnings
            .iter()
            .map(|w| Section::Note(format!("WARNING: {}", html_text(w)))),
    );
    if let Some(fix) = &r.suggested_template {
        out.push(Section::Note(format!("Suggested template: `{fix}`")));
    }
    Ok(Some(out))
}

pub fn run(args: ReportArgs) -> anyhow::Result<()> {
    let loaded = common::load_scenario(&args.scenario)?;
    let s = &loaded.scenario;
    let sim_inputs = SimInputs {
        scenario: args.scenario.clone(),
        rate: None,
        shards: None,
        seconds: args.seconds,
        traffic: None,
        seed: args.seed,
        threads: None,
        sampler: SamplerKind::Auto,
        sizing: no_sizing(),
        reads: no_reads(),
    };
    // Everything is validated before the folder is touched. `report` has
    // no --peak flag, so a scenario without a rate names itself.
    if s.peak.is_none() && s.observed.is_none() && common::curve_peak(&loaded).is_none() {
        return Err(InputError::new(
            "--scenario",
            format!(
                "scenario {} gives no peak, observed rate or [curve] to size for{}",
                loaded.name,
                if s.resize.is_some() {
                    " (it describes a resize: use `shardplan resize`)"
                } else {
                    ""
                }
            ),
        )
        .into());
    }
    let (peak, plan) = common::sizing_plan(&loaded, &no_sizing())?;
    let reads = common::read_plan(&loaded, &no_reads(), None)?;
    let span = common::span(
        &loaded,
        &RiskSpan {
            duration: None,
            traffic: None,
        },
    );
    let risk = s.risk.unwrap_or(crate::model::defaults::DEFAULT_RISK);
    let flat = if s.is_timeline() {
        None
    } else {
        Some(simulate::resolve(&sim_inputs, false)?)
    };
    let tl = if s.is_timeline() {
        let sim_args = SimulateArgs {
            sim: sim_inputs.clone(),
            timeline: TimelineArgs {
                burst_seconds: None,
                burst_start: None,
                monitor: false,
                threshold: None,
                window: None,
                settings_ttl: None,
                target_shards: None,
            },
            per_second: None,
            out: OutputArgs {
                format: None,
                output: Vec::new(),
                quiet: args.quiet,
            },
        };
        Some(timeline::plan(&sim_args)?.1)
    } else {
        None
    };
    let rule_shards = plan.size().shards;
    let placement = placement_sections(&loaded, rule_shards)?;

    prepare_dir(&args.out)?;
    let open = |name: &str| AtomicFile::create("--out", &args.out.join(name));
    let mut md_file = open(REPORT_FILE)?;
    let mut risk_file = open(RISK_SVG)?;
    let mut sim_file = open(if tl.is_some() {
        TIMELINE_SVG
    } else {
        BUSIEST_SVG
    })?;

    let size = size::size_row(&loaded.name, &peak, &plan, &reads, Some(risk), span, None)?;
    let rate = whole_rate(peak.peak, span.1);
    let sweep = charts::sweep_rows(
        rate,
        &charts::shard_counts_around(rule_shards),
        plan.cap,
        span,
        &reads,
    )?;
    let risk_chart = charts::risk_svg(&sweep, Some(risk))?;
    let sim = match (&flat, &tl) {
        (Some(resolved), _) => {
            let tally = resolved.execute(args.quiet, None)?;
            Simulation::Flat {
                chart: charts::busiest_svg(resolved, &tally)?,
                report: Box::new(resolved.report(&tally)),
            }
        }
        (None, Some(tplan)) => {
            let mut points = charts::Downsampler::new(
                tplan.seconds,
                crate::model::defaults::MAX_TIMELINE_POINTS,
            );
            let report = crate::model::timeline::run_with_rows(tplan, |r| {
                points.push(r);
                Ok::<(), std::convert::Infallible>(())
            })?;
            Simulation::Timeline {
                chart: charts::timeline_svg(&loaded.name, &points.finish())?,
                view: Box::new(TimelineView {
                    scenario: loaded.name.clone(),
                    report,
                    grid: timeline::grid(tplan)?,
                }),
            }
        }
        (None, None) => unreachable!("a scenario is flat or a time line"),
    };

    let read_cost = reads.cost(rule_shards);
    let text = render(
        &loaded,
        &size,
        &sweep,
        &risk_chart.0,
        &sim,
        &read_cost,
        placement,
        s.risk.is_some(),
    )?;
    md_file.write_all(text.as_bytes())?;
    risk_file.write_all(risk_chart.1.as_bytes())?;
    let sim_svg = match &sim {
        Simulation::Flat { chart, .. } | Simulation::Timeline { chart, .. } => &chart.1,
    };
    sim_file.write_all(sim_svg.as_bytes())?;
    // Charts first, the report last: a report never links to a missing chart.
    risk_file.commit()?;
    sim_file.commit()?;
    md_file.commit()?;
    if !args.quiet {
        eprintln!(
            "wrote {} and its charts to {}",
            REPORT_FILE,
            args.out.display()
        );
    }
    Ok(())
}

/// Which of risk and duration came from the built-in defaults.
fn defaults_note(l: &Loaded, risk_given: bool) -> String {
    let risk = fmt::num(crate::model::defaults::DEFAULT_RISK);
    let duration = duration_text(crate::model::defaults::DEFAULT_DURATION_SECONDS);
    match (risk_given, l.scenario.duration_seconds.is_some()) {
        (true, true) => String::new(),
        (false, false) => format!(
            " The scenario sets neither risk nor duration_seconds: the defaults {risk} and {duration} apply."
        ),
        (false, true) => format!(" The scenario sets no risk: the default {risk} applies."),
        (true, false) => {
            format!(" The scenario sets no duration_seconds: the default {duration} applies.")
        }
    }
}

/// The whole report.md text.
#[allow(clippy::too_many_arguments)]
fn render(
    l: &Loaded,
    size: &SizeRow,
    sweep: &[super::risk::SweepRow],
    risk_title: &str,
    sim: &Simulation,
    read_cost: &ReadCost,
    placement: Option<Vec<Section>>,
    risk_given: bool,
) -> anyhow::Result<String> {
    let mut md = String::new();
    let mut push = |text: &str| {
        md.push_str(text.trim_end());
        md.push_str("\n\n");
    };
    push(&format!("# Sharded counter capacity report: {}", l.name));
    if let Some(d) = &l.scenario.description {
        push(d);
    }
    push(
        "Written by `shardplan report`. Every figure below is reproducible: the same scenario \
         and seed give the same report byte for byte.",
    );
    push("## Inputs");
    push(&markdown_under(
        "Inputs",
        &Sections(vec![inputs_section(l, size, sim, risk_given)]),
    )?);

    push("## Sizing");
    let z = &size.sizing;
    push(&format!(
        "The rule of thumb divides the planned peak by the safe rate per shard key and rounds up: \
         ceil({} / {}) = {} shards. Beside it, the risk-based size (`shardplan size --risk`) is the \
         fewest shards whose exact chance of any second over the cap during the {} hot spell is at \
         most {}.{}",
        fmt::num(z.peak),
        fmt::num(z.safe_per_shard),
        size.rule_of_thumb_shards.unwrap_or(z.shards),
        duration_text(size.duration_seconds.unwrap_or(crate::model::defaults::DEFAULT_DURATION_SECONDS)),
        fmt::prob(size.risk.unwrap_or(crate::model::defaults::DEFAULT_RISK)),
        defaults_note(l, risk_given),
    ));
    let size_sections: Vec<Section> = size
        .sections()
        .into_iter()
        .filter(|s| !is_read_cost(s))
        .collect();
    push(&markdown_under("Sizing", &Sections(size_sections))?);

    push("## Risk by shard count");
    push(
        "Exact chance that the busiest shard goes over the cap in one second, and in at least one \
         second of the hot spell, at the planned peak, with the shard reads each count costs \
         (`shardplan sweep`). A * marks a probability below f64's range, printed from its logarithm.",
    );
    push(&markdown(&SweepView(sweep.to_vec()))?);
    push(&format!("![{risk_title}]({RISK_SVG})"));

    push("## Simulation");
    match sim {
        Simulation::Flat { report, chart } => {
            push(
                "Monte Carlo of the busiest shard, second by second (`shardplan simulate`), with the \
                 exact figures from the busiest shard's distribution beside it.",
            );
            let parts: Vec<Section> = report
                .sections()
                .into_iter()
                .filter(|s| !is_read_cost(s) && !matches!(s, Section::Note(_)))
                .collect();
            push(&markdown(&Sections(parts))?);
            push(
                "The histogram shows how often each busiest-shard count came up; the red line is \
                 the cap, the green one the safe rate the sizing planned for.",
            );
            push(&format!("![{}]({BUSIEST_SVG})", chart.0));
        }
        Simulation::Timeline { view, chart } => {
            push(
                "The scenario is a time line (a rate curve, burst capacity or the hot-key monitor), \
                 simulated second by second (`shardplan simulate`).",
            );
            push(&markdown(view.as_ref())?);
            push(
                "The chart shows the rate, the shard count writers use and the writes the store \
                 rejected, per second (each point the highest of its stretch of seconds when the run \
                 is longer than 2,000 s).",
            );
            push(&format!("![{}]({TIMELINE_SVG})", chart.0));
        }
    }

    push("## Read cost");
    let c = read_cost;
    push(&format!(
        "Each read of the total sums every shard. At the rule-of-thumb count, without a cache every \
         view reads all {} shards: {} shard reads/s. With each of the {} servers caching the sum \
         for {} s: {} shard reads/s.",
        c.shards,
        fmt::num(c.reads_uncached_per_second),
        c.servers,
        fmt::num(c.cache_seconds),
        fmt::num(c.reads_cached_per_second),
    ));
    push(&markdown_under(
        "Read cost",
        &Sections(vec![read_cost_section(c)]),
    )?);

    if let Some(sections) = placement {
        push("## Key placement");
        push(
            "Where the shard keys land in the store (`shardplan keys`): shards that share a slot, \
             a node or a tablet take their writes together, and the cap applies to them as one.",
        );
        push(&markdown(&Sections(sections))?);
    }
    let mut out = md.trim_end().to_string();
    out.push('\n');
    Ok(out)
}
