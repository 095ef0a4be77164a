//! CSV and TSV: a header and one line per row, from the same serde rows as
//! JSON. A two-number list (a confidence interval) becomes `_low` and
//! `_high` columns; other nested values are written as compact JSON.
//! Column names carry their units and numbers have one form
//! ([`columns`](super::columns)).

use serde_json::Value;

use super::columns::{column, number};
use super::{Exporter, Report};

pub struct CsvExporter {
    pub delimiter: u8,
}

fn flatten(row: &Value) -> Vec<(String, String)> {
    let mut out = Vec::new();
    if let Value::Object(map) = row {
        for (field, v) in map {
            let k = column(field);
            match v {
                Value::Array(items) if items.len() == 2 && items.iter().all(Value::is_number) => {
                    out.push((format!("{k}_low"), cell(&items[0])));
                    out.push((format!("{k}_high"), cell(&items[1])));
                }
                Value::String(s) => out.push((k.to_string(), s.clone())),
                // An interval that is absent in this run keeps its two
                // columns, so every run of a command has the same header.
                Value::Null if k.ends_with("_ci95") => {
                    out.push((format!("{k}_low"), String::new()));
                    out.push((format!("{k}_high"), String::new()));
                }
                Value::Null => out.push((k.to_string(), String::new())),
                other => out.push((k.to_string(), cell(other))),
            }
        }
    }
    out
}

/// A value in one cell: a number in its one form, anything else as
/// compact JSON.
fn cell(v: &Value) -> String {
    match v {
        Value::Number(n) => number(n),
        other => other.to_string(),
    }
}

impl Exporter for CsvExporter {
    fn render(&self, report: &dyn Report) -> anyhow::Result<Vec<u8>> {
        if self.delimiter == b'\t' {
            if let Some(raw) = report.tsv() {
                return Ok(raw);
            }
        }
        let mut w = ::csv::WriterBuilder::new()
            .delimiter(self.delimiter)
            .from_writer(Vec::new());
        let rows: Vec<Vec<(String, String)>> = report.csv_rows().iter().map(flatten).collect();
        if let Some(first) = rows.first() {
            w.write_record(first.iter().map(|(k, _)| k))?;
        }
        for r in &rows {
            w.write_record(r.iter().map(|(_, v)| v))?;
        }
        Ok(w.into_inner()?)
    }
}
