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

const SIZE: (u32, u32) = (800, 520);
const TITLE_FONT: (&str, u32) = ("sans-serif", 22);
const LABEL_FONT: (&str, u32) = ("sans-serif", 15);

fn err(e: impl std::fmt::Display) -> anyhow::Error {
    anyhow::anyhow!("drawing the chart failed: {e}")
}

/// The height of one row of the legend band.
const LEGEND_ROW: u32 = 20;
/// Legend entries side by side in a row of the band.
const LEGEND_COLUMNS: usize = 2;

/// A legend entry: its label and the mark that stands for it.
pub(crate) struct LegendEntry {
    label: String,
    mark: Mark,
}

/// How a legend entry is drawn.
#[derive(Clone, Copy)]
enum Mark {
    /// A short stroke of the series' or line's style.
    Line(ShapeStyle),
    /// A small filled box (a histogram's bars).
    Box(ShapeStyle),
    /// A downward triangle (a value below the axis).
    Below(ShapeStyle),
}

/// The rows the legend band takes.
fn legend_rows(entries: usize) -> u32 {
    entries.div_ceil(LEGEND_COLUMNS) as u32
}

/// Room under the x axis for its labels and its name.
const X_LABEL_AREA: u32 = 48;

/// The band under the chart: the legend's rows and the footer line.
fn band_height(footer: Option<&str>, legend: usize) -> u32 {
    8 + LEGEND_ROW * legend_rows(legend) + if footer.is_some() { 22 } else { 0 }
}

/// The chart's area and, under it, the band for the legend and footer.
type Split<DB> = (
    DrawingArea<DB, plotters::coord::Shift>,
    DrawingArea<DB, plotters::coord::Shift>,
);

/// `root` cut into the chart's area and the band under it.
fn split_band<DB: DrawingBackend>(
    root: &DrawingArea<DB, plotters::coord::Shift>,
    footer: Option<&str>,
    legend: usize,
) -> Split<DB> {
    root.split_vertically(SIZE.1 - band_height(footer, legend))
}

/// The legend in the band under the chart, off the data:
/// `LEGEND_COLUMNS` entries a row, above the footer line if any.
fn draw_legend_band<DB: DrawingBackend>(
    band: &DrawingArea<DB, plotters::coord::Shift>,
    entries: &[LegendEntry],
) -> anyhow::Result<()> {
    let root = band;
    let top = 0;
    let column = (SIZE.0 as i32 - 32) / LEGEND_COLUMNS as i32;
    for (i, e) in entries.iter().enumerate() {
        let x = 16 + (i % LEGEND_COLUMNS) as i32 * column;
        let y = top + (i / LEGEND_COLUMNS) as i32 * LEGEND_ROW as i32 + 8;
        match e.mark {
            Mark::Line(style) => root.draw(&PathElement::new(vec![(x, y), (x + 18, y)], style)),
            Mark::Box(style) => {
                root.draw(&Rectangle::new([(x + 3, y - 5), (x + 15, y + 5)], style))
            }
            Mark::Below(style) => root.draw(&Polygon::new(
                vec![(x + 4, y - 5), (x + 14, y - 5), (x + 9, y + 5)],
                style,
            )),
        }
        .map_err(err)?;
        let text = Text::new(e.label.clone(), (x + 24, y - 7), ("sans-serif", 13));
        root.draw(&text).map_err(err)?;
    }
    Ok(())
}

/// A one-line footer at the bottom left of the band (the verdict a chart
/// illustrates).
fn draw_footer<DB: DrawingBackend>(
    band: &DrawingArea<DB, plotters::coord::Shift>,
    footer: Option<&str>,
) -> anyhow::Result<()> {
    if let Some(text) = footer {
        let at = (16, band.dim_in_pixel().1 as i32 - 22);
        band.draw(&Text::new(text.to_string(), at, ("sans-serif", 13)))
            .map_err(err)?;
    }
    Ok(())
}

/// A straight line across the plot (a cap, a safe rate, a marked count,
/// the accepted risk) from one end to the other; its legend entry (a
/// short stroke of the same style) goes to `legend`.
fn draw_line<DB: DrawingBackend, CT: CoordTranslate>(
    chart: &mut ChartContext<'_, DB, CT>,
    ends: [CT::From; 2],
    style: ShapeStyle,
    label: String,
    legend: &mut Vec<LegendEntry>,
) -> anyhow::Result<()>
where
    CT::From: Clone,
{
    chart
        .draw_series(std::iter::once(PathElement::new(ends.to_vec(), style)))
        .map_err(err)?;
    legend.push(LegendEntry {
        label,
        mark: Mark::Line(style),
    });
    Ok(())
}
