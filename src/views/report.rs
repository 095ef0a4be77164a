//! The Markdown design doc `report` writes: every table is the same view
//! the commands print (`size`, `sweep`, `simulate`, `keys`), assembled with
//! the prose that explains it. No timestamps and no absolute paths: the
//! same seed gives the same bytes.

use crate::config::{Inputs, Loaded};
use crate::error::{InputError, InputResult, ParamError};
use crate::model::placement::{KeysReport, PlacementWarning, ShardTemplate, SortedReport};
use crate::model::store::Store;
use crate::output::markdown::MarkdownExporter;
use crate::output::{fmt, Exporter, Report, Section};
use crate::views::reads::read_cost_section;
use crate::views::risk::{SweepRow, SweepView};
use crate::views::simulate::SimulateReport;
use crate::views::size::SizeRow;
use crate::views::timeline::TimelineView;
use crate::views::Sections;
use crate::views::{inputs, placement, recommendation};

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
    /// Observed traffic (`--traffic-from`, the scenario's `traffic_from`).
    pub observed: Option<super::observed::ObservedTraffic>,
    /// The unlikes block, when the scenario plans unlikes.
    pub unlikes: Option<super::unlikes::UnlikesBlock>,
    /// Risk by shard count.
    pub sweep: Vec<SweepRow>,
    /// The risk chart's title.
    pub risk_title: String,
    /// The simulation.
    pub simulation: Simulation,
    /// The tool's version, printed with what regenerates the report.
    pub version: &'static str,
    /// The command line that regenerates it.
    pub command: String,
    /// Where the shard keys land, when the scenario names keys or a store,
    /// and the placement's warnings in words.
    pub placement: Option<Placement>,
    /// `--measure FILE`: the file as given and what it measured.
    pub measurement: Option<(String, crate::measure::Measurement)>,
}

impl ReportDoc<'_> {
    /// The verdict the report gives: the simulated count's, the run beside
    /// it (a time line: its own, no write rejected).
    pub fn verdict(&self) -> crate::model::verdict::Verdict {
        match &self.simulation {
            Simulation::Flat { report, .. } => match &report.verdict {
                Some(v) => v.clone(),
                None => self.size.verdict(),
            },
            Simulation::Timeline { view, .. } => {
                view.verdict().unwrap_or_else(|| self.size.verdict())
            }
        }
    }
}

