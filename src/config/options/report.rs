//! `report`'s plan: the plans `size`, `sweep` and `simulate` resolve, from
//! the same flags over the same scenario, where the keys land, the prices,
//! `--measure`'s measurement, the command line that writes the report
//! again, and the report folder with its files opened. Everything is
//! resolved and validated before the folder is touched.

use std::path::{Path, PathBuf};

use super::Resolved;
use super::RiskSweep;
use crate::cli::ReportArgs;
use crate::config::plan::{Plan, PlanFlags};
use crate::config::simulation::FlatSimulation;
use crate::config::{Kind, Loaded, Resolver, Run, Sourced};
use crate::error::{InputError, InputResult};
use crate::measure::Measurement;
use crate::model::cost::Estimate;
use crate::model::price::Prices;
use crate::model::timeline::TimelinePlan;
use crate::output::output_folder::OutputFolder;
use crate::output::terminal::Style;
use crate::views::charts::shard_counts_around;
use crate::views::report::{
    placement_sections, Placement, BUSIEST_SVG, REPORT_FILE, RISK_SVG, TIMELINE_SVG,
};

/// `shardplan report`, resolved.
pub struct ReportOptions {
    /// The scenario, named without this machine's folders.
    pub scenario: Loaded,
    /// The plan `size` resolves for the scenario, and its one
    /// recommendation.
    pub plan: Plan,
    /// What the report simulates.
    pub simulation: SimulationPlan,
    /// The risk table's shard counts: around the recommendation, at the
    /// planned rate.
    pub sweep: RiskSweep,
    /// Where the judged count's keys land, when the scenario names keys or
    /// a store.
    pub placement: Option<Placement>,
    /// The user's prices.
    pub prices: Prices,
    /// `--measure FILE`: the file as shown and what it measured.
    pub measurement: Option<(String, Measurement)>,
    /// `--reconcile-from FILE`s: each file as shown and its reconciliation.
    pub reconciliations: Vec<(String, crate::measure::reconcile::ReconcileFile)>,
    /// The command line that writes this report again.
    pub command: String,
    /// The report folder, its files opened.
    pub folder: ReportFolder,
    /// The plan's inputs the command line set over the scenario: the
    /// report is titled by its figures when there are any.
    pub flags_over_scenario: Vec<&'static str>,
    /// The inputs, frozen.
    pub resolved: Resolved,
    /// `--explain`: the inputs table on stderr as well (report.md holds it).
    pub explain: bool,
    /// How that table is drawn on stderr.
    pub stderr: Style,
    /// `--quiet`: no progress, no closing line.
    pub quiet: bool,
    /// `--check`: exit 1 when the judged count does not hold the plan.
    pub check: bool,
}

/// What the report simulates: a flat load at the judged count, or the
/// scenario's time line.
pub enum SimulationPlan {
    /// A flat Monte Carlo run.
    Flat(Box<FlatSimulation>),
    /// A time line.
    Timeline(Box<TimelinePlan>),
}

impl SimulationPlan {
    /// The count the report judges: the simulated one (flat), else the
    /// recommendation.
    pub fn judged(&self, plan: &Plan) -> u64 {
        match self {
            SimulationPlan::Flat(sim) => sim.plan.shards,
            SimulationPlan::Timeline(_) => plan.recommendation.shards,
        }
    }

    /// What the simulation will cost, by the cost model.
    pub fn cost(&self) -> Estimate {
        match self {
            SimulationPlan::Flat(sim) => sim.plan.cost(false),
            SimulationPlan::Timeline(plan) => plan.cost(),
        }
    }

    /// The input a long report is blamed on: the simulation's seconds when
    /// it costs more than the risk table (`sweep`), else the peak.
    fn longest(&self, sweep: Estimate) -> &'static str {
        match self.cost().seconds >= sweep.seconds {
            true => "seconds",
            false => "peak",
        }
    }
}

/// The report folder (`-o DIR`, default `report/`) and its four files,
/// checked: report.md, report.html, risk.svg and the simulation's chart.
pub struct ReportFolder {
    /// The folder as given.
    pub dir: PathBuf,
    /// The folder, nothing written yet.
    pub folder: OutputFolder,
    /// busiest.svg (flat) or timeline.svg.
    pub simulation: &'static str,
}

