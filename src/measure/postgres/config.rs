//! What a `measure --postgres` run is: the validated [`PgConfig`], the
//! URL's checks, and the URL as reports show it (never its password).

use std::time::Duration;

use crate::error::{InputError, InputResult};
use crate::measure::durability::{check_fault, check_rate, Design, Fault, DEFAULT_DURABILITY_RATE};
use crate::model::defaults::{
    CONNECT_TIMEOUT, DEFAULT_MEASURE_SEED, MAX_CLIENTS, MAX_OPS, MAX_SHARDS, RESPONSE_TIMEOUT,
};
use crate::model::picker::Picker;
use crate::model::validate;

/// A validated `shardplan measure --postgres` invocation.
#[derive(Clone, PartialEq)]
pub struct PgConfig {
    /// `--postgres`: a `postgres://` (or `postgresql://`) URL.
    pub url: String,
    /// The password when the URL has none (the command reads `PGPASSWORD`).
    pub password: Option<String>,
    /// `--schema`: the schema to create (`None`: `shardplan_<run id>`).
    pub schema: Option<String>,
    /// `--shards`: S, the rows of the `sharded-rows` design.
    pub shards: u64,
    /// `--clients`: C, the concurrent connections.
    pub clients: u64,
    /// `--duration`: the time limit of each design.
    pub duration: Duration,
    /// `--max-ops`: the write limit of each design (`None`: time only).
    pub max_ops: Option<u64>,
    /// `--timeout`: the connect timeout and each statement's
    /// (`statement_timeout`).
    pub timeout: Duration,
    /// Seeds each client's shard choice (no flag).
    pub seed: u64,
    /// `--picker`: how each client, as app server `c` (its index), picks
    /// the row of each `sharded-rows` write (random from [`PgConfig::new`]).
    pub picker: Picker,
    /// `--synchronous-commit`: the writers' `synchronous_commit` (`None`:
    /// the server's setting).
    pub synchronous_commit: Option<SyncCommit>,
}

/// PostgreSQL's `synchronous_commit` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SyncCommit {
    /// Wait for the commit's WAL to be flushed (and for synchronous
    /// standbys, if any).
    On,
    /// Acknowledge before the WAL is flushed: a crash may lose the last
    /// commits (up to three times `wal_writer_delay`).
    Off,
    /// Wait for the local flush only.
    Local,
    /// Wait for synchronous standbys to have written (not flushed) it.
    RemoteWrite,
    /// Wait for synchronous standbys to have applied it.
    RemoteApply,
}

/// `--synchronous-commit`'s values, their names and what each waits for.
pub const SYNC_COMMITS: &[(SyncCommit, &str, &str)] = &[
    (
        SyncCommit::On,
        "on",
        "A commit is acknowledged once its WAL is flushed",
    ),
    (
        SyncCommit::Off,
        "off",
        "A commit is acknowledged before its WAL is flushed",
    ),
    (SyncCommit::Local, "local", "Wait for the local flush only"),
    (
        SyncCommit::RemoteWrite,
        "remote_write",
        "Wait for synchronous standbys to write it",
    ),
    (
        SyncCommit::RemoteApply,
        "remote_apply",
        "Wait for synchronous standbys to apply it",
    ),
];

impl SyncCommit {
    /// The setting's name, as PostgreSQL spells it.
    pub fn name(self) -> &'static str {
        SYNC_COMMITS
            .iter()
            .find(|v| v.0 == self)
            .map_or("", |v| v.1)
    }
}

impl std::fmt::Debug for PgConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The password never shows, not even in a debug print.
        f.debug_struct("PgConfig")
            .field("url", &redact(&self.url))
            .field("schema", &self.schema)
            .field("shards", &self.shards)
            .field("clients", &self.clients)
            .field("duration", &self.duration)
            .field("max_ops", &self.max_ops)
            .field("timeout", &self.timeout)
            .field("picker", &self.picker)
            .finish_non_exhaustive()
    }
}

impl PgConfig {
    /// A config with the default timeout, seed and picker (random) and no
    /// schema name.
    pub fn new(
        url: &str,
        shards: u64,
        clients: u64,
        duration: Duration,
        max_ops: Option<u64>,
    ) -> InputResult<PgConfig> {
        let config = PgConfig {
            url: url.to_string(),
            password: None,
            schema: None,
            shards,
            clients,
            duration,
            max_ops,
            timeout: RESPONSE_TIMEOUT,
            seed: DEFAULT_MEASURE_SEED,
            picker: Picker::Random,
            synchronous_commit: None,
        };
        config.validate()?;
        Ok(config)
    }

