//! The `--redis` URL: the scheme check, a password put in from outside the
//! URL, and the URL with its password replaced for reports and messages.

use crate::error::{InputError, InputResult};

/// The URL must be `redis://` and parse; the error names `--redis` and
/// shows the URL without its password.
pub(super) fn check_url(url: &str) -> InputResult<()> {
    let bad = |why: String| {
        InputError::new(
            "--redis",
            format!(
                "must be a URL such as redis://127.0.0.1:6379 ({why}; got {:?})",
                redact(url)
            ),
        )
    };
    // redis-rs accepts a bare `host:port` as TCP too; we insist on the
    // scheme so a typo cannot silently mean something else. TLS
    // (`rediss://`) is not compiled in.
    if !url.starts_with("redis://") {
        return Err(bad("the scheme must be redis://".into()));
    }
    #[cfg(feature = "redis")]
    {
        use redis::IntoConnectionInfo;
        url.into_connection_info().map_err(|e| bad(e.to_string()))?;
        Ok(())
    }
    // Built without the Redis client: the URL is refused with the feature
    // it needs.
    #[cfg(not(feature = "redis"))]
    Err(crate::error::missing_feature("--redis", "redis"))
}

/// The URL with `password` put in, unless it carries one already (a
/// password in the URL wins). The password is percent-encoded, so `@`, `:`
/// or `/` in it cannot change where the URL points; redis-rs decodes it.
/// A URL without the `redis://` scheme is returned as given (the URL check
/// names it).
pub fn with_password(url: &str, password: &str) -> String {
    let Some(rest) = url.strip_prefix("redis://") else {
        return url.to_string();
    };
    let host_end = rest.find('/').unwrap_or(rest.len());
    let encoded: String = password
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect();
    match rest[..host_end].rfind('@') {
        // A user without a password: `redis://user@host` -> `user:pw@host`.
        Some(at) if !rest[..at].contains(':') => {
            format!("redis://{}:{encoded}@{}", &rest[..at], &rest[at + 1..])
        }
        Some(_) => url.to_string(),
        None => format!("redis://:{encoded}@{rest}"),
    }
}

/// The URL with any password replaced by `***`, for reports and messages.
pub fn redact(url: &str) -> String {
    let Some(rest) = url.strip_prefix("redis://") else {
        return url.to_string();
    };
    let host_start = rest.find('/').unwrap_or(rest.len());
    match rest[..host_start].rfind('@') {
        Some(at) => {
            let user = rest[..at].split(':').next().unwrap_or("");
            let has_password = rest[..at].contains(':');
            let shown = if has_password {
                format!("{user}:***")
            } else {
                user.to_string()
            };
            format!("redis://{shown}@{}", &rest[at + 1..])
        }
        None => url.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_from_outside_the_url_is_put_in_encoded() {
        assert_eq!(
            with_password("redis://127.0.0.1:6379", "s3cret"),
            "redis://:s3cret@127.0.0.1:6379"
        );
        assert_eq!(
            with_password("redis://app@10.0.0.1:7000/0", "p@ss:w/rd"),
            "redis://app:p%40ss%3Aw%2Frd@10.0.0.1:7000/0"
        );
        // A password in the URL wins.
        assert_eq!(
            with_password("redis://:inurl@h:1", "other"),
            "redis://:inurl@h:1"
        );
        let url = with_password("redis://h:1", "p@ss");
        assert!(check_url(&url).is_ok());
        assert_eq!(redact(&url), "redis://:***@h:1");
        // A bad URL's error never shows the password.
        let e = check_url("redis://:hunter2@").unwrap_err();
        assert!(!e.to_string().contains("hunter2"), "{e}");
    }

    #[test]
    fn passwords_are_redacted() {
        assert_eq!(
            redact("redis://:s3cret@127.0.0.1:7000"),
            "redis://:***@127.0.0.1:7000"
        );
        assert_eq!(redact("redis://app:pw@h:1/0"), "redis://app:***@h:1/0");
        assert_eq!(redact("redis://app@h:1"), "redis://app@h:1");
        assert_eq!(redact("redis://127.0.0.1:7000"), "redis://127.0.0.1:7000");
    }
}
