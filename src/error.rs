//! The one error type a user can cause. Anything that is the user's fault
//! (a bad flag, a bad scenario field, an unwritable output) is an
//! [`InputError`]; `main` maps it to exit code 2. Every other error exits 1.

use std::fmt;

/// Bad input: names the flag, file or field, and what is accepted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{what}: {message}")]
pub struct InputError {
    /// The flag (`--peak`), scenario field (`scenarios/x.toml: peak`) or file.
    pub what: String,
    /// What is wrong and what is accepted.
    pub message: String,
}

impl InputError {
    pub fn new(what: impl fmt::Display, message: impl fmt::Display) -> Self {
        InputError {
            what: what.to_string(),
            message: message.to_string(),
        }
    }
}

pub type InputResult<T> = Result<T, InputError>;
