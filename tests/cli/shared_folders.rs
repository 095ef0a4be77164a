//! Outputs in a shared sticky folder (mode 1777, as /tmp), with links
//! planted by another user (`nobody`): every link on an output's path that
//! the kernel's protected_symlinks rule would not follow is refused, for
//! files and for the folders of `report`, `man` and `chart` alike, chains
//! included, exit 2, the link and its owner named, nothing written
//! anywhere; a replaced file keeps its permission bits and its owner.
//! These tests change owners: as any user but root they print why they
//! are skipped and pass.

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

use crate::common::shardplan;

/// `nobody`'s user and group ids on Debian and most Linux systems.
const NOBODY: u32 = 65534;

/// True when the test may give files to another user; else says why it
/// is skipped.
fn can_change_owners(test: &str) -> bool {
    // SAFETY: geteuid has no preconditions.
    let root = unsafe { libc::geteuid() } == 0;
    if !root {
        eprintln!("skipped {test}: only root can give a link to another user");
    }
    root
}

/// A folder like /tmp (root's, mode 1777) in a fresh temporary folder,
/// and root's folder beside it that another user must not reach.
struct Shared {
    _dir: tempfile::TempDir,
    /// The sticky folder anyone may write.
    tmp: PathBuf,
    /// Root's own folder, holding `passwd`.
    private: PathBuf,
}

impl Shared {
    fn new() -> Shared {
        let dir = tempfile::tempdir().unwrap();
        let tmp = dir.path().join("tmp");
        std::fs::create_dir(&tmp).unwrap();
        std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o1777)).unwrap();
        let private = dir.path().join("private");
        std::fs::create_dir(&private).unwrap();
        std::fs::write(private.join("passwd"), "root:x:0:0\n").unwrap();
        Shared {
            tmp,
            private,
            _dir: dir,
        }
    }

    /// A link at `link` to `target`, owned by nobody.
    fn plant(&self, link: &Path, target: &Path) {
        std::os::unix::fs::symlink(target, link).unwrap();
        lchown(link, NOBODY);
    }

    /// What the private folder and the shared one hold, names and bytes.
    fn contents(&self) -> Vec<(PathBuf, Vec<u8>)> {
        let mut all = Vec::new();
        for dir in [&self.tmp, &self.private] {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                let bytes = std::fs::read(&path).unwrap_or_default();
                all.push((path, bytes));
            }
        }
        all.sort();
        all
    }
}

fn lchown(path: &Path, uid: u32) {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
    // SAFETY: a NUL-terminated path alive for the call.
    assert_eq!(unsafe { libc::lchown(c.as_ptr(), uid, uid) }, 0);
}

