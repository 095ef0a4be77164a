//! The Markdown design doc `report` writes: every table is the same view
//! the commands print (`size`, `sweep`, `simulate`, `keys`), assembled with
//! the prose that explains it, a builder a part of the document (the key
//! placement in [`key_placement`]). No timestamps and no absolute paths:
//! the same seed gives the same bytes.

use crate::config::Inputs;
use crate::output::markdown::{Headings, MarkdownExporter};
use crate::output::{fmt, Exporter, Report, Section};
use crate::views::reads::read_cost_section;
use crate::views::risk::{SweepRow, SweepView};
use crate::views::simulate::SimulateReport;
use crate::views::size::SizeRow;
use crate::views::timeline::TimelineView;
use crate::views::Sections;
use crate::views::{inputs, recommendation};

pub mod html;
mod key_placement;

pub use key_placement::{placement_sections, Placement};

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

/// What the report is titled by: the scenario, and the plan's own figures,
/// which title it when flags changed the scenario's.
pub struct Heading {
    /// The scenario's name, as the report shows it.
    pub scenario: String,
    /// Its description, shown only where the plan is the scenario's.
    pub description: Option<String>,
    /// The plan's inputs the command line set over the scenario (`peak`,
    /// `cap`, ...); empty when the plan is exactly the scenario's.
    pub flags: Vec<&'static str>,
    /// The planned peak, likes/s.
    pub likes: f64,
    /// The rate seen and the growth it was planned at, when the peak came
    /// from them.
    pub growth: Option<(f64, f64)>,
    /// Writes a second one key accepts.
    pub cap: f64,
    /// The safe rate per key: a headroom or a figure.
    pub safe: crate::model::sizing::SafeRate,
    /// How the likes in a second are counted.
    pub traffic: crate::model::law::TrafficModel,
    /// How the app servers pick a shard.
    pub writers: crate::model::picker::Writers,
}

/// Everything the report shows.
pub struct ReportDoc<'a> {
    /// What titles it.
    pub heading: Heading,
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
    /// `--reconcile-from FILE`s: each file as given and its reconciliation.
    pub reconciliations: Vec<(String, crate::measure::reconcile::ReconcileFile)>,
    /// The pickers side by side at the recommended count, and their seed.
    pub pickers: (Vec<crate::model::picker::table::PickerRow>, u64),
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

/// A report's sections as Markdown, the same bytes `--format markdown` gives.
fn markdown(report: &dyn Report) -> anyhow::Result<String> {
    Ok(String::from_utf8(MarkdownExporter.render(report)?)?)
}

/// As [`markdown`], under a `##` heading of the same name: a first section
/// titled `heading` goes without its own `###` heading, which would only
/// repeat it.
fn markdown_under(heading: &str, report: &dyn Report) -> anyhow::Result<String> {
    let sections = report.sections();
    let repeats = match sections.first() {
        Some(Section::Pairs { title, .. } | Section::Grid { title, .. }) => title == heading,
        _ => false,
    };
    let headings = match repeats {
        true => Headings::AfterFirst,
        false => Headings::All,
    };
    Ok(crate::output::markdown::sections(&sections, headings))
}

/// Prose for Markdown: a bare `<shard>` would be read as an HTML tag and
/// vanish in a viewer.
fn html_text(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
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
            "- **Reads:** without a cache every view reads all {}: {} shard reads/s; with each \
             of the {} servers caching the sum for {} s: {} shard reads/s.",
            super::verdict::shards(c.shards),
            fmt::num(c.reads_uncached_per_second),
            c.servers,
            fmt::num(c.cache_seconds),
            fmt::num(c.reads_cached_per_second)
        ),
    ];
    let warnings = warnings(doc);
    match warnings.is_empty() {
        true => lines.push("- **Warnings:** none.".into()),
        false => {
            lines.push("- **Warnings:**".into());
            lines.extend(warnings.iter().map(|w| format!("  - {w}")));
        }
    }
    lines
}

