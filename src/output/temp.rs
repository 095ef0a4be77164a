//! The temporary file an output's content is written to before it takes
//! the output's name. It exists only while that content is written: made
//! when the first byte is (never when the run starts), in the target's
//! own folder, and renamed over the target once complete.
//!
//! On Linux it is made with `O_TMPFILE`: a file with no name, which no
//! listing shows and which vanishes with the process however it ends (even
//! SIGKILL). At the end it is linked into the folder, straight under the
//! target's name when none exists, else under a `.shardplan-*.tmp` name
//! renamed over the target at once. Where the file system has no
//! `O_TMPFILE` (or off Linux) the content goes to a named
//! `.shardplan-*.tmp` file, removed on SIGINT, SIGTERM and SIGHUP
//! (`interrupt`).

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io::{self, Write};
use std::os::fd::{AsRawFd, FromRawFd};

use super::folder::{c_name, Folder};

/// A temporary file being written.
#[derive(Debug)]
pub struct TempFile {
    file: File,
    /// Its name in the folder, when it has one (not `O_TMPFILE`).
    name: Option<OsString>,
}

/// What the finished file keeps of the one it replaces.
#[derive(Debug, Clone, Copy)]
pub struct Keep {
    /// The replaced file's owner and group, kept where the user may.
    pub owner: Option<(u32, u32)>,
    /// The replaced file's read, write and execute bits; none for a new
    /// file, which is 0644 less the umask.
    pub mode: Option<u32>,
}

impl Keep {
    /// A new file's.
    pub const NEW: Keep = Keep {
        owner: None,
        mode: None,
    };
}

/// A fresh `.shardplan-*.tmp` name: the process id and a random number;
/// a name taken anyway is skipped (`O_EXCL`, `mkdir`).
pub fn temp_name() -> OsString {
    let n: u32 = rand::random();
    OsString::from(format!(".shardplan-{}-{n:08x}.tmp", std::process::id()))
}

fn owned(fd: libc::c_int) -> io::Result<File> {
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: `fd` was just opened and is owned by no one else.
    Ok(unsafe { File::from_raw_fd(fd) })
}

