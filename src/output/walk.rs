//! An output path resolved one name at a time, as the kernel resolves it,
//! refusing every symbolic link the kernel's `protected_symlinks` rule
//! would refuse to follow: a link in a sticky folder anyone may write
//! (`/tmp`) whose owner is neither the folder's owner nor the user running
//! shardplan. The rule holds for every link on the way (a folder's, the
//! file's own, each link of a chain), whether or not the machine turns the
//! kernel's own check on (`fs.protected_symlinks`), so another user's link
//! can redirect no output, file or folder.

use std::collections::VecDeque;
use std::ffi::{OsStr, OsString};
use std::io;
use std::path::{Component, Path, PathBuf};

use super::folder::Folder;
use crate::error::{InputError, InputResult};

/// The most links one path may go through (Linux's `MAXSYMLINKS`).
const MAX_LINKS: usize = 40;

/// A symbolic link the walk followed.
#[derive(Debug, Clone)]
pub struct Link {
    /// The link itself, physically (its folder has no link in it).
    pub path: PathBuf,
    /// Its owner's user id.
    pub owner: u32,
}

/// What is at the end of an output path.
#[derive(Debug)]
pub enum End {
    /// The last name exists in the folder: its name and status (never a
    /// link's: links are followed).
    Found(OsString, libc::stat),
    /// The names below the folder that do not exist yet, the output's own
    /// last (`report -o new/sub`: `new`, `sub`).
    Missing(Vec<OsString>),
}

/// An output path, walked.
#[derive(Debug)]
pub struct Walked {
    /// The deepest folder on the path that exists, held open.
    pub folder: Folder,
    /// What the path names in it.
    pub end: End,
    /// The links followed in the path's last place: the output's own link
    /// and each link of its chain, in order (empty when the path names the
    /// file or folder itself).
    pub links: Vec<Link>,
}

/// One step of a path.
enum Step {
    Root,
    Up,
    Name(OsString),
}

/// The steps of `path`, in order (`.` dropped).
fn steps(path: &Path) -> impl DoubleEndedIterator<Item = Step> + '_ {
    path.components().filter_map(|c| match c {
        Component::RootDir | Component::Prefix(_) => Some(Step::Root),
        Component::CurDir => None,
        Component::ParentDir => Some(Step::Up),
        Component::Normal(n) => Some(Step::Name(n.to_os_string())),
    })
}

/// The user running shardplan.
pub fn euid() -> u32 {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() }
}

/// A user for a message: `nobody (uid 65534)`, or the id alone when the
/// user database has no such user.
pub fn user_name(uid: u32) -> String {
    let mut buf = vec![0 as libc::c_char; 4096];
    // SAFETY: an all-zero passwd is a valid value for getpwuid_r to fill.
    let mut pw: libc::passwd = unsafe { std::mem::zeroed() };
    let mut found: *mut libc::passwd = std::ptr::null_mut();
    // SAFETY: every pointer is valid for the call; `buf` outlives `pw`'s use.
    let ret = unsafe { libc::getpwuid_r(uid, &mut pw, buf.as_mut_ptr(), buf.len(), &mut found) };
    if ret != 0 || found.is_null() || pw.pw_name.is_null() {
        return format!("uid {uid}");
    }
    // SAFETY: getpwuid_r filled `pw_name` with a NUL-terminated string in `buf`.
    let name = unsafe { std::ffi::CStr::from_ptr(pw.pw_name) };
    format!("{} (uid {uid})", name.to_string_lossy())
}

/// Whether the kernel's `protected_symlinks` rule refuses to follow a link
/// owned by `link_owner` in a folder of status `folder`: the folder is
/// sticky and anyone may write it, and the link is neither the follower's
/// nor the folder owner's.
pub fn kernel_refuses(folder: &libc::stat, link_owner: u32, follower: u32) -> bool {
    let sticky_shared = libc::S_ISVTX | libc::S_IWOTH;
    (folder.st_mode & sticky_shared) == sticky_shared
        && link_owner != follower
        && link_owner != folder.st_uid
}

/// Is a status that of a symbolic link, a folder?
fn is(st: &libc::stat, kind: libc::mode_t) -> bool {
    st.st_mode & libc::S_IFMT == kind
}

/// Walks `path` (an output of `flag`) from `/` or the current folder, one
/// name at a time: each folder entered without following a link, each
/// link checked against the kernel's rule in the folder that holds it and
/// then followed, `..` taken physically. Stops at the first name that does
/// not exist: it and the names after it are [`End::Missing`].
pub fn walk(flag: &str, path: &Path) -> InputResult<Walked> {
    let start = match path.has_root() {
        true => Folder::root(),
        false => Folder::current(),
    };
    let start = start.map_err(|e| cannot_write(flag, path, &e))?;
    walk_from(flag, path, start, path)
}

