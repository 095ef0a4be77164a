//! The checked-in schemas against the row types, and which commands have one.

use super::*;

/// The commands that print JSON, as clap names them.
fn commands() -> Vec<String> {
    use clap::ValueEnum;
    crate::cli::JsonCommand::value_variants()
        .iter()
        .map(|c| c.name())
        .collect()
}

/// Fails when a row type changed and `schemas/` was not regenerated
/// (`SHARDPLAN_UPDATE_SCHEMAS=1 cargo test --lib schema` writes them).
#[test]
fn checked_in_schemas_match_the_row_types() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas");
    let update = std::env::var_os("SHARDPLAN_UPDATE_SCHEMAS").is_some();
    for command in commands() {
        let text = file_text(&command).unwrap();
        let path = dir.join(format!("{command}.schema.json"));
        if update {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &text).unwrap();
            continue;
        }
        let on_disk =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(
            on_disk == text,
            "schemas/{command}.schema.json is stale: a field of its rows changed. \
             Rerun with SHARDPLAN_UPDATE_SCHEMAS=1, and raise JSON_SCHEMA_VERSION if a \
             field was renamed or removed"
        );
    }
}

#[test]
fn every_command_has_a_schema_and_others_none() {
    for command in commands() {
        assert!(document(&command).is_some(), "{command}");
    }
    assert!(document("chart").is_none());
}
