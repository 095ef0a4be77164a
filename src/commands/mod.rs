//! One module per subcommand: each turns raw flags (plus a scenario) into a
//! validated plan, runs it, and hands a [`crate::output::Report`] to the
//! output set.

pub mod chart;
pub mod compare;
pub mod docs;
pub mod fleet;
pub mod measure;
#[cfg(feature = "postgres")]
pub mod measure_postgres;
#[cfg(all(feature = "redis", feature = "postgres"))]
pub mod measure_reconcile;
pub mod placement;
pub mod reconcile;
pub mod report;
pub mod risk;
pub mod scenarios;
pub mod simulate;
pub mod size;
pub mod timeline;

use crate::cli::Cli;
use crate::config::options::Options;
use crate::config::Run;

/// Runs the parsed command line: one run's context ([`Run`]), and one
/// worker pool (`--threads`, else one worker per core) that the command and
/// everything it computes share.
pub fn dispatch(cli: Cli) -> anyhow::Result<()> {
    let run = Run::new(cli.command.name(), cli.color);
    plan_outputs(&cli.command, &run.claims);
    let threads = crate::config::load::threads(cli.command.threads())?;
    workers(threads)?.install(|| planned(Options::resolve(cli.command, &run)?))
}

/// Records every file the run will write before any input is read, so an
/// input that is also an output (`fleet --rates-csv r.csv -o r.csv`) is
/// refused as that, not for what it holds: `-o` and `--per-second`, and
/// the files of `report`'s folder (the default one without `-o`).
fn plan_outputs(command: &crate::cli::Command, claims: &crate::files::Claims) {
    use crate::output::sink::is_stdout;
    use crate::views::report::{html::HTML_FILE, BUSIEST_SVG, REPORT_FILE, RISK_SVG, TIMELINE_SVG};
    let outputs = command.outputs();
    for (flag, path) in &outputs {
        if !is_stdout(path) && !path.starts_with("/dev/") {
            claims.planned_output(flag, path);
        }
    }
    if let crate::cli::Command::Report(_) = command {
        let default = std::path::Path::new(crate::model::defaults::DEFAULT_REPORT_DIR);
        let dir = outputs.first().map_or(default, |(_, p)| p);
        for name in [REPORT_FILE, HTML_FILE, RISK_SVG, BUSIEST_SVG, TIMELINE_SVG] {
            claims.planned_output("--output", &dir.join(name));
        }
    }
}

/// The run's worker pool: `threads` workers (0: one per core). The command
/// runs on it, so the tables a run draws from and the run itself share the
/// same workers (a pool per stage spawned idle workers that spun beside the
/// busy ones, milliseconds of CPU a run); the pool is the run's, not the
/// process's.
fn workers(threads: usize) -> anyhow::Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        // The command runs on a worker: give it a main thread's stack.
        .stack_size(8 << 20)
        .build()
        .map_err(|e| anyhow::anyhow!("cannot start {threads} worker threads: {e}"))
}

/// One command from its plan, on the run's workers.
fn planned(options: Options) -> anyhow::Result<()> {
    match options {
        Options::Size(o) => size::run(o),
        Options::Simulate(o) => simulate::run(o),
        Options::Risk(o) => risk::run_risk(o),
        Options::Sweep(o) => risk::run_sweep(o),
        Options::Chart(o) => chart::run(o),
        Options::Report(o) => report::run(o),
        Options::Keys(o) => placement::run_keys(o),
        Options::Partitions(o) => placement::run_partitions(o),
        Options::Stores(o) => placement::run_stores(o),
        Options::Fleet(o) => fleet::run(o),
        Options::Compare(o) => compare::run(*o),
        Options::Reconcile(o) => reconcile::run(*o),
        Options::Resize(o) => timeline::run_resize(o),
        Options::Measure(o) => measure::run(o),
        Options::Scenarios(o) => scenarios::run(o),
        Options::Man(o) => docs::man(o),
        Options::Completions(o) => docs::completions(o),
        Options::Schema(o) => docs::schema(o),
    }
}

