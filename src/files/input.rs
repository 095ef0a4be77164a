//! Input files, where `-` means standard input (as in `cat -`). Standard
//! input can be read once per run, so a second flag naming `-` is refused
//! with the name of the first.

use std::io::Read;
use std::path::Path;

use super::Claims;
use crate::error::{InputError, InputResult};

/// True when `path` names standard input.
pub fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Before any input is read: refuse a run in which two of `inputs` (each
/// the flag and the path it was given) name standard input, naming the
/// second, so the refusal does not wait for the first to read it.
pub fn one_stdin(inputs: &[(&str, Option<&Path>)]) -> InputResult<()> {
    let mut named = inputs
        .iter()
        .filter_map(|(what, path)| path.filter(|p| is_stdin(p)).map(|_| *what));
    if let (Some(first), Some(second)) = (named.next(), named.next()) {
        return Err(read_twice(second, first));
    }
    Ok(())
}

/// `what` names standard input, which `first` already reads.
pub(crate) fn read_twice(what: &str, first: &str) -> InputError {
    InputError::new(
        what,
        format!("reads standard input (-), which {first} already reads; give one of them a file"),
    )
}

/// A reader for `path` (`-`: standard input); errors name `what`.
pub fn open(claims: &Claims, what: &str, path: &Path) -> InputResult<Box<dyn Read>> {
    if is_stdin(path) {
        claims.stdin(what)?;
        return Ok(Box::new(std::io::stdin()));
    }
    let file = std::fs::File::open(path)
        .map_err(|e| InputError::new(what, format!("cannot read {}: {e}", path.display())))?;
    // No output of this run may replace a file it reads.
    claims.input(what, path)?;
    Ok(Box::new(file))
}

/// The shown name of `path` in errors and reports.
pub fn shown(path: &Path) -> String {
    if is_stdin(path) {
        "standard input".to_string()
    } else {
        path.display().to_string()
    }
}

/// All of `path` (`-`: standard input), refused past `max` bytes with
/// `too_big` saying what a normal input is; errors name `what`.
pub fn read_bounded(
    claims: &Claims,
    what: &str,
    path: &Path,
    max: u64,
    too_big: &str,
) -> InputResult<Vec<u8>> {
    let reader = open(claims, what, path)?;
    let mut bytes = Vec::new();
    reader
        .take(max + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| InputError::new(what, format!("cannot read {}: {e}", shown(path))))?;
    if bytes.len() as u64 > max {
        return Err(InputError::new(
            what,
            format!("{} is larger than {max} bytes; {too_big}", shown(path)),
        ));
    }
    Ok(bytes)
}

/// A reader that fails once a line grows past `max` bytes, so a parser
/// that buffers a line (the CSV reader) never holds more: `/dev/zero`, a
/// file with no newline, is refused as soon as its first "line" is too long.
pub struct LineBound<R> {
    inner: R,
    max: u64,
    line: u64,
}

impl<R> LineBound<R> {
    pub fn new(inner: R, max: u64) -> Self {
        LineBound {
            inner,
            max,
            line: 0,
        }
    }
}

impl<R: Read> Read for LineBound<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        for &b in &buf[..n] {
            if b == b'\n' {
                self.line = 0;
            } else {
                self.line += 1;
                if self.line > self.max {
                    return Err(std::io::Error::new(
                        std::io::ErrorKind::InvalidData,
                        format!("a line is longer than {} bytes", self.max),
                    ));
                }
            }
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_line_fails_and_short_ones_pass() {
        let mut ok = String::new();
        LineBound::new("ab\ncd\n".as_bytes(), 2)
            .read_to_string(&mut ok)
            .unwrap();
        assert_eq!(ok, "ab\ncd\n");
        let mut out = Vec::new();
        let e = LineBound::new("abc\n".as_bytes(), 2)
            .read_to_end(&mut out)
            .unwrap_err();
        assert!(e.to_string().contains("longer than 2 bytes"), "{e}");
    }
}
