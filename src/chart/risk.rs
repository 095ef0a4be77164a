//! Risk by shard count: each series' probability against the shard count
//! on a log scale, with the accepted risk and a marked count.

use plotters::coord::types::{RangedCoordf64, RangedCoordu64};
use plotters::prelude::*;

use super::{
    draw_footer, draw_legend_band, draw_line, err, split_band, LegendEntry, Mark, LABEL_FONT, SIZE,
    TITLE_FONT, X_LABEL_AREA,
};

/// The risk chart's plot: shard counts across, log10 of the probability up.
type Plot<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordu64, RangedCoordf64>>;

/// The series' colours, in order.
const COLOURS: [RGBColor; 6] = [RED, BLUE, GREEN, MAGENTA, CYAN, BLACK];

/// A legend entry for each series, in its colour.
fn series_legend(series: &[RiskSeries]) -> Vec<LegendEntry> {
    series
        .iter()
        .enumerate()
        .map(|(i, s)| LegendEntry {
            label: s.label.clone(),
            mark: Mark::Line(COLOURS[i % COLOURS.len()].stroke_width(2)),
        })
        .collect()
}

/// The legend entry of the values under the axis's floor `y_lo`.
fn below_entry(y_lo: f64) -> LegendEntry {
    LegendEntry {
        label: format!(
            "below {}: on the floor (the first's value, and the marked count's)",
            power_of_ten(y_lo)
        ),
        mark: Mark::Below(BLACK.filled()),
    }
}

/// (shards, ln probability) points.
type Points = Vec<(u64, f64)>;

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

/// log10 of a probability given its ln; a probability stops at 1.
fn log10(ln: f64) -> f64 {
    (ln / std::f64::consts::LN_10).min(0.0)
}

/// The shard counts the series span (1 to 2 when they are empty), at
/// least one apart.
fn shard_range(series: &[RiskSeries]) -> (u64, u64) {
    let xs = series.iter().flat_map(|s| s.ln_points.iter().map(|p| p.0));
    let (x_lo, x_hi) = xs.fold((u64::MAX, 0), |(lo, hi), x| (lo.min(x), hi.max(x)));
    if x_lo > x_hi {
        (1, 2)
    } else {
        (x_lo, x_hi.max(x_lo + 1))
    }
}

/// The decades the y axis spans (log10 of the probability), whole at the
/// bottom. With an accepted risk the axis shows what matters for the
/// decision: down to a little (three decades) below it, not to 1e-180;
/// smaller figures sit on the bottom edge. Probabilities stop at 1: no
/// tick above it.
fn decade_range(series: &[RiskSeries], accepted: Option<(&str, f64)>) -> (f64, f64) {
    let ys = series
        .iter()
        .flat_map(|s| s.ln_points.iter().map(|p| p.1))
        .filter(|ln| ln.is_finite())
        .chain(accepted.map(|a| a.1.ln()))
        .map(log10);
    let floor = accepted
        .filter(|a| a.1 > 0.0)
        .map(|a| log10(a.1.ln()) - 3.0);
    let y_min = ys
        .clone()
        .fold(0.0, f64::min)
        .max(floor.unwrap_or(f64::MIN));
    let y_max = ys.fold(f64::NEG_INFINITY, f64::max).max(y_min);
    let pad = ((y_max - y_min) * 0.05).max(0.5);
    let (y_lo, y_hi) = ((y_min - pad).floor(), (y_max + pad).min(0.0));
    (y_lo.min(y_hi - 1.0), y_hi)
}

/// One series: its line and a dot at each count on the axis; a count
/// whose probability is below the axis's floor `y_lo` gets a downward
/// triangle on the floor with its value printed beside it, so every value
/// plotted shows. Zero probabilities (ln = -inf) are left out. Returns
/// whether any value was below the floor.
fn draw_series(
    chart: &mut Plot,
    s: &RiskSeries,
    (colour, row): (RGBColor, i32),
    (y_lo, marked): (f64, Option<u64>),
) -> anyhow::Result<bool> {
    let finite = s.ln_points.iter().filter(|p| p.1.is_finite());
    let pts: Vec<(u64, f64)> = finite
        .clone()
        .map(|p| (p.0, log10(p.1).max(y_lo)))
        .collect();
    chart
        .draw_series(LineSeries::new(pts.clone(), colour.stroke_width(2)))
        .map_err(err)?;
    let (below, on): (Points, Points) = finite.copied().partition(|p| log10(p.1) < y_lo);
    let on = on
        .into_iter()
        .map(|p| Circle::new((p.0, log10(p.1)), 3, colour.filled()));
    chart.draw_series(on).map_err(err)?;
    let area = chart.plotting_area().strip_coord_spec();
    let origin = chart.plotting_area().get_base_pixel();
    for (i, (x, ln)) in below.iter().enumerate() {
        let at = chart.backend_coord(&(*x, y_lo));
        let floor = (at.0 - origin.0, at.1 - origin.1);
        let tip = [
            (floor.0 - 5, floor.1 - 12),
            (floor.0 + 5, floor.1 - 12),
            floor,
        ];
        area.draw(&Polygon::new(tip.to_vec(), colour.filled()))
            .map_err(err)?;
        // The value of the first count below the floor and of the marked
        // count: every label beside every triangle would overlap.
        if i == 0 || marked == Some(*x) {
            // Each series' values on a row of their own.
            let y = floor.1 - 28 - 14 * row;
            let text = Text::new(below_floor(*ln), (floor.0 - 4, y), ("sans-serif", 12));
            area.draw(&text).map_err(err)?;
        }
    }
    Ok(!below.is_empty())
}

