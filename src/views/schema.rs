//! The JSON Schema of each command's `--format json` document, generated
//! from the same row types the document is serialised from (schemars), with
//! the few places where a view puts words in a typed field's stead or adds
//! a field written the same way here, beside the view's `json()`: each
//! command's payload in `schema/payload.rs`, the document around it (the
//! header, `inputs`, the definitions it uses) here.
//!
//! The schemas are checked in as `schemas/<command>.schema.json`; the test
//! in `schema/tests.rs` fails when a row type changes and the file was not regenerated
//! (`SHARDPLAN_UPDATE_SCHEMAS=1 cargo test --lib schema`), and
//! `tests/cli/json_schemas.rs` validates real output against the files. A field
//! is added, never renamed or removed, without raising
//! [`JSON_SCHEMA_VERSION`], so every object admits fields it does not list
//! and every property has a description with its unit (docs/output.md,
//! "Compatibility").

use schemars::generate::{SchemaGenerator, SchemaSettings};
use schemars::JsonSchema;
use serde_json::{json, Map, Value};

use super::inputs::JSON_SCHEMA_VERSION;
use payload::payload;

mod payload;

/// A document schema under construction: the payload's object schema and
/// the generator holding the definitions it refers to.
struct Doc {
    generator: SchemaGenerator,
}

impl Doc {
    fn new() -> Self {
        let settings = SchemaSettings::draft2020_12().for_serialize();
        Doc {
            generator: settings.into_generator(),
        }
    }

    /// The object schema of `T` itself (its nested types by reference).
    fn object<T: JsonSchema>(&mut self) -> Map<String, Value> {
        let schema = T::json_schema(&mut self.generator);
        match schema.to_value() {
            Value::Object(m) => m,
            other => panic!("{} is not an object schema: {other}", T::schema_name()),
        }
    }

    /// A reference to `T` (or its inline schema for primitives).
    fn sub<T: JsonSchema>(&mut self) -> Value {
        self.generator.subschema_for::<T>().to_value()
    }

    /// The definitions every reference so far needs.
    fn definitions(&mut self) -> Map<String, Value> {
        self.generator.take_definitions(true)
    }
}

/// Adds (or replaces) `field`, required unless `optional`.
fn set(obj: &mut Map<String, Value>, field: &str, schema: Value, optional: bool) {
    let props = obj
        .entry("properties")
        .or_insert_with(|| json!({}))
        .as_object_mut()
        .expect("properties is an object");
    props.insert(field.to_string(), schema);
    let required = obj
        .entry("required")
        .or_insert_with(|| json!([]))
        .as_array_mut()
        .expect("required is a list");
    required.retain(|r| r != field);
    if !optional {
        required.push(field.into());
    }
}

/// `schema` with `text` as its description: every property the document
/// lists says what it is and its unit (`tests/cli/json_schemas.rs` checks).
fn about(text: &str, schema: Value) -> Value {
    match schema {
        Value::Object(mut m) => {
            m.insert("description".into(), text.into());
            Value::Object(m)
        }
        other => json!({ "description": text, "allOf": [other] }),
    }
}

/// Removes `field`.
fn remove(obj: &mut Map<String, Value>, field: &str) {
    if let Some(Value::Object(p)) = obj.get_mut("properties") {
        p.remove(field);
    }
    if let Some(Value::Array(r)) = obj.get_mut("required") {
        r.retain(|x| x != field);
    }
}

fn string() -> Value {
    json!({ "type": "string" })
}

fn strings() -> Value {
    json!({ "type": "array", "items": { "type": "string" } })
}

fn list(items: Value) -> Value {
    json!({ "type": "array", "items": items })
}

/// `inputs`: each resolved input's value and where it came from.
fn inputs() -> Value {
    json!({
        "description": "Every resolved input by its name: its value and where it came from \
                        (what `--explain` prints).",
        "type": "object",
        "additionalProperties": {
            "type": "object",
            "properties": {
                "value": {
                    "description": "The input's value as the run used it, in the unit of \
                                    the flag that sets it (a number, a string, a list or null)."
                },
                "source": {
                    "description": "Where the value came from: a flag (`--cap`), a scenario \
                                    field (`scenario viral-reel.toml: cap`), a store preset, an \
                                    environment variable, `derived: ...` or `default`.",
                    "type": "string"
                }
            },
            "required": ["value", "source"]
        }
    })
}

/// The `$ref` targets (`#/$defs/NAME`) in `v`.
fn refs(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            if let Some(Value::String(r)) = m.get("$ref") {
                if let Some(name) = r.strip_prefix("#/$defs/") {
                    out.push(name.to_string());
                }
            }
            m.values().for_each(|x| refs(x, out));
        }
        Value::Array(a) => a.iter().for_each(|x| refs(x, out)),
        _ => {}
    }
}

