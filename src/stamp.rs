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

impl Stamp {
    /// A stamp for content that is not a file (an answer of the team
    /// hub): equal for equal bytes.
    pub fn of_bytes(bytes: &[u8]) -> Stamp {
        use sha2::{Digest, Sha256};
        let d = Sha256::digest(bytes);
        let word = |i: usize| {
            let mut b = [0u8; 8];
            b.copy_from_slice(&d[i..i + 8]);
            u64::from_le_bytes(b)
        };
        Stamp {
            modified: None,
            len: word(0),
            inode: word(8),
        }
    }
}