impl ReportOptions {
    pub fn new(args: ReportArgs, run: &Run) -> InputResult<Self> {
        let mut r = Resolver::for_load(run, &args.sim.scenario, "report")?;
        name_scenario_portably(&mut r);
        // The flags `size` and `simulate` take, over the scenario, as there.
        let (simulation, plan, seconds) = simulation_and_plan(&args, &mut r)?;
        // After the sizing: empirical traffic grows the trace to its peak.
        let traffic = r.traffic(args.sim.traffic.traffic, args.sim.traffic.dispersion)?;
        let placement = placement(&args, &mut r, simulation.judged(&plan))?;
        // The price flags over the scenario's [prices] section, as for size.
        let prices = r.prices(&args.prices, "report")?;
        let measurement = measurement(&args, &mut r)?;
        let reconciliations = reconciliations(&args, &mut r)?;
        let dir = folder(&args)?;
        let rate = crate::model::recommendation::planned_rate(plan.sizing.peak.peak, traffic);
        let like_rate = plan.sizing.peak.likes;
        let counts = shard_counts_around(plan.recommendation.shards);
        // The risk table is exact: at a huge fixed peak it takes a while.
        let cost = crate::model::cost::sweep(rate, &counts, traffic)
            .within_limit("peak")
            .map_err(|e| r.blame(e))?;
        // Over an hour, only with --long-run; the folder is checked after.
        simulation
            .cost()
            .then(cost)
            .on_workers()
            .within_short_run(simulation.longest(cost), args.long_run.long_run)
            .map_err(|e| r.blame(e))?;
        let timeline = matches!(simulation, SimulationPlan::Timeline(_));
        let folder = open_folder(run, dir, timeline)?;
        Ok(ReportOptions {
            scenario: r.scenario.clone(),
            plan,
            simulation,
            sweep: RiskSweep {
                rate,
                like_rate,
                counts,
                seconds,
                traffic,
                cost,
            },
            placement,
            prices,
            measurement,
            reconciliations,
            command: regenerate_command(
                &std::env::args_os()
                    .map(|a| a.to_string_lossy().into_owned())
                    .collect::<Vec<_>>(),
            ),
            folder,
            flags_over_scenario: flags_over_scenario(&r.inputs),
            resolved: r.finish(),
            explain: args.explain.explain,
            stderr: Style::plain(run.color),
            quiet: args.quiet.quiet,
            check: args.check.check,
        })
    }
}

/// Inputs that change no figure of the plan the scenario describes: the
/// scenario itself, the simulation's length, seed and sampler, the prices
/// and a measurement read back. A flag for one of them leaves the
/// scenario's description true.
const NOT_THE_PLAN: &[&str] = &[
    "scenario",
    "seconds",
    "seed",
    "sampler",
    "measure",
    "reconcile_from",
    "write_price",
    "read_price",
    "daily_likes",
    "daily_views",
];

/// The plan's inputs the command line gave (a flag, a file or trace a flag
/// named, a store preset `--store` named), in the order resolved.
fn flags_over_scenario(inputs: &crate::config::Inputs) -> Vec<&'static str> {
    fn given(source: &crate::config::Source) -> bool {
        use crate::config::Source;
        match source {
            Source::Flag(_) | Source::File { .. } | Source::Env(_) => true,
            Source::Trace { by, .. } | Source::Preset { named_by: by, .. } => given(by),
            Source::Scenario { .. } | Source::Derived(_) | Source::Default => false,
        }
    }
    inputs
        .entries()
        .iter()
        .filter(|e| !NOT_THE_PLAN.contains(&e.key) && given(&e.source))
        .map(|e| e.key)
        .collect()
}

/// A design doc is shared: it names the scenario file without this
/// machine's folders (relative to here, else by its name alone).
fn name_scenario_portably(r: &mut Resolver) {
    let portable = portable_path(&r.scenario.file);
    if portable == r.scenario.file {
        return;
    }
    // Files the scenario names are still read beside the real file.
    r.scenario_folder = Path::new(&r.scenario.file).parent().map(Path::to_path_buf);
    let source = r.inputs.source("scenario").cloned();
    r.scenario.name = portable.clone();
    r.scenario.file = portable.clone();
    if let Some(source) = source {
        r.inputs.record("scenario", &Sourced::new(portable, source));
    }
}

/// The simulation (a time line when the scenario describes one or a
/// time-line flag is given, else a flat load), the plan `size` resolves
/// for the scenario, and the hot spell in seconds.
fn simulation_and_plan(
    args: &ReportArgs,
    r: &mut Resolver,
) -> InputResult<(SimulationPlan, Plan, f64)> {
    let sim = &args.sim;
    let timeline = r.scenario.describes(Kind::TimeLine) || args.timeline.any();
    if timeline && args.timeline.replay {
        r.keep_trace = true;
        r.observe(&args.observed, Some(&sim.sizing))?;
    } else if timeline {
        crate::config::observed::refuse_on_timeline(&args.observed)?;
    } else {
        r.observe(&args.observed, Some(&sim.sizing))?;
    }
    let seconds = r.duration(args.duration.seconds())?;
    let plan_flags = PlanFlags::new(&args.plan, &args.duration, &sim.traffic);
    if timeline {
        let simulation = SimulationPlan::Timeline(Box::new(r.timeline(sim, &args.timeline)?));
        // The same plan `size` resolves for the scenario: one recommendation.
        let plan = r.plan(&sim.sizing, &sim.reads, plan_flags)?;
        return Ok((simulation, plan, seconds));
    }
    let flat = r.flat_simulation(sim, false, Some(&args.plan), args.duration.seconds())?;
    let plan = flat.recommended.clone();
    Ok((SimulationPlan::Flat(Box::new(flat)), plan, seconds))
}