/// The definitions the document refers to, directly or through another:
/// a typed field the view replaced by words leaves its type unreferenced.
fn used_definitions(doc: &Value, mut all: Map<String, Value>) -> Map<String, Value> {
    let mut wanted = Vec::new();
    refs(doc, &mut wanted);
    let mut used = Map::new();
    while let Some(name) = wanted.pop() {
        if used.contains_key(&name) {
            continue;
        }
        if let Some(def) = all.remove(&name) {
            refs(&def, &mut wanted);
            used.insert(name, def);
        }
    }
    // By name, so the file reads the same whatever the traversal order.
    let mut names: Vec<String> = used.keys().cloned().collect();
    names.sort();
    names
        .into_iter()
        .map(|n| {
            let def = used.remove(&n).expect("listed above");
            (n, def)
        })
        .collect()
}

/// Every object admits fields it does not list: a field is added under the
/// same [`JSON_SCHEMA_VERSION`], so yesterday's schema must accept today's
/// output (docs/output.md, "Compatibility"). The `required` lists stay,
/// and a renamed or removed field still fails.
fn open_objects(v: &mut Value) {
    match v {
        Value::Object(m) => {
            if m.get("additionalProperties") == Some(&Value::Bool(false)) {
                m.remove("additionalProperties");
            }
            for x in m.values_mut() {
                open_objects(x);
            }
        }
        Value::Array(a) => a.iter_mut().for_each(open_objects),
        _ => {}
    }
}

/// An internally tagged enum's tag (`kind`) in each of its alternatives,
/// which serde adds and no doc comment reaches: "Which warning this is".
fn describe_tags(defs: &mut Map<String, Value>) {
    for (name, def) in defs.iter_mut() {
        let Some(Value::Array(alternatives)) = def.get_mut("oneOf") else {
            continue;
        };
        for alt in alternatives {
            let Some(Value::Object(props)) = alt.get_mut("properties") else {
                continue;
            };
            for (field, schema) in props.iter_mut() {
                let Value::Object(schema) = schema else {
                    continue;
                };
                let Some(Value::String(tag)) = schema.get("const") else {
                    continue;
                };
                if !schema.contains_key("description") {
                    let text = format!(
                        "Which {} this is (`{field}`): `{tag}`.",
                        name.to_lowercase()
                    );
                    schema.insert("description".into(), text.into());
                }
            }
        }
    }
}

/// One shape of `command`'s document with the header fields first, as the
/// document prints them (`schema_version`, `version`, `command`), then its
/// payload, `inputs` and `warning_text`.
fn with_header(mut obj: Map<String, Value>, command: &str) -> Value {
    // Header fields first, as the document prints them.
    let mut props = Map::new();
    props.insert(
        "schema_version".into(),
        json!({
            "description": "The version of this document's fields: fields are only \
                            added under one number; a rename or removal raises it \
                            (docs/output.md, \"Compatibility\").",
            "const": JSON_SCHEMA_VERSION
        }),
    );
    props.insert(
        "version".into(),
        about(
            "The version of shardplan that printed the document.",
            string(),
        ),
    );
    props.insert(
        "command".into(),
        json!({
            "description": "The command that printed the document.",
            "const": command
        }),
    );
    if let Some(Value::Object(p)) = obj.remove("properties") {
        props.extend(p);
    }
    props.insert("inputs".into(), inputs());
    props.insert(
        "warning_text".into(),
        json!({
            "description": "Every warning the table prints, word for word.",
            "type": "array",
            "items": { "type": "string" }
        }),
    );
    obj.insert("properties".into(), Value::Object(props));
    let mut required = vec![
        json!("schema_version"),
        json!("version"),
        json!("command"),
        json!("warning_text"),
    ];
    if let Some(Value::Array(r)) = obj.remove("required") {
        // A flattened struct may repeat a name (the JSON keeps one).
        for name in r {
            if !required.contains(&name) {
                required.push(name);
            }
        }
    }
    obj.insert("required".into(), Value::Array(required));
    obj.insert("type".into(), "object".into());
    obj.remove("$schema");
    obj.remove("title");
    obj.remove("description");
    Value::Object(obj)
}

/// The whole `--format json` document of `command`: the header
/// (`schema_version`, `version`, `command`), the payload and `inputs`.
pub fn document(command: &str) -> Option<Value> {
    let mut d = Doc::new();
    let shapes = payload(command, &mut d)?;
    let shapes: Vec<Value> = shapes
        .into_iter()
        .map(|obj| with_header(obj, command))
        .collect();
    let mut doc = Map::new();
    doc.insert(
        "$schema".into(),
        "https://json-schema.org/draft/2020-12/schema".into(),
    );
    doc.insert(
        "title".into(),
        format!("shardplan {command} --format json").into(),
    );
    if shapes.len() == 1 {
        if let Some(Value::Object(only)) = shapes.into_iter().next() {
            doc.extend(only);
        }
    } else {
        doc.insert("oneOf".into(), Value::Array(shapes));
    }
    let mut defs = used_definitions(&Value::Object(doc.clone()), d.definitions());
    describe_tags(&mut defs);
    if !defs.is_empty() {
        doc.insert("$defs".into(), Value::Object(defs));
    }
    let mut doc = Value::Object(doc);
    open_objects(&mut doc);
    Some(doc)
}

/// The checked-in file's text for `command`.
pub fn file_text(command: &str) -> Option<String> {
    let doc = document(command)?;
    Some(serde_json::to_string_pretty(&doc).expect("a schema serialises") + "\n")
}

#[cfg(test)]
mod tests;
