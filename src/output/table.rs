//! Terminal tables drawn with comfy-table.

use comfy_table::{presets, ContentArrangement, Table};

use super::{Exporter, Report, Section};

pub struct TableExporter;

/// Draws one section as a comfy-table with the given preset.
pub(crate) fn draw(section: &Section, preset: &str) -> String {
    match section {
        Section::Pairs { title, rows } => {
            let mut t = Table::new();
            t.load_preset(preset)
                .set_content_arrangement(ContentArrangement::Disabled)
                .set_header(vec![title.as_str(), ""]);
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
            let mut t = Table::new();
            t.load_preset(preset)
                .set_content_arrangement(ContentArrangement::Disabled)
                .set_header(header.clone());
            for r in rows {
                t.add_row(r.clone());
            }
            format!("{title}\n{t}")
        }
        Section::Note(text) => text.clone(),
    }
}

impl Exporter for TableExporter {
    fn render(&self, report: &dyn Report) -> anyhow::Result<Vec<u8>> {
        let parts: Vec<String> = report
            .sections()
            .iter()
            .map(|s| draw(s, presets::UTF8_FULL_CONDENSED))
            .collect();
        Ok(format!("{}\n", parts.join("\n")).into_bytes())
    }
}
