//! The run's own schema: its name (`shardplan_<run id>` or `--schema`,
//! a plain identifier), created only if no schema of that name exists, its
//! three tables, and its removal. Nothing outside it is touched.

#[cfg(feature = "postgres")]
use postgres::Client;

use crate::error::{InputError, InputResult};
use crate::model::defaults::MAX_SCHEMA_NAME_BYTES;

#[cfg(feature = "postgres")]
use super::conn::describe;

/// `--schema` must be a plain identifier: a lowercase letter or `_`, then
/// lowercase letters, digits or `_`, at most 63 bytes, not `pg_...` (the
/// server reserves those). Such a name needs no quoting, so the SQL built
/// with it is exactly what it looks like.
pub(super) fn check_name(name: &str) -> InputResult<()> {
    let plain = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_lowercase() || c == '_')
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    if !plain || name.len() > MAX_SCHEMA_NAME_BYTES || name.starts_with("pg_") {
        return Err(InputError::new(
            "--schema",
            format!(
                "must be a plain identifier: a lowercase letter or _, then lowercase letters, digits or _, \
                 at most {MAX_SCHEMA_NAME_BYTES} bytes, not starting with pg_ (got {:?})",
                crate::error::shorten(name)
            ),
        ));
    }
    Ok(())
}

/// Create `name` with the designs' tables, refusing a schema that exists
/// (an [`InputError`] inside the error: exit code 2) and leaving it as
/// it is.
#[cfg(feature = "postgres")]
pub(super) fn create(admin: &mut Client, name: &str, shards: u64) -> anyhow::Result<()> {
    let exists = admin
        .query_opt("SELECT 1 FROM pg_namespace WHERE nspname = $1", &[&name])
        .map_err(|e| anyhow::anyhow!("looking for schema {name}: {}", describe(&e)))?
        .is_some();
    if exists {
        return Err(InputError::new(
            "--schema",
            format!(
                "schema {name} already exists on the server; measure creates its own schema and drops it \
                 afterwards, so it refuses one it did not create (name a new one with --schema)"
            ),
        )
        .into());
    }
    // One transaction: the schema appears with its tables or not at all
    // (and CREATE SCHEMA fails if another session created it meanwhile).
    let sql = format!(
        "BEGIN;
         CREATE SCHEMA {name};
         CREATE TABLE {name}.counters (id integer PRIMARY KEY, n bigint NOT NULL);
         INSERT INTO {name}.counters VALUES (1, 0);
         CREATE TABLE {name}.counter_shards (id integer PRIMARY KEY, n bigint NOT NULL);
         INSERT INTO {name}.counter_shards SELECT g, 0 FROM generate_series(0, {last}) AS g;
         CREATE TABLE {name}.likes (user_id bigint NOT NULL, post_id bigint NOT NULL,
                                    UNIQUE (user_id, post_id));
         COMMIT;",
        last = shards - 1
    );
    admin
        .batch_execute(&sql)
        .map_err(|e| anyhow::anyhow!("creating schema {name}: {}", describe(&e)))
}

/// Drop the run's schema and everything in it.
#[cfg(feature = "postgres")]
pub(super) fn drop(admin: &mut Client, name: &str) -> anyhow::Result<()> {
    admin
        .batch_execute(&format!("DROP SCHEMA IF EXISTS {name} CASCADE"))
        .map_err(|e| anyhow::anyhow!("dropping schema {name}: {}", describe(&e)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_identifiers_are_schema_names() {
        for good in ["shardplan_1a2b3c4d", "_x", "likes2", &"a".repeat(63)] {
            assert!(check_name(good).is_ok(), "{good}");
        }
        for bad in [
            "",
            "2likes",
            "Likes",
            "likes-2",
            "a b",
            "x;drop",
            "\"q\"",
            "pg_temp",
            "é",
            &"a".repeat(64),
        ] {
            let e = check_name(bad).unwrap_err();
            assert_eq!(e.what, "--schema", "{bad}");
        }
    }
}
