//! SVG charts for design docs (plotters, SVG backend: text is plain SVG
//! `<text>`, so no font files are needed and the output is byte-stable).
//! Each function takes plain data and returns the SVG document.

use plotters::prelude::*;

use crate::model::stats::Histogram;

const SIZE: (u32, u32) = (800, 480);
const TITLE_FONT: (&str, u32) = ("sans-serif", 22);
const LABEL_FONT: (&str, u32) = ("sans-serif", 15);

fn err(e: impl std::fmt::Display) -> anyhow::Error {
    anyhow::anyhow!("drawing the chart failed: {e}")
}

/// Room under the x axis for its labels, and more for a footer line.
fn x_label_area(footer: Option<&str>) -> u32 {
    48 + if footer.is_some() { 22 } else { 0 }
}

/// A one-line footer at the bottom left (the verdict a chart illustrates).
fn draw_footer<DB: DrawingBackend>(
    root: &DrawingArea<DB, plotters::coord::Shift>,
    footer: Option<&str>,
) -> anyhow::Result<()> {
    if let Some(text) = footer {
        let at = (16, SIZE.1 as i32 - 18);
        root.draw(&Text::new(text.to_string(), at, ("sans-serif", 13)))
            .map_err(err)?;
    }
    Ok(())
}

/// The per-second busiest shard as a histogram (share of seconds per
/// value), with the cap and the safe rate marked.
pub fn busiest_histogram(
    h: &Histogram,
    cap: f64,
    safe: Option<f64>,
    title: &str,
    footer: Option<&str>,
) -> anyhow::Result<String> {
    let bins = h.bins();
    let (lo, hi) = (h.min().unwrap_or(0), h.max().unwrap_or(1));
    let mut x_lo = lo as f64;
    let mut x_hi = hi as f64 + 1.0;
    // Always show the cap and the safe rate: the gap between the data and
    // the cap is the point of the chart.
    for mark in std::iter::once(cap).chain(safe) {
        x_lo = x_lo.min(mark);
        x_hi = x_hi.max(mark);
    }
    let pad = ((x_hi - x_lo) * 0.03).max(1.0);
    let (x_lo, x_hi) = (x_lo - pad, x_hi + pad);
    let total = h.total().max(1) as f64;
    let y_hi = bins
        .iter()
        .map(|b| b.count as f64 / total)
        .fold(0.0, f64::max)
        * 1.1
        + 1e-12;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, TITLE_FONT)
            .margin(16)
            .x_label_area_size(x_label_area(footer))
            .y_label_area_size(72)
            .build_cartesian_2d(x_lo..x_hi, 0.0..y_hi)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc("busiest shard's writes in one second (writes/s)")
            .y_desc("share of simulated seconds")
            .axis_desc_style(LABEL_FONT)
            .label_style(("sans-serif", 13))
            .x_label_formatter(&|v| format!("{v:.0}"))
            .draw()
            .map_err(err)?;
        chart
            .draw_series(bins.iter().map(|b| {
                let x = b.value as f64;
                Rectangle::new(
                    [(x, 0.0), (x + 1.0, b.count as f64 / total)],
                    BLUE.mix(0.6).filled(),
                )
            }))
            .map_err(err)?
            .label("seconds")
            .legend(|(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], BLUE.mix(0.6).filled()));
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(cap, 0.0), (cap, y_hi)],
                RED.stroke_width(2),
            )))
            .map_err(err)?
            .label(format!("cap {cap} writes/s"))
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 12, y)], RED.stroke_width(2)));
        if let Some(safe) = safe {
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![(safe, 0.0), (safe, y_hi)],
                    GREEN.stroke_width(2),
                )))
                .map_err(err)?
                .label(format!("safe {safe} writes/s"))
                .legend(|(x, y)| {
                    PathElement::new(vec![(x, y), (x + 12, y)], GREEN.stroke_width(2))
                });
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .label_font(("sans-serif", 13))
            .draw()
            .map_err(err)?;
        draw_footer(&root, footer)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// One line of a risk chart: (shards, ln probability) points. The log is
/// what the exact code computes, so values below f64's range still plot.
pub struct RiskSeries {
    pub label: String,
    pub ln_points: Vec<(u64, f64)>,
}

/// "1e-40" for a whole power of ten, else the probability itself.
fn power_of_ten(v: f64) -> String {
    if v == 0.0 {
        "1".to_string()
    } else if v.fract() == 0.0 {
        format!("1e{v:.0}")
    } else {
        format!("{:.1e}", 10f64.powf(v))
    }
}

