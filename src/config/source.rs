//! Where each resolved input came from.
//!
//! Every input is resolved once: a flag, else a scenario field, else a store
//! preset, else a built-in default ([`crate::model::defaults`]). The value
//! keeps its [`Source`], so an error names what the user actually wrote,
//! `--explain` can list every assumption, and JSON carries them under
//! `inputs`.

use std::fmt;

use serde::Serialize;
use serde_json::{json, Map, Value};

use crate::error::{InputError, ParamError};
use crate::model::store::Store;

/// Where one input came from.
#[derive(Debug, Clone, PartialEq)]
pub enum Source {
    /// A command-line flag, as typed (`--cap`).
    Flag(&'static str),
    /// A scenario field: the file (`viral-evening.toml` for a bundled one)
    /// and the dotted field name (`monitor.settings_ttl_seconds`).
    Scenario {
        /// The file as the user named it, or the bundled file's name.
        file: String,
        /// The dotted field name.
        field: String,
    },
    /// A store preset's figure, and what named the preset.
    Preset {
        /// The preset.
        store: Store,
        /// The flag or scenario field that named it.
        named_by: Box<Source>,
    },
    /// A field of a file a flag named (`--cap-from-measure m.json: ...`).
    File {
        /// The flag that named the file.
        flag: &'static str,
        /// The file as given.
        path: String,
        /// The field read from it.
        field: &'static str,
    },
    /// A figure read or fitted from an observed trace: `fitted from
    /// --traffic-from evening.csv`.
    Trace {
        /// How the figure came from the trace (`fitted from`, `peak rate of`).
        how: &'static str,
        /// The flag or scenario field that named the files.
        by: Box<Source>,
        /// The files, as given.
        files: String,
    },
    /// An environment variable (`REDISCLI_AUTH`).
    Env(&'static str),
    /// Worked out from other inputs (`observed x growth`).
    Derived(&'static str),
    /// The built-in default.
    Default,
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Flag(name) => f.write_str(name),
            Source::Scenario { file, field } => write!(f, "scenario {file}: {field}"),
            Source::Preset { store, named_by } => {
                write!(f, "store preset {} ({named_by})", store.name())
            }
            Source::File { flag, path, field } => write!(f, "{flag} {path}: {field}"),
            Source::Trace { how, by, files } => write!(f, "{how} {by} {files}"),
            Source::Env(name) => write!(f, "environment {name}"),
            Source::Derived(how) => write!(f, "derived: {how}"),
            Source::Default => f.write_str("default"),
        }
    }
}

/// A resolved value and where it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Sourced<T> {
    /// The value.
    pub value: T,
    /// Where it came from.
    pub source: Source,
}

impl<T> Sourced<T> {
    /// A value from `source`.
    pub fn new(value: T, source: Source) -> Self {
        Sourced { value, source }
    }

    /// The value of a flag, when given.
    pub fn flag(name: &'static str, value: Option<T>) -> Option<Self> {
        value.map(|v| Sourced::from_flag(name, v))
    }

    /// The value of a flag the user gave.
    pub fn from_flag(name: &'static str, value: T) -> Self {
        Sourced::new(value, Source::Flag(name))
    }

    /// The built-in default.
    pub fn default(value: T) -> Self {
        Sourced::new(value, Source::Default)
    }

    /// A value worked out from other inputs.
    pub fn derived(value: T, how: &'static str) -> Self {
        Sourced::new(value, Source::Derived(how))
    }

    /// The same source with a value computed from this one.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Sourced<U> {
        Sourced::new(f(self.value), self.source)
    }

    /// Checks the value with a model check; an error names the source.
    pub fn check<U>(&self, f: impl FnOnce(&T) -> Result<U, ParamError>) -> Result<U, InputError>
    where
        T: Clone,
    {
        f(&self.value).map_err(|e| self.error(e.problem))
    }

    /// An error about this value, naming its source.
    pub fn error(&self, message: impl fmt::Display) -> InputError {
        InputError::new(&self.source, message)
    }

    /// True when the user passed the value as a flag.
    pub fn is_flag(&self) -> bool {
        matches!(self.source, Source::Flag(_))
    }
}

/// One resolved input, as `--explain` and JSON show it.
#[derive(Debug, Clone, PartialEq)]
pub struct Input {
    /// The model's name for it (`cap`, `monitor.threshold`).
    pub key: &'static str,
    /// Its value as JSON.
    pub value: Value,
    /// Where it came from.
    pub source: Source,
}

