//! The busiest-shard histogram of a flat run: the share of seconds at each
//! busiest-shard count, with the cap and the safe rate marked.

use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

use super::{
    draw_footer, draw_legend_band, draw_line, err, split_band, LegendEntry, Mark, LABEL_FONT, SIZE,
    TITLE_FONT, X_LABEL_AREA,
};
use crate::model::stats::{Bin, Histogram};

/// The histogram's plot: writes a second across, the share of seconds up.
type Plot<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// The writes a second the x axis spans. Always the cap and the safe rate
/// too: the gap between the data and the cap is the point of the chart.
fn writes_range(h: &Histogram, cap: f64, safe: Option<f64>) -> (f64, f64) {
    let (lo, hi) = (h.min().unwrap_or(0), h.max().unwrap_or(1));
    let mut x_lo = lo as f64;
    let mut x_hi = hi as f64 + 1.0;
    for mark in std::iter::once(cap).chain(safe) {
        x_lo = x_lo.min(mark);
        x_hi = x_hi.max(mark);
    }
    let pad = ((x_hi - x_lo) * 0.03).max(1.0);
    (x_lo - pad, x_hi + pad)
}

/// A bar a busiest-shard count, as high as its share of the seconds.
fn draw_bars(chart: &mut Plot, bins: &[Bin], total: f64) -> anyhow::Result<()> {
    chart
        .draw_series(bins.iter().map(|b| {
            let x = b.value as f64;
            Rectangle::new(
                [(x, 0.0), (x + 1.0, b.count as f64 / total)],
                BLUE.mix(0.6).filled(),
            )
        }))
        .map_err(err)?;
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
    let (x_lo, x_hi) = writes_range(h, cap, safe);
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
        let mut legend = vec![LegendEntry {
            label: "share of seconds at this busiest count".into(),
            mark: Mark::Box(BLUE.mix(0.6).filled()),
        }];
        let entries = 2 + usize::from(safe.is_some());
        let (upper, band) = split_band(&root, footer, entries);
        let mut chart = ChartBuilder::on(&upper)
            .caption(title, TITLE_FONT)
            .margin(16)
            .x_label_area_size(X_LABEL_AREA)
            .y_label_area_size(72)
            .build_cartesian_2d(x_lo..x_hi, 0.0..y_hi)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc("busiest shard's writes in one second (writes/s)")
            .y_desc("share of simulated seconds")
            .axis_desc_style(LABEL_FONT)
            .label_style(("sans-serif", 13))
            .x_label_formatter(&|v| crate::output::fmt::num(v.round()))
            .draw()
            .map_err(err)?;
        draw_bars(&mut chart, &bins, total)?;
        let cap_line = [(cap, 0.0), (cap, y_hi)];
        let cap_label = format!("cap {} writes/s", crate::output::fmt::rate(cap));
        draw_line(
            &mut chart,
            cap_line,
            RED.stroke_width(2),
            cap_label,
            &mut legend,
        )?;
        if let Some(safe) = safe {
            let safe_line = [(safe, 0.0), (safe, y_hi)];
            let label = format!("safe {} writes/s", crate::output::fmt::rate(safe));
            draw_line(
                &mut chart,
                safe_line,
                GREEN.stroke_width(2),
                label,
                &mut legend,
            )?;
        }
        // Under the axis, off the bars and the marks.
        draw_legend_band(&band, &legend)?;
        draw_footer(&band, footer)?;
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
        assert!(svg.contains("cap 1,000 writes/s"));
        assert!(svg.contains("safe 700 writes/s"));
    }
}