impl TempFile {
    /// A temporary file in `folder` for a file that keeps `keep`: private
    /// (0600) until placed when it replaces one (its mode is then set), else
    /// with a new file's mode.
    pub fn create(folder: &Folder, keep: Keep) -> io::Result<TempFile> {
        let mode = match keep.mode {
            Some(_) => 0o600,
            None => 0o644,
        };
        #[cfg(target_os = "linux")]
        if let Some(file) = unnamed(folder, mode)? {
            return Ok(TempFile { file, name: None });
        }
        loop {
            let name = temp_name();
            let c = c_name(&name)?;
            let flags =
                libc::O_WRONLY | libc::O_CREAT | libc::O_EXCL | libc::O_NOFOLLOW | libc::O_CLOEXEC;
            // SAFETY: a valid descriptor and a NUL-terminated name.
            match owned(unsafe { libc::openat(folder.raw(), c.as_ptr(), flags, mode) }) {
                Ok(file) => {
                    super::interrupt::track(&folder.path.join(&name));
                    return Ok(TempFile {
                        file,
                        name: Some(name),
                    });
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
        }
    }

    pub fn file(&mut self) -> &mut File {
        &mut self.file
    }

    /// Flushes the content to disk, gives it `keep`'s owner (where the user
    /// may) and mode, and puts it in place as `name` in `folder`, replacing
    /// what was there. On failure the temporary file is gone.
    pub fn place(mut self, folder: &Folder, name: &OsStr, keep: Keep) -> io::Result<()> {
        let placed = self.finish(keep).and_then(|()| match &self.name {
            Some(temp) => folder.rename(temp, folder, name),
            None => self.link(folder, name),
        });
        if let Some(temp) = &self.name {
            if placed.is_err() {
                let _ = folder.remove_file(temp);
            }
            super::interrupt::untrack(&folder.path.join(temp));
        }
        placed
    }

    /// Flushed and synced, its owner and mode set.
    fn finish(&mut self, keep: Keep) -> io::Result<()> {
        self.file.flush()?;
        self.file.sync_all()?;
        let fd = self.file.as_raw_fd();
        if let Some((uid, gid)) = keep.owner {
            // The replaced file's owner where the user may give it (root),
            // else its group where the user belongs to it; where neither
            // (EPERM), the user's own, as any new file.
            // SAFETY: a valid descriptor.
            if unsafe { libc::fchown(fd, uid, gid) } != 0 {
                // SAFETY: as above; -1 leaves the owner as it is.
                unsafe { libc::fchown(fd, u32::MAX, gid) };
            }
        }
        // After fchown, which may clear mode bits; the umask does not apply.
        if let Some(mode) = keep.mode {
            // SAFETY: a valid descriptor.
            if unsafe { libc::fchmod(fd, mode as libc::mode_t) } != 0 {
                return Err(io::Error::last_os_error());
            }
        }
        Ok(())
    }

    /// An `O_TMPFILE` file given its name: linked straight to `name` when
    /// nothing is there, else under a temporary name renamed over it.
    #[cfg(target_os = "linux")]
    fn link(&self, folder: &Folder, name: &OsStr) -> io::Result<()> {
        match self.link_as(folder, name) {
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            done => return done,
        }
        let temp = loop {
            let temp = temp_name();
            match self.link_as(folder, &temp) {
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
                Ok(()) => break temp,
            }
        };
        let path = folder.path.join(&temp);
        super::interrupt::track(&path);
        let renamed = folder.rename(&temp, folder, name);
        if renamed.is_err() {
            let _ = folder.remove_file(&temp);
        }
        super::interrupt::untrack(&path);
        renamed
    }

    #[cfg(not(target_os = "linux"))]
    fn link(&self, _folder: &Folder, _name: &OsStr) -> io::Result<()> {
        unreachable!("only Linux makes unnamed temporary files")
    }

    /// Links the unnamed file as `name` in `folder` (EEXIST when taken),
    /// through `/proc/self/fd` (no privilege needed, unlike AT_EMPTY_PATH).
    #[cfg(target_os = "linux")]
    fn link_as(&self, folder: &Folder, name: &OsStr) -> io::Result<()> {
        let source = c_name(OsStr::new(&proc_fd(&self.file)))?;
        let c = c_name(name)?;
        // SAFETY: NUL-terminated names and a valid folder descriptor.
        let ret = unsafe {
            libc::linkat(
                libc::AT_FDCWD,
                source.as_ptr(),
                folder.raw(),
                c.as_ptr(),
                libc::AT_SYMLINK_FOLLOW,
            )
        };
        match ret {
            0 => Ok(()),
            _ => Err(io::Error::last_os_error()),
        }
    }
}

/// The `/proc` name of an open file.
#[cfg(target_os = "linux")]
fn proc_fd(file: &File) -> String {
    format!("/proc/self/fd/{}", file.as_raw_fd())
}

/// An unnamed temporary file in `folder`, or None where the file system
/// (or a missing `/proc`, needed to name it later) does not allow one.
#[cfg(target_os = "linux")]
fn unnamed(folder: &Folder, mode: libc::c_uint) -> io::Result<Option<File>> {
    let flags = libc::O_TMPFILE | libc::O_WRONLY | libc::O_CLOEXEC;
    // SAFETY: a valid descriptor and a NUL-terminated name.
    let file = match owned(unsafe { libc::openat(folder.raw(), c".".as_ptr(), flags, mode) }) {
        Ok(file) => file,
        Err(e)
            if matches!(
                e.raw_os_error(),
                Some(libc::EOPNOTSUPP | libc::EISDIR | libc::EINVAL | libc::ENOENT)
            ) =>
        {
            return Ok(None)
        }
        Err(e) => return Err(e),
    };
    match std::path::Path::new(&proc_fd(&file)).exists() {
        true => Ok(Some(file)),
        false => Ok(None),
    }
}
