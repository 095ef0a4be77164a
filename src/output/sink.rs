//! Where output goes. Every output path is checked before any work starts
//! (`policy`: an unwritable or refused one fails at once, exit 2); a file's
//! content goes to a temporary file made only when that content is written
//! (`temp`), renamed into place once complete: a failed or killed run
//! never leaves a half-written file.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::policy::{FileTarget, Target};
use super::run::Run;
use super::temp::TempFile;
use super::terminal::ColorChoice;
use super::{Format, Report};
use crate::error::{InputError, InputResult};
use crate::files::Claims;

/// A file that appears at its path only when committed.
#[derive(Debug)]
pub struct AtomicFile {
    flag: String,
    target: FileTarget,
    /// Made at the first byte written.
    temp: Option<TempFile>,
}

impl AtomicFile {
    /// The file `target` will be, nothing made yet; `flag` names the option
    /// in errors.
    pub fn new(flag: &str, target: FileTarget) -> Self {
        AtomicFile {
            flag: flag.to_string(),
            target,
            temp: None,
        }
    }

    /// The temporary file, made now if this is the first byte.
    pub fn writer(&mut self) -> std::io::Result<&mut std::fs::File> {
        if self.temp.is_none() {
            self.temp = Some(TempFile::create(&self.target.folder, self.target.keep)?);
        }
        Ok(self.temp.as_mut().expect("made above").file())
    }

    /// "cannot write PATH: ...", naming the flag.
    fn cannot(&self, e: &std::io::Error) -> anyhow::Error {
        super::walk::cannot_write(&self.flag, &self.target.path(), e).into()
    }

    /// Flushes and renames the temporary file into place (an empty file if
    /// nothing was written). A failure (a full disk) names the flag; the
    /// temporary file is removed, nothing half-written is left.
    pub fn commit(mut self) -> anyhow::Result<()> {
        if let Err(e) = self.writer() {
            return Err(self.cannot(&e));
        }
        let temp = self.temp.take().expect("made above");
        let t = &self.target;
        temp.place(&t.folder, &t.name, t.keep)
            .map_err(|e| self.cannot(&e))
    }

    /// Writes all of `bytes`; a failure names the flag.
    pub fn write_all(&mut self, bytes: &[u8]) -> anyhow::Result<()> {
        let written = self.writer().and_then(|f| f.write_all(bytes));
        written.map_err(|e| self.cannot(&e))
    }
}

/// One place output goes.
#[derive(Debug)]
pub enum Destination {
    Stdout,
    /// `/dev/stderr`, `/dev/fd/2`.
    Stderr,
    /// Another open descriptor (`/dev/fd/N`): a stream, written in place.
    Stream(std::fs::File),
    /// A character device or a FIFO (`/dev/null`): written in place, its
    /// errors the flag's.
    Special {
        flag: String,
        path: PathBuf,
        file: std::fs::File,
    },
    File(AtomicFile),
}

impl Destination {
    /// Standard output for `-` (and its aliases), else a file made
    /// atomically, or a device written in place.
    pub fn create(claims: &Claims, flag: &str, path: &Path) -> InputResult<Self> {
        if is_stdout(path) {
            return Ok(Destination::Stdout);
        }
        match path.to_str() {
            Some("/dev/stderr" | "/dev/fd/2") => return Ok(Destination::Stderr),
            Some(p)
                if p.strip_prefix("/dev/fd/")
                    .is_some_and(|n| n.parse::<u32>().is_ok()) =>
            {
                let file = std::fs::OpenOptions::new()
                    .write(true)
                    .open(path)
                    .map_err(|e| InputError::new(flag, format!("cannot write {p}: {e}")))?;
                return Ok(Destination::Stream(file));
            }
            _ => {}
        }
        if path.as_os_str().is_empty() {
            return Err(InputError::new(
                flag,
                "needs a file name (got an empty path)",
            ));
        }
        match super::policy::output_target(claims, flag, path)? {
            Target::File(t) => Ok(Destination::File(AtomicFile::new(flag, t))),
            Target::Special(real) => {
                // Opened now: a FIFO waits here for its reader, as `>` does.
                use std::os::unix::fs::OpenOptionsExt;
                let file = std::fs::OpenOptions::new()
                    .write(true)
                    .custom_flags(libc::O_NOFOLLOW)
                    .open(&real)
                    .map_err(|e| super::walk::cannot_write(flag, &real, &e))?;
                Ok(Destination::Special {
                    flag: flag.to_string(),
                    path: real,
                    file,
                })
            }
        }
    }

    /// Writes all of `bytes` and finishes: flushed on stdout and devices,
    /// renamed into place for a file.
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
            Destination::Special {
                flag,
                path,
                mut file,
            } => file
                .write_all(bytes)
                .and_then(|()| file.flush())
                .map_err(|e| super::walk::cannot_write(&flag, &path, &e))?,
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
            Destination::Stream(f) | Destination::Special { file: f, .. } => f.write(buf),
            Destination::File(f) => f.writer()?.write(buf),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Destination::Stdout => std::io::stdout().flush(),
            Destination::Stderr => std::io::stderr().flush(),
            Destination::Stream(f) | Destination::Special { file: f, .. } => f.flush(),
            Destination::File(f) => match &mut f.temp {
                Some(t) => t.file().flush(),
                None => Ok(()),
            },
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

    /// True when some destination is a document (a table, Markdown or
    /// JSON), not rows alone.
    pub fn has_document(&self) -> bool {
        self.targets
            .iter()
            .any(|(_, f)| matches!(f, Format::Table | Format::Markdown | Format::Json))
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
