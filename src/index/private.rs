//! The directories and files frontdesk keeps (the index, the log, the demo
//! account): created private from the start (0700 directories, 0600
//! files, never chmod-ed after), and a directory someone else could tamper
//! with refused with a message naming the fix.

use std::fs::OpenOptions;
use std::path::Path;

/// Creates `dir` (and any missing parent) with mode 0700, then checks it
/// is safe to keep customers' data in: see [`check_dir`].
pub fn ensure_dir(dir: &Path) -> Result<(), String> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder
        .create(dir)
        .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    check_dir(dir)
}

/// Refuses a directory that is a symlink (it may point anywhere), that
/// belongs to another user, or that others may write to (they could swap
/// the files in it); each with the fix in the message.
pub fn check_dir(dir: &Path) -> Result<(), String> {
    let shown = dir.display();
    let meta = std::fs::symlink_metadata(dir).map_err(|e| format!("cannot read {shown}: {e}"))?;
    if meta.file_type().is_symlink() {
        return Err(format!(
            "{shown} is a symlink: remove it (rm {shown}) and frontdesk makes a private directory"
        ));
    }
    if !meta.is_dir() {
        return Err(format!("{shown} is not a directory: remove or rename it"));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        // SAFETY: geteuid has no preconditions and cannot fail.
        let me = unsafe { libc::geteuid() };
        if meta.uid() != me {
            return Err(format!(
                "{shown} belongs to another user (uid {}): remove it, or chown it to yourself",
                meta.uid()
            ));
        }
        if meta.mode() & 0o022 != 0 {
            return Err(format!("{shown} is writable by others: chmod 700 it"));
        }
    }
    Ok(())
}

/// Options that create a file with mode 0600 (kept as is when it exists)
/// and never follow a symlink in its place.
pub fn file_options() -> OpenOptions {
    let mut options = OpenOptions::new();
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600).custom_flags(libc::O_NOFOLLOW);
    }
    options
}