/// Every warning, the gravest first: a plan no count holds, each
/// constraint the judged count fails (with the seconds over the cap or the
/// writes rejected), then the recommendation's, the missing partitions and
/// the key placement's.
fn warnings(doc: &ReportDoc) -> Vec<String> {
    let r = &doc.size.recommendation;
    let verdict = doc.verdict();
    let mut warnings: Vec<String> = super::infeasible::infeasible_line(r).into_iter().collect();
    warnings.extend(
        verdict
            .constraints
            .iter()
            .filter(|c| c.fails())
            .map(|c| super::verdict::failure_words(&verdict, c)),
    );
    warnings.extend(r.warnings.iter().map(recommendation::warning_text));
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
    warnings
}

/// The report's text as it grows, a paragraph a push.
#[derive(Default)]
struct Page(String);

impl Page {
    /// One paragraph (a heading, prose, a table), a blank line after it.
    fn push(&mut self, text: &str) {
        self.0.push_str(text.trim_end());
        self.0.push_str("\n\n");
    }

    /// The text, ending in one newline.
    fn finish(self) -> String {
        let mut out = self.0.trim_end().to_string();
        out.push('\n');
        out
    }
}

/// The whole report.md text.
pub fn render(doc: &ReportDoc) -> anyhow::Result<String> {
    let mut page = Page::default();
    title(&mut page, doc);
    page.push("## Summary");
    page.push(&summary(doc).join("\n"));
    sizing(&mut page, &doc.size)?;
    if let Some((file, m)) = &doc.measurement {
        page.push("## Measurement");
        page.push(&super::measurement::intro(file, m));
        page.push(&markdown_under(
            "Measurement",
            &Sections(super::measurement::sections(m)),
        )?);
    }
    if !doc.reconciliations.is_empty() {
        page.push("## Reconciliation");
        for (file, r) in &doc.reconciliations {
            page.push(&super::reconcile::file_intro(file, r));
            page.push(&markdown_under(
                "Reconciliation",
                &Sections(super::reconcile::file_sections(r)),
            )?);
        }
    }
    if let Some(o) = &doc.observed {
        page.push("## Observed traffic");
        page.push(&markdown_under(
            "Observed traffic",
            &Sections(o.sections()),
        )?);
    }
    if let Some(u) = &doc.unlikes {
        page.push("## Unlikes");
        page.push(&markdown_under("Unlikes", &Sections(u.sections()))?);
    }
    risk_by_shard_count(&mut page, doc)?;
    page.push("## Simulation");
    match &doc.simulation {
        Simulation::Flat { report, chart } => flat_simulation(&mut page, report, chart)?,
        Simulation::Timeline { view, chart } => timeline_simulation(&mut page, view, chart)?,
    }
    pickers(&mut page, &doc.pickers)?;
    read_cost(&mut page, &doc.size)?;
    if let Some(p) = &doc.placement {
        page.push("## Key placement");
        page.push(
            "Where the shard keys land in the store (`shardplan keys`): shards that share a slot, \
             a node or a tablet take their writes together, and the cap applies to them as one.",
        );
        page.push(&markdown(&Sections(p.sections.clone()))?);
    }
    regenerate(&mut page, doc)?;
    Ok(page.finish())
}

/// The report's title, for the page and the HTML's `<title>`: the scenario
/// when the plan is its own, else the figures the flags set ("200,000
/// likes/s, cap 2,500/key (flags over viral-reel)").
pub fn title_text(doc: &ReportDoc) -> String {
    let h = &doc.heading;
    match h.flags.is_empty() {
        true => format!("Sharded counter capacity report: {}", h.scenario),
        false => format!(
            "Sharded counter capacity report: {} likes/s, cap {}/key (flags over {})",
            fmt::rate(h.likes),
            fmt::num(h.cap),
            h.scenario
        ),
    }
}

