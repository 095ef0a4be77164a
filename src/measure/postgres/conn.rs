//! Connections of one run, each named `shardplan-<run id>[-role]` in
//! `pg_stat_activity`, and a PostgreSQL error in one line a user can act
//! on (never with the password: the URL is not part of any message).

use std::error::Error as _;

use postgres::{Client, NoTls};

use super::config::{redact, PgConfig};

/// The `application_name` of the run's load connections: what the
/// lock-wait monitor looks for.
pub(super) fn load_name(run_id: &str) -> String {
    format!("shardplan-{run_id}")
}

/// Open one connection named `application_name`.
pub(crate) fn open(config: &PgConfig, application_name: &str) -> anyhow::Result<Client> {
    let settings = config.connection(application_name)?;
    settings.connect(NoTls).map_err(|e| {
        anyhow::anyhow!(
            "cannot connect to PostgreSQL at {}: {}",
            redact(&config.url),
            describe(&e)
        )
    })
}

/// `e` in words on one line: the server's message (with its SQLSTATE) for
/// an error it raised, a timeout named as `--timeout`'s, else the client's
/// words with their causes.
pub(crate) fn describe(e: &postgres::Error) -> String {
    if let Some(db) = e.as_db_error() {
        if db.code() == &postgres::error::SqlState::QUERY_CANCELED {
            return format!(
                "a statement ran over --timeout and the server cancelled it ({})",
                db.message()
            );
        }
        let mut text = format!("{} (SQLSTATE {})", db.message(), db.code().code());
        if db.code() == &postgres::error::SqlState::INVALID_PASSWORD {
            text += "; give the password in PGPASSWORD or the URL";
        }
        return one_line(&text);
    }
    if e.is_closed() {
        return "the server closed the connection (stopped or restarted?)".into();
    }
    let mut cause = e.source();
    while let Some(c) = cause {
        let lost = c.downcast_ref::<std::io::Error>().is_some_and(|io| {
            use std::io::ErrorKind::*;
            matches!(io.kind(), BrokenPipe | ConnectionReset | UnexpectedEof)
        });
        if lost {
            return format!("the connection to the server was lost ({c}; stopped or restarted?)");
        }
        cause = c.source();
    }
    let mut text = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        let more = c.to_string();
        if !text.contains(&more) {
            text += &format!(": {more}");
        }
        cause = c.source();
    }
    one_line(&text)
}

/// `text` with its lines joined by "; ".
fn one_line(text: &str) -> String {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ")
}
