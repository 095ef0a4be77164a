//! Where output goes. Files are opened as a temp file beside the target
//! before any work starts (so an unwritable path fails at once, exit 2) and
//! renamed into place only when the whole output is written: a failed run
//! never leaves a half-written file.

use std::io::Write;
use std::path::{Path, PathBuf};

use tempfile::NamedTempFile;

use super::run::Run;
use super::terminal::ColorChoice;
use super::{Format, Report};
use crate::error::{InputError, InputResult};
use crate::files::Claims;

/// What went wrong, without the temp file's name that tempfile's errors
/// carry (the user never named that file): the error's kind, e.g.
/// "permission denied".
fn os_error(e: &std::io::Error) -> String {
    std::io::Error::from(e.kind()).to_string()
}

/// A file that appears at `path` only when committed.
#[derive(Debug)]
pub struct AtomicFile {
    flag: String,
    path: PathBuf,
    temp: NamedTempFile,
}

impl AtomicFile {
    /// Opens a temp file in the target's folder; `flag` names the option in errors.
    pub fn create(claims: &Claims, flag: &str, path: &Path) -> InputResult<Self> {
        if path.as_os_str().is_empty() {
            return Err(InputError::new(
                flag,
                "needs a file name (got an empty path)",
            ));
        }
        if path.is_dir() {
            return Err(InputError::new(
                flag,
                format!("{} is a folder; give a file name", path.display()),
            ));
        }
        // Links, read-only files and aliases of other files of the run are
        // refused here (`policy`); `path` is the file to replace.
        let path = super::policy::output_target(claims, flag, path)?;
        let path = path.as_path();
        let existing = std::fs::metadata(path).ok();
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let mut builder = tempfile::Builder::new();
        builder.prefix(".shardplan-").suffix(".tmp");
        // Temp files are private (0600) by default; the result is an
        // ordinary file that others may read, like one written by `>`. An
        // existing file keeps its permission bits, never setuid or setgid.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = super::policy::replacement_mode(existing.as_ref());
            builder.permissions(std::fs::Permissions::from_mode(mode));
        }
        // The folder's own error first: tempfile's names its temp file.
        if let Err(e) = std::fs::metadata(&dir) {
            return Err(InputError::new(
                flag,
                format!("cannot write {}: {e}", path.display()),
            ));
        }
        let temp = builder.tempfile_in(&dir).map_err(|e| {
            InputError::new(
                flag,
                format!("cannot write {}: {}", path.display(), os_error(&e)),
            )
        })?;
        super::interrupt::track(temp.path());
        Ok(AtomicFile {
            flag: flag.to_string(),
            path: path.to_path_buf(),
            temp,
        })
    }

    pub fn writer(&mut self) -> &mut impl Write {
        self.temp.as_file_mut()
    }

    /// Flushes and renames the temp file into place. A failure (a full
    /// disk) names the flag; the temp file is removed, nothing half-written
    /// is left.
    pub fn commit(mut self) -> anyhow::Result<()> {
        let (flag, path) = (self.flag.clone(), self.path.clone());
        let cannot = |e: &dyn std::fmt::Display| {
            InputError::new(&flag, format!("cannot write {}: {e}", path.display()))
        };
        self.temp
            .as_file_mut()
            .flush()
            .and_then(|_| self.temp.as_file_mut().sync_all())
            .map_err(|e| cannot(&e))?;
        let temp_path = self.temp.path().to_path_buf();
        let persisted = self.temp.persist(&self.path);
        super::interrupt::untrack(&temp_path);
        persisted.map_err(|e| cannot(&e.error))?;
        Ok(())
    }

    /// Writes all of `bytes`; a failure names the flag.
    pub fn write_all(&mut self, bytes: &[u8]) -> anyhow::Result<()> {
        let (flag, path) = (self.flag.clone(), self.path.clone());
        self.temp.as_file_mut().write_all(bytes).map_err(|e| {
            InputError::new(flag, format!("cannot write {}: {e}", path.display())).into()
        })
    }
}

/// Makes `dir` ready for the files of a run (created if missing); `flag`
/// names the option in errors.
pub fn prepare_dir(flag: &str, dir: &Path) -> InputResult<()> {
    if dir.as_os_str().is_empty() {
        return Err(InputError::new(flag, "needs a folder (got an empty path)"));
    }
    if dir.exists() && !dir.is_dir() {
        return Err(InputError::new(
            flag,
            format!("{} is a file; give a folder", dir.display()),
        ));
    }
    std::fs::create_dir_all(dir)
        .map_err(|e| InputError::new(flag, format!("cannot create {}: {e}", dir.display())))
}

/// One place output goes.
#[derive(Debug)]
pub enum Destination {
    Stdout,
    /// `/dev/stderr`, `/dev/fd/2`.
    Stderr,
    /// Another open descriptor (`/dev/fd/N`): a stream, written in place.
    Stream(std::fs::File),
    File(AtomicFile),
}

impl Destination {
    /// Standard output for `-` (and its aliases), else a file made atomically.
    pub fn create(claims: &Claims, flag: &str, path: &Path) -> InputResult<Self> {
        if is_stdout(path) {
            return Ok(Destination::Stdout);
        }
        match path.to_str() {
            Some("/dev/stderr" | "/dev/fd/2") => Ok(Destination::Stderr),
            Some(p)
                if p.strip_prefix("/dev/fd/")
                    .is_some_and(|n| n.parse::<u32>().is_ok()) =>
            {
                let file = std::fs::OpenOptions::new()
                    .write(true)
                    .open(path)
                    .map_err(|e| InputError::new(flag, format!("cannot write {p}: {e}")))?;
                Ok(Destination::Stream(file))
            }
            _ => Ok(Destination::File(AtomicFile::create(claims, flag, path)?)),
        }
    }