/// The plan in one line, from its resolved figures: "200,000 likes/s
/// planned, cap 2,500/key, 30.0% headroom, fixed traffic, sticky writers
/// (40 servers)".
fn plan_words(h: &Heading) -> String {
    use crate::model::sizing::SafeRate;
    let growth = match h.growth {
        Some((seen, g)) => format!(" ({}x the {}/s seen)", fmt::num(g), fmt::rate(seen)),
        None => String::new(),
    };
    let safe = match h.safe {
        SafeRate::Headroom(r) => format!("{} headroom", fmt::percent(r)),
        SafeRate::PerKey(s) => format!("safe {}/key", fmt::rate(s)),
    };
    format!(
        "{} likes/s planned{growth}, cap {}/key, {safe}, {} traffic{}",
        fmt::rate(h.likes),
        fmt::num(h.cap),
        h.traffic.name(),
        recommendation::writers(h.writers)
    )
}

/// The title and what leads the report, in order: the title, a plan no
/// count holds (its line the first paragraph: the first thing every
/// command that recommends a count says), the judged count's failure (every
/// constraint it fails, the writes rejected), the recommendation, and the
/// plan (the scenario's description only where the plan is the scenario's;
/// text from a file, escaped so `<img onerror=...>` shows as written).
fn title(page: &mut Page, doc: &ReportDoc) {
    let rec = &doc.size.recommendation;
    let infeasible = super::infeasible::infeasible_line(rec);
    page.push(&format!("# {}", html_text(&title_text(doc))));
    if let Some(line) = &infeasible {
        page.push(line);
    }
    let mut verdict = doc.verdict();
    if !verdict.holds {
        // The plan's infeasibility is the line above: said once.
        verdict.infeasible.clear();
        page.push(&format!("{}.", super::verdict::line(&verdict)));
    }
    if infeasible.is_none() {
        page.push(&doc.size.headline());
    }
    let h = &doc.heading;
    match (&h.description, h.flags.is_empty()) {
        (Some(d), true) => page.push(&html_text(d)),
        _ => page.push(&plan_words(h)),
    }
}

/// How the count is sized: the rule of thumb, the risk and the
/// partitions, then the recommendation's tables.
fn sizing(page: &mut Page, size: &SizeRow) -> anyhow::Result<()> {
    page.push("## Sizing");
    page.push(&format!(
        "The rule of thumb divides the planned peak by the safe rate per shard key and rounds up: \
         ceil({} / {}) = {}. With an accepted risk (`risk` in the scenario, `--risk` for \
         `shardplan size`) the per-key count is the fewest shards whose exact chance of any second \
         over the cap during the hot spell is within it; with `partitions`, the fewest from it on \
         whose shared partitions stay within it. The recommendation is the count every constraint \
         accepts.",
        fmt::rate(size.peak_writes),
        fmt::num(size.safe_per_shard),
        fmt::counted(size.recommendation.rule_of_thumb_shards, "shard", "shards"),
    ));
    page.push(&markdown_under(
        "Sizing",
        &Sections(size.sizing_sections()),
    )?);
    Ok(())
}

/// The sweep's table of risk by shard count, and its chart.
fn risk_by_shard_count(page: &mut Page, doc: &ReportDoc) -> anyhow::Result<()> {
    page.push("## Risk by shard count");
    page.push(
        "Exact chance that the busiest shard goes over the cap in one second, and in at least one \
         second of the hot spell, at the planned peak, with the shard reads each count costs \
         (`shardplan sweep`). A * marks a probability below f64's range, printed from its logarithm.",
    );
    page.push(&markdown(&SweepView(doc.sweep.clone()))?);
    page.push(&format!("![{}]({RISK_SVG})", doc.risk_title));
    Ok(())
}

/// A flat run: the Monte Carlo figures beside the exact ones, and the
/// busiest-shard histogram.
fn flat_simulation(
    page: &mut Page,
    report: &SimulateReport,
    chart: &(String, String),
) -> anyhow::Result<()> {
    page.push(
        "Monte Carlo of the busiest shard, second by second (`shardplan simulate`), with the \
         exact figures from the busiest shard's distribution beside it.",
    );
    page.push(&markdown(&Sections(report.figures()))?);
    page.push(
        "The histogram shows how often each busiest-shard count came up; the red line is \
         the cap, the green one the safe rate the sizing planned for.",
    );
    page.push(&format!("![{}]({BUSIEST_SVG})", chart.0));
    Ok(())
}

