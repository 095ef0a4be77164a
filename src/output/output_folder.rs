//! An output folder (`report -o DIR`, `man -o DIR`): its path and each of
//! its files checked before any work starts, nothing made until the end.
//! Into a folder that exists each file goes as any output file does (a
//! temporary file renamed over it). A folder that does not exist yet is
//! made whole under a temporary name beside it, `.shardplan-*.tmp`, with
//! every missing folder on its path and every file in it, and renamed into
//! place last: a run killed before the end leaves no folder it made.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use super::folder::Folder;
use super::policy::{file_in_folder, folder_target, FileTarget, FolderTarget};
use super::temp::{Keep, TempFile};
use super::walk::cannot_write;
use crate::error::{InputError, InputResult};
use crate::files::Claims;

/// An output folder and the files it will hold.
#[derive(Debug)]
pub struct OutputFolder {
    flag: String,
    /// The folder as given.
    path: PathBuf,
    target: FolderTarget,
    /// Each file's name, and in a folder that exists, where it goes.
    files: Vec<(String, Option<FileTarget>)>,
}

impl OutputFolder {
    /// The folder at `path` and the files `names` in it, checked (links,
    /// read-only files, aliases of the run's other files) and claimed;
    /// `flag` names the option in errors.
    pub fn open(claims: &Claims, flag: &str, path: &Path, names: &[String]) -> InputResult<Self> {
        if path.as_os_str().is_empty() {
            return Err(InputError::new(flag, "needs a folder (got an empty path)"));
        }
        let target = folder_target(flag, path)?;
        let files = names
            .iter()
            .map(|name| {
                let file = match &target {
                    FolderTarget::Existing(folder) => {
                        let shown = path.join(name);
                        Some(file_in_folder(claims, flag, folder, name, &shown)?)
                    }
                    FolderTarget::New { .. } => None,
                };
                Ok((name.clone(), file))
            })
            .collect::<InputResult<_>>()?;
        Ok(OutputFolder {
            flag: flag.to_string(),
            path: path.to_path_buf(),
            target,
            files,
        })
    }

    /// Writes every file, `contents` in the order given (a file named in
    /// [`OutputFolder::open`]), and puts the folder in place.
    pub fn commit(self, contents: &[(&str, &[u8])]) -> anyhow::Result<()> {
        let cannot = |e: std::io::Error| cannot_write(&self.flag, &self.path, &e);
        match &self.target {
            FolderTarget::Existing(_) => {
                for (name, bytes) in contents {
                    let target = self.file(name)?;
                    let mut temp = TempFile::create(&target.folder, target.keep).map_err(cannot)?;
                    write(&mut temp, bytes).map_err(cannot)?;
                    temp.place(&target.folder, &target.name, target.keep)
                        .map_err(cannot)?;
                }
                Ok(())
            }
            FolderTarget::New { anchor, names } => {
                if let Some((name, _)) = contents
                    .iter()
                    .find(|(name, _)| !self.files.iter().any(|(n, _)| n == name))
                {
                    anyhow::bail!("{name} was not opened in the output folder");
                }
                make_whole(anchor, names, contents).map_err(|e| cannot(e).into())
            }
        }
    }

    /// A file named at [`OutputFolder::open`]: where it goes, if the folder
    /// exists.
    fn file(&self, name: &str) -> anyhow::Result<&FileTarget> {
        match self.files.iter().find(|(n, _)| n == name) {
            Some((_, Some(target))) => Ok(target),
            _ => Err(anyhow::anyhow!(
                "{name} was not opened in the output folder"
            )),
        }
    }
}

fn write(temp: &mut TempFile, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    temp.file().write_all(bytes)
}

/// The folders `names` below `anchor` and `contents` in the last, made
/// under a temporary name and renamed into place at once; on any failure
/// nothing is left.
fn make_whole(
    anchor: &Folder,
    names: &[OsString],
    contents: &[(&str, &[u8])],
) -> std::io::Result<()> {
    let temp = loop {
        let name = super::temp::temp_name();
        match anchor.make_folder(&name, 0o777) {
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
            Ok(()) => break name,
        }
    };
    let temp_path = anchor.path.join(&temp);
    super::interrupt::track_folder(&temp_path);
    let filled = fill(anchor, &temp, &names[1..], contents)
        .and_then(|()| anchor.rename_new(&temp, &names[0]));
    if filled.is_err() {
        let _ = std::fs::remove_dir_all(&temp_path);
    }
    super::interrupt::untrack(&temp_path);
    filled
}

/// The folders `below` inside `anchor`'s `temp`, and the files in the last.
fn fill(
    anchor: &Folder,
    temp: &OsString,
    below: &[OsString],
    contents: &[(&str, &[u8])],
) -> std::io::Result<()> {
    let mut folder = anchor.enter(temp)?;
    for name in below {
        folder.make_folder(name, 0o777)?;
        folder = folder.enter(name)?;
    }
    for (name, bytes) in contents {
        let mut file = TempFile::create(&folder, Keep::NEW)?;
        write(&mut file, bytes)?;
        file.place(&folder, std::ffi::OsStr::new(name), Keep::NEW)?;
    }
    Ok(())
}