/// Every input one command resolved, in the order it resolved them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Inputs {
    entries: Vec<Input>,
    /// Warnings about accepted inputs (a growth factor below 1), printed on
    /// stderr once every input has passed its checks, so a refused run
    /// still prints exactly one line.
    notices: Vec<String>,
}

impl Inputs {
    /// Records `key` (replacing an earlier record of the same key).
    pub fn record<T: Serialize>(&mut self, key: &'static str, v: &Sourced<T>) {
        let input = Input {
            key,
            value: json!(v.value),
            source: v.source.clone(),
        };
        match self.entries.iter_mut().find(|e| e.key == key) {
            Some(e) => *e = input,
            None => self.entries.push(input),
        }
    }

    /// Drops `key`: an input resolved on the way that the plan does not use.
    pub fn forget(&mut self, key: &str) {
        self.entries.retain(|e| e.key != key);
    }

    /// Records `v` under `key` and hands back its value.
    pub fn take<T: Serialize>(&mut self, key: &'static str, v: Sourced<T>) -> T {
        self.record(key, &v);
        v.value
    }

    /// Whether a value from `source` was assumed rather than given: a
    /// default, a derived figure, a scenario the user did not name (the
    /// bundled default), or a preset or trace named by one of those.
    pub fn assumed(&self, source: &Source) -> bool {
        match source {
            Source::Flag(_) | Source::File { .. } | Source::Env(_) => false,
            Source::Trace { by, .. } | Source::Preset { named_by: by, .. } => self.assumed(by),
            Source::Scenario { .. } => matches!(self.source("scenario"), Some(Source::Default)),
            Source::Derived(_) | Source::Default => true,
        }
    }

    /// Every input, in order.
    pub fn entries(&self) -> &[Input] {
        &self.entries
    }

    /// Adds a warning about an accepted input.
    pub fn notice(&mut self, text: String) {
        if !self.notices.contains(&text) {
            self.notices.push(text);
        }
    }

    /// The warnings about accepted inputs.
    pub fn notices(&self) -> &[String] {
        &self.notices
    }

    /// Where `key` came from, if it was resolved.
    pub fn source(&self, key: &str) -> Option<&Source> {
        self.entries
            .iter()
            .find(|e| e.key == key)
            .map(|e| &e.source)
    }

    /// A model error, attributed: it names the flag, scenario field or
    /// default the rejected parameter came from. A parameter no input
    /// supplied (one the model derived) keeps the model's name.
    pub fn attach(&self, e: ParamError) -> InputError {
        match self.source(e.param) {
            Some(source) => InputError::new(source, e.problem),
            None => InputError::new(e.param, e.problem),
        }
    }

    /// The inputs as JSON: `{"cap": {"value": 1000, "source": "--cap"}}`.
    pub fn json(&self) -> Value {
        let mut map = Map::new();
        for e in &self.entries {
            map.insert(
                e.key.to_string(),
                json!({ "value": e.value, "source": e.source.to_string() }),
            );
        }
        Value::Object(map)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Problem;

    #[test]
    fn sources_name_what_the_user_wrote() {
        let field = Source::Scenario {
            file: "viral-evening.toml".into(),
            field: "monitor.settings_ttl_seconds".into(),
        };
        assert_eq!(
            field.to_string(),
            "scenario viral-evening.toml: monitor.settings_ttl_seconds"
        );
        let preset = Source::Preset {
            store: Store::Firestore,
            named_by: Box::new(Source::Flag("--store")),
        };
        assert_eq!(preset.to_string(), "store preset firestore (--store)");
        assert_eq!(Source::Default.to_string(), "default");
    }

    #[test]
    fn model_errors_are_attributed_to_their_source() {
        let mut inputs = Inputs::default();
        inputs.record(
            "cache_seconds",
            &Sourced::new(
                -1.0,
                Source::Scenario {
                    file: "x.toml".into(),
                    field: "cache_seconds".into(),
                },
            ),
        );
        let e = inputs.attach(ParamError::new("cache_seconds", Problem::Negative(-1.0)));
        assert_eq!(e.what, "scenario x.toml: cache_seconds");
        assert_eq!(e.message, "must be a finite number >= 0 (got -1)");
        // A parameter nobody supplied keeps the model's name.
        let e = inputs.attach(ParamError::new(
            "shards",
            Problem::CountOutside { got: 0, max: 1 },
        ));
        assert_eq!(e.what, "shards");
        assert_eq!(inputs.json()["cache_seconds"]["value"], json!(-1.0));
    }
}