/// A time line: its view, and the chart of rate, shards and rejections.
fn timeline_simulation(
    page: &mut Page,
    view: &TimelineView,
    chart: &(String, String),
) -> anyhow::Result<()> {
    page.push(
        "The scenario is a time line (a rate curve, burst capacity or the hot-key monitor), \
         simulated second by second (`shardplan simulate`).",
    );
    page.push(&markdown(view)?);
    page.push(
        "The chart shows the rate, the shard count writers use and the writes the store \
         rejected, per second (each point the highest of its stretch of seconds when the run \
         is longer than 2,000 s).",
    );
    page.push(&format!("![{}]({TIMELINE_SVG})", chart.0));
    Ok(())
}

/// How the app servers pick a shard, side by side (`shardplan compare`'s
/// table).
fn pickers(
    page: &mut Page,
    (rows, seed): &(Vec<crate::model::picker::table::PickerRow>, u64),
) -> anyhow::Result<()> {
    let Some(mut section) = super::compare::pickers::section(rows, *seed) else {
        return Ok(());
    };
    // No picker reaches the risk within the limit: "their risk" would be
    // "-" on every row, so the column goes (the shards column says why).
    if rows.iter().all(|r| r.method.is_none()) {
        drop_column(&mut section, "their risk");
    }
    page.push("## How writers pick a shard");
    page.push(
        "Each like reaches one app server, which picks the shard: the shards each picker needs \
         at the plan's per-key risk and that risk (exact, exactly 0 where round-robin's bound \
         is under the cap, an upper bound, or random picks' law for two-choice, which has no \
         figure of its own), and a seeded simulation of each at the recommended count \
         (`shardplan compare`; docs/pickers.md).",
    );
    page.push(&markdown(&Sections(vec![section]))?);
    Ok(())
}

/// A grid without its column headed `name` (the grid as it was when it has
/// none).
fn drop_column(section: &mut Section, name: &str) {
    let Section::Grid {
        header,
        rows,
        secondary,
        ..
    } = section
    else {
        return;
    };
    let Some(i) = header.iter().position(|h| h == name) else {
        return;
    };
    header.remove(i);
    // The columns a narrow terminal leaves out, by index: those after it
    // move left.
    secondary.retain(|&c| c != i);
    secondary
        .iter_mut()
        .filter(|c| **c > i)
        .for_each(|c| *c -= 1);
    for row in rows.iter_mut().filter(|r| r.len() > i) {
        row.remove(i);
    }
}

/// The read cost at the recommended count, and the cost at the user's
/// prices when given.
fn read_cost(page: &mut Page, size: &SizeRow) -> anyhow::Result<()> {
    let rec = &size.recommendation;
    page.push("## Read cost");
    page.push(&format!(
        "Each read of the total sums every shard; at the recommended {} (`shardplan size`).",
        super::verdict::shards(rec.shards)
    ));
    page.push(&markdown_under(
        "Read cost",
        &Sections(vec![read_cost_section(&rec.reads)]),
    )?);
    if let Some(c) = crate::views::price::cost_section(&size.costs) {
        page.push(&markdown_under("Cost", &Sections(vec![c]))?);
    }
    Ok(())
}

/// What regenerates the report, and every input it used with its source.
fn regenerate(page: &mut Page, doc: &ReportDoc) -> anyhow::Result<()> {
    page.push("## Regenerate");
    page.push(&format!(
        "Written by shardplan {}: `{}` writes the same bytes. Every input it used, with its value \
         and where it came from (a scenario field, a store preset or the built-in default; what \
         `--explain` prints):",
        doc.version, doc.command
    ));
    page.push(&markdown(&Sections(vec![inputs::section(doc.inputs)]))?);
    Ok(())
}
