//! `size --sensitivity`: what moves the count, as a table after the
//! recommendation and `sensitivity` in JSON.

use serde_json::Value;

use crate::model::recommendation::Binding;
use crate::model::sensitivity::{SensitiveInput, Sensitivity, SensitivityEntry};
use crate::output::{fmt, Report, Section};

/// A command's report with the sensitivity table.
pub struct WithSensitivity<'a> {
    /// The command's own report.
    pub report: &'a dyn Report,
    /// The entries, when asked for.
    pub sensitivity: Option<&'a Sensitivity>,
}

impl Report for WithSensitivity<'_> {
    fn rows(&self) -> Vec<Value> {
        self.report.rows()
    }

    fn csv_rows(&self) -> Vec<Value> {
        self.report.csv_rows()
    }

    fn json(&self) -> Value {
        let v = self.report.json();
        let Some(s) = self.sensitivity else {
            return v;
        };
        super::json_with(v, "sensitivity", crate::output::row(s))
    }

    fn sections(&self) -> Vec<Section> {
        let mut out = self.report.sections();
        out.extend(self.sensitivity.map(section));
        out
    }

    fn tsv(&self) -> Option<Vec<u8>> {
        self.report.tsv()
    }
}

/// A value of `input`, and its unit (empty where it has none).
fn value(input: SensitiveInput, v: f64) -> (String, &'static str) {
    match input {
        SensitiveInput::Peak => (fmt::rate(v), " likes/s"),
        SensitiveInput::Cap | SensitiveInput::Safe => (fmt::rate(v), " writes/s"),
        SensitiveInput::Headroom | SensitiveInput::UnlikeShare => (fmt::percent(v), ""),
        SensitiveInput::Risk => (risk(v), ""),
        SensitiveInput::Dispersion => (fmt::num(v), ""),
        SensitiveInput::Duration => (fmt::duration(v), ""),
        SensitiveInput::Partitions | SensitiveInput::Servers => (fmt::count(v as u64), ""),
    }
}

/// A risk with three significant digits ("0.0125", "1.25e-4").
fn risk(v: f64) -> String {
    match v >= 0.01 {
        true => format!("{}", (v * 1e4).round() / 1e4),
        false => format!("{v:.3e}"),
    }
}

/// The constraint that set a count, short.
fn set_by(b: Binding) -> &'static str {
    match b {
        Binding::RuleOfThumb => "rule of thumb",
        Binding::KeyRisk => "per-key risk",
        Binding::SharedPartitions => "partitions",
        Binding::Nodes => "nodes",
    }
}

/// One value with its unit.
fn one(input: SensitiveInput, v: f64) -> String {
    let (v, unit) = value(input, v);
    format!("{v}{unit}")
}

/// Two values, the unit said once: "10,500 / 17,500 likes/s".
fn pair(input: SensitiveInput, low: f64, high: f64) -> String {
    let ((low, unit), (high, _)) = (value(input, low), value(input, high));
    format!("{low} / {high}{unit}")
}

fn row(e: &SensitivityEntry) -> Vec<String> {
    let (low, high) = (set_by(e.binding_low), set_by(e.binding_high));
    vec![
        e.input.flag().to_string(),
        one(e.input, e.planned),
        pair(e.input, e.low, e.high),
        format!(
            "{} / {}",
            fmt::count(e.shards_low),
            fmt::count(e.shards_high)
        ),
        match low == high {
            true => low.to_string(),
            false => format!("{low} / {high}"),
        },
    ]
}

/// The table: an input a row, the furthest-moving first.
fn section(s: &Sensitivity) -> Section {
    Section::Grid {
        title: format!(
            "What moves the count: each input down and up {}, the rest as planned ({} as planned)",
            fmt::percent(s.share),
            super::verdict::shards(s.planned_shards),
        ),
        header: ["input", "planned", "down / up", "shards", "set by"]
            .map(String::from)
            .to_vec(),
        rows: s.entries.iter().map(row).collect(),
        secondary: Vec::new(),
    }
}
