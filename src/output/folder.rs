//! An open folder: a descriptor and the physical path it was reached by (no
//! link in it). Every file an output creates, replaces or links is named
//! relative to the descriptor (`openat`, `renameat`, `linkat`), so a folder
//! on the way swapped for a link after [`super::walk`] checked the path
//! changes nothing: the names land in the folder that was checked.

use std::ffi::{CString, OsStr, OsString};
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

/// A folder held open, and its physical path (for messages and for the
/// cleanup on a signal, which has no descriptor).
#[derive(Debug)]
pub struct Folder {
    fd: OwnedFd,
    /// Absolute, without `.`, `..` or links.
    pub path: PathBuf,
}

/// A name for a system call: a name holding NUL cannot be a file's.
pub fn c_name(name: &OsStr) -> io::Result<CString> {
    CString::new(name.as_bytes()).map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))
}

/// `-1` as an error with errno, else the value.
fn check(ret: libc::c_int) -> io::Result<libc::c_int> {
    match ret {
        -1 => Err(io::Error::last_os_error()),
        n => Ok(n),
    }
}

/// The flags that open a folder only to name files in it: no read
/// permission needed on Linux (`O_PATH`), as a path's lookup needs none.
#[cfg(target_os = "linux")]
const FOLDER_FLAGS: libc::c_int = libc::O_PATH | libc::O_DIRECTORY | libc::O_CLOEXEC;
#[cfg(not(target_os = "linux"))]
const FOLDER_FLAGS: libc::c_int = libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC;

impl Folder {
    /// `/`.
    pub fn root() -> io::Result<Folder> {
        Folder::open_path(Path::new("/"))
    }

    /// The current folder, by its physical path (`getcwd`).
    pub fn current() -> io::Result<Folder> {
        let here = std::env::current_dir()?;
        let fd = Folder::open_path(Path::new("."))?.fd;
        Ok(Folder { fd, path: here })
    }

    fn open_path(path: &Path) -> io::Result<Folder> {
        let c = c_name(path.as_os_str())?;
        // SAFETY: `c` is a NUL-terminated path alive for the call.
        let fd = check(unsafe { libc::open(c.as_ptr(), FOLDER_FLAGS) })?;
        Ok(Folder {
            // SAFETY: `fd` was just opened and is owned by no one else.
            fd: unsafe { OwnedFd::from_raw_fd(fd) },
            path: path.to_path_buf(),
        })
    }

    /// The same folder, a second descriptor.
    pub fn try_clone(&self) -> io::Result<Folder> {
        Ok(Folder {
            fd: self.fd.try_clone()?,
            path: self.path.clone(),
        })
    }

    pub fn raw(&self) -> RawFd {
        self.fd.as_raw_fd()
    }

    /// The folder `name` inside this one, not following a link.
    pub fn enter(&self, name: &OsStr) -> io::Result<Folder> {
        let c = c_name(name)?;
        // SAFETY: a valid descriptor and a NUL-terminated name.
        let fd = check(unsafe {
            libc::openat(self.raw(), c.as_ptr(), FOLDER_FLAGS | libc::O_NOFOLLOW)
        })?;
        Ok(Folder {
            // SAFETY: `fd` was just opened and is owned by no one else.
            fd: unsafe { OwnedFd::from_raw_fd(fd) },
            path: self.path.join(name),
        })
    }

    /// The folder above this one (`/` above `/`), as the kernel takes `..`.
    pub fn parent(&self) -> io::Result<Folder> {
        let up = self.enter(OsStr::new(".."))?;
        let path = self.path.parent().unwrap_or(&self.path).to_path_buf();
        Ok(Folder { fd: up.fd, path })
    }

    /// The folder's own status.
    pub fn status(&self) -> io::Result<libc::stat> {
        // SAFETY: an all-zero `stat` is a valid value for fstat to fill.
        let mut st: libc::stat = unsafe { std::mem::zeroed() };
        // SAFETY: a valid descriptor and a `stat` to fill.
        check(unsafe { libc::fstat(self.raw(), &mut st) })?;
        Ok(st)
    }

    /// The status of `name` in this folder, a link's own (not its target's).
    pub fn entry(&self, name: &OsStr) -> io::Result<libc::stat> {
        let c = c_name(name)?;
        // SAFETY: as in `status`.
        let mut st: libc::stat = unsafe { std::mem::zeroed() };
        // SAFETY: a valid descriptor, a NUL-terminated name, a `stat` to fill.
        check(unsafe {
            libc::fstatat(self.raw(), c.as_ptr(), &mut st, libc::AT_SYMLINK_NOFOLLOW)
        })?;
        Ok(st)
    }

    /// Where the link `name` in this folder points.
    pub fn read_link(&self, name: &OsStr) -> io::Result<PathBuf> {
        let c = c_name(name)?;
        let mut buf = vec![0u8; libc::PATH_MAX as usize];
        // SAFETY: `buf` holds `buf.len()` writable bytes.
        let n =
            unsafe { libc::readlinkat(self.raw(), c.as_ptr(), buf.as_mut_ptr().cast(), buf.len()) };
        if n < 0 {
            return Err(io::Error::last_os_error());
        }
        buf.truncate(n as usize);
        Ok(PathBuf::from(OsString::from(std::ffi::OsStr::from_bytes(
            &buf,
        ))))
    }

    /// Creates the folder `name` (`mode` less the umask, as `mkdir`).
    pub fn make_folder(&self, name: &OsStr, mode: u32) -> io::Result<()> {
        let c = c_name(name)?;
        // SAFETY: a valid descriptor and a NUL-terminated name.
        check(unsafe { libc::mkdirat(self.raw(), c.as_ptr(), mode as libc::mode_t) })?;
        Ok(())
    }

    /// Renames `from` in this folder to `to` in `into`, replacing a file
    /// there.
    pub fn rename(&self, from: &OsStr, into: &Folder, to: &OsStr) -> io::Result<()> {
        let (f, t) = (c_name(from)?, c_name(to)?);
        // SAFETY: valid descriptors and NUL-terminated names.
        check(unsafe { libc::renameat(self.raw(), f.as_ptr(), into.raw(), t.as_ptr()) })?;
        Ok(())
    }

    /// Renames `from` to `to` in this folder, refused (EEXIST) when `to`
    /// exists: a new folder never lands on one made meanwhile.
    pub fn rename_new(&self, from: &OsStr, to: &OsStr) -> io::Result<()> {
        #[cfg(target_os = "linux")]
        {
            let (f, t) = (c_name(from)?, c_name(to)?);
            // SAFETY: valid descriptors and NUL-terminated names.
            let ret = unsafe {
                libc::renameat2(
                    self.raw(),
                    f.as_ptr(),
                    self.raw(),
                    t.as_ptr(),
                    libc::RENAME_NOREPLACE,
                )
            };
            match check(ret) {
                Ok(_) => return Ok(()),
                Err(e) if !matches!(e.raw_os_error(), Some(libc::ENOSYS | libc::EINVAL)) => {
                    return Err(e)
                }
                Err(_) => {}
            }
        }
        // Without renameat2: checked first, a small race left.
        match self.entry(to) {
            Ok(_) => Err(io::Error::from_raw_os_error(libc::EEXIST)),
            Err(_) => self.rename(from, self, to),
        }
    }

    /// Removes the file `name` (never a folder).
    pub fn remove_file(&self, name: &OsStr) -> io::Result<()> {
        let c = c_name(name)?;
        // SAFETY: a valid descriptor and a NUL-terminated name.
        check(unsafe { libc::unlinkat(self.raw(), c.as_ptr(), 0) })?;
        Ok(())
    }
}