/// Probability against shard count on a log scale. The axis is log10 of
/// the probability drawn linearly and labelled as powers of ten: plotters'
/// own log axis puts its labels badly over the 100+ decades a risk table
/// spans. Zero probabilities (ln = -inf) are left out.
/// `accepted`: a probability drawn as a thin black horizontal line (the risk
/// the sizing accepts), with its legend label.
pub fn risk_by_shards(
    series: &[RiskSeries],
    accepted: Option<(&str, f64)>,
    marked: Option<(&str, u64)>,
    title: &str,
    y_desc: &str,
    footer: Option<&str>,
) -> anyhow::Result<String> {
    let xs = series.iter().flat_map(|s| s.ln_points.iter().map(|p| p.0));
    let (x_lo, x_hi) = xs.fold((u64::MAX, 0), |(lo, hi), x| (lo.min(x), hi.max(x)));
    let (x_lo, x_hi) = if x_lo > x_hi {
        (1, 2)
    } else {
        (x_lo, x_hi.max(x_lo + 1))
    };
    let log10 = |ln: f64| (ln / std::f64::consts::LN_10).min(0.0);
    let ys = series
        .iter()
        .flat_map(|s| s.ln_points.iter().map(|p| p.1))
        .filter(|ln| ln.is_finite())
        .chain(accepted.map(|a| a.1.ln()))
        .map(log10);
    // With an accepted risk the axis shows what matters for the decision:
    // down to a little (three decades) below it, not to 1e-180; smaller
    // figures sit on the bottom edge.
    let floor = accepted
        .filter(|a| a.1 > 0.0)
        .map(|a| log10(a.1.ln()) - 3.0);
    let y_min = ys
        .clone()
        .fold(0.0, f64::min)
        .max(floor.unwrap_or(f64::MIN));
    let y_max = ys.fold(f64::NEG_INFINITY, f64::max).max(y_min);
    let pad = ((y_max - y_min) * 0.05).max(0.5);
    // Probabilities stop at 1: no tick above it.
    let (y_lo, y_hi) = ((y_min - pad).floor(), (y_max + pad).min(0.0));
    let y_lo = y_lo.min(y_hi - 1.0);
    let log10 = |ln: f64| log10(ln).max(y_lo);
    let colours = [RED, BLUE, GREEN, MAGENTA, CYAN, BLACK];
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, TITLE_FONT)
            .margin(16)
            .x_label_area_size(x_label_area(footer))
            .y_label_area_size(80)
            .build_cartesian_2d(x_lo..x_hi, y_lo..y_hi)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc("shards")
            .y_desc(y_desc)
            .axis_desc_style(LABEL_FONT)
            .label_style(("sans-serif", 13))
            .y_label_formatter(&|v| power_of_ten(*v))
            .draw()
            .map_err(err)?;
        for (i, s) in series.iter().enumerate() {
            let colour = colours[i % colours.len()];
            let pts: Vec<(u64, f64)> = s
                .ln_points
                .iter()
                .filter(|p| p.1.is_finite())
                .map(|p| (p.0, log10(p.1)))
                .collect();
            chart
                .draw_series(LineSeries::new(pts.clone(), colour.stroke_width(2)))
                .map_err(err)?
                .label(s.label.clone())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 12, y)], colour.stroke_width(2))
                });
            chart
                .draw_series(pts.into_iter().map(|p| Circle::new(p, 3, colour.filled())))
                .map_err(err)?;
        }
        if let Some((label, x)) = marked.filter(|m| (x_lo..=x_hi).contains(&m.1)) {
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![(x, y_lo), (x, y_hi)],
                    GREEN.stroke_width(2),
                )))
                .map_err(err)?
                .label(label.to_string())
                .legend(|(x, y)| {
                    PathElement::new(vec![(x, y), (x + 12, y)], GREEN.stroke_width(2))
                });
        }
        if let Some((label, p)) = accepted.filter(|a| a.1 > 0.0) {
            let y = log10(p.ln());
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![(x_lo, y), (x_hi, y)],
                    BLACK.stroke_width(1),
                )))
                .map_err(err)?
                .label(label.to_string())
                .legend(|(x, y)| {
                    PathElement::new(vec![(x, y), (x + 12, y)], BLACK.stroke_width(1))
                });
        }
        // Risk falls with the shard count: the lower left stays empty.
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::LowerLeft)
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .label_font(("sans-serif", 13))
            .draw()
            .map_err(err)?;
        draw_footer(&root, footer)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// An axis label: whole numbers without ".0", small steps with one decimal.
fn axis_number(v: f64) -> String {
    if v.fract() == 0.0 || v.abs() >= 100.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}