/// Runs shardplan, which must be refused (exit 2, one line) naming `link`
/// and its owner; returns the line.
fn refused_naming(args: &[&str], link: &Path) -> String {
    let out = shardplan().args(args).assert().code(2);
    let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    let named = format!("the symbolic link {} belongs to nobody", link.display());
    assert!(err.contains(&named), "{args:?}: {err}");
    assert!(err.contains("protected_symlinks"), "{err}");
    err
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn another_users_folder_link_redirects_no_file() {
    if !can_change_owners("another_users_folder_link_redirects_no_file") {
        return;
    }
    let shared = Shared::new();
    let evil = shared.tmp.join("evil");
    shared.plant(&evil, &shared.private);
    let before = shared.contents();
    // A new file and an existing one, through the folder link.
    for name in ["out.json", "passwd"] {
        let out = evil.join(name);
        refused_naming(&["size", "--format", "json", "-o", s(&out)], &evil);
        refused_naming(
            &["simulate", "--seconds", "5", "--per-second", s(&out)],
            &evil,
        );
    }
    refused_naming(
        &["chart", "--kind", "risk", "-o", s(&evil.join("r.svg"))],
        &evil,
    );
    // `..` after the link does not get round it.
    let around = evil.join("..").join("private").join("x.csv");
    refused_naming(&["size", "-o", s(&around)], &evil);
    assert_eq!(shared.contents(), before);
}

#[test]
fn a_chain_of_links_through_another_users_link_is_refused() {
    if !can_change_owners("a_chain_of_links_through_another_users_link_is_refused") {
        return;
    }
    let shared = Shared::new();
    let victim = shared.private.join("passwd");
    // Theirs, in the sticky folder, to root's file; ours, elsewhere, to theirs.
    let theirs = shared.tmp.join("theirs.csv");
    shared.plant(&theirs, &victim);
    let ours = shared.private.join("ours.csv");
    std::os::unix::fs::symlink(&theirs, &ours).unwrap();
    let before = shared.contents();
    refused_naming(&["size", "-o", s(&ours)], &theirs);
    // A chain of folder links: ours to theirs to the private folder.
    let theirs_dir = shared.tmp.join("theirs-dir");
    shared.plant(&theirs_dir, &shared.private);
    let ours_dir = shared.private.join("ours-dir");
    std::os::unix::fs::symlink(&theirs_dir, &ours_dir).unwrap();
    let before_dir = shared.contents();
    refused_naming(&["size", "-o", s(&ours_dir.join("x.csv"))], &theirs_dir);
    assert_eq!(shared.contents(), before_dir);
    std::fs::remove_file(&ours_dir).unwrap();
    std::fs::remove_file(&theirs_dir).unwrap();
    assert_eq!(shared.contents(), before);
}

#[test]
fn report_and_man_folders_behind_another_users_link_are_refused() {
    if !can_change_owners("report_and_man_folders_behind_another_users_link_are_refused") {
        return;
    }
    let shared = Shared::new();
    let evil = shared.tmp.join("reports");
    shared.plant(&evil, &shared.private);
    let before = shared.contents();
    let report = ["report", "-q", "--seconds", "60"];
    refused_naming(&[&report[..], &["-o", s(&evil)]].concat(), &evil);
    refused_naming(
        &[&report[..], &["-o", s(&evil.join("new"))]].concat(),
        &evil,
    );
    refused_naming(&["man", "-o", s(&evil)], &evil);
    refused_naming(&["man", "-o", s(&evil.join("man1"))], &evil);
    assert_eq!(shared.contents(), before);
}

#[test]
fn links_the_kernel_follows_are_followed() {
    if !can_change_owners("links_the_kernel_follows_are_followed") {
        return;
    }
    let shared = Shared::new();
    // The sticky folder's owner's link (root's), and another user's link
    // to a folder in a folder that is not sticky.
    let roots = shared.tmp.join("roots");
    std::os::unix::fs::symlink(&shared.private, &roots).unwrap();
    shardplan()
        .args(["size", "-o", s(&roots.join("a.csv"))])
        .assert()
        .success();
    assert!(shared.private.join("a.csv").exists());
    let plain = shared.private.join("plain");
    std::fs::create_dir(&plain).unwrap();
    let theirs = plain.join("theirs");
    shared.plant(&theirs, &shared.private);
    shardplan()
        .args([
            "report",
            "-q",
            "--seconds",
            "60",
            "-o",
            s(&theirs.join("r")),
        ])
        .assert()
        .success();
    assert!(shared.private.join("r").join("report.md").exists());
    // The output file's own link must still be the user's.
    let file_link = plain.join("b.csv");
    shared.plant(&file_link, &shared.private.join("a.csv"));
    let out = shardplan()
        .args(["size", "-o", s(&file_link)])
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(
        err.contains("another user owns (nobody (uid 65534))"),
        "{err}"
    );
}

#[test]
fn a_replaced_file_keeps_its_owner_and_permission_bits() {
    if !can_change_owners("a_replaced_file_keeps_its_owner_and_permission_bits") {
        return;
    }
    let shared = Shared::new();
    let theirs = shared.tmp.join("theirs.csv");
    std::fs::write(&theirs, "old").unwrap();
    std::os::unix::fs::chown(&theirs, Some(NOBODY), Some(NOBODY)).unwrap();
    for mode in [0o775, 0o777, 0o640, 0o4755] {
        std::fs::set_permissions(&theirs, std::fs::Permissions::from_mode(mode)).unwrap();
        shardplan()
            .args(["size", "-o", s(&theirs)])
            .assert()
            .success();
        let m = std::fs::metadata(&theirs).unwrap();
        assert_eq!(m.mode() & 0o7777, mode & 0o777, "{mode:o}");
        assert_eq!((m.uid(), m.gid()), (NOBODY, NOBODY), "{mode:o}");
        assert!(std::fs::read_to_string(&theirs)
            .unwrap()
            .starts_with("scenario,"));
    }
}

#[test]
fn a_user_who_may_not_keep_the_owner_gets_the_file() {
    if !can_change_owners("a_user_who_may_not_keep_the_owner_gets_the_file") {
        return;
    }
    use std::os::unix::process::CommandExt;
    let shared = Shared::new();
    // tempfile's folders are private (0700): open the way down to ours.
    let top = shared.tmp.parent().unwrap();
    std::fs::set_permissions(top, std::fs::Permissions::from_mode(0o755)).unwrap();
    let binary = env!("CARGO_BIN_EXE_shardplan");
    if !reachable_by_nobody(Path::new(binary)) {
        eprintln!("skipped: nobody cannot run {binary}");
        return;
    }
    let as_nobody = |file: &Path| {
        std::process::Command::new(binary)
            .args(["size", "-o", s(file)])
            .uid(NOBODY)
            .gid(NOBODY)
            .output()
            .unwrap()
    };
    // Root's file that anyone may write, in a folder anyone may write (not
    // sticky), replaced by nobody: fchown back to root fails (EPERM) and
    // the run goes on with nobody's file, its mode kept.
    let open = top.join("open");
    std::fs::create_dir(&open).unwrap();
    std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o777)).unwrap();
    let roots = open.join("roots.csv");
    std::fs::write(&roots, "old").unwrap();
    std::fs::set_permissions(&roots, std::fs::Permissions::from_mode(0o666)).unwrap();
    let out = as_nobody(&roots);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let m = std::fs::metadata(&roots).unwrap();
    assert_eq!((m.uid(), m.mode() & 0o777), (NOBODY, 0o666));
    // In the sticky folder only root's own may replace it: refused before
    // any work, not after it.
    let sticky = shared.tmp.join("roots.csv");
    std::fs::write(&sticky, "old").unwrap();
    std::fs::set_permissions(&sticky, std::fs::Permissions::from_mode(0o666)).unwrap();
    let out = as_nobody(&sticky);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("belongs to root (uid 0), in the sticky folder"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&sticky).unwrap(), "old");
}

/// Whether every folder above `path` lets others through (x for others).
fn reachable_by_nobody(path: &Path) -> bool {
    path.ancestors()
        .skip(1)
        .all(|a| std::fs::metadata(a).is_ok_and(|m| m.mode() & 0o001 != 0))
}