/// A probability below the axis, given its ln: "5.0e-27" (or "1e-869"
/// past f64's range).
fn below_floor(ln: f64) -> String {
    let log10 = ln / std::f64::consts::LN_10;
    let exponent = log10.floor();
    let mantissa = 10f64.powf(log10 - exponent);
    format!("{mantissa:.1}e{exponent:.0}")
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
    let (x_lo, x_hi) = shard_range(series);
    let (y_lo, y_hi) = decade_range(series, accepted);
    let to_y = |ln: f64| log10(ln).max(y_lo);
    let mut legend = series_legend(series);
    let below_any = series
        .iter()
        .flat_map(|s| &s.ln_points)
        .any(|p| p.1.is_finite() && log10(p.1) < y_lo);
    let entries = series.len()
        + usize::from(marked.is_some_and(|m| (x_lo..=x_hi).contains(&m.1)))
        + usize::from(accepted.is_some())
        + usize::from(below_any);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let (upper, band) = split_band(&root, footer, entries);
        let mut chart = ChartBuilder::on(&upper)
            .caption(title, TITLE_FONT)
            .margin(16)
            .x_label_area_size(X_LABEL_AREA)
            .y_label_area_size(80)
            .build_cartesian_2d(x_lo..x_hi, y_lo..y_hi)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc("shards")
            .y_desc(y_desc)
            .axis_desc_style(LABEL_FONT)
            .label_style(("sans-serif", 13))
            .x_label_formatter(&|v| crate::output::fmt::count(*v))
            .y_label_formatter(&|v| power_of_ten(*v))
            .draw()
            .map_err(err)?;
        for (i, s) in series.iter().enumerate() {
            let marked = marked.map(|m| m.1);
            let colour = (COLOURS[i % COLOURS.len()], i as i32);
            draw_series(&mut chart, s, colour, (y_lo, marked))?;
        }
        if let Some((label, x)) = marked.filter(|m| (x_lo..=x_hi).contains(&m.1)) {
            let line = [(x, y_lo), (x, y_hi)];
            draw_line(
                &mut chart,
                line,
                GREEN.stroke_width(2),
                label.to_string(),
                &mut legend,
            )?;
        }
        if let Some((label, p)) = accepted.filter(|a| a.1 > 0.0) {
            let line = [(x_lo, to_y(p.ln())), (x_hi, to_y(p.ln()))];
            draw_line(
                &mut chart,
                line,
                BLACK.stroke_width(1),
                label.to_string(),
                &mut legend,
            )?;
        }
        if below_any {
            legend.push(below_entry(y_lo));
        }
        // Under the axis, off the curves.
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
        // Every value shows: 20 shards' 1e-9, below the floor (1e-5), is a
        // triangle on it with its value; 30 shards' e^-2000 too, unlabelled.
        assert!(svg.contains("\n1.0e-9\n"), "{svg}");
        assert_eq!(
            svg.matches("<polygon").count(),
            3,
            "two below, one in the legend"
        );
        // The legend is off the data: under the plot, below its x axis.
        let y_of = |label: &str| -> f64 {
            let at = svg.find(&format!(">\n{label}\n<")).unwrap();
            let tag = &svg[svg[..at].rfind("<text").unwrap()..at];
            let y = &tag[tag.find(" y=\"").unwrap() + 4..];
            y[..y.find('"').unwrap()].parse().unwrap()
        };
        let axis = y_of("shards");
        for entry in [
            "accepted risk 0.01",
            "recommended: 20 shards",
            "P(second over cap)",
        ] {
            assert!(y_of(entry) > axis, "{entry} over the plot");
        }
        assert_eq!(below_floor(1e-27f64.ln() + 5f64.ln()), "5.0e-27");
        assert_eq!(power_of_ten(0.0), "1");
        assert_eq!(power_of_ten(-40.0), "1e-40");
    }
}
