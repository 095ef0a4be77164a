//! `shardplan chart`: one SVG chart to a file, for users who assemble their
//! own design doc. It resolves the same plans `simulate` and `sweep` do and
//! draws them with the builders `report` uses.

use crate::cli::{ChartArgs, ChartKind};
use crate::config::lists;
use crate::config::Run;
use crate::config::{refuse, Kind, Resolver, Sourced};
use crate::error::InputError;
use crate::model::defaults::MAX_TIMELINE_POINTS;
use crate::model::timeline;
use crate::output::sink::Destination;
use crate::views::charts::{busiest_svg, risk_svg, shard_counts_around, timeline_svg, Downsampler};

pub fn run(args: ChartArgs, run: &Run) -> anyhow::Result<()> {
    let output = args.output.one()?.cloned().ok_or_else(|| {
        InputError::new(
            "--output",
            "chart writes one SVG file: give -o FILE.svg, or -o - for standard output",
        )
    })?;
    let svg_file = output.extension().and_then(|e| e.to_str()) == Some("svg");
    if !svg_file && !crate::output::sink::is_stdout(&output) {
        return Err(InputError::new(
            "--output",
            format!(
                "charts are SVG; give a file ending in .svg, or - for standard output (got {})",
                output.display()
            ),
        )
        .into());
    }
    if args.kind != ChartKind::Risk {
        refuse(
            args.shard_range.is_some(),
            "--shard-range",
            "on this chart: it applies to --kind risk only",
        )?;
    }
    if args.kind == ChartKind::Timeline {
        // The time line starts from the rule of thumb, not the recommendation.
        let why = "on --kind timeline: it draws the time line, not the recommendation";
        refuse(args.duration.duration.is_some(), "--duration", why)?;
        let p = &args.plan;
        refuse(p.risk.risk.is_some(), "--risk", why)?;
        refuse(p.partitions.partitions.is_some(), "--partitions", why)?;
        refuse(p.template.template.is_some(), "--template", why)?;
        refuse(p.nodes.nodes.is_some(), "--nodes", why)?;
        refuse(p.node_cap.is_some(), "--node-cap", why)?;
    }
    if args.kind == ChartKind::Timeline {
        refuse(
            args.check.check,
            "--check",
            "on --kind timeline: the time line judges its rejected writes (shardplan simulate \
             --check)",
        )?;
    }
    let (r, svg, verdict) = match args.kind {
        ChartKind::Busiest => {
            if args.timeline.any() {
                return Err(InputError::new(
                    "--kind busiest",
                    "draws a flat simulation; the time-line flags (--burst-seconds, --monitor, ...) \
                     need --kind timeline",
                )
                .into());
            }
            let mut r = Resolver::for_load(run, &args.sim.scenario, "chart --kind busiest")?;
            if r.scenario.describes(Kind::TimeLine) {
                let name = &r.scenario.name;
                return Err(InputError::new(
                    format!("--scenario {name}"),
                    format!(
                        "the busiest-shard histogram needs a flat load; {name} describes a time \
                         line: run shardplan chart --kind timeline --scenario {name}"
                    ),
                )
                .into());
            }
            r.observe(&args.observed, Some(&args.sim.sizing))?;
            let sim =
                r.flat_simulation(&args.sim, false, Some(&args.plan), args.duration.seconds())?;
            let file = Destination::create(&run.claims, "--output", &output)?;
            let tally = super::simulate::execute(&sim.plan, false, None)?;
            let v = super::simulate::verdict(&sim.recommended, &sim.plan, &tally)
                .map_err(|e| r.blame(e))?;
            let safe = sim.sizing.plan.safe_per_shard();
            let svg = busiest_svg(&sim.plan, safe, &tally, Some(&v))?.1;
            (r, (file, svg), Some(v))
        }
        ChartKind::Risk => {
            let sim = &args.sim;
            let why = "on --kind risk: the chart is exact, over --duration";
            refuse(sim.seconds.seconds.is_some(), "--seconds", why)?;
            refuse(sim.sampler.is_some(), "--sampler", why)?;
            refuse(
                args.timeline.any(),
                "--kind risk",
                "with time-line flags: it draws a flat load",
            )?;
            let mut r = Resolver::for_load(run, &args.sim.scenario, "chart --kind risk")?;
            r.observe(&args.observed, Some(&sim.sizing))?;
            let flags =
                crate::config::plan::PlanFlags::new(&args.plan, &args.duration, &sim.traffic);
            let plan = r.plan(&sim.sizing, &sim.reads, flags)?;
            let (sizing, reads) = (&plan.sizing, &plan.reads);
            let recommended = plan.recommendation.shards;
            let seconds = r.duration(args.duration.seconds())?;
            let traffic = r.traffic(sim.traffic.traffic, sim.traffic.dispersion)?;
            let rate = r.rate(sim.rate.one()?, sizing.peak.peak, traffic)?;
            let counts = match &args.shard_range {
                Some(t) => {
                    r.inputs.record(
                        "shard_range",
                        &Sourced::from_flag("--shard-range", t.clone()),
                    );
                    lists::shard_counts("--shard-range", t)?
                }
                // Around --shards, else the recommendation (not a time
                // line's starting count: the chart is about the decision).
                None => {
                    let center = Sourced::flag("--shards", sim.shards.one()?).unwrap_or(
                        Sourced::derived(recommended, "the recommendation (shardplan size)"),
                    );
                    shard_counts_around(r.inputs.take("shards", center))
                }
            };
            let accepted = plan.recommendation.risk;
            let file = Destination::create(&run.claims, "--output", &output)?;
            let cost = crate::model::cost::sweep(rate, &counts, traffic)
                .within_limit("shards")
                .map_err(|e| r.blame(e))?;
            super::announce(cost, false);
            let rows = super::risk::sweep_rows(
                rate,
                &counts,
                sizing.plan.cap,
                (seconds, traffic),
                reads,
                &|| {},
            )?;
            let curve = plan
                .inputs
                .partition_curve(&counts)
                .map_err(|e| r.blame(e))?;
            // The verdict on --shards (else the recommendation).
            let judged = sim.shards.one()?.unwrap_or(recommended);
            let v = super::plan_verdict(&plan, judged).map_err(|e| r.blame(e))?;
            let svg = risk_svg(
                &rows,
                accepted,
                Some(recommended),
                curve.as_deref(),
                Some(&v),
            )?
            .1;
            (r, (file, svg), Some(v))
        }
        ChartKind::Timeline => {
            let mut r = Resolver::for_load(run, &args.sim.scenario, "chart --kind timeline")?;
            if args.timeline.replay {
                r.keep_trace = true;
                r.observe(&args.observed, Some(&args.sim.sizing))?;
            } else {
                crate::config::observed::refuse_on_timeline(&args.observed)?;
            }
            let plan = r.timeline(&args.sim, &args.timeline)?;
            let file = Destination::create(&run.claims, "--output", &output)?;
            let mut points = Downsampler::new(plan.seconds, MAX_TIMELINE_POINTS);
            timeline::run_with_rows(&plan, |row| {
                points.push(row);
                Ok::<(), std::convert::Infallible>(())
            })?;
            let name = r.scenario.name.clone();
            (r, (file, timeline_svg(&name, &points.finish())?.1), None)
        }
    };
    super::print_notices(&r.inputs);
    if args.explain.explain {
        super::explain_on_stderr(&r.inputs, crate::output::terminal::Style::plain(run.color))?;
    }
    let (file, svg) = svg;
    file.finish(svg.as_bytes())?;
    match verdict {
        Some(v) => super::check(args.check.check, v.holds, &crate::views::verdict::line(&v)),
        None => Ok(()),
    }
}