/// One panel of a time-line chart: a series over seconds.
pub struct TimelinePanel {
    pub y_desc: String,
    pub points: Vec<(f64, f64)>,
}

/// Stacked panels sharing the time axis (rate, shard count, rejected writes).
pub fn timeline(panels: &[TimelinePanel], title: &str) -> anyhow::Result<String> {
    let x_hi = panels
        .iter()
        .flat_map(|p| p.points.iter().map(|q| q.0))
        .fold(1.0, f64::max);
    let colours = [BLUE, GREEN, RED, MAGENTA];
    let mut svg = String::new();
    {
        let height = 60 + 200 * panels.len().max(1) as u32;
        let root = SVGBackend::with_string(&mut svg, (SIZE.0, height)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let root = root.titled(title, TITLE_FONT).map_err(err)?;
        let areas = root.split_evenly((panels.len().max(1), 1));
        for (i, (panel, area)) in panels.iter().zip(areas.iter()).enumerate() {
            let y_hi = panel.points.iter().map(|p| p.1).fold(0.0, f64::max) * 1.1 + 1.0;
            let last = i + 1 == panels.len();
            let mut chart = ChartBuilder::on(area)
                .margin(10)
                .x_label_area_size(if last { 44 } else { 24 })
                .y_label_area_size(80)
                .build_cartesian_2d(0.0..x_hi, 0.0..y_hi)
                .map_err(err)?;
            let mut mesh = chart.configure_mesh();
            mesh.y_desc(panel.y_desc.as_str())
                .axis_desc_style(LABEL_FONT)
                .label_style(("sans-serif", 13))
                .x_label_formatter(&|v| format!("{v:.0}"))
                .y_label_formatter(&|v| axis_number(*v));
            if last {
                mesh.x_desc("time (seconds)");
            }
            mesh.draw().map_err(err)?;
            chart
                .draw_series(LineSeries::new(
                    panel.points.iter().copied(),
                    colours[i % colours.len()].stroke_width(2),
                ))
                .map_err(err)?;
        }
        root.present().map_err(err)?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histogram_chart_has_title_labels_and_marks() {
        let mut h = Histogram::new();
        for v in [740, 750, 750, 760, 810] {
            h.record(v);
        }
        let svg =
            busiest_histogram(&h, 1000.0, Some(700.0), "Busiest shard per second", None).unwrap();
        assert!(svg.starts_with("<svg"));
        assert!(svg.contains("Busiest shard per second"));
        assert!(svg.contains("writes/s"));
        assert!(svg.contains("cap 1000 writes/s"));
        assert!(svg.contains("safe 700 writes/s"));
    }

    #[test]
    fn risk_chart_handles_tiny_and_zero_values() {
        let s = RiskSeries {
            label: "P(second over cap)".into(),
            ln_points: vec![
                (10, 0.5f64.ln()),
                (20, 1e-9f64.ln()),
                (30, -2000.0),
                (40, f64::NEG_INFINITY),
            ],
        };
        let svg = risk_by_shards(
            &[s],
            Some(("accepted risk 0.01", 0.01)),
            Some(("recommended: 20 shards", 20)),
            "Risk by shard count",
            "probability (log scale)",
            Some("20 shards hold the plan of 14,000/s (the recommendation)"),
        )
        .unwrap();
        assert!(svg.contains("20 shards hold the plan of 14,000/s (the recommendation)"));
        assert!(svg.contains("accepted risk 0.01"));
        assert!(svg.contains("recommended: 20 shards"));
        // The axis stops three decades below the accepted risk (1e-5), not at 1e-869.
        assert!(
            svg.contains("1e-5") && !svg.contains("1e-869") && !svg.contains("1e-10<"),
            "{svg}"
        );
        assert!(svg.contains("Risk by shard count"));
        assert!(svg.contains("shards"));
        assert_eq!(power_of_ten(0.0), "1");
        assert_eq!(power_of_ten(-40.0), "1e-40");
    }

    #[test]
    fn timeline_chart_stacks_panels() {
        let panels = vec![
            TimelinePanel {
                y_desc: "likes/s".into(),
                points: vec![(0.0, 50.0), (600.0, 9000.0)],
            },
            TimelinePanel {
                y_desc: "rejected writes/s".into(),
                points: vec![(0.0, 0.0), (600.0, 10.0)],
            },
        ];
        let svg = timeline(&panels, "Viral evening").unwrap();
        assert!(svg.contains("Viral evening"));
        assert!(svg.contains("time (seconds)"));
        assert!(svg.contains("rejected writes/s"));
    }
}
