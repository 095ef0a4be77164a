//! `shardplan chart`: one SVG chart to a file, for users who assemble their
//! own design doc. The chart builders here are shared with `report`, so a
//! chart drawn alone is the same picture the report links to.

use super::risk::{parse_shard_counts, whole_rate, SweepRow};
use super::simulate::{self, Resolved};
use super::timeline;
use crate::chart::{self, RiskSeries, TimelinePanel};
use crate::cli::{ChartArgs, ChartKind, OutputArgs, RiskSpan, SimulateArgs};
use crate::config::check;
use crate::config::resolve as common;
use crate::error::InputError;
use crate::model::exact;
use crate::model::simulation::SimTally;
use crate::model::sizing::ReadPlan;
use crate::model::timeline::TimelineRow;
use crate::model::traffic::TrafficModel;
use crate::output::fmt;
use crate::output::sink::AtomicFile;

/// Shard counts around the sized count `s`: from max(1, s/2) to 2s, stepped
/// so there are at most about [`crate::model::defaults::MAX_RISK_ROWS`], and always holding `s`.
pub fn shard_counts_around(s: u64) -> Vec<u64> {
    let s = s.max(1);
    let (lo, hi) = ((s / 2).max(1), s.saturating_mul(2).max(2));
    let step = (hi - lo)
        .div_ceil(crate::model::defaults::MAX_RISK_ROWS)
        .max(1);
    let mut counts: Vec<u64> = (lo..=hi).step_by(step as usize).collect();
    if !counts.contains(&s) {
        counts.push(s);
    }
    if counts.last() != Some(&hi) {
        counts.push(hi);
    }
    counts.sort_unstable();
    counts
}

/// The exact risk and the read cost for each shard count (`sweep`'s rows).
pub fn sweep_rows(
    rate: f64,
    counts: &[u64],
    cap: f64,
    (seconds, traffic): (f64, TrafficModel),
    reads: &ReadPlan,
) -> anyhow::Result<Vec<SweepRow>> {
    Ok(exact::sweep(rate, counts, cap, seconds, traffic)?
        .into_iter()
        .map(|risk| {
            let cost = reads.cost(risk.shards);
            SweepRow {
                reads_uncached_per_second: cost.reads_uncached_per_second,
                reads_cached_per_second: cost.reads_cached_per_second,
                risk,
            }
        })
        .collect())
}

/// "4 h" for whole hours, else seconds.
pub fn duration_text(seconds: f64) -> String {
    if seconds >= 3600.0 && (seconds / 3600.0).fract() == 0.0 {
        format!("{} h", seconds / 3600.0)
    } else {
        format!("{} s", fmt::num(seconds))
    }
}

/// Risk against shard count: per second and over the whole hot spell.
/// `accepted`: the risk the sizing accepts, drawn as a horizontal line.
pub fn risk_svg(rows: &[SweepRow], accepted: Option<f64>) -> anyhow::Result<(String, String)> {
    let Some(first) = rows.first() else {
        anyhow::bail!("no shard counts to chart");
    };
    let r = &first.risk;
    let title = format!(
        "Over-cap risk by shard count at {} likes/s (cap {} writes/s)",
        fmt::num(r.rate),
        fmt::num(r.cap)
    );
    let series = [
        RiskSeries {
            label: "P(a second over the cap)".into(),
            ln_points: rows
                .iter()
                .map(|x| (x.risk.shards, x.risk.ln_p_over_cap_per_second))
                .collect(),
        },
        RiskSeries {
            label: format!("P(any second over the cap in {})", duration_text(r.seconds)),
            ln_points: rows
                .iter()
                .map(|x| (x.risk.shards, x.risk.ln_p_any_over_cap))
                .collect(),
        },
    ];
    let label = accepted.map(|p| {
        format!(
            "accepted risk {} in {}",
            fmt::prob(p),
            duration_text(r.seconds)
        )
    });
    let svg = chart::risk_by_shards(
        &series,
        label.as_deref().zip(accepted),
        &title,
        "probability (log scale)",
    )?;
    Ok((title, svg))
}