/// The key-placement part of the report.
#[derive(Debug, Clone)]
pub struct Placement {
    /// Its tables and notes.
    pub sections: Vec<Section>,
    /// Its warnings, for the summary.
    pub warnings: Vec<String>,
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
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Where the shard keys land, when the scenario names keys or a store
/// (the same figures `shardplan keys` prints).
pub fn placement_sections(l: &Loaded, shards: u64) -> InputResult<Option<Placement>> {
    let s = &l.scenario;
    let store = s.store_preset;
    let Some(template) = &s.key_template else {
        return Ok(store.map(|p| Placement {
            sections: vec![Section::Note(format!(
                "The scenario names the {} store but no key_template: add one (e.g. \
                 key_template = \"reel:8841:likes:<shard>\") to see where the {shards} shard keys land, \
                 or run `shardplan keys` / `shardplan partitions`.",
                p.name()
            ))],
            warnings: Vec::new(),
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
        let warnings = match r.contiguous {
            true => vec![html_text(&placement::sorted_note(&r))],
            false => Vec::new(),
        };
        return Ok(Some(Placement {
            warnings,
            sections: vec![
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
            ],
        }));
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
    // Node balance is a note, as everywhere (docs/verdict.md): the nodes'
    // caps judge it; a shared slot stays a warning.
    let (balance, warned): (Vec<_>, Vec<_>) = r
        .warnings
        .iter()
        .partition(|w| matches!(w, PlacementWarning::NodeOverShare { .. }));
    let words = |w: &PlacementWarning| html_text(&placement::warning_text(w));
    let warnings: Vec<String> = warned.into_iter().map(words).collect();
    if r.warnings.is_empty() {
        out.push(Section::Note(
            "No placement warnings: no two shards share a slot and no master carries more than its share."
                .into(),
        ));
    }
    out.extend(
        balance
            .into_iter()
            .map(|w| Section::Note(format!("Note: {}", words(w)))),
    );
    out.extend(
        warnings
            .iter()
            .map(|w| Section::Note(format!("WARNING: {w}"))),
    );
    if let Some(fix) = &r.suggested_template {
        out.push(Section::Note(format!("Suggested template: `{fix}`")));
    }
    Ok(Some(Placement {
        sections: out,
        warnings,
    }))
}

/// The paste-able summary: the recommendation, what binds, the capacity,
/// the read cost with and without the cache, and every warning.
fn summary(doc: &ReportDoc) -> Vec<String> {
    let size = &doc.size;
    let r = &size.recommendation;
    let c = &r.reads;
    let mut lines = vec![
        format!(
            "- **Recommendation:** {}, set by {}.",
            super::verdict::shards(r.shards),
            super::verdict::binding_words(r.binding)
        ),
        format!("- **Verdict:** {}.", super::verdict::line(&doc.verdict())),
        format!("- **Margin:** {}.", recommendation::margin(r)),
        format!(
            "- **Reads:** without a cache every view reads all {} shards: {} shard reads/s; with each \
             of the {} servers caching the sum for {} s: {} shard reads/s.",
            c.shards,
            fmt::num(c.reads_uncached_per_second),
            c.servers,
            fmt::num(c.cache_seconds),
            fmt::num(c.reads_cached_per_second)
        ),
    ];
    let mut warnings: Vec<String> = r
        .warnings
        .iter()
        .map(recommendation::warning_text)
        .collect();
    if r.partitions.is_none() {
        warnings.push(
            "shards may share a partition in a hashed store: the scenario gives no `partitions`, \
             so that risk is not counted (set it to weigh it)"
                .into(),
        );
    }
    if let Some(p) = &doc.placement {
        warnings.extend(p.warnings.iter().cloned());
    }
    match warnings.is_empty() {
        true => lines.push("- **Warnings:** none.".into()),
        false => {
            lines.push("- **Warnings:**".into());
            lines.extend(warnings.iter().map(|w| format!("  - {w}")));
        }
    }
    lines
}

/// The whole report.md text.
pub fn render(doc: &ReportDoc) -> anyhow::Result<String> {
    let (l, size, sim) = (doc.scenario, &doc.size, &doc.simulation);
    let rec = &size.recommendation;
    let mut md = String::new();
    let mut push = |text: &str| {
        md.push_str(text.trim_end());
        md.push_str("\n\n");
    };
    // A scenario's name and description are text from a file: escaped, so
    // `<img onerror=...>` shows as written instead of running in a viewer.
    push(&format!(
        "# Sharded counter capacity report: {}",
        html_text(&l.name)
    ));
    push(&size.headline());
    if let Some(d) = &l.scenario.description {
        push(&html_text(d));
    }
    push("## Summary");
    push(&summary(doc).join("\n"));

    push("## Sizing");
    push(&format!(
        "The rule of thumb divides the planned peak by the safe rate per shard key and rounds up: \
         ceil({} / {}) = {} shards. With an accepted risk (`risk` in the scenario, `--risk` for \
         `shardplan size`) the per-key count is the fewest shards whose exact chance of any second \
         over the cap during the hot spell is within it; with `partitions`, the fewest from it on \
         whose shared partitions stay within it. The recommendation is the count every constraint \
         accepts.",
        fmt::num(size.peak),
        fmt::num(size.safe_per_shard),
        rec.rule_of_thumb_shards,
    ));
    push(&markdown_under(
        "Sizing",
        &Sections(size.sizing_sections()),
    )?);

    if let Some((file, m)) = &doc.measurement {
        push("## Measurement");
        push(&super::measurement::intro(file, m));
        push(&markdown_under(
            "Measurement",
            &Sections(super::measurement::sections(m)),
        )?);
    }

    if let Some(o) = &doc.observed {
        push("## Observed traffic");
        push(&markdown_under(
            "Observed traffic",
            &Sections(o.sections()),
        )?);
    }

    if let Some(u) = &doc.unlikes {
        push("## Unlikes");
        push(&markdown_under("Unlikes", &Sections(u.sections()))?);
    }

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
    push(&format!(
        "Each read of the total sums every shard; at the recommended {} shards (`shardplan size`).",
        rec.shards
    ));
    push(&markdown_under(
        "Read cost",
        &Sections(vec![read_cost_section(&rec.reads)]),
    )?);
    if let Some(c) = crate::views::price::cost_section(&size.costs) {
        push(&markdown_under("Cost", &Sections(vec![c]))?);
    }

    if let Some(p) = &doc.placement {
        push("## Key placement");
        push(
            "Where the shard keys land in the store (`shardplan keys`): shards that share a slot, \
             a node or a tablet take their writes together, and the cap applies to them as one.",
        );
        push(&markdown(&Sections(p.sections.clone()))?);
    }

    push("## Regenerate");
    push(&format!(
        "Written by shardplan {}: `{}` writes the same bytes. Every input it used, with its value \
         and where it came from (a scenario field, a store preset or the built-in default; what \
         `--explain` prints):",
        doc.version, doc.command
    ));
    push(&markdown(&Sections(vec![inputs::section(doc.inputs)]))?);
    let mut out = md.trim_end().to_string();
    out.push('\n');
    Ok(out)
}