/// Writes a command's report with its resolved inputs to every output:
/// JSON carries them under `inputs`; with `--explain` tables and Markdown
/// open with them, and CSV/TSV (rows only) get them on stderr.
pub fn emit(
    out: crate::output::OutputSet,
    report: &dyn crate::output::Report,
    inputs: &crate::config::Inputs,
    explain: bool,
) -> anyhow::Result<()> {
    print_notices(inputs);
    if explain && out.has_rows_only() {
        explain_on_stderr(inputs, out.stderr_style())?;
    }
    let command = out.command();
    out.emit(&crate::views::inputs::WithInputs {
        report,
        inputs,
        explain,
        command,
    })
}

/// The "Unlikes" block for `shards` shards, when the sizing planned
/// unlikes (`--unlike-share`); a cool-down past the exact sum's reach is
/// the error of the flag or field that set it.
pub fn unlikes_block(
    (inputs, unlikes): (
        &crate::config::Inputs,
        Option<crate::config::unlikes::UnlikePlan>,
    ),
    plan: &crate::config::plan::Plan,
    shards: u64,
) -> crate::error::InputResult<Option<crate::views::unlikes::UnlikesBlock>> {
    let (peak, picker) = (&plan.sizing.peak, plan.inputs.writers.picker);
    // A cool-down too long for the exact sum names the input the user set.
    let blame = |e: crate::error::ParamError| {
        let given = ["cool_down_rate", "cool_down_seconds"]
            .into_iter()
            .find_map(|k| {
                inputs
                    .source(k)
                    .filter(|s| !matches!(s, crate::config::Source::Default))
            });
        match given {
            Some(source) => crate::error::InputError::new(source, e.problem),
            None => inputs.attach(e),
        }
    };
    unlikes
        .map(|u| {
            crate::views::unlikes::UnlikesBlock::new(&u, peak, shards)
                .map(|b| b.with_picker(picker))
                .map_err(blame)
        })
        .transpose()
}

/// Say a long run's estimate on stderr before it starts (unless `quiet`).
pub fn announce(cost: crate::model::cost::Estimate, quiet: bool) {
    let threads = rayon::current_num_threads();
    let cost = cost.on_threads(threads);
    if cost.worth_announcing() && !quiet {
        eprintln!(
            "shardplan: this run should take about {} on {} (the cost model's estimate); Ctrl-C \
             stops it",
            crate::output::fmt::rough_duration(cost.seconds),
            crate::output::fmt::counted(threads as u64, "worker thread", "worker threads"),
        );
    }
}

/// A bar over a Monte Carlo run's simulated seconds (`work`: the seconds
/// and the cost model's estimate of them), drawn past a second of work,
/// the estimate said first past a minute: as `simulate` does, for the
/// pickers' runs of `risk --picker`, `compare` and `report`.
pub fn simulated_seconds_bar(
    (seconds, cost): (u64, crate::model::cost::Estimate),
    quiet: bool,
) -> indicatif::ProgressBar {
    announce(cost, quiet);
    crate::output::progress::bar(seconds, "simulated seconds", !quiet && cost.seconds > 1.0)
}

/// Warnings about accepted inputs, on stderr, once all have passed their
/// checks (so a refused run prints its one error line only).
pub fn print_notices(inputs: &crate::config::Inputs) {
    for n in inputs.notices() {
        eprintln!("shardplan: warning: {n}");
    }
}

/// The inputs table on stderr: `--explain` for outputs with no place for
/// it (CSV and TSV rows, an SVG chart, a report folder).
pub fn explain_on_stderr(
    inputs: &crate::config::Inputs,
    style: crate::output::terminal::Style,
) -> anyhow::Result<()> {
    use crate::output::Exporter;
    let table = crate::views::Sections(vec![crate::views::inputs::section(inputs)]);
    let exporter = crate::output::table::TableExporter { style };
    let text = exporter.render(&table)?;
    eprint!("{}", String::from_utf8_lossy(&text));
    Ok(())
}

/// The plan's verdict on `shards` (the one every command that judges a
/// count shows).
pub fn plan_verdict(
    plan: &crate::config::plan::Plan,
    shards: u64,
) -> crate::error::ParamResult<crate::model::verdict::Verdict> {
    plan.inputs.verdict(shards, &plan.recommendation)
}

/// `--check`: exit 1 (with the verdict's line) when the count does not hold
/// the plan; the output is written first.
pub fn check(asked: bool, holds: bool, line: &str) -> anyhow::Result<()> {
    if asked && !holds {
        anyhow::bail!("check failed: {line}");
    }
    Ok(())
}