/// The busiest-shard histogram of a flat simulation.
pub fn busiest_svg(resolved: &Resolved, tally: &SimTally) -> anyhow::Result<(String, String)> {
    let p = &resolved.plan;
    let title = format!(
        "Busiest of {} shards per second at {} likes/s ({} s simulated)",
        p.shards,
        fmt::num(p.rate),
        fmt::count(p.seconds)
    );
    let svg = chart::busiest_histogram(
        &tally.busiest,
        p.cap as f64,
        Some(resolved.sizing.safe_per_shard()),
        &title,
    )?;
    Ok((title, svg))
}

/// Buckets of consecutive seconds, each kept as its highest rate, shard
/// count and rejections (the peaks are what a reader looks for), so the
/// chart has at most `max_points` points. Deterministic: no sampling.
pub fn downsample(rows: &[TimelineRow], max_points: usize) -> Vec<TimelineRow> {
    let mut d = Downsampler::new(rows.len() as u64, max_points);
    rows.iter().for_each(|r| d.push(r));
    d.finish()
}

/// [`downsample`] while the rows stream by: memory is the points kept, not
/// the seconds run.
pub struct Downsampler {
    width: u64,
    filled: u64,
    top: Option<TimelineRow>,
    points: Vec<TimelineRow>,
}

impl Downsampler {
    /// For a run of `seconds` rows kept to at most `max_points`.
    pub fn new(seconds: u64, max_points: usize) -> Self {
        Downsampler {
            width: seconds.div_ceil(max_points.max(1) as u64).max(1),
            filled: 0,
            top: None,
            points: Vec::new(),
        }
    }

    pub fn push(&mut self, r: &TimelineRow) {
        let top = self.top.get_or_insert(*r);
        top.rate = top.rate.max(r.rate);
        top.shards = top.shards.max(r.shards);
        top.rejected = top.rejected.max(r.rejected);
        top.busiest = top.busiest.max(r.busiest);
        self.filled += 1;
        if self.filled == self.width {
            self.points.extend(self.top.take());
            self.filled = 0;
        }
    }

    pub fn finish(mut self) -> Vec<TimelineRow> {
        self.points.extend(self.top.take());
        self.points
    }
}

/// Rate, shard count and rejected writes over time.
/// `points` are at most [`crate::model::defaults::MAX_TIMELINE_POINTS`] rows (see [`Downsampler`]).
pub fn timeline_svg(scenario: &str, points: &[TimelineRow]) -> anyhow::Result<(String, String)> {
    let title = format!("Time line of {scenario}: rate, shards and rejected writes");
    let panel = |y_desc: &str, f: &dyn Fn(&TimelineRow) -> f64| TimelinePanel {
        y_desc: y_desc.into(),
        points: points.iter().map(|r| (r.second as f64, f(r))).collect(),
    };
    let panels = [
        panel("likes/s", &|r| r.rate),
        panel("shards", &|r| r.shards as f64),
        panel("rejected writes/s", &|r| r.rejected as f64),
    ];
    let svg = chart::timeline(&panels, &title)?;
    Ok((title, svg))
}

