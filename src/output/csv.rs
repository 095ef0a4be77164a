//! CSV and TSV: a header and one line per row, from the same serde rows as
//! JSON. A two-number list (a confidence interval) becomes `_low` and
//! `_high` columns; other nested values are written as compact JSON.

use serde_json::Value;

use super::{Exporter, Report};

pub struct CsvExporter {
    pub delimiter: u8,
}

fn flatten(row: &Value) -> Vec<(String, String)> {
    let mut out = Vec::new();
    if let Value::Object(map) = row {
        for (k, v) in map {
            match v {
                Value::Array(items) if items.len() == 2 && items.iter().all(Value::is_number) => {
                    out.push((format!("{k}_low"), items[0].to_string()));
                    out.push((format!("{k}_high"), items[1].to_string()));
                }
                Value::String(s) => out.push((k.clone(), s.clone())),
                // An interval that is absent in this run keeps its two
                // columns, so every run of a command has the same header.
                Value::Null if k.ends_with("_ci95") => {
                    out.push((format!("{k}_low"), String::new()));
                    out.push((format!("{k}_high"), String::new()));
                }
                Value::Null => out.push((k.clone(), String::new())),
                other => out.push((k.clone(), other.to_string())),
            }
        }
    }
    out
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
        let rows: Vec<Vec<(String, String)>> = report.rows().iter().map(flatten).collect();
        if let Some(first) = rows.first() {
            w.write_record(first.iter().map(|(k, _)| k))?;
        }
        for r in &rows {
            w.write_record(r.iter().map(|(_, v)| v))?;
        }
        Ok(w.into_inner()?)
    }
}
