//! Terminal tables drawn with comfy-table, fitted to a width: on a
//! terminal its own, elsewhere [`terminal::FALLBACK_WIDTH`]; long cells wrap
//! inside their column and notes wrap at spaces.

use comfy_table::{presets, ContentArrangement, Table};

use super::terminal::{self, Style};
use super::{Exporter, Report, Section};

/// Tables for a destination drawn in `style`.
pub struct TableExporter {
    /// Width and colour.
    pub style: Style,
}

/// A comfy-table in `preset`: fitted to `width` (cells wrap), or at its
/// natural width when `None` (Markdown).
fn table(preset: &str, width: Option<usize>) -> Table {
    let mut t = Table::new();
    t.load_preset(preset);
    match width {
        Some(w) => {
            t.set_content_arrangement(ContentArrangement::Dynamic)
                .set_width(u16::try_from(w).unwrap_or(u16::MAX));
        }
        None => {
            t.set_content_arrangement(ContentArrangement::Disabled);
        }
    }
    t
}

/// Draws one section as a comfy-table with the given preset, fitted to
/// `width` when given.
pub(crate) fn draw(section: &Section, preset: &str, width: Option<usize>) -> String {
    let prose = |text: &str| match width {
        Some(w) => terminal::wrap(text, w),
        None => text.to_string(),
    };
    match section {
        Section::Pairs { title, rows } => {
            let mut t = table(preset, width);
            t.set_header(vec![title.as_str(), ""]);
            for (k, v) in rows {
                t.add_row(vec![k.as_str(), v.as_str()]);
            }
            t.to_string()
        }
        Section::Grid {
            title,
            header,
            rows,
        } => {
            let mut t = table(preset, width);
            t.set_header(header.clone());
            for r in rows {
                t.add_row(r.clone());
            }
            format!("{}\n{t}", prose(title))
        }
        Section::Note(text) => prose(text),
    }
}

impl Exporter for TableExporter {
    fn render(&self, report: &dyn Report) -> anyhow::Result<Vec<u8>> {
        let s = self.style;
        let parts: Vec<String> = report
            .sections()
            .iter()
            .map(|sec| {
                let text = draw(sec, presets::UTF8_FULL_CONDENSED, Some(s.width));
                match (sec, s.colour) {
                    (Section::Note(_), true) => terminal::colour_note(&text),
                    _ => text,
                }
            })
            .collect();
        Ok(format!("{}\n", parts.join("\n")).into_bytes())
    }
}
