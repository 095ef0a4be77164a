//! `shardplan report`: a Markdown design doc (report.md) and the SVG charts
//! it links to, written to one folder. It resolves the plans `size`,
//! `sweep` and `simulate` resolve, from the same flags over the same
//! scenario, and assembles their views.

use crate::cli::ReportArgs;
use crate::config::plan::PlanFlags;
use crate::config::Run;
use crate::config::{Resolver, Sourced};
use crate::error::InputError;
use crate::model::defaults::{DEFAULT_RISK, MAX_TIMELINE_POINTS};
use crate::model::timeline::grid::grid_around;
use crate::output::sink::AtomicFile;
use crate::views::charts::{self, Downsampler};
use crate::views::report::{
    placement_sections, render, ReportDoc, Simulation, BUSIEST_SVG, REPORT_FILE, RISK_SVG,
    TIMELINE_SVG,
};
use crate::views::size::SizeRow;
use crate::views::timeline::TimelineView;

pub fn run(args: ReportArgs, run: &Run) -> anyhow::Result<()> {
    let mut r = Resolver::for_load(run, &args.sim.scenario, "report")?;
    // A design doc is shared: it names the scenario file without this
    // machine's folders (relative to here, else by its name alone).
    let portable = portable_path(&r.scenario.file);
    if portable != r.scenario.file {
        // Files the scenario names are still read beside the real file.
        r.scenario_folder = std::path::Path::new(&r.scenario.file)
            .parent()
            .map(std::path::Path::to_path_buf);
        let source = r.inputs.source("scenario").cloned();
        r.scenario.name = portable.clone();
        r.scenario.file = portable.clone();
        if let Some(source) = source {
            r.inputs
                .record("scenario", &crate::config::Sourced::new(portable, source));
        }
    }
    // Everything is resolved and validated before the folder is touched:
    // the flags `size` and `simulate` take, over the scenario, as there.
    let sim_flags = &args.sim;
    let timeline = r.scenario.describes(crate::config::Kind::TimeLine) || args.timeline.any();
    if timeline && args.timeline.replay {
        r.keep_trace = true;
        r.observe(&args.observed, Some(&sim_flags.sizing))?;
    } else if timeline {
        crate::config::observed::refuse_on_timeline(&args.observed)?;
    } else {
        r.observe(&args.observed, Some(&sim_flags.sizing))?;
    }
    let seconds = r.duration(args.duration.seconds())?;
    let plan_flags = PlanFlags::new(&args.plan, &args.duration, &sim_flags.traffic);
    let (flat, tl) = if timeline {
        (None, Some(r.timeline(sim_flags, &args.timeline)?))
    } else {
        let sim = r.flat_simulation(sim_flags, false, Some(&args.plan), args.duration.seconds())?;
        (Some(sim), None)
    };
    // The same plan `size` resolves for the scenario: one recommendation.
    let plan = match &flat {
        Some(sim) => sim.recommended.clone(),
        None => r.plan(&sim_flags.sizing, &sim_flags.reads, plan_flags)?,
    };
    // After the sizing: empirical traffic grows the trace to its peak.
    let traffic = r.traffic(sim_flags.traffic.traffic, sim_flags.traffic.dispersion)?;
    let rec = plan.recommendation.clone();
    let plan_peak = plan.sizing.peak.peak;
    // Where the keys land: --template, --nodes and --store over the
    // scenario's (the plan has checked the flags already).
    let mut placed = r.scenario.clone();
    let (template, nodes) = (&args.plan.template.template, args.plan.nodes.nodes);
    if let Some(t) = template {
        placed.scenario.key_template = Some(t.clone());
    }
    if let Some(n) = nodes {
        placed.scenario.nodes = Some(n);
    }
    if let Some(store) = args.sim.sizing.store.store {
        placed.scenario.store_preset = Some(store);
    }
    // Where the judged count's keys land: the simulated count (flat), else
    // the recommendation.
    let placed_shards = flat.as_ref().map_or(rec.shards, |sim| sim.plan.shards);
    let placement = placement_sections(&placed, placed_shards)?;
    let s = r.scenario.scenario.clone();
    let t = Sourced::flag("--template", template.clone());
    if let Some(t) = t.or(r.field("key_template", &s.key_template)) {
        r.inputs.record("key_template", &t);
    }
    if let Some(n) = Sourced::flag("--nodes", nodes).or(r.field("nodes", &s.nodes)) {
        r.inputs.record("nodes", &n);
    }

    // The price flags over the scenario's [prices] section, as for size.
    let prices = r.prices(&args.prices, "report")?;
    let measurement = match &args.measure {
        Some(path) => {
            let bytes = crate::measure::read_measure_file(&r.claims, "--measure", path)?;
            let m = crate::measure::measurement_from_json("--measure", path, &bytes)?;
            let shown = portable_path(&path.display().to_string());
            r.inputs.record(
                "measure",
                &crate::config::Sourced::from_flag("--measure", shown.clone()),
            );
            Some((shown, m))
        }
        None => None,
    };
    let dir = args
        .output
        .one()?
        .cloned()
        .unwrap_or_else(|| crate::model::defaults::DEFAULT_REPORT_DIR.into());
    if crate::output::sink::is_stdout(&dir) {
        return Err(InputError::new(
            "--output",
            "report writes a folder (report.md and its SVG charts); give a folder name, not standard output",
        )
        .into());
    }
    super::print_notices(&r.inputs);
    crate::output::sink::prepare_dir("--output", &dir)?;
    let open = |name: &str| AtomicFile::create(&run.claims, "--output", &dir.join(name));
    let mut md_file = open(REPORT_FILE)?;
    let mut risk_file = open(RISK_SVG)?;
    let mut sim_file = open(if timeline { TIMELINE_SVG } else { BUSIEST_SVG })?;

    let size = SizeRow::new(
        &r.scenario.name,
        &plan.sizing.peak,
        &plan.sizing.plan,
        rec.clone(),
        None,
    )
    .priced(&prices, plan.sizing.writes_per_like());
    let rate = crate::model::recommendation::planned_rate(plan.sizing.peak.peak, traffic);
    let around = charts::shard_counts_around(rec.shards);
    // The chart's sweep is exact: at a huge fixed peak it takes a while.
    let cost = crate::model::cost::sweep(rate, &around, traffic)
        .within_limit("peak")
        .map_err(|e| r.blame(e))?;
    super::announce(cost, args.quiet.quiet);
    let sweep = super::risk::sweep_rows(
        rate,
        &around,
        plan.sizing.plan.cap,
        (seconds, traffic),
        &plan.reads,
        &|| {},
    )?;
    // The accepted risk, or 1% as a reference line when the plan has none.
    let accepted = rec.risk.unwrap_or(DEFAULT_RISK);
    let counts: Vec<u64> = sweep.iter().map(|row| row.risk.shards).collect();
    let curve = plan
        .inputs
        .partition_curve(&counts)
        .map_err(|e| r.blame(e))?;
    // The count the report judges: the simulated one (flat), else the
    // recommendation; the risk chart's footer is the plan's verdict on it.
    let judged = flat.as_ref().map_or(rec.shards, |sim| sim.plan.shards);
    let plan_verdict = super::plan_verdict(&plan, judged).map_err(|e| r.blame(e))?;
    let risk_chart = charts::risk_svg(
        &sweep,
        Some(accepted),
        Some(rec.shards),
        curve.as_deref(),
        Some(&plan_verdict),
    )?;
    let simulation = match (&flat, &tl) {
        (Some(sim), _) => {
            let tally = super::simulate::execute(&sim.plan, args.quiet.quiet, None)?;
            let report = crate::views::simulate::SimulateReport::new(
                r.scenario.name.clone(),
                &sim.plan,
                &tally,
                sim.reads.cost(sim.plan.shards),
            )
            .with_verdict(
                rec.clone(),
                super::simulate::verdict(&plan, &sim.plan, &tally).map_err(|e| r.blame(e))?,
            );
            let safe = sim.sizing.plan.safe_per_shard();
            Simulation::Flat {
                chart: charts::busiest_svg(&sim.plan, safe, &tally, report.verdict.as_ref())?,
                report: Box::new(report),
            }
        }
        (None, Some(plan)) => {
            let mut points = Downsampler::new(plan.seconds, MAX_TIMELINE_POINTS);
            let report = crate::model::timeline::run_with_rows(plan, |row| {
                points.push(row);
                Ok::<(), std::convert::Infallible>(())
            })?;
            Simulation::Timeline {
                chart: charts::timeline_svg(&r.scenario.name, &points.finish())?,
                view: Box::new(TimelineView {
                    scenario: r.scenario.name.clone(),
                    report,
                    grid: grid_around(plan).map_err(|e| r.inputs.attach(e))?,
                    recommendation: Some((rec.clone(), plan_peak)),
                }),
            }
        }
        (None, None) => unreachable!("a report simulates a flat load or a time line"),
    };
    let doc = ReportDoc {
        scenario: &r.scenario,
        inputs: &r.inputs,
        size,
        observed: r
            .observed
            .as_deref()
            .map(crate::views::observed::ObservedTraffic::new),
        unlikes: super::unlikes_block((&r.inputs, r.unlike_plan), &plan.sizing.peak, rec.shards)?,
        version: env!("CARGO_PKG_VERSION"),
        command: regenerate_command(
            &std::env::args_os()
                .map(|a| a.to_string_lossy().into_owned())
                .collect::<Vec<_>>(),
        ),
        sweep,
        risk_title: risk_chart.0.clone(),
        simulation,
        placement,
        measurement,
    };
    let verdict = doc.verdict();
    let text = render(&doc)?;
    md_file.write_all(text.as_bytes())?;
    risk_file.write_all(risk_chart.1.as_bytes())?;
    let sim_svg = match &doc.simulation {
        Simulation::Flat { chart, .. } | Simulation::Timeline { chart, .. } => &chart.1,
    };
    sim_file.write_all(sim_svg.as_bytes())?;
    // Charts first, the report last: a report never links to a missing chart.
    risk_file.commit()?;
    sim_file.commit()?;
    md_file.commit()?;
    if args.explain.explain {
        super::explain_on_stderr(&r.inputs, crate::output::terminal::Style::plain(run.color))?;
    }
    if !args.quiet.quiet {
        eprintln!("wrote {} and its charts to {}", REPORT_FILE, dir.display());
    }
    let line = crate::views::verdict::line(&verdict);
    super::check(args.check.check, verdict.holds, &line)
}

