//! Errors of a run that are not bad input: a failed count check, a run
//! stopped by a signal.

/// `measure`'s own count check failed: the shard keys do not sum to the
/// INCRs sent (a client re-sent timed-out commands, or another client
/// wrote the keys). The results are printed, but the run did not measure
/// what it claims: exit code 3.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("count check failed: {0}")]
pub struct CountMismatch(pub String);

/// A run stopped by a signal after cleaning up (`measure` deleted the keys
/// that still held what it wrote, or with `--keep` only its same-slot
/// copies): exit code 128 + the signal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Interrupted {
    /// The signal's number (2 for SIGINT).
    pub signal: i32,
    /// Keys deleted by the clean-up.
    pub deleted: u64,
    /// Keys left because they held something else than this run wrote.
    pub left: Vec<String>,
    /// `--keep`: the run's own keys stay.
    pub kept: bool,
}

impl std::fmt::Display for Interrupted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "interrupted by signal {}; ", self.signal)?;
        if self.kept {
            write!(f, "the run's keys are kept (--keep)")?;
        } else {
            write!(f, "deleted the {} keys this run wrote", self.deleted)?;
        }
        if let Some(first) = self.left.first() {
            write!(
                f,
                ", left {} that another client changed (e.g. {first})",
                self.left.len()
            )?;
        }
        write!(f, "; no results")
    }
}

impl std::error::Error for Interrupted {}

/// A `measure --postgres` run stopped by a signal after dropping its
/// schema: exit code 128 + the signal.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("interrupted by signal {signal}; dropped schema {schema}; no results")]
pub struct SchemaInterrupted {
    /// The signal's number (2 for SIGINT).
    pub signal: i32,
    /// The run's schema, dropped.
    pub schema: String,
}