    /// Check every field; each error names the flag that sets it.
    pub fn validate(&self) -> InputResult<()> {
        parse_url(&self.url)?;
        if let Some(s) = &self.schema {
            super::schema::check_name(s)?;
        }
        let flag = |what: &'static str| {
            move |e: crate::error::ParamError| InputError::new(what, InputError::from(e).message)
        };
        validate::count("shards", self.shards, MAX_SHARDS).map_err(flag("--shards"))?;
        validate::count("clients", self.clients, MAX_CLIENTS).map_err(flag("--clients"))?;
        if let Some(m) = self.max_ops {
            validate::count("max_ops", m, MAX_OPS).map_err(flag("--max-ops"))?;
        }
        crate::measure::config::check_duration_and_timeout(self.duration, self.timeout)?;
        Ok(())
    }

    /// The connection settings for one connection of this run, named
    /// `application_name` so the lock-wait monitor can find it.
    #[cfg(feature = "postgres")]
    pub(super) fn connection(&self, application_name: &str) -> InputResult<postgres::Config> {
        let mut c = parse_url(&self.url)?;
        if c.get_password().is_none() {
            if let Some(pw) = &self.password {
                c.password(pw);
            }
        }
        c.application_name(application_name);
        c.connect_timeout(CONNECT_TIMEOUT.min(self.timeout));
        // Linux: a sent statement nobody acknowledges fails the connection.
        c.tcp_user_timeout(self.timeout);
        // The server cancels any statement (a lock wait too) over --timeout.
        let mut options = format!("-c statement_timeout={}", self.timeout.as_millis().max(1));
        if let Some(sc) = self.synchronous_commit {
            options += &format!(" -c synchronous_commit={}", sc.name());
        }
        c.options(&options);
        Ok(c)
    }
}

/// The URL must be `postgres://` or `postgresql://` and parse; the error
/// names `--postgres` and never shows the URL (it may hold a password).
#[cfg(feature = "postgres")]
fn parse_url(url: &str) -> InputResult<postgres::Config> {
    let bad = |why: String| {
        InputError::new(
            "--postgres",
            format!("must be a URL such as postgres://user@127.0.0.1:5432/db ({why})"),
        )
    };
    if !url.starts_with("postgres://") && !url.starts_with("postgresql://") {
        return Err(bad("the scheme must be postgres:// or postgresql://".into()));
    }
    let c: postgres::Config = url
        .parse()
        .map_err(|e: postgres::Error| bad(e.to_string()))?;
    if c.get_hosts().is_empty() {
        return Err(bad("no host".into()));
    }
    Ok(c)
}

/// The password a `--postgres` URL carries, if it parses and has one.
pub fn url_password(url: &str) -> Option<String> {
    #[cfg(feature = "postgres")]
    let password = parse_url(url).ok().and_then(|c| {
        c.get_password()
            .map(|p| String::from_utf8_lossy(p).into_owned())
    });
    // Without the client no URL is read (and none is used).
    #[cfg(not(feature = "postgres"))]
    let password = {
        let _ = url;
        None
    };
    password
}

/// Built without the PostgreSQL client: every `--postgres` URL is refused
/// with the feature it needs.
#[cfg(not(feature = "postgres"))]
fn parse_url(_url: &str) -> InputResult<std::convert::Infallible> {
    Err(crate::error::missing_feature("--postgres", "postgres"))
}

/// The URL as reports and messages show it: rebuilt from its parts, so no
/// password (in the user part or a `?password=` parameter) can show.
#[cfg(not(feature = "postgres"))]
pub fn redact(_url: &str) -> String {
    "postgres://(a client this build lacks)".into()
}

/// The URL as reports and messages show it: rebuilt from its parts, so no
/// password (in the user part or a `?password=` parameter) can show.
#[cfg(feature = "postgres")]
pub fn redact(url: &str) -> String {
    let Ok(c) = parse_url(url) else {
        return "postgres://(not a valid URL)".into();
    };
    let user = match (c.get_user(), c.get_password().is_some()) {
        (Some(u), true) => format!("{u}:***@"),
        (Some(u), false) => format!("{u}@"),
        (None, true) => ":***@".into(),
        (None, false) => String::new(),
    };
    let hosts: Vec<String> = c
        .get_hosts()
        .iter()
        .enumerate()
        .map(|(i, h)| {
            let host = match h {
                postgres::config::Host::Tcp(name) => name.clone(),
                #[cfg(unix)]
                postgres::config::Host::Unix(path) => path.display().to_string(),
            };
            match c.get_ports().get(i).or(c.get_ports().first()) {
                Some(p) => format!("{host}:{p}"),
                None => host,
            }
        })
        .collect();
    let db = c.get_dbname().map(|d| format!("/{d}")).unwrap_or_default();
    format!("postgres://{user}{}{db}", hosts.join(","))
}

