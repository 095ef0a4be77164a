//! The charts, as SVG: risk by shard count, the busiest-shard histogram and
//! the time line. `chart` draws one; `report` links all it needs, so a
//! chart drawn alone is the same picture the report shows.

use crate::chart::{self as svg, RiskSeries, TimelinePanel};
use crate::model::simulation::{SimPlan, SimTally};
use crate::model::timeline::TimelineRow;
use crate::output::fmt;
use crate::views::risk::SweepRow;

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

/// Risk against shard count: per second and over the whole hot spell,
/// under the plan's picker (a bound labelled as one), and the partition and
/// node risks where the rows carry them.
/// `accepted`: the risk the sizing accepts, drawn as a horizontal line.
pub fn risk_svg(
    rows: &[SweepRow],
    accepted: Option<f64>,
    recommended: Option<u64>,
    verdict: Option<&crate::model::verdict::Verdict>,
) -> anyhow::Result<(String, String)> {
    let Some(first) = rows.first() else {
        anyhow::bail!("no shard counts to chart");
    };
    let r = &first.risk;
    let title = format!(
        "Over-cap risk by shard count at {} likes/s (cap {} writes/s)",
        fmt::rate(first.rate),
        fmt::num(r.cap)
    );
    let spell = fmt::duration(r.seconds);
    let of = |k: crate::model::picker::risk::KeyMethod| match (r.picker, k) {
        (_, crate::model::picker::risk::KeyMethod::UpperBound) => {
            format!(", {} (upper bound)", r.picker.name())
        }
        (_, crate::model::picker::risk::KeyMethod::RandomLaw) => {
            format!(", {} (random picks' law)", r.picker.name())
        }
        (crate::model::picker::Picker::Random, _) => String::new(),
        (p, _) => format!(", {}", p.name()),
    };
    let bound = rows
        .iter()
        .map(|x| x.risk.key_method)
        .find(|m| *m == crate::model::picker::risk::KeyMethod::UpperBound)
        .unwrap_or(r.key_method);
    let points = |f: &dyn Fn(&SweepRow) -> Option<f64>| -> Vec<(u64, f64)> {
        rows.iter()
            .filter_map(|x| f(x).map(|ln| (x.risk.shards, ln)))
            .collect()
    };
    let mut series = vec![
        RiskSeries {
            label: format!("P(a second over the cap){}", of(bound)),
            ln_points: points(&|x| Some(x.risk.key_ln_p_over_cap_per_second)),
        },
        RiskSeries {
            label: format!("P(any second over the cap in {spell}){}", of(bound)),
            ln_points: points(&|x| Some(x.risk.key_ln_p_any_over_cap)),
        },
    ];
    if rows.iter().any(|x| x.partition_ln_p_any_over_cap.is_some()) {
        series.push(RiskSeries {
            label: format!("P(some partition over its cap in {spell})"),
            ln_points: points(&|x| x.partition_ln_p_any_over_cap),
        });
    }
    if rows.iter().any(|x| x.node_ln_p_any_over_cap.is_some()) {
        series.push(RiskSeries {
            label: format!("P(some node over its cap in {spell})"),
            ln_points: points(&|x| x.node_ln_p_any_over_cap),
        });
    }
    let label = accepted.map(|p| {
        format!(
            "accepted risk {} in {}",
            fmt::prob(p),
            fmt::duration(r.seconds)
        )
    });
    let marked = recommended.map(|n| (format!("recommended: {}", super::verdict::shards(n)), n));
    let svg = svg::risk_by_shards(
        &series,
        label.as_deref().zip(accepted),
        marked.as_ref().map(|(l, n)| (l.as_str(), *n)),
        &title,
        "probability (log scale)",
        verdict.map(super::verdict::line).as_deref(),
    )?;
    Ok((title, svg))
}

/// The busiest-shard histogram of a flat simulation, the cap and the safe
/// rate `safe` marked.
/// `verdict`, when given, is the chart's footer.
pub fn busiest_svg(
    p: &SimPlan,
    safe: f64,
    tally: &SimTally,
    verdict: Option<&crate::model::verdict::Verdict>,
) -> anyhow::Result<(String, String)> {
    let title = format!(
        "Busiest of {} per second at {} writes/s ({} s simulated)",
        super::verdict::shards(p.shards),
        fmt::rate(p.rate),
        fmt::count(p.seconds)
    );
    let footer = verdict.map(super::verdict::line);
    let svg = svg::busiest_histogram(
        &tally.busiest,
        p.cap as f64,
        Some(safe),
        &title,
        footer.as_deref(),
    )?;
    Ok((title, svg))
}

/// Buckets of consecutive seconds, each kept as its highest rate, shard
/// count and rejections (the peaks are what a reader looks for), so the
/// chart has at most `max_points` points, while the rows stream by: memory
/// is the points kept, not the seconds run. Deterministic: no sampling.
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
    let panel = |y_desc: &str, whole: bool, f: &dyn Fn(&TimelineRow) -> f64| TimelinePanel {
        y_desc: y_desc.into(),
        points: points.iter().map(|r| (r.second as f64, f(r))).collect(),
        whole,
    };
    let panels = [
        panel("likes/s", false, &|r| r.rate),
        panel("shards", true, &|r| r.shards as f64),
        panel("rejected writes/s", false, &|r| r.rejected as f64),
    ];
    let svg = svg::timeline(&panels, &title)?;
    Ok((title, svg))
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

    fn downsample(rows: &[TimelineRow], max_points: usize) -> Vec<TimelineRow> {
        let mut d = Downsampler::new(rows.len() as u64, max_points);
        rows.iter().for_each(|r| d.push(r));
        d.finish()
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
