//! SVG charts for design docs (plotters, SVG backend: text is plain SVG
//! `<text>`, so no font files are needed and the output is byte-stable).
//! Each chart takes plain data and returns the SVG document; one file a
//! chart (the busiest-shard histogram, risk by shard count, the time
//! line), the drawing they share here.

mod busiest;
mod risk;
mod timeline;

pub use busiest::busiest_histogram;
pub use risk::{risk_by_shards, RiskSeries};
pub use timeline::{timeline, TimelinePanel};

use plotters::coord::CoordTranslate;
use plotters::prelude::*;

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

/// A straight line across the plot (a cap, a safe rate, a marked count,
/// the accepted risk) from one end to the other, with its legend entry: a
/// short stroke of the same style.
fn draw_line<DB: DrawingBackend, CT: CoordTranslate>(
    chart: &mut ChartContext<'_, DB, CT>,
    ends: [CT::From; 2],
    style: ShapeStyle,
    label: String,
) -> anyhow::Result<()>
where
    CT::From: Clone,
{
    chart
        .draw_series(std::iter::once(PathElement::new(ends.to_vec(), style)))
        .map_err(err)?
        .label(label)
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 12, y)], style));
    Ok(())
}

/// The legend box, at `position`.
fn draw_legend<'a, DB: DrawingBackend + 'a, CT: CoordTranslate>(
    chart: &mut ChartContext<'a, DB, CT>,
    position: SeriesLabelPosition,
) -> anyhow::Result<()> {
    chart
        .configure_series_labels()
        .position(position)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .label_font(("sans-serif", 13))
        .draw()
        .map_err(err)
}