/// Where the judged count's keys land: --template, --nodes and --store over
/// the scenario's (the plan has checked the flags already); a template or
/// node count the placement refuses names its scenario field.
fn placement(args: &ReportArgs, r: &mut Resolver, shards: u64) -> InputResult<Option<Placement>> {
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
    let placement = placement_sections(&placed, shards)?;
    let s = &r.scenario.scenario;
    let t = Sourced::flag("--template", template.clone());
    if let Some(t) = t.or(r.field("key_template", &s.key_template)) {
        r.inputs.record("key_template", &t);
    }
    if let Some(n) = Sourced::flag("--nodes", nodes).or(r.field("nodes", &s.nodes)) {
        r.inputs.record("nodes", &n);
    }
    Ok(placement)
}

/// `--measure FILE`: the measurement read back, the file named without this
/// machine's folders.
fn measurement(args: &ReportArgs, r: &mut Resolver) -> InputResult<Option<(String, Measurement)>> {
    match &args.measure.measure {
        Some(path) => measurement_file(path, r).map(Some),
        None => Ok(None),
    }
}

/// `--reconcile-from FILE`s: each reconciliation read back, recorded in
/// the inputs; the files named without this machine's folders.
fn reconciliations(
    args: &ReportArgs,
    r: &mut Resolver,
) -> InputResult<Vec<(String, crate::measure::reconcile::ReconcileFile)>> {
    let flag = "--reconcile-from";
    let mut out = Vec::new();
    for path in &args.reconcile_from {
        let bytes = crate::config::measured::read_measure_file(&r.claims, flag, path)?;
        let file = crate::measure::reconcile::reconcile_from_json(flag, path, &bytes)?;
        out.push((portable_path(&path.display().to_string()), file));
    }
    if !out.is_empty() {
        let shown: Vec<&str> = out.iter().map(|(s, _)| s.as_str()).collect();
        r.inputs.record(
            "reconcile_from",
            &Sourced::from_flag(flag, shown.join(", ")),
        );
    }
    Ok(out)
}

/// The measurement in `path` (`--measure`), recorded in the inputs; the
/// file named without this machine's folders.
pub(super) fn measurement_file(
    path: &Path,
    r: &mut Resolver,
) -> InputResult<(String, Measurement)> {
    let bytes = crate::config::measured::read_measure_file(&r.claims, "--measure", path)?;
    let m = crate::measure::measurement_from_json("--measure", path, &bytes)?;
    let shown = portable_path(&path.display().to_string());
    r.inputs
        .record("measure", &Sourced::from_flag("--measure", shown.clone()));
    Ok((shown, m))
}

/// `-o DIR`, else the default folder; standard output cannot hold a folder.
fn folder(args: &ReportArgs) -> InputResult<PathBuf> {
    let dir = args
        .output
        .one()?
        .cloned()
        .unwrap_or_else(|| crate::model::defaults::DEFAULT_REPORT_DIR.into());
    if crate::output::sink::is_stdout(&dir) {
        return Err(InputError::new(
            "--output",
            "report writes a folder (report.md and its SVG charts); give a folder name, not standard output",
        ));
    }
    Ok(dir)
}

/// The folder and its four files checked (nothing made or replaced until
/// the report commits them).
fn open_folder(run: &Run, dir: PathBuf, timeline: bool) -> InputResult<ReportFolder> {
    let simulation = if timeline { TIMELINE_SVG } else { BUSIEST_SVG };
    let names = [
        REPORT_FILE,
        RISK_SVG,
        simulation,
        crate::views::report::html::HTML_FILE,
    ]
    .map(String::from);
    let folder = OutputFolder::open(&run.claims, "--output", &dir, &names)?;
    Ok(ReportFolder {
        dir,
        folder,
        simulation,
    })
}

