//! The time line: stacked panels over the run's seconds (the rate, the
//! shard count writers use, the writes the store rejected).

use plotters::prelude::*;

use super::{err, LABEL_FONT, SIZE, TITLE_FONT};

/// An axis label: whole numbers without ".0", small steps with one decimal.
fn axis_number(v: f64) -> String {
    if v.fract() == 0.0 || v.abs() >= 100.0 {
        crate::output::fmt::num(v.round())
    } else {
        format!("{v:.1}")
    }
}

/// One panel of a time-line chart: a series over seconds.
pub struct TimelinePanel {
    pub y_desc: String,
    pub points: Vec<(f64, f64)>,
    /// A count (shards): whole-number ticks only.
    pub whole: bool,
}

/// The panel's top: 10% over its highest value; a count's is whole, with
/// room for at least one tick over its highest value.
fn panel_top(panel: &TimelinePanel) -> f64 {
    let max = panel.points.iter().map(|p| p.1).fold(0.0, f64::max);
    match panel.whole {
        true => (max * 1.1).ceil().max(max + 1.0),
        false => max * 1.1 + 1.0,
    }
}

/// Ticks on the y axis: one a whole number for a count (at most 11, so
/// plotters' steps stay whole), else plotters' default.
fn y_ticks(panel: &TimelinePanel, top: f64) -> usize {
    match panel.whole {
        true if top <= 10.0 => top as usize + 1,
        true => 11,
        false => 10,
    }
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
            let y_hi = panel_top(panel);
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
                .x_label_formatter(&|v| crate::output::fmt::num(v.round()))
                .y_labels(y_ticks(panel, y_hi))
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
    fn timeline_chart_stacks_panels() {
        let panels = vec![
            TimelinePanel {
                y_desc: "likes/s".into(),
                points: vec![(0.0, 50.0), (600.0, 9000.0)],
                whole: false,
            },
            TimelinePanel {
                y_desc: "shards".into(),
                points: vec![(0.0, 1.0), (600.0, 2.0)],
                whole: true,
            },
            TimelinePanel {
                y_desc: "rejected writes/s".into(),
                points: vec![(0.0, 0.0), (600.0, 10.0)],
                whole: false,
            },
        ];
        let svg = timeline(&panels, "Viral evening").unwrap();
        assert!(svg.contains("Viral evening"));
        assert!(svg.contains("time (seconds)"));
        assert!(svg.contains("rejected writes/s"));
    }
}
