//! The files one run reads and writes: no output may be the same file as
//! an input or another output of the run (compared by device and inode,
//! and for a file that does not exist yet by its folder's device and inode
//! and its name, so `./a.csv`, `a.csv` and a hard link are caught alike),
//! and standard input is read once.

use std::path::Path;
use std::sync::{Arc, Mutex};

use crate::error::{InputError, InputResult};

/// Which file a path names, whatever it is spelled.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Identity {
    /// An existing file: its device and inode.
    File(u64, u64),
    /// A file to be created: its folder's device and inode, and its name.
    New(u64, u64, std::ffi::OsString),
}

/// The files one run reads and writes, each with the flag that names it,
/// and the flag that took standard input: made once a run (`config::Run`)
/// and handed to every reader and writer, so nothing about a run is
/// process-wide. Clones share one record.
#[derive(Debug, Clone, Default)]
pub struct Claims(Arc<Mutex<Claimed>>);

#[derive(Debug, Default)]
struct Claimed {
    /// Every file read or written: its identity, the flag and path as
    /// shown, and whether it is an output.
    files: Vec<(Identity, String, bool)>,
    /// The flag that took standard input, if any.
    stdin: Option<String>,
    /// The files the run will write, known from its flags before any
    /// input is read: an input among them is refused before it is parsed.
    planned: Vec<(Identity, String)>,
}

#[cfg(unix)]
fn identity(path: &Path) -> Option<Identity> {
    use std::os::unix::fs::MetadataExt;
    if let Ok(m) = std::fs::metadata(path) {
        return Some(Identity::File(m.dev(), m.ino()));
    }
    let name = path.file_name()?.to_os_string();
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let m = std::fs::metadata(dir).ok()?;
    Some(Identity::New(m.dev(), m.ino(), name))
}

#[cfg(not(unix))]
fn identity(path: &Path) -> Option<Identity> {
    let real = std::fs::canonicalize(path).ok()?;
    Some(Identity::New(0, 0, real.into_os_string()))
}

/// What a file claimed a second time met.
enum Met {
    /// An input met an output of the run.
    Output,
    /// An output met an input.
    Input,
    /// An output met another output.
    AnotherOutput,
}

/// `what`'s `path` is the same file as `first` (a flag and its path).
fn same_file(what: &str, path: &Path, first: &str, met: Met) -> InputError {
    let path = path.display();
    let message = match met {
        Met::Output => format!(
            "{path} is the same file as {first}, an output of this run; an input is never \
             written over: give the output another name"
        ),
        Met::Input => format!(
            "{path} is the same file as {first}, an input of this run; an input is never \
             written over: give the output another name"
        ),
        Met::AnotherOutput => format!(
            "{path} is the same file as {first} (another output of this run); give each \
             output its own file"
        ),
    };
    InputError::new(what, message)
}

impl Claims {
    fn lock(&self) -> std::sync::MutexGuard<'_, Claimed> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Records that `what` (a flag and the path as typed) reads or writes
    /// `path`; refused when an output meets a file the run already uses.
    fn claim(&self, what: &str, path: &Path, real: &Path, output: bool) -> InputResult<()> {
        let Some(id) = identity(real) else {
            return Ok(());
        };
        let mut claimed = self.lock();
        let shown = format!("{} {}", what, path.display());
        if !output {
            if let Some((_, first)) = claimed.planned.iter().find(|(i, _)| *i == id) {
                return Err(same_file(what, path, first, Met::Output));
            }
        }
        if let Some((_, first, first_is_output)) = claimed.files.iter().find(|(i, _, _)| *i == id) {
            match (output, first_is_output) {
                (true, true) => return Err(same_file(what, path, first, Met::AnotherOutput)),
                (true, false) => return Err(same_file(what, path, first, Met::Input)),
                (false, true) => return Err(same_file(what, path, first, Met::Output)),
                (false, false) => {}
            }
        }
        claimed.files.push((id, shown, output));
        Ok(())
    }

    /// Records a file the run will write (`what`: its flag), before any
    /// input is read: an input that is the same file is then refused as
    /// such, whatever it holds. A character device (`/dev/null`) is no
    /// file to protect.
    pub fn planned_output(&self, what: &str, path: &Path) {
        use std::os::unix::fs::FileTypeExt;
        if std::fs::metadata(path).is_ok_and(|m| m.file_type().is_char_device()) {
            return;
        }
        if let Some(id) = identity(path) {
            let shown = format!("{} {}", what, path.display());
            self.lock().planned.push((id, shown));
        }
    }

    /// Records an input file, so no output of the run can replace it.
    pub fn input(&self, what: &str, path: &Path) -> InputResult<()> {
        self.claim(what, path, path, false)
    }

    /// Claims standard input for `what` (the flag or scenario field that
    /// names `-`); refused when another input already read it. Even the
    /// same flag cannot read it twice: the second read would see an empty
    /// stream and pass for an empty input.
    pub fn stdin(&self, what: &str) -> InputResult<()> {
        let mut claimed = self.lock();
        match claimed.stdin.as_deref() {
            Some(first) => Err(super::input::read_twice(what, first)),
            None => {
                claimed.stdin = Some(what.to_string());
                Ok(())
            }
        }
    }

    /// Records an output file, `path` as given and `real` the file it is
    /// (after `output::policy` checked what it may replace, following the
    /// user's own links); refused when it is a file the run already reads
    /// or writes.
    pub fn output(&self, what: &str, path: &Path, real: &Path) -> InputResult<()> {
        self.claim(what, path, real, true)
    }
}
