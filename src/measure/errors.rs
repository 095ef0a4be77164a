//! A Redis error in one line a user can act on: "not a Redis server",
//! "timed out", "connection refused", a refused login, a missing ACL
//! permission; anything else as the client reports it, on one line.

use std::time::Duration;

use redis::{ErrorKind, RedisError};

/// `e` in words, for an operation that waited up to `wait` for a reply.
pub(super) fn describe(e: &RedisError, wait: Duration) -> String {
    if e.kind() == ErrorKind::Parse {
        // What came back is not RESP: an HTTP or SSH server, say.
        return "not a Redis server (its reply is not the Redis protocol)".into();
    }
    if e.is_timeout() {
        return format!("timed out (no reply within {} s)", wait.as_secs_f64());
    }
    if e.is_connection_refusal() {
        return "connection refused".into();
    }
    let detail = one_line(e.detail().unwrap_or(""));
    match e.code() {
        Some("NOAUTH" | "WRONGPASS") => format!(
            "the server refused the login ({} {detail}); give the password in REDISCLI_AUTH or --password-file",
            e.code().unwrap_or_default()
        ),
        Some("NOPERM") => format!(
            "the Redis user lacks a permission (NOPERM {detail}); grant it with ACL SETUSER or log in as another user"
        ),
        _ if e.kind() == ErrorKind::AuthenticationFailed => format!(
            "the server refused the login ({}); give the password in REDISCLI_AUTH or --password-file",
            one_line(&e.to_string())
        ),
        _ => one_line(&e.to_string()),
    }
}

/// `text` with its lines joined by "; ".
fn one_line(text: &str) -> String {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    const WAIT: Duration = Duration::from_millis(500);

    #[test]
    fn each_kind_of_failure_gets_its_words() {
        let parse = RedisError::from((
            ErrorKind::Parse,
            "Parse error at 1",
            "Unexpected `83`".into(),
        ));
        assert_eq!(
            describe(&parse, WAIT),
            "not a Redis server (its reply is not the Redis protocol)"
        );
        let timeout = RedisError::from(std::io::Error::from(std::io::ErrorKind::WouldBlock));
        assert_eq!(
            describe(&timeout, WAIT),
            "timed out (no reply within 0.5 s)"
        );
        let refused = RedisError::from(std::io::Error::from(std::io::ErrorKind::ConnectionRefused));
        assert_eq!(describe(&refused, WAIT), "connection refused");
        assert_eq!(one_line("a\n  b\n\nc "), "a; b; c");
    }
}
