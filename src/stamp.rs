//! What tells one version of a file (or a directory's list of files) from
//! the next without reading it: one `stat`. The TUI uses it to notice what
//! another process (`frontdesk mcp`) wrote while it runs.

use std::path::Path;

/// A file's modification time, size and (on unix) inode. A write that
/// renames a new file over the old changes the inode; a file added to,
/// renamed into or removed from a directory changes its time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stamp {
    modified: Option<std::time::SystemTime>,
    len: u64,
    inode: u64,
}

/// The stamp of `path`; `None` when there is nothing there.
pub fn stamp(path: &Path) -> Option<Stamp> {
    let meta = std::fs::metadata(path).ok()?;
    #[cfg(unix)]
    let inode = std::os::unix::fs::MetadataExt::ino(&meta);
    #[cfg(not(unix))]
    let inode = 0;
    Some(Stamp {
        modified: meta.modified().ok(),
        len: meta.len(),
        inode,
    })
}
