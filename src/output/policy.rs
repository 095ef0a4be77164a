//! The output policy: what a run may replace, decided before anything is
//! written. `docs/output.md` states it for users; in short:
//!
//! - a symbolic link is written through only when it and the file it points
//!   to belong to the user running shardplan; a link someone else planted
//!   (say in `/tmp`), a link to another user's file, a dangling link and a
//!   loop are refused, exit 2, naming the flag;
//! - a read-only file is never replaced;
//! - the new file takes the old one's permission bits, never its setuid,
//!   setgid or sticky bits;
//! - no output may be the same file as an input or another output of the
//!   same run: compared by device and inode, and for a file that does not
//!   exist yet by its folder's device and inode and its name, so `./a.csv`,
//!   `a.csv` and a hard link are caught alike.

use std::path::{Path, PathBuf};

use crate::error::{InputError, InputResult};
use crate::files::Claims;

/// The user running shardplan.
#[cfg(unix)]
fn euid() -> u32 {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() }
}

/// The file an output at `path` replaces (the path itself, or where a link
/// the user owns points), checked against the policy above; `flag` names
/// the option in errors.
/// The target is recorded in `claims`: no other output or input of the run
/// may be the same file.
pub fn output_target(claims: &Claims, flag: &str, path: &Path) -> InputResult<PathBuf> {
    let refuse = |why: String| Err(InputError::new(flag, format!("{}: {why}", path.display())));
    let target = match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => {
            #[cfg(unix)]
            {
                use std::os::unix::fs::MetadataExt;
                if m.uid() != euid() {
                    return refuse(
                        "is a symbolic link another user owns; not writing through it (give the \
                         file itself, or remove the link)"
                            .into(),
                    );
                }
            }
            let Ok(real) = std::fs::canonicalize(path) else {
                return refuse(
                    "is a symbolic link to nothing (or a loop); not creating a file through it"
                        .into(),
                );
            };
            #[cfg(unix)]
            {
                use std::os::unix::fs::MetadataExt;
                let owner = std::fs::metadata(&real)
                    .map(|t| t.uid())
                    .unwrap_or(u32::MAX);
                if owner != euid() {
                    return refuse(format!(
                        "links to {}, which another user owns; not replacing it",
                        real.display()
                    ));
                }
            }
            real
        }
        _ => path.to_path_buf(),
    };
    if let Ok(m) = std::fs::metadata(&target) {
        if !m.is_file() {
            return refuse(
                "is not a regular file (a device or pipe?); give a file to write".into(),
            );
        }
        if read_only(&target, &m) {
            return refuse(
                "is read-only; not replacing it (make it writable, or give another name)".into(),
            );
        }
    }
    claims.output(flag, &target)?;
    Ok(target)
}

/// A file nobody may write, or that this user may not.
fn read_only(path: &Path, m: &std::fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        use std::os::unix::fs::PermissionsExt;
        if m.permissions().mode() & 0o222 == 0 {
            return true;
        }
        let Ok(c) = std::ffi::CString::new(path.as_os_str().as_bytes()) else {
            return true;
        };
        // SAFETY: `c` is a valid NUL-terminated path for the call's duration.
        unsafe { libc::access(c.as_ptr(), libc::W_OK) != 0 }
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        m.permissions().readonly()
    }
}

/// The permission bits a replacement keeps: the old file's read, write
/// and execute bits, never setuid, setgid or sticky (0644 for a new file).
pub fn replacement_mode(existing: Option<&std::fs::Metadata>) -> u32 {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        existing.map_or(0o644, |m| m.permissions().mode() & 0o777)
    }
    #[cfg(not(unix))]
    {
        let _ = existing;
        0o644
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run's claims are its own: the same file is an alias within one
    /// run and free in another (no process-wide record).
    #[test]
    fn claims_belong_to_one_run() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("rates.csv");
        std::fs::write(&input, "reel_id,rate\n").unwrap();
        let run = Claims::default();
        run.input("--rates-csv", &input).unwrap();
        let e = output_target(&run, "--output", &input).unwrap_err();
        assert_eq!(e.what, "--output");
        assert!(e.message.contains("an input of this run"), "{e}");
        // Another run (a clone shares the record; a new one does not).
        assert!(output_target(&run.clone(), "-o", &input).is_err());
        output_target(&Claims::default(), "--output", &input).unwrap();
        // Standard input once a run, whoever asks.
        run.stdin("--scenario").unwrap();
        let e = run.stdin("--stdin").unwrap_err();
        assert!(e.message.contains("--scenario already reads"), "{e}");
        Claims::default().stdin("--stdin").unwrap();
    }
}
