//! JSON: the report's rows (plus any extras it adds), pretty-printed.

use super::{Exporter, Report};

pub struct JsonExporter;

impl Exporter for JsonExporter {
    fn render(&self, report: &dyn Report) -> anyhow::Result<Vec<u8>> {
        let mut out = serde_json::to_vec_pretty(&report.json())?;
        out.push(b'\n');
        Ok(out)
    }
}
