//! The output policy: what a run may replace, decided before anything is
//! written. `docs/output.md` states it for users; in short:
//!
//! - every output path is walked one name at a time ([`super::walk`]): a
//!   symbolic link anywhere on it that the kernel's `protected_symlinks`
//!   rule would not follow (another user's link in a sticky folder anyone
//!   may write) is refused, exit 2, naming the link and its owner;
//! - a file's own link (and each link of its chain) is written through only
//!   when it and the file it leads to belong to the user running
//!   shardplan; a dangling link and a loop are refused;
//! - a read-only file is never replaced;
//! - the new file takes the old one's permission bits, never its setuid,
//!   setgid or sticky bits, and its owner and group where the user may
//!   give them;
//! - a character device or a FIFO (`/dev/null`) is written in place;
//! - no output may be the same file as an input or another output of the
//!   same run: compared by device and inode, and for a file that does not
//!   exist yet by its folder's device and inode and its name, so `./a.csv`,
//!   `a.csv` and a hard link are caught alike.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use super::folder::Folder;
use super::temp::Keep;
use super::walk::{cannot_write, euid, user_name, walk, walk_from, End, Walked};
use crate::error::{InputError, InputResult};
use crate::files::Claims;

/// Where an output goes, once its path passed the policy.
#[derive(Debug)]
pub enum Target {
    /// A regular file, made or replaced by a rename.
    File(FileTarget),
    /// A character device or a FIFO, written in place: its path.
    Special(PathBuf),
}

/// A regular file to make or replace.
#[derive(Debug)]
pub struct FileTarget {
    /// The folder it goes in, held open.
    pub folder: Folder,
    /// Its name there.
    pub name: OsString,
    /// The owner and mode it takes.
    pub keep: Keep,
}

impl FileTarget {
    /// Its physical path.
    pub fn path(&self) -> PathBuf {
        self.folder.path.join(&self.name)
    }
}

/// Where an output folder (`report -o DIR`, `man -o DIR`) goes.
#[derive(Debug)]
pub enum FolderTarget {
    /// The folder exists, held open.
    Existing(Folder),
    /// It does not: the deepest folder on its path that does, and the
    /// names to make below it (the output folder's own last).
    New {
        anchor: Folder,
        names: Vec<OsString>,
    },
}

/// The file an output at `path` goes to, checked against the policy above;
/// `flag` names the option in errors. The target is recorded in `claims`:
/// no other output or input of the run may be the same file.
pub fn output_target(claims: &Claims, flag: &str, path: &Path) -> InputResult<Target> {
    output_target_of(claims, flag, path, walk(flag, path)?)
}

/// The file `name` in an output folder that exists (`shown` is its path
/// as the user would write it), checked and claimed as any output file.
pub fn file_in_folder(
    claims: &Claims,
    flag: &str,
    folder: &Folder,
    name: &str,
    shown: &Path,
) -> InputResult<FileTarget> {
    let start = folder
        .try_clone()
        .map_err(|e| cannot_write(flag, shown, &e))?;
    let walked = walk_from(flag, shown, start, Path::new(name))?;
    match output_target_of(claims, flag, shown, walked)? {
        Target::File(t) => Ok(t),
        Target::Special(p) => Err(InputError::new(
            flag,
            format!(
                "{} is a device or a pipe; the folder's files must be files",
                p.display()
            ),
        )),
    }
}

/// [`output_target`] of a path walked.
fn output_target_of(
    claims: &Claims,
    flag: &str,
    path: &Path,
    walked: Walked,
) -> InputResult<Target> {
    let target = file_target(flag, path, walked)?;
    // A character device (`/dev/null`) is no file to replace: any number
    // of outputs may write to it.
    let claimed = match &target {
        Target::File(t) => Some(t.path()),
        Target::Special(p) => (!is_char_device(p)).then(|| p.clone()),
    };
    if let Some(p) = claimed {
        claims.output(flag, path, &p)?;
    }
    Ok(target)
}

/// The policy on a walked file path: its links, what is there, whether the
/// user may replace it.
fn file_target(flag: &str, path: &Path, walked: Walked) -> InputResult<Target> {
    let refuse = |why: String| Err(InputError::new(flag, format!("{}: {why}", path.display())));
    if let Some(link) = walked.links.iter().find(|l| l.owner != euid()) {
        return refuse(format!(
            "{} is a symbolic link another user owns ({}); not writing through it (give the \
             file itself, or remove the link)",
            link.path.display(),
            user_name(link.owner)
        ));
    }
    let Walked { folder, end, links } = walked;
    let (name, st) = match end {
        End::Missing(names) if names.len() > 1 => {
            return refuse(format!(
                "cannot write it: the folder {} does not exist",
                folder.path.join(&names[0]).display()
            ))
        }
        End::Missing(_) if !links.is_empty() => {
            return refuse(
                "is a symbolic link to nothing; not creating a file through it".to_string(),
            )
        }
        End::Missing(mut names) => {
            writable(flag, path, &folder.path)?;
            let name = names.remove(0);
            let keep = Keep::NEW;
            return Ok(Target::File(FileTarget { folder, name, keep }));
        }
        End::Found(name, st) => (name, st),
    };
    let real = folder.path.join(&name);
    if !links.is_empty() && st.st_uid != euid() {
        return refuse(format!(
            "links to {}, which another user owns ({}); not replacing it",
            real.display(),
            user_name(st.st_uid)
        ));
    }
    match st.st_mode & libc::S_IFMT {
        libc::S_IFDIR => refuse("is a folder; give a file name".into()),
        libc::S_IFCHR | libc::S_IFIFO => {
            writable(flag, path, &real)?;
            Ok(Target::Special(real))
        }
        libc::S_IFREG => {
            replaceable(flag, path, &folder, &real, &st)?;
            let keep = Keep {
                owner: Some((st.st_uid, st.st_gid)),
                mode: Some(replacement_mode(st.st_mode)),
            };
            Ok(Target::File(FileTarget { folder, name, keep }))
        }
        _ => refuse("is a block device or a socket; give a file, a pipe or /dev/null".into()),
    }
}

