//! The one way frontdesk writes its config file (`config init`, the first
//! run screen, saving a view): read, change and write back under a lock, so
//! two saves at once both land and a crash never leaves half a file.
//!
//! - A symlinked config is written through to its target (the link stays).
//! - A file without the owner's write bit is refused and left untouched.
//! - The new text goes to a temporary file beside the target, is synced,
//!   renamed into place, and the folder is synced.
//! - The file keeps its mode (a new file is 0600; `private` makes it 0600
//!   whatever it was, for a file that holds a key).
//! - An advisory lock (`flock`) on `NAME.lock` beside the target is held
//!   from the read to the rename.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::error::{ConfigError, shown};

/// How many links deep a config may be (as the kernel allows).
const MAX_LINKS: usize = 40;

/// Rewrites the config file at `path`: `edit` gets its text (`None` when it
/// does not exist) and returns the new text, all under the file's lock.
pub(crate) fn rewrite(
    path: &Path,
    private: bool,
    edit: impl FnOnce(Option<&str>) -> Result<String, ConfigError>,
) -> Result<(), ConfigError> {
    let target = resolve(path)?;
    let name = shown(&target);
    let fail = |what: &str, e: std::io::Error| ConfigError::new(format!("cannot {what} {name}: {e}"));
    let dir = match target.parent().filter(|d| !d.as_os_str().is_empty()) {
        Some(d) => d.to_path_buf(),
        None => PathBuf::from("."),
    };
    create_dir(&dir).map_err(|e| ConfigError::new(format!("cannot create {}: {e}", shown(&dir))))?;

    let lock = lock_beside(&target).map_err(|e| fail("lock", e))?;
    let old_mode = match std::fs::metadata(&target) {
        Ok(m) => Some(mode_of(&m)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(fail("read", e)),
    };
    if let Some(mode) = old_mode
        && mode & 0o200 == 0
    {
        return Err(ConfigError::new(format!(
            "{name} is read-only (mode {:04o}): chmod u+w it or save elsewhere",
            mode & 0o7777
        )));
    }
    let old = match old_mode {
        Some(_) => Some(std::fs::read_to_string(&target).map_err(|e| fail("read", e))?),
        None => None,
    };
    let text = edit(old.as_deref())?;
    let mode = match old_mode {
        Some(m) if !private => m & 0o7777,
        _ => 0o600,
    };

    let file_name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "config.toml".into());
    let mut tmp = tempfile::Builder::new()
        .prefix(&format!(".{file_name}."))
        .suffix(".tmp")
        .tempfile_in(&dir)
        .map_err(|e| fail("write", e))?;
    set_mode(tmp.as_file(), mode).map_err(|e| fail("write", e))?;
    tmp.write_all(text.as_bytes())
        .and_then(|()| tmp.as_file().sync_all())
        .map_err(|e| fail("write", e))?;
    tmp.persist(&target).map_err(|e| fail("write", e.error))?;
    sync_dir(&dir).map_err(|e| fail("write", e))?;
    drop(lock);
    Ok(())
}

/// `path` with its symlinks followed to the file they name (which may not
/// exist yet): a relative link is taken from the link's folder.
fn resolve(path: &Path) -> Result<PathBuf, ConfigError> {
    let mut p = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let link = std::fs::read_link(&p)
                    .map_err(|e| ConfigError::new(format!("cannot read the link {}: {e}", shown(&p))))?;
                p = match p.parent() {
                    Some(dir) if link.is_relative() => dir.join(link),
                    _ => link,
                };
            }
            _ => return Ok(p),
        }
    }
    Err(ConfigError::new(format!(
        "{}: too many levels of symbolic links",
        shown(path)
    )))
}

/// The folder of the config, created private (0700) when missing.
fn create_dir(dir: &Path) -> std::io::Result<()> {
    let mut b = std::fs::DirBuilder::new();
    b.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut b, 0o700);
    b.create(dir)
}

/// `NAME.lock` beside `target`, opened and locked (waits for another save).
/// The lock file stays: removing it would let two savers lock two files.
fn lock_beside(target: &Path) -> std::io::Result<File> {
    let mut name = target.as_os_str().to_owned();
    name.push(".lock");
    let mut o = std::fs::OpenOptions::new();
    o.create(true).truncate(false).write(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut o, 0o600);
    let f = o.open(PathBuf::from(name))?;
    f.lock()?;
    Ok(f)
}

#[cfg(unix)]
fn mode_of(m: &std::fs::Metadata) -> u32 {
    std::os::unix::fs::PermissionsExt::mode(&m.permissions())
}

#[cfg(not(unix))]
fn mode_of(m: &std::fs::Metadata) -> u32 {
    if m.permissions().readonly() { 0o400 } else { 0o600 }
}

#[cfg(unix)]
fn set_mode(f: &File, mode: u32) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    f.set_permissions(std::fs::Permissions::from_mode(mode))
}

#[cfg(not(unix))]
fn set_mode(_f: &File, _mode: u32) -> std::io::Result<()> {
    Ok(())
}

/// Makes the rename durable: the folder's entry is synced too.
#[cfg(unix)]
fn sync_dir(dir: &Path) -> std::io::Result<()> {
    File::open(dir)?.sync_all()
}

#[cfg(not(unix))]
fn sync_dir(_dir: &Path) -> std::io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests;
