//! The "Inputs" block: every resolved input with its value and source
//! (`--explain`), and the JSON `inputs` object every command's JSON carries.

use serde_json::Value;

use crate::config::Inputs;
use crate::output::{fmt, Report, Section};

/// A JSON value as a person reads it: numbers with separators (a seed is
/// an identifier, printed as typed), strings bare, short lists inline.
fn shown(key: &str, v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        // A store preset that leaves a setting unset (Firestore's read cap).
        Value::Null => "none".to_string(),
        Value::Number(n) if key.ends_with("seed") => n.to_string(),
        Value::Number(n) => n.as_f64().map(fmt::num).unwrap_or_else(|| n.to_string()),
        Value::Array(items) if items.len() > 6 => format!("{} values", items.len()),
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(|i| shown(key, i)).collect();
            format!("[{}]", items.join(", "))
        }
        other => other.to_string(),
    }
}

/// The inputs as a table: input, value, source.
pub fn section(inputs: &Inputs) -> Section {
    Section::Grid {
        title: "Inputs (value and where it came from)".into(),
        header: vec!["input".into(), "value".into(), "source".into()],
        rows: inputs
            .entries()
            .iter()
            .map(|e| {
                vec![
                    e.key.to_string(),
                    shown(e.key, &e.value),
                    e.source.to_string(),
                ]
            })
            .collect(),
        secondary: Vec::new(),
    }
}

/// The inputs a command assumed rather than was given: a default, a
/// derived figure, a preset or scenario the user did not name. Warnings
/// that follow from them say so.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Assumed {
    /// Each assumed input: its key, its value as shown and its source.
    entries: Vec<(&'static str, String, String)>,
}

impl Assumed {
    /// The assumed entries of `inputs`.
    pub fn new(inputs: &Inputs) -> Assumed {
        Assumed {
            entries: inputs
                .entries()
                .iter()
                .filter(|e| inputs.assumed(&e.source))
                .map(|e| (e.key, shown(e.key, &e.value), e.source.to_string()))
                .collect(),
        }
    }

    /// "assuming views = 50,000 (scenario viral-reel.toml: views), ...: "
    /// for those of `keys` that were assumed; empty when none was.
    pub fn words(&self, keys: &[&str]) -> String {
        let said: Vec<String> = self
            .entries
            .iter()
            .filter(|(k, ..)| keys.contains(k))
            .map(|(k, v, source)| format!("{k} = {v} ({source})"))
            .collect();
        match said.is_empty() {
            true => String::new(),
            false => format!("assuming {}: ", said.join(", ")),
        }
    }
}

/// The version of the JSON layout: fields are added under the same
/// number, never renamed or removed without a new one.
pub const JSON_SCHEMA_VERSION: u64 = 2;

/// A command's report with its resolved inputs: JSON always carries them
/// under `inputs`; with `explain`, tables and Markdown open with them.
pub struct WithInputs<'a> {
    /// The command's own report.
    pub report: &'a dyn Report,
    /// What it resolved.
    pub inputs: &'a Inputs,
    /// `--explain`.
    pub explain: bool,
    /// The subcommand's name, for the JSON header.
    pub command: &'static str,
}

impl Report for WithInputs<'_> {
    fn rows(&self) -> Vec<Value> {
        self.report.rows()
    }

    fn csv_rows(&self) -> Vec<Value> {
        self.report.csv_rows()
    }

    /// One flat object: `schema_version`, `version`, `command`, then the
    /// command's fields (a list result under `rows`), then `inputs`.
    fn json(&self) -> Value {
        let mut map = serde_json::Map::new();
        map.insert("schema_version".into(), JSON_SCHEMA_VERSION.into());
        map.insert("version".into(), env!("CARGO_PKG_VERSION").into());
        map.insert("command".into(), self.command.into());
        match self.report.json() {
            Value::Object(fields) => map.extend(fields),
            other => {
                map.insert("rows".into(), other);
            }
        }
        if !self.inputs.entries().is_empty() {
            map.insert("inputs".into(), self.inputs.json());
        }
        // The warnings the table prints, word for word: text and JSON carry
        // the same ones.
        let warnings: Vec<Value> = self
            .report
            .sections()
            .into_iter()
            .filter_map(|s| match s {
                Section::Warning(text) => Some(Value::String(text)),
                _ => None,
            })
            .collect();
        map.insert("warning_text".into(), Value::Array(warnings));
        Value::Object(map)
    }

    fn sections(&self) -> Vec<Section> {
        let mut out = Vec::new();
        if self.explain {
            out.push(section(self.inputs));
        }
        out.extend(self.report.sections());
        out
    }

    fn tsv(&self) -> Option<Vec<u8>> {
        self.report.tsv()
    }
}
