//! Rendering results. A command builds one [`Report`]; an [`Exporter`] per
//! format (one file each) turns it into bytes. CSV and JSON both come from
//! the report's serde rows, so their fields cannot drift apart.

pub mod columns;
pub mod csv;
pub mod fmt;
pub mod folder;
pub mod interrupt;
pub mod json;
pub mod markdown;
pub mod output_folder;
pub mod policy;
pub mod progress;
pub mod run;
pub mod sink;
pub mod table;
pub mod temp;
pub mod terminal;
pub mod walk;

use serde::Serialize;
use serde_json::Value;

pub use sink::OutputSet;

/// A block of human-readable output (tables and Markdown).
#[derive(Debug, Clone, PartialEq)]
pub enum Section {
    /// A titled list of label / value pairs.
    Pairs {
        title: String,
        rows: Vec<(String, String)>,
    },
    /// A titled grid with a header row.
    Grid {
        title: String,
        header: Vec<String>,
        rows: Vec<Vec<String>>,
        /// The columns a narrow terminal may leave out, the first left out
        /// first (`--wide` keeps them; Markdown always has them).
        secondary: Vec<usize>,
    },
    /// A line of prose (an assumption, a verdict that holds, a chart).
    Note(String),
    /// A line that warns: yellow on a colour terminal.
    Warning(String),
    /// A verdict that fails (over the cap, a plan that does not hold): red
    /// on a colour terminal.
    Failure(String),
}

impl Section {
    /// A note that is a failure when `fails`.
    pub fn verdict(text: String, fails: bool) -> Section {
        match fails {
            true => Section::Failure(text),
            false => Section::Note(text),
        }
    }

    pub fn pairs(title: &str, rows: Vec<(&str, String)>) -> Section {
        Section::Pairs {
            title: title.to_string(),
            rows: rows.into_iter().map(|(k, v)| (k.to_string(), v)).collect(),
        }
    }
}

/// Something a command prints.
pub trait Report {
    /// The serde rows: one for a single result, several for a sweep.
    /// CSV writes them as lines under one header; JSON uses them as is.
    fn rows(&self) -> Vec<Value>;
    /// The JSON document. Default: the single row, or a list of rows.
    fn json(&self) -> Value {
        let mut rows = self.rows();
        if rows.len() == 1 {
            rows.remove(0)
        } else {
            Value::Array(rows)
        }
    }
    /// The rows CSV and TSV write: the serde rows, unless the command's
    /// sheet is its table (`sweep`).
    fn csv_rows(&self) -> Vec<Value> {
        self.rows()
    }
    /// The human view for tables and Markdown.
    fn sections(&self) -> Vec<Section>;
    /// A report whose TSV is not its CSV with tabs (raw key bytes) says so.
    fn tsv(&self) -> Option<Vec<u8>> {
        None
    }
}

/// Serialises a row struct into a JSON object (fields in declaration order).
pub fn row<T: Serialize>(value: &T) -> Value {
    serde_json::to_value(value).expect("row structs serialise to JSON")
}

/// One output format.
pub trait Exporter {
    fn render(&self, report: &dyn Report) -> anyhow::Result<Vec<u8>>;
}

/// The formats every command offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Table,
    Csv,
    Json,
    Markdown,
    /// Tab-separated values (same columns as CSV).
    Tsv,
}

impl Format {
    /// The format implied by a file name's extension.
    pub fn from_extension(path: &std::path::Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "csv" => Some(Format::Csv),
            "json" => Some(Format::Json),
            "md" | "markdown" => Some(Format::Markdown),
            "txt" => Some(Format::Table),
            "tsv" => Some(Format::Tsv),
            _ => None,
        }
    }

    /// The name `--format` takes.
    pub fn name(self) -> &'static str {
        match self {
            Format::Table => "table",
            Format::Csv => "csv",
            Format::Json => "json",
            Format::Markdown => "markdown",
            Format::Tsv => "tsv",
        }
    }

    /// The exporter of this format; tables are drawn in `style`.
    pub fn exporter(self, style: terminal::Style) -> Box<dyn Exporter> {
        match self {
            Format::Table => Box::new(table::TableExporter { style }),
            Format::Csv => Box::new(csv::CsvExporter { delimiter: b',' }),
            Format::Tsv => Box::new(csv::CsvExporter { delimiter: b'\t' }),
            Format::Json => Box::new(json::JsonExporter),
            Format::Markdown => Box::new(markdown::MarkdownExporter),
        }
    }
}
