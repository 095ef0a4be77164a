//! One module per subcommand: each turns raw flags (plus a scenario) into a
//! validated plan, runs it, and hands a [`crate::output::Report`] to the
//! output set.

pub mod chart;
pub mod compare;
pub mod docs;
pub mod fleet;
pub mod measure;
pub mod measure_postgres;
pub mod placement;
pub mod report;
pub mod risk;
pub mod scenarios;
pub mod simulate;
pub mod size;
pub mod timeline;

use crate::cli::{Cli, Command};

/// Runs the parsed command line.
pub fn dispatch(cli: Cli) -> anyhow::Result<()> {
    crate::views::inputs::set_command(cli.command.name());
    match cli.command {
        Command::Size(a) => size::run(a),
        Command::Simulate(a) => simulate::run(a),
        Command::Risk(a) => risk::run_risk(a),
        Command::Sweep(a) => risk::run_sweep(a),
        Command::Scenarios(a) => scenarios::run(a),
        Command::Chart(a) => chart::run(a),
        Command::Report(a) => report::run(a),
        Command::Resize(a) => timeline::run_resize(a),
        Command::Keys(a) => placement::run_keys(a),
        Command::Partitions(a) => placement::run_partitions(a),
        Command::Stores(a) => placement::run_stores(a),
        Command::Fleet(a) => fleet::run(a),
        Command::Measure(a) => measure::run(a),
        Command::Compare(a) => compare::run(a),
        Command::Completions(a) => docs::completions(a),
        Command::Man(args) => docs::man(args),
        Command::Schema(args) => docs::schema(args),
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
        explain_on_stderr(inputs)?;
    }
    out.emit(&crate::views::inputs::WithInputs {
        report,
        inputs,
        explain,
    })
}

/// The "Unlikes" block for `shards` shards, when the sizing planned
/// unlikes (`--unlike-share`); a cool-down past the exact sum's reach is
/// the error of the flag or field that set it.
pub fn unlikes_block(
    r: &crate::config::Resolver,
    peak: &crate::config::sizing::Peak,
    shards: u64,
) -> crate::error::InputResult<Option<crate::views::unlikes::UnlikesBlock>> {
    // A cool-down too long for the exact sum names the input the user set.
    let blame = |e: crate::error::ParamError| {
        let given = ["cool_down_rate", "cool_down_seconds"]
            .into_iter()
            .find_map(|k| {
                r.inputs
                    .source(k)
                    .filter(|s| !matches!(s, crate::config::Source::Default))
            });
        match given {
            Some(source) => crate::error::InputError::new(source, e.problem),
            None => r.blame(e),
        }
    };
    r.unlike_plan
        .map(|u| crate::views::unlikes::UnlikesBlock::new(&u, peak, shards).map_err(blame))
        .transpose()
}

/// Sets the process's one worker pool to `threads` workers (0: one per
/// core), before anything runs on it: the tables a run draws from and the
/// run itself then share the same workers (a pool per stage spawned idle
/// workers that spun beside the busy ones, milliseconds of CPU a run).
pub fn use_threads(threads: usize) -> anyhow::Result<()> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build_global()
        .map_err(|e| anyhow::anyhow!("cannot start {threads} worker threads: {e}"))
}

/// Say a long run's estimate on stderr before it starts (unless `quiet`).
pub fn announce(cost: crate::model::cost::Estimate, quiet: bool) {
    if cost.worth_announcing() && !quiet {
        eprintln!(
            "shardplan: this run should take about {} on 2 cores (the cost model's estimate); Ctrl-C stops it",
            crate::output::fmt::rough_duration(cost.seconds)
        );
    }
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
pub fn explain_on_stderr(inputs: &crate::config::Inputs) -> anyhow::Result<()> {
    use crate::output::Exporter;
    let table = crate::views::Sections(vec![crate::views::inputs::section(inputs)]);
    let exporter = crate::output::table::TableExporter {
        style: crate::output::terminal::Style::plain(),
    };
    let text = exporter.render(&table)?;
    eprint!("{}", String::from_utf8_lossy(&text));
    Ok(())
}

/// `--per-second FILE`, opened beside its target; refused when it names an
/// `--output` file too.
pub fn per_second_file(
    args: &crate::cli::SimulateArgs,
) -> anyhow::Result<Option<crate::output::sink::Destination>> {
    use crate::output::sink::{is_stdout, Destination};
    let Some(p) = &args.per_second else {
        return Ok(None);
    };
    // `--per-second -` streams the rows to standard output, which must then
    // not carry the results too.
    if is_stdout(p)
        && (args.out.output.output.is_empty()
            || args.out.output.output.iter().any(|o| is_stdout(o)))
    {
        return Err(crate::error::InputError::new(
            "--per-second",
            "- is standard output, which already carries the results; give them a file with -o FILE, \
             or the rows a file name",
        )
        .into());
    }
    // An --output naming the same file is refused by the output policy
    // (output::policy), however it is spelled.
    Ok(Some(Destination::create("--per-second", p)?))
}

/// The plan's verdict on `shards` (the one every command that judges a
/// count shows).
pub fn plan_verdict(
    plan: &crate::config::plan::Plan,
    shards: u64,
) -> crate::error::ParamResult<crate::model::verdict::Verdict> {
    plan.inputs.verdict(shards, plan.recommendation.shards)
}

/// `--check`: exit 1 (with the verdict's line) when the count does not hold
/// the plan; the output is written first.
pub fn check(asked: bool, holds: bool, line: &str) -> anyhow::Result<()> {
    if asked && !holds {
        anyhow::bail!("check failed: {line}");
    }
    Ok(())
}