pub fn run(args: ChartArgs) -> anyhow::Result<()> {
    if args.output.extension().and_then(|e| e.to_str()) != Some("svg") {
        return Err(InputError::new(
            "--output",
            format!(
                "charts are SVG; give a file ending in .svg (got {})",
                args.output.display()
            ),
        )
        .into());
    }
    if args.kind != ChartKind::Risk {
        for (given, flag) in [
            (args.shard_range.is_some(), "--shard-range"),
            (args.duration.is_some(), "--duration"),
        ] {
            if given {
                return Err(InputError::new(flag, "applies to --kind risk only").into());
            }
        }
    }
    let svg = match args.kind {
        ChartKind::Busiest => {
            let resolved = simulate::resolve(&args.sim, false)?;
            let file = AtomicFile::create("--output", &args.output)?;
            let tally = resolved.execute(false, None)?;
            (file, busiest_svg(&resolved, &tally)?.1)
        }
        ChartKind::Risk => {
            let loaded = common::load_scenario(&args.sim.scenario)?;
            let (peak, sizing) = common::sizing_plan(&loaded, &args.sim.sizing)?;
            let reads = common::read_plan(&loaded, &args.sim.reads, args.sim.sizing.store)?;
            let span = common::span(
                &loaded,
                &RiskSpan {
                    duration: args.duration,
                    traffic: args.sim.traffic,
                },
            );
            let rate = match args.sim.rate {
                Some(r) => check::rate("--rate", r)?,
                None => whole_rate(loaded.scenario.rate.unwrap_or(peak.peak), span.1),
            };
            let counts = match &args.shard_range {
                Some(t) => parse_shard_counts(t)
                    .map_err(|e| InputError::new("--shard-range", e.message))?,
                None => shard_counts_around(
                    args.sim
                        .shards
                        .or(loaded.scenario.shards)
                        .unwrap_or_else(|| sizing.size().shards),
                ),
            };
            let file = AtomicFile::create("--output", &args.output)?;
            let rows = sweep_rows(rate, &counts, sizing.cap, span, &reads)?;
            (file, risk_svg(&rows, loaded.scenario.risk)?.1)
        }
        ChartKind::Timeline => {
            let sim_args = SimulateArgs {
                sim: args.sim.clone(),
                timeline: args.timeline.clone(),
                per_second: None,
                out: OutputArgs {
                    format: None,
                    output: Vec::new(),
                    quiet: true,
                },
            };
            let (loaded, plan) = timeline::plan(&sim_args)?;
            let file = AtomicFile::create("--output", &args.output)?;
            let mut points =
                Downsampler::new(plan.seconds, crate::model::defaults::MAX_TIMELINE_POINTS);
            crate::model::timeline::run_with_rows(&plan, |r| {
                points.push(r);
                Ok::<(), std::convert::Infallible>(())
            })?;
            (file, timeline_svg(&loaded.name, &points.finish())?.1)
        }
    };
    let (mut file, svg) = svg;
    file.write_all(svg.as_bytes())?;
    file.commit()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_around_the_sized_count() {
        // S = 20: 10..=40 in steps of 1 (31 counts), 20 included.
        let c = shard_counts_around(20);
        assert_eq!(c.first(), Some(&10));
        assert_eq!(c.last(), Some(&40));
        assert_eq!(c.len(), 31);
        // S = 1: 1 and 2.
        assert_eq!(shard_counts_around(1), vec![1, 2]);
        // Large S: stepped, at most ~42 rows, S and 2S kept.
        let c = shard_counts_around(1001);
        assert!(
            c.len() <= crate::model::defaults::MAX_RISK_ROWS as usize + 2,
            "{}",
            c.len()
        );
        assert!(c.contains(&1001) && c.contains(&2002) && c[0] == 500);
        assert!(c.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn downsample_keeps_the_peaks() {
        let rows: Vec<TimelineRow> = (1..=10)
            .map(|s| TimelineRow {
                second: s,
                rate: s as f64,
                likes: s,
                shards: 1,
                busiest: s,
                rejected: u64::from(s == 4),
                displayed_total: 0,
                true_total: 0,
            })
            .collect();
        let d = downsample(&rows, 3);
        // 10 rows, at most 3 points: buckets of 4 (1-4, 5-8, 9-10).
        assert_eq!(d.len(), 3);
        assert_eq!(d.iter().map(|r| r.second).collect::<Vec<_>>(), [1, 5, 9]);
        assert_eq!(d[0].rate, 4.0);
        assert_eq!(d[0].rejected, 1);
        assert_eq!(d[2].rate, 10.0);
        assert_eq!(downsample(&rows, 2000).len(), 10);
    }
}
