//! Markdown for design docs: a heading per section and pipe tables.

use comfy_table::presets;

use super::{table::draw, Exporter, Report, Section};

pub struct MarkdownExporter;

impl Exporter for MarkdownExporter {
    fn render(&self, report: &dyn Report) -> anyhow::Result<Vec<u8>> {
        let mut out = String::new();
        for section in report.sections() {
            match &section {
                Section::Pairs { title, rows } => {
                    out.push_str(&format!("### {title}\n\n"));
                    // The heading carries the title; the table's header row
                    // just names its two columns.
                    let grid = Section::Grid {
                        title: String::new(),
                        header: vec!["what".into(), "value".into()],
                        rows: rows
                            .iter()
                            .map(|(k, v)| vec![k.clone(), v.clone()])
                            .collect(),
                    };
                    out.push_str(draw(&grid, presets::ASCII_MARKDOWN).trim_start());
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
