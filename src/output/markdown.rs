//! Markdown for design docs: a heading per section and pipe tables.

use comfy_table::presets;

use super::{table::draw, Exporter, Report, Section};

pub struct MarkdownExporter;

impl Exporter for MarkdownExporter {
    fn render(&self, report: &dyn Report) -> anyhow::Result<Vec<u8>> {
        let mut out = String::new();
        for section in report.sections() {
            match &section {
                Section::Pairs { title, .. } => {
                    out.push_str(&format!("### {title}\n\n"));
                    // The pair table's header cell is the title: keep it, it reads well.
                    out.push_str(&draw(&section, presets::ASCII_MARKDOWN));
                }
                Section::Grid {
                    title,
                    header,
                    rows,
                } => {
                    out.push_str(&format!("### {title}\n\n"));
                    let grid = Section::Grid {
                        title: String::new(),
                        header: header.clone(),
                        rows: rows.clone(),
                    };
                    out.push_str(draw(&grid, presets::ASCII_MARKDOWN).trim_start());
                }
                Section::Note(text) => out.push_str(&format!("> {}", text.replace('\n', "\n> "))),
            }
            out.push_str("\n\n");
        }
        let mut bytes = out.trim_end().as_bytes().to_vec();
        bytes.push(b'\n');
        Ok(bytes)
    }
}
