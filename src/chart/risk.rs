//! Risk by shard count: each series' probability against the shard count
//! on a log scale, with the accepted risk and a marked count.

use plotters::coord::types::{RangedCoordf64, RangedCoordu64};
use plotters::prelude::*;

use super::{draw_footer, draw_legend, draw_line, err, x_label_area, LABEL_FONT, SIZE, TITLE_FONT};

/// The risk chart's plot: shard counts across, log10 of the probability up.
type Plot<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordu64, RangedCoordf64>>;

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

/// One series: its line (with its legend entry) and a dot at each count;
/// zero probabilities (ln = -inf) are left out.
fn draw_series(
    chart: &mut Plot,
    s: &RiskSeries,
    colour: RGBColor,
    to_y: impl Fn(f64) -> f64,
) -> anyhow::Result<()> {
    let pts: Vec<(u64, f64)> = s
        .ln_points
        .iter()
        .filter(|p| p.1.is_finite())
        .map(|p| (p.0, to_y(p.1)))
        .collect();
    chart
        .draw_series(LineSeries::new(pts.clone(), colour.stroke_width(2)))
        .map_err(err)?
        .label(s.label.clone())
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 12, y)], colour.stroke_width(2)));
    chart
        .draw_series(pts.into_iter().map(|p| Circle::new(p, 3, colour.filled())))
        .map_err(err)?;
    Ok(())
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
            draw_series(&mut chart, s, colours[i % colours.len()], to_y)?;
        }
        if let Some((label, x)) = marked.filter(|m| (x_lo..=x_hi).contains(&m.1)) {
            let line = [(x, y_lo), (x, y_hi)];
            draw_line(&mut chart, line, GREEN.stroke_width(2), label.to_string())?;
        }
        if let Some((label, p)) = accepted.filter(|a| a.1 > 0.0) {
            let line = [(x_lo, to_y(p.ln())), (x_hi, to_y(p.ln()))];
            draw_line(&mut chart, line, BLACK.stroke_width(1), label.to_string())?;
        }
        // Risk falls with the shard count: the lower left stays empty.
        draw_legend(&mut chart, SeriesLabelPosition::LowerLeft)?;
        draw_footer(&root, footer)?;
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
        assert_eq!(power_of_ten(0.0), "1");
        assert_eq!(power_of_ten(-40.0), "1e-40");
    }
}