/// "cannot write PATH: Permission denied", naming `flag`.
pub fn cannot_write(flag: &str, path: &Path, e: &io::Error) -> InputError {
    InputError::new(
        flag,
        format!("cannot write {}: {}", path.display(), plain(e)),
    )
}

/// [`walk`] of `steps` from `folder` (a file of an output folder: its name
/// from the folder already walked); `path` is the output as shown.
pub fn walk_from(flag: &str, path: &Path, folder: Folder, from: &Path) -> InputResult<Walked> {
    let fail = |e: io::Error| cannot_write(flag, path, &e);
    let mut folder = folder;
    let mut pending: VecDeque<Step> = steps(from).collect();
    let (mut followed, mut links) = (0, Vec::new());
    while let Some(step) = pending.pop_front() {
        let name = match step {
            Step::Root => {
                folder = Folder::root().map_err(fail)?;
                continue;
            }
            Step::Up => {
                folder = folder.parent().map_err(fail)?;
                continue;
            }
            Step::Name(name) => name,
        };
        let last = pending.is_empty();
        let st = match folder.entry(&name) {
            Ok(st) => st,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                let end = End::Missing(missing(flag, path, &folder, name, pending)?);
                return Ok(Walked { folder, end, links });
            }
            Err(e) => return Err(fail(e)),
        };
        if is(&st, libc::S_IFLNK) {
            let link = check_link(flag, path, &folder, &name, &st)?;
            followed += 1;
            if followed > MAX_LINKS {
                return Err(InputError::new(
                    flag,
                    format!(
                        "{}: more than {MAX_LINKS} symbolic links (a loop?); not writing through them",
                        path.display()
                    ),
                ));
            }
            let target = folder.read_link(&name).map_err(fail)?;
            if last {
                links.push(link);
            }
            for step in steps(&target).rev() {
                pending.push_front(step);
            }
            continue;
        }
        if last {
            let end = End::Found(name, st);
            return Ok(Walked { folder, end, links });
        }
        if !is(&st, libc::S_IFDIR) {
            return Err(InputError::new(
                flag,
                format!(
                    "cannot write {}: {} is not a folder",
                    path.display(),
                    folder.path.join(&name).display()
                ),
            ));
        }
        folder = folder.enter(&name).map_err(fail)?;
    }
    // Only `/`, `.` or `..` steps: the folder itself.
    let end = End::Found(OsString::from("."), folder.status().map_err(fail)?);
    Ok(Walked { folder, end, links })
}

/// A link in `folder` the kernel's rule lets the user follow, else the
/// error naming the link and its owner.
fn check_link(
    flag: &str,
    path: &Path,
    folder: &Folder,
    name: &OsStr,
    st: &libc::stat,
) -> InputResult<Link> {
    let link = Link {
        path: folder.path.join(name),
        owner: st.st_uid,
    };
    let holder = folder.status().map_err(|e| cannot_write(flag, path, &e))?;
    if kernel_refuses(&holder, link.owner, euid()) {
        return Err(InputError::new(
            flag,
            format!(
                "{}: the symbolic link {} belongs to {}, in {}, a sticky folder anyone may \
                 write; the kernel's protected_symlinks rule would not follow it, nor does \
                 shardplan (remove the link, or give another path)",
                path.display(),
                link.path.display(),
                user_name(link.owner),
                folder.path.display()
            ),
        ));
    }
    Ok(link)
}

/// The names from `first` on, none of which exists: plain names only (a
/// `..` after a missing folder names nothing).
fn missing(
    flag: &str,
    path: &Path,
    folder: &Folder,
    first: OsString,
    rest: VecDeque<Step>,
) -> InputResult<Vec<OsString>> {
    let mut names = vec![first];
    for step in rest {
        match step {
            Step::Name(n) => names.push(n),
            Step::Root | Step::Up => {
                return Err(InputError::new(
                    flag,
                    format!(
                        "cannot write {}: {} does not exist",
                        path.display(),
                        folder.path.join(&names[0]).display()
                    ),
                ))
            }
        }
    }
    Ok(names)
}

/// An OS error without its number: "Permission denied".
pub fn plain(e: &io::Error) -> String {
    let text = e.to_string();
    match text.find(" (os error") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}