/// A validated `measure --postgres URL --design D` run.
#[derive(Debug, Clone, PartialEq)]
pub struct PgDurabilityConfig {
    /// The server, the rows, the writers, `--duration`, `--timeout`,
    /// `--synchronous-commit`.
    pub base: PgConfig,
    /// `single` (one row) or `sharded` (S rows).
    pub design: Design,
    /// `--rate`: likes a second over all writers.
    pub rate: f64,
    /// `--fault-at` with `--fault-command`.
    pub fault: Option<Fault>,
}

impl PgDurabilityConfig {
    /// A run of `design` on `base`'s server at the default rate, no fault.
    pub fn new(base: PgConfig, design: Design) -> crate::error::InputResult<Self> {
        let c = PgDurabilityConfig {
            base,
            design,
            rate: DEFAULT_DURABILITY_RATE,
            fault: None,
        };
        c.validate()?;
        Ok(c)
    }

    /// Check every field; each error names its flag.
    pub fn validate(&self) -> crate::error::InputResult<()> {
        self.base.validate()?;
        if !matches!(self.design, Design::Single | Design::Sharded) {
            return Err(crate::error::InputError::new(
                "--design",
                format!(
                    "{} is a Redis design; PostgreSQL's are single (one row) and sharded (S rows)",
                    self.design.name()
                ),
            ));
        }
        check_rate(self.rate)?;
        match &self.fault {
            Some(f) => check_fault(f, self.base.duration, self.design),
            None => Ok(()),
        }
    }

    pub(super) fn rows(&self) -> u64 {
        match self.design {
            Design::Single => 1,
            _ => self.base.shards,
        }
    }

    pub(super) fn row_design(&self) -> super::report::Design {
        match self.design {
            Design::Single => super::report::Design::SingleRow,
            _ => super::report::Design::ShardedRows,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(feature = "postgres")]
    fn urls_are_checked_and_shown_without_a_password() {
        for url in [
            "127.0.0.1:5432",
            "redis://127.0.0.1",
            "postgres://h:notaport",
        ] {
            let e = PgConfig::new(url, 1, 1, Duration::from_secs(1), None).unwrap_err();
            assert_eq!(e.what, "--postgres", "{url}: {e}");
        }
        let e = parse_url("postgres://u:hunter2@h:notaport").unwrap_err();
        assert!(!e.to_string().contains("hunter2"), "{e}");
        assert_eq!(
            redact("postgres://app:s3cret@127.0.0.1:5433/likes"),
            "postgres://app:***@127.0.0.1:5433/likes"
        );
        assert_eq!(
            redact("postgresql://app@h/db?password=s3cret"),
            "postgres://app:***@h:5432/db"
        );
        assert_eq!(redact("postgres://h:1"), "postgres://h:1");
        let mut c = PgConfig::new("postgres://h:1", 1, 1, Duration::from_secs(1), None).unwrap();
        c.password = Some("s3cret".into());
        assert!(!format!("{c:?}").contains("s3cret"));
        assert_eq!(
            c.connection("x").unwrap().get_password(),
            Some(&b"s3cret"[..])
        );
    }

    #[test]
    fn bad_flags_name_the_flag() {
        let ok = |s, c, d, m| PgConfig::new("postgres://h", s, c, d, m);
        let second = Duration::from_secs(1);
        assert_eq!(ok(0, 1, second, None).unwrap_err().what, "--shards");
        assert_eq!(ok(1, 0, second, None).unwrap_err().what, "--clients");
        assert_eq!(ok(1, 1, second, Some(0)).unwrap_err().what, "--max-ops");
        assert_eq!(
            ok(1, 1, Duration::ZERO, None).unwrap_err().what,
            "--duration"
        );
        let mut c = ok(1, 1, second, None).unwrap();
        c.timeout = Duration::from_millis(1);
        assert_eq!(c.validate().unwrap_err().what, "--timeout");
        c.timeout = second;
        c.schema = Some("Robert'); DROP TABLE students;--".into());
        assert_eq!(c.validate().unwrap_err().what, "--schema");
    }
}
