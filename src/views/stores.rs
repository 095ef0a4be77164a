//! `stores`' view: each store preset, its figures and where they come from.

use serde_json::Value;

use crate::model::store::StorePreset;
use crate::output::{fmt, row, Report, Section};

/// `stores`.
pub struct StoresView(pub Vec<StorePreset>);

impl Report for StoresView {
    fn rows(&self) -> Vec<Value> {
        self.0.iter().map(row).collect()
    }

    fn json(&self) -> Value {
        Value::Array(self.rows())
    }

    fn sections(&self) -> Vec<Section> {
        let opt = |v: Option<f64>| v.map(fmt::num).unwrap_or_else(|| "-".into());
        let mut out = vec![Section::Grid {
            title: "Store presets (--store NAME; any figure can be overridden by its flag)".into(),
            header: [
                "store",
                "writes/s per key",
                "reads/s per key",
                "burst s",
                "batch read",
                "txn write cost",
            ]
            .map(String::from)
            .to_vec(),
            rows: self
                .0
                .iter()
                .map(|p| {
                    vec![
                        p.store.name().to_string(),
                        p.write_cap_per_key
                            .map(fmt::num)
                            .unwrap_or_else(|| "measure it".into()),
                        opt(p.read_cap_per_key),
                        fmt::num(p.burst_seconds),
                        p.batch_read_items
                            .map(|b| b.to_string())
                            .unwrap_or_else(|| "-".into()),
                        fmt::num(p.transactional_write_cost),
                    ]
                })
                .collect(),
            secondary: Vec::new(),
        }];
        for p in &self.0 {
            out.push(Section::Note(format!(
                "{}: {}",
                p.store.name(),
                super::store_words::source(p)
            )));
        }
        out
    }
}