/// Refused unless the user may replace the file `real` (of status `st`)
/// in `folder`: it is writable, the folder too, and in a sticky folder it is
/// the user's or the folder's (only they, and root, may rename over it).
fn replaceable(
    flag: &str,
    path: &Path,
    folder: &Folder,
    real: &Path,
    st: &libc::stat,
) -> InputResult<()> {
    let refuse = |why: String| Err(InputError::new(flag, format!("{}: {why}", path.display())));
    if st.st_mode & 0o222 == 0 || writable(flag, path, real).is_err() {
        return refuse(
            "is read-only; not replacing it (make it writable, or give another name)".into(),
        );
    }
    writable(flag, path, &folder.path)?;
    let holder = folder.status().map_err(|e| cannot_write(flag, path, &e))?;
    let me = euid();
    if holder.st_mode & libc::S_ISVTX != 0 && me != 0 && ![st.st_uid, holder.st_uid].contains(&me) {
        return refuse(format!(
            "belongs to {}, in the sticky folder {}, where only its owner may replace it; give \
             another name",
            user_name(st.st_uid),
            folder.path.display()
        ));
    }
    Ok(())
}

/// Where an output folder at `path` goes: the folder, or where it will be
/// made (at the end of the run). Every link on the way passes the kernel's
/// rule; a dangling link is refused.
pub fn folder_target(flag: &str, path: &Path) -> InputResult<FolderTarget> {
    let refuse = |why: &str| Err(InputError::new(flag, format!("{}: {why}", path.display())));
    let Walked { folder, end, links } = walk(flag, path)?;
    match end {
        End::Missing(_) if !links.is_empty() => {
            refuse("is a symbolic link to nothing; not creating a folder through it")
        }
        End::Missing(names) => {
            writable(flag, path, &folder.path)?;
            Ok(FolderTarget::New {
                anchor: folder,
                names,
            })
        }
        End::Found(name, st) if st.st_mode & libc::S_IFMT == libc::S_IFDIR => {
            let folder = match name == "." {
                true => folder,
                false => folder
                    .enter(&name)
                    .map_err(|e| cannot_write(flag, path, &e))?,
            };
            Ok(FolderTarget::Existing(folder))
        }
        End::Found(..) => refuse("is a file; give a folder"),
    }
}

/// Refused unless the user may write `real` (a file, or a folder to make
/// files in): "cannot write PATH: Permission denied", naming `flag`.
fn writable(flag: &str, path: &Path, real: &Path) -> InputResult<()> {
    use std::os::unix::ffi::OsStrExt;
    let Ok(c) = std::ffi::CString::new(real.as_os_str().as_bytes()) else {
        return Err(cannot_write(
            flag,
            path,
            &std::io::ErrorKind::InvalidInput.into(),
        ));
    };
    // SAFETY: `c` is a valid NUL-terminated path for the call's duration.
    match unsafe { libc::access(c.as_ptr(), libc::W_OK) } {
        0 => Ok(()),
        _ => Err(cannot_write(flag, path, &std::io::Error::last_os_error())),
    }
}

fn is_char_device(path: &Path) -> bool {
    use std::os::unix::fs::FileTypeExt;
    std::fs::metadata(path).is_ok_and(|m| m.file_type().is_char_device())
}

/// The permission bits a replacement keeps: the old file's read, write
/// and execute bits, never setuid, setgid or sticky.
pub fn replacement_mode(old: libc::mode_t) -> u32 {
    old & 0o777
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

    #[test]
    fn the_kernel_rule_refuses_only_a_stranger_s_link_in_a_sticky_shared_folder() {
        use super::super::walk::kernel_refuses;
        // SAFETY: an all-zero stat is a valid value.
        let mut tmp: libc::stat = unsafe { std::mem::zeroed() };
        tmp.st_mode = libc::S_IFDIR | 0o1777;
        tmp.st_uid = 0;
        assert!(kernel_refuses(&tmp, 65534, 1000));
        assert!(!kernel_refuses(&tmp, 1000, 1000), "the follower's own");
        assert!(!kernel_refuses(&tmp, 0, 1000), "the folder owner's");
        tmp.st_mode = libc::S_IFDIR | 0o0777;
        assert!(!kernel_refuses(&tmp, 65534, 1000), "not sticky");
        tmp.st_mode = libc::S_IFDIR | 0o1775;
        assert!(!kernel_refuses(&tmp, 65534, 1000), "not world-writable");
    }
}