    /// Writes all of `bytes` and finishes: flushed on stdout, renamed into
    /// place for a file.
    pub fn finish(self, bytes: &[u8]) -> anyhow::Result<()> {
        match self {
            Destination::Stdout => {
                let mut out = std::io::stdout().lock();
                out.write_all(bytes)?;
                out.flush()?;
            }
            Destination::Stderr => {
                let mut err = std::io::stderr().lock();
                err.write_all(bytes)?;
                err.flush()?;
            }
            Destination::Stream(mut f) => {
                f.write_all(bytes)?;
                f.flush()?;
            }
            Destination::File(mut f) => {
                f.write_all(bytes)?;
                f.commit()?;
            }
        }
        Ok(())
    }
}

/// Rows written as they come (`--per-second`): a stream in place, or the
/// temporary file that [`Destination::commit`] puts in place.
impl Write for Destination {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            Destination::Stdout => std::io::stdout().write(buf),
            Destination::Stderr => std::io::stderr().write(buf),
            Destination::Stream(f) => f.write(buf),
            Destination::File(f) => f.writer().write(buf),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Destination::Stdout => std::io::stdout().flush(),
            Destination::Stderr => std::io::stderr().flush(),
            Destination::Stream(f) => f.flush(),
            Destination::File(f) => f.writer().flush(),
        }
    }
}

impl Destination {
    /// Finishes what was written through [`Write`].
    pub fn commit(self) -> anyhow::Result<()> {
        self.finish(&[])
    }
}

/// `-`, `/dev/stdout` or `/dev/fd/1`: standard output, not a file.
pub fn is_stdout(path: &std::path::Path) -> bool {
    matches!(path.to_str(), Some("-" | "/dev/stdout" | "/dev/fd/1"))
}

/// Every destination of one run, each with its format.
#[derive(Debug)]
pub struct OutputSet {
    targets: Vec<(Destination, Format)>,
    /// `--color`.
    color: ColorChoice,
    /// The subcommand's name, for the JSON header.
    command: &'static str,
    /// `--wide`: tables keep every column.
    wide: bool,
}

impl OutputSet {
    /// `--format` (if given) applies to every target; otherwise each file's
    /// extension picks its format, and stdout gets a table.
    pub fn prepare(run: &Run, format: Option<Format>, outputs: &[PathBuf]) -> InputResult<Self> {
        let mut targets = Vec::new();
        if outputs.is_empty() {
            targets.push((Destination::Stdout, format.unwrap_or(Format::Table)));
        }
        for path in outputs {
            // `-o -` (and /dev/stdout) is standard output: the format is
            // --format's, else a table, as with no -o.
            if is_stdout(path) {
                if targets
                    .iter()
                    .any(|(d, _)| matches!(d, Destination::Stdout))
                {
                    return Err(InputError::new(
                        "--output",
                        "names standard output twice (- and /dev/stdout are the same)",
                    ));
                }
                targets.push((Destination::Stdout, format.unwrap_or(Format::Table)));
                continue;
            }
            if let (Some(given), Some(implied)) = (format, Format::from_extension(path)) {
                if given != implied {
                    return Err(InputError::new(
                        "--format",
                        format!(
                            "{} contradicts --output {}, whose extension means {}; drop --format \
                             or rename the file",
                            given.name(),
                            path.display(),
                            implied.name()
                        ),
                    ));
                }
            }
            let fmt = match format.or_else(|| Format::from_extension(path)) {
                Some(f) => f,
                None => {
                    return Err(InputError::new(
                        "--output",
                        format!(
                            "cannot tell the format of {} from its extension; use .csv, .json, \
                             .md, .txt or .tsv, or give --format",
                            path.display()
                        ),
                    ))
                }
            };
            targets.push((Destination::create(&run.claims, "--output", path)?, fmt));
        }
        Ok(OutputSet {
            targets,
            color: run.color,
            command: run.command,
            wide: false,
        })
    }

    /// The same outputs, with every table column kept when `wide`.
    pub fn widened(self, wide: bool) -> Self {
        OutputSet { wide, ..self }
    }

    /// True when some destination gets rows only (CSV or TSV), where an
    /// inputs table has no place.
    pub fn has_rows_only(&self) -> bool {
        self.targets
            .iter()
            .any(|(_, f)| matches!(f, Format::Csv | Format::Tsv))
    }

    /// True when some destination is read by people (a table or Markdown).
    pub fn has_human(&self) -> bool {
        self.targets
            .iter()
            .any(|(_, f)| matches!(f, Format::Table | Format::Markdown))
    }

    /// The subcommand's name, for the JSON header.
    pub fn command(&self) -> &'static str {
        self.command
    }

    /// The style of a table written to standard error (`--explain` beside
    /// rows-only outputs).
    pub fn stderr_style(&self) -> super::terminal::Style {
        super::terminal::Style::plain(self.color)
    }

    /// Renders the report into every destination.
    pub fn emit(self, report: &dyn Report) -> anyhow::Result<()> {
        // Render everything first: nothing is written unless all formats render.
        let mut rendered = Vec::new();
        for (dest, fmt) in self.targets {
            let style = match dest {
                Destination::Stdout => super::terminal::Style::stdout(self.color),
                _ => super::terminal::Style::plain(self.color),
            }
            .widened(self.wide);
            let bytes = fmt.exporter(style).render(report)?;
            rendered.push((dest, bytes));
        }
        for (dest, bytes) in rendered {
            dest.finish(&bytes)?;
        }
        Ok(())
    }
}