/// The command line that writes this report again (the seed and seconds
/// only when given; every other input is in the scenario).
/// `path` without the folders of this machine: relative to the current
/// folder when it is under it, else its file name.
fn portable_path(path: &str) -> String {
    let p = std::path::Path::new(path);
    if !p.is_absolute() {
        return path.to_string();
    }
    let relative = std::env::current_dir()
        .ok()
        .and_then(|here| p.strip_prefix(here).ok().map(|r| r.display().to_string()));
    relative
        .or_else(|| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| path.to_string())
}

/// Flags whose value is a file of this machine: the regenerate line names
/// them as the scenario is named ([`portable_path`]).
const PATH_FLAGS: &[&str] = &[
    "--scenario",
    "--traffic-from",
    "--measure",
    "--cap-from-measure",
];

/// The command line that writes this report again: every input flag as
/// typed after `report` (global flags before it change no byte of the
/// report), each quoted for a POSIX shell, files named without this
/// machine's folders. Where the report goes and whether progress shows
/// (`-o`, `-q`) are left out: they change no byte, and a report written to
/// two folders stays the same file.
fn regenerate_command(argv: &[String]) -> String {
    let after = argv
        .iter()
        .position(|a| a == "report")
        .map_or(&argv[..0], |i| &argv[i + 1..]);
    let mut words = vec!["shardplan".to_string(), "report".to_string()];
    let mut args = after.iter();
    while let Some(a) = args.next() {
        let (flag, inline) = match a.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v)),
            _ => (a.as_str(), None),
        };
        if matches!(flag, "-q" | "--quiet") {
            continue;
        }
        if matches!(flag, "-o" | "--output") {
            if inline.is_none() {
                args.next();
            }
            continue;
        }
        if flag.starts_with("-o") && !flag.starts_with("--") {
            continue; // -oDIR
        }
        if PATH_FLAGS.contains(&flag) {
            let value = match inline {
                Some(v) => Some(v.to_string()),
                None => args.next().cloned(),
            };
            words.push(flag.to_string());
            if let Some(v) = value {
                words.push(shell_quote(&portable_path(&v)));
            }
            continue;
        }
        words.push(shell_quote(a));
    }
    words.join(" ")
}

/// `word` as a POSIX shell reads it back: as is when it holds only safe
/// characters, else in single quotes (a quote inside as `'\''`).
fn shell_quote(word: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "@%+=:,./_-".contains(c);
    match !word.is_empty() && word.chars().all(safe) {
        true => word.to_string(),
        false => format!("'{}'", word.replace('\'', "'\\''")),
    }
}