/// `path` without the folders of this machine: relative to the current
/// folder when it is under it, else its file name.
fn portable_path(path: &str) -> String {
    let p = Path::new(path);
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

/// Flags whose value is a file or folder of this machine: the regenerate
/// line names them as the scenario is named ([`portable_path`]).
const PATH_FLAGS: &[&str] = &[
    "--scenario",
    "--traffic-from",
    "--measure",
    "--cap-from-measure",
    "--output",
];

/// The command line that writes this report again: every input flag as
/// typed after `report` (global flags before it change no byte of the
/// report), each quoted for a POSIX shell, files and the report folder
/// named without this machine's folders, so that run here it writes the
/// same folder. `-q` is left out: progress changes no byte.
fn regenerate_command(argv: &[String]) -> String {
    let after = argv
        .iter()
        .position(|a| a == "report")
        .map_or(&argv[..0], |i| &argv[i + 1..]);
    let takes_value = long_flags_taking_a_value();
    let mut words = vec!["shardplan".to_string(), "report".to_string()];
    let mut args = after.iter();
    while let Some(a) = args.next() {
        if let Some(long) = a.strip_prefix("--").filter(|l| !l.is_empty()) {
            let (name, inline) = match long.split_once('=') {
                Some((name, v)) => (name, Some(v)),
                None => (long, None),
            };
            let flag = format!("--{name}");
            if flag == "--quiet" {
                continue;
            }
            if PATH_FLAGS.contains(&flag.as_str()) {
                let value = inline.map(str::to_string).or_else(|| args.next().cloned());
                words.push(flag);
                words.extend(value.map(|v| shell_quote(&portable_path(&v))));
                continue;
            }
            words.push(shell_quote(a));
            // A value that looks like a flag (`--template -q`) is the
            // value's, not a flag.
            if inline.is_none() && takes_value.contains(&name.to_string()) {
                words.extend(args.next().map(|v| shell_quote(v)));
            }
            continue;
        }
        // `-q` and `-o` are report's short flags, alone or together
        // (`-qo DIR`, `-oDIR`, `-o=DIR`): `-q` is left out, `-o`'s folder is
        // named as the files are.
        let short = a
            .strip_prefix('-')
            .filter(|s| !s.is_empty() && !s.starts_with('-'))
            .map(|s| s.trim_start_matches('q'));
        match short {
            Some("") => {}
            Some(o) if o.starts_with('o') => {
                let inline = o[1..].strip_prefix('=').unwrap_or(&o[1..]);
                let value = match inline.is_empty() {
                    true => args.next().cloned(),
                    false => Some(inline.to_string()),
                };
                words.push("-o".to_string());
                words.extend(value.map(|v| shell_quote(&portable_path(&v))));
            }
            _ => words.push(shell_quote(a)),
        }
    }
    words.join(" ")
}

/// The long flags of `report` that take a value (`--seconds 60`), from the
/// flag definitions themselves.
fn long_flags_taking_a_value() -> Vec<String> {
    use clap::CommandFactory;
    let mut cli = crate::cli::Cli::command();
    cli.build();
    let Some(report) = cli.find_subcommand("report") else {
        return Vec::new();
    };
    report
        .get_arguments()
        .filter(|a| a.get_action().takes_values())
        .filter_map(|a| a.get_long().map(str::to_string))
        .collect()
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

#[cfg(test)]
mod tests {
    use super::*;

    fn line(words: &[&str]) -> String {
        let argv: Vec<String> = ["shardplan", "report"]
            .iter()
            .chain(words)
            .map(|w| w.to_string())
            .collect();
        regenerate_command(&argv)
    }

    #[test]
    fn the_report_folder_is_named_however_it_was_spelled() {
        for spelled in [
            &["--seconds", "60", "-o", "out/r"][..],
            &["--seconds", "60", "--output", "out/r"],
            &["--seconds", "60", "--output=out/r"],
            &["--seconds", "60", "-oout/r"],
            &["--seconds", "60", "-o=out/r"],
            &["--seconds", "60", "-qo", "out/r"],
            &["--seconds", "60", "-q", "-o", "out/r", "--quiet"],
        ] {
            let expected = match spelled[2].starts_with("--output") {
                true => "shardplan report --seconds 60 --output out/r",
                false => "shardplan report --seconds 60 -o out/r",
            };
            assert_eq!(line(spelled), expected, "{spelled:?}");
        }
    }

    #[test]
    fn no_folder_given_is_the_default_folder_again() {
        assert_eq!(line(&["-q", "--seed", "7"]), "shardplan report --seed 7");
    }

    #[test]
    fn a_value_that_looks_like_a_short_flag_is_kept() {
        assert_eq!(
            line(&["--template", "-oops", "-o", "r"]),
            "shardplan report --template -oops -o r"
        );
        assert_eq!(
            line(&["--template", "-q x", "-q"]),
            "shardplan report --template '-q x'"
        );
    }

    #[test]
    fn a_folder_outside_here_is_named_by_its_name() {
        let outside = std::env::temp_dir().join("shardplan-report-folder");
        let o = outside.to_str().unwrap();
        if !outside.starts_with(std::env::current_dir().unwrap()) {
            assert_eq!(
                line(&["-o", o]),
                "shardplan report -o shardplan-report-folder"
            );
        }
    }
}
