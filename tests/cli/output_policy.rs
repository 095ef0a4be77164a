//! The output policy (src/output/policy.rs, docs/output.md): no file is
//! replaced through another user's link, no read-only file, no setuid bit
//! carried over, and no output may be an input or another output of the
//! same run, however the path is spelled.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use crate::common::{bad_input, shardplan};

fn run_as_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o7777
}

#[test]
fn a_link_another_user_planted_is_refused_even_in_a_sticky_folder() {
    if !run_as_root() {
        eprintln!("skipped: only root can give a link to another user");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let shared = dir.path().join("tmp");
    std::fs::create_dir(&shared).unwrap();
    std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o1777)).unwrap();
    let victim = dir.path().join("passwd");
    std::fs::write(&victim, "root:x:0:0\n").unwrap();
    let planted = shared.join("out.csv");
    std::os::unix::fs::symlink(&victim, &planted).unwrap();
    std::os::unix::fs::lchown(&planted, Some(65534), Some(65534)).unwrap();
    bad_input(
        &["size", "-o", planted.to_str().unwrap()],
        "belongs to nobody (uid 65534), in",
    );
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "root:x:0:0\n");
    // A link of ours to a file another user owns is refused too.
    let theirs = dir.path().join("theirs.csv");
    std::fs::write(&theirs, "theirs").unwrap();
    std::os::unix::fs::chown(&theirs, Some(65534), Some(65534)).unwrap();
    let ours = dir.path().join("ours.csv");
    std::os::unix::fs::symlink(&theirs, &ours).unwrap();
    bad_input(&["size", "-o", ours.to_str().unwrap()], "another user owns");
    assert_eq!(std::fs::read_to_string(&theirs).unwrap(), "theirs");
}

#[test]
fn dangling_links_and_loops_are_refused_own_links_written_through() {
    let dir = tempfile::tempdir().unwrap();
    let dangling = dir.path().join("d.csv");
    std::os::unix::fs::symlink(dir.path().join("nowhere.csv"), &dangling).unwrap();
    bad_input(
        &["size", "-o", dangling.to_str().unwrap()],
        "link to nothing",
    );
    assert!(!dir.path().join("nowhere.csv").exists());
    let (a, b) = (dir.path().join("a.csv"), dir.path().join("b.csv"));
    std::os::unix::fs::symlink(&b, &a).unwrap();
    std::os::unix::fs::symlink(&a, &b).unwrap();
    bad_input(&["size", "-o", a.to_str().unwrap()], "--output");
    assert!(std::fs::symlink_metadata(&b)
        .unwrap()
        .file_type()
        .is_symlink());
    // Our own link to our own file: the file is replaced, the link stays.
    let file = dir.path().join("mine.csv");
    std::fs::write(&file, "old").unwrap();
    let link = dir.path().join("link.csv");
    std::os::unix::fs::symlink(&file, &link).unwrap();
    shardplan()
        .args(["size", "-o"])
        .arg(&link)
        .assert()
        .success();
    assert!(std::fs::read_to_string(&file)
        .unwrap()
        .starts_with("scenario,"));
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
}

#[test]
fn read_only_files_stay_and_setuid_is_not_copied() {
    let dir = tempfile::tempdir().unwrap();
    let ro = dir.path().join("ro.csv");
    std::fs::write(&ro, "keep").unwrap();
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o444)).unwrap();
    bad_input(&["size", "-o", ro.to_str().unwrap()], "read-only");
    assert_eq!(std::fs::read_to_string(&ro).unwrap(), "keep");
    let suid = dir.path().join("suid.csv");
    std::fs::write(&suid, "x").unwrap();
    std::fs::set_permissions(&suid, std::fs::Permissions::from_mode(0o6755)).unwrap();
    shardplan()
        .args(["size", "-o"])
        .arg(&suid)
        .assert()
        .success();
    assert_eq!(mode(&suid), 0o755);
}

#[test]
fn an_output_cannot_be_an_input_or_another_output() {
    let dir = tempfile::tempdir().unwrap();
    let d = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    // The same file spelled two ways, and through a hard link.
    let dotted = format!("{}/./same.csv", dir.path().display());
    bad_input(
        &[
            "simulate",
            "--seconds",
            "10",
            "-o",
            &d("same.csv"),
            "--per-second",
            &dotted,
        ],
        "the same file as",
    );
    std::fs::write(d("a.csv"), "a").unwrap();
    std::fs::hard_link(d("a.csv"), d("b.csv")).unwrap();
    bad_input(
        &["size", "-o", &d("a.csv"), "-o", &d("b.csv")],
        "another output",
    );
    assert_eq!(std::fs::read_to_string(d("a.csv")).unwrap(), "a");
    // An input: the scenario being read, the rates CSV.
    let toml = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/viral-reel.toml"
    ))
    .unwrap();
    std::fs::write(d("my.toml"), &toml).unwrap();
    bad_input(
        &[
            "simulate",
            "--scenario",
            &d("my.toml"),
            "--seconds",
            "10",
            "--per-second",
            &d("my.toml"),
        ],
        "an output of this run",
    );
    assert_eq!(std::fs::read_to_string(d("my.toml")).unwrap(), toml);
    std::fs::write(d("r.csv"), "reel_id,rate\nr1,5\n").unwrap();
    bad_input(
        &["fleet", "--rates-csv", &d("r.csv"), "-o", &d("r.csv")],
        "--rates-csv",
    );
    assert_eq!(
        std::fs::read_to_string(d("r.csv")).unwrap(),
        "reel_id,rate\nr1,5\n"
    );
    // No temp file is left behind by a refused run.
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn a_replaced_file_keeps_its_group_and_others_write_bits() {
    let dir = tempfile::tempdir().unwrap();
    let shared = dir.path().join("shared.csv");
    for bits in [0o775, 0o777, 0o664, 0o600] {
        std::fs::write(&shared, "old").unwrap();
        std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(bits)).unwrap();
        shardplan()
            .args(["size", "-o"])
            .arg(&shared)
            .assert()
            .success();
        assert_eq!(mode(&shared), bits, "{bits:o}");
    }
}

#[test]
fn devices_and_pipes_are_written_in_place_given_a_format() {
    use std::os::unix::fs::FileTypeExt;
    let null = || std::fs::metadata("/dev/null").unwrap().file_type();
    shardplan()
        .args(["size", "--format", "json", "-o", "/dev/null"])
        .assert()
        .success()
        .stdout("");
    assert!(null().is_char_device());
    // Twice in one run, and as --per-second: /dev/null is no file to protect.
    shardplan()
        .args(["simulate", "--seconds", "5", "--per-second", "/dev/null"])
        .args(["--format", "csv", "-o", "/dev/null", "-o", "/dev/null"])
        .assert()
        .success();
    bad_input(&["size", "-o", "/dev/null"], "give --format");
    // A FIFO: its reader gets the rows, the FIFO stays one.
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("rows");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    shardplan()
        .args(["size", "--format", "csv", "-o"])
        .arg(&fifo)
        .assert()
        .success();
    assert!(reader.join().unwrap().starts_with("scenario,"));
    assert!(std::fs::symlink_metadata(&fifo)
        .unwrap()
        .file_type()
        .is_fifo());
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn streams_are_written_in_place() {
    let out = shardplan()
        .args(["size", "--format", "csv", "-o", "/dev/stderr"])
        .assert()
        .success();
    assert!(out.get_output().stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.get_output().stderr).starts_with("scenario,"));
}
