//! The Markdown design doc `report` writes: every table is the same view
//! the commands print (`size`, `sweep`, `simulate`, `keys`), assembled with
//! the prose that explains it. No timestamps and no absolute paths: the
//! same seed gives the same bytes.

use crate::config::{Inputs, Loaded, Source};
use crate::error::{InputError, InputResult, ParamError};
use crate::model::defaults::{DEFAULT_DURATION_SECONDS, DEFAULT_RISK};
use crate::model::placement::{KeysReport, ShardTemplate, SortedReport};
use crate::model::read_cost::ReadCost;
use crate::model::store::Store;
use crate::output::markdown::MarkdownExporter;
use crate::output::{fmt, Exporter, Report, Section};
use crate::views::reads::read_cost_section;
use crate::views::risk::{SweepRow, SweepView};
use crate::views::simulate::SimulateReport;
use crate::views::size::SizeRow;
use crate::views::timeline::TimelineView;
use crate::views::Sections;
use crate::views::{inputs, placement};

/// The file names inside the report folder.
pub const REPORT_FILE: &str = "report.md";
/// The busiest-shard histogram of a flat run.
pub const BUSIEST_SVG: &str = "busiest.svg";
/// Risk by shard count.
pub const RISK_SVG: &str = "risk.svg";
/// The time line.
pub const TIMELINE_SVG: &str = "timeline.svg";

/// The simulation part of the report: a flat Monte Carlo run or a time
/// line, with its chart's title and SVG.
pub enum Simulation {
    /// A flat run.
    Flat {
        /// Its view.
        report: Box<SimulateReport>,
        /// Title and SVG of the busiest-shard histogram.
        chart: (String, String),
    },
    /// A time line.
    Timeline {
        /// Its view.
        view: Box<TimelineView>,
        /// Title and SVG of the time-line chart.
        chart: (String, String),
    },
}

/// Everything the report shows.
pub struct ReportDoc<'a> {
    /// The scenario.
    pub scenario: &'a Loaded,
    /// Every input resolved, with its source.
    pub inputs: &'a Inputs,
    /// The sizing, with the risk-based count.
    pub size: SizeRow,
    /// Risk by shard count.
    pub sweep: Vec<SweepRow>,
    /// The risk chart's title.
    pub risk_title: String,
    /// The simulation.
    pub simulation: Simulation,
    /// The read cost at the rule-of-thumb count.
    pub read_cost: ReadCost,
    /// Where the shard keys land, when the scenario names keys or a store.
    pub placement: Option<Vec<Section>>,
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

/// Prose for Markdown: a bare `<shard>` would be read as an HTML tag and
/// vanish in a viewer.
fn html_text(text: &str) -> String {
    text.replace('<', "&lt;").replace('>', "&gt;")
}

/// Where the shard keys land, when the scenario names keys or a store
/// (the same figures `shardplan keys` prints).
pub fn placement_sections(l: &Loaded, shards: u64) -> InputResult<Option<Vec<Section>>> {
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
    // The template and the masters come from the scenario; name the field.
    let in_scenario = |e: ParamError| {
        let field = if e.param == "nodes" {
            "nodes"
        } else {
            "key_template"
        };
        InputError::new(l.field(field), e.problem)
    };
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
                format!("WARNING: {}", html_text(&placement::sorted_note(&r)))
            } else {
                html_text(&placement::sorted_note(&r))
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
        format!("{} ({})", r.read_commands, placement::read_note(&r.read)),
    ));
    let mut out = vec![Section::pairs("Redis Cluster key placement", rows)];
    let warnings = placement::keys_warnings(&r);
    if warnings.is_empty() {
        out.push(Section::Note(
            "No placement warnings: no two shards share a slot and no master carries more than its share."
                .into(),
        ));
    }
    out.extend(
        warnings
            .iter()
            .map(|w| Section::Note(format!("WARNING: {}", html_text(w)))),
    );
    if let Some(fix) = &r.suggested_template {
        out.push(Section::Note(format!("Suggested template: `{fix}`")));
    }
    Ok(Some(out))
}

/// Which of risk and duration came from the built-in defaults.
fn defaults_note(inputs: &Inputs, risk_given: bool) -> String {
    let risk = fmt::num(DEFAULT_RISK);
    let duration = fmt::duration(DEFAULT_DURATION_SECONDS);
    let duration_given = inputs.source("duration_seconds") != Some(&Source::Default);
    match (risk_given, duration_given) {
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
pub fn render(doc: &ReportDoc) -> anyhow::Result<String> {
    let (l, size, sim, read_cost) = (doc.scenario, &doc.size, &doc.simulation, &doc.read_cost);
    let risk_given = doc.inputs.source("risk") != Some(&Source::Default);
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
    push(
        "Every input the report assumed, with its value and where it came from: a scenario \
         field, a store preset or the built-in default (what `--explain` prints).",
    );
    push(&markdown(&Sections(vec![inputs::section(doc.inputs)]))?);

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
        fmt::duration(size.duration_seconds.unwrap_or(DEFAULT_DURATION_SECONDS)),
        fmt::prob(size.risk.unwrap_or(crate::model::defaults::DEFAULT_RISK)),
        defaults_note(doc.inputs, risk_given),
    ));
    push(&markdown_under(
        "Sizing",
        &Sections(size.sizing_sections()),
    )?);

    push("## Risk by shard count");
    push(
        "Exact chance that the busiest shard goes over the cap in one second, and in at least one \
         second of the hot spell, at the planned peak, with the shard reads each count costs \
         (`shardplan sweep`). A * marks a probability below f64's range, printed from its logarithm.",
    );
    push(&markdown(&SweepView(doc.sweep.clone()))?);
    push(&format!("![{}]({RISK_SVG})", doc.risk_title));

    push("## Simulation");
    match sim {
        Simulation::Flat { report, chart } => {
            push(
                "Monte Carlo of the busiest shard, second by second (`shardplan simulate`), with the \
                 exact figures from the busiest shard's distribution beside it.",
            );
            push(&markdown(&Sections(report.figures()))?);
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

    if let Some(sections) = &doc.placement {
        push("## Key placement");
        push(
            "Where the shard keys land in the store (`shardplan keys`): shards that share a slot, \
             a node or a tablet take their writes together, and the cap applies to them as one.",
        );
        push(&markdown(&Sections(sections.clone()))?);
    }
    let mut out = md.trim_end().to_string();
    out.push('\n');
    Ok(out)
}
