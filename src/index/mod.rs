//! The local index of the account: a SQLite file (one per profile and base
//! URL, in the platform's cache directory) holding every contact, the latest
//! page of messages of each conversation fetched, and the sync state, with
//! FTS5 search over them. It is a cache, never the truth: it is filled by
//! [`sync`] and by writes the API accepted. The API key is never stored.
//!
//! Opening never fails on a bad file: one that is corrupt (pages damaged
//! anywhere: SQLite's quick check, see `open`), of a newer schema or not
//! ours is moved aside (`<name>.corrupt-<timestamp>`) and a fresh one made;
//! one locked by another process falls back to memory. Either way the
//! caller gets a one-line warning to show. Only a directory others could
//! tamper with is an error (see `private`).

mod activity;
mod bulk;
mod facts;
mod forget;
mod journal;
mod merge;
mod open;
mod preview;
pub mod private;
mod report;
mod schema;
mod search;
mod store;
pub mod sync;

use std::path::{Path, PathBuf};

use rusqlite::Connection;
use sha2::{Digest, Sha256};

pub use activity::thread_activity;
pub use bulk::{SEARCH_CHUNK, SearchBuild};
pub use facts::WaitingFacts;
pub use journal::Changes;
pub use merge::{Merged, overlay};
pub use open::{Health, inspect};
pub use preview::{AUTOMATIC, Behind, Preview, Wait, Waiting, Wanted, Who, waiting};
pub use report::{HeldMessage, HeldPage, ReportRow};
pub use search::{Found, fts_query};
pub use store::{CachedThread, Order, SyncState, Thread};

/// What can go wrong using the index once it is open.
#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    #[error("the local index failed: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("the local index could not be stored: {0}")]
    Json(#[from] serde_json::Error),
    #[error("the local index could not be opened: {0}")]
    Io(String),
}

impl IndexError {
    /// Another connection holds the file (a sync in another process).
    pub fn is_busy(&self) -> bool {
        matches!(
            self,
            IndexError::Sqlite(e) if matches!(
                e.sqlite_error_code(),
                Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked)
            )
        )
    }
}

/// The account's local index.
pub struct Index {
    conn: Connection,
    path: Option<PathBuf>,
    /// What changed since the last [`Index::take_changes`], when recorded.
    journal: Option<journal::Journal>,
}

impl std::fmt::Debug for Index {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Index")
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}

/// An index just opened, and the one-line warning to show when the file on
/// disk could not be used as it was.
#[derive(Debug)]
pub struct Opened {
    pub index: Index,
    pub warning: Option<String>,
}

impl Index {
    /// Opens (or creates) the index at `path`. See the module's notes for
    /// what happens to a file that cannot be used.
    pub fn open(path: &Path) -> Result<Opened, IndexError> {
        open::open(path)
    }

    /// An index kept in memory only (`--no-cache`).
    pub fn in_memory() -> Result<Index, IndexError> {
        let conn = Connection::open_in_memory()?;
        let mut index = Index {
            conn,
            path: None,
            journal: None,
        };
        schema::configure(&index.conn)?;
        schema::migrate(&mut index.conn)?;
        Ok(index)
    }

    /// The file behind the index; `None` in memory.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }
}

/// Access to an index for code that may hold it alone ([`Index`]) or
/// share it between tasks ([`SharedIndex`]): each call holds it only for
/// the closure, never across an `.await`.
pub trait IndexAccess: Send {
    fn with<R>(&mut self, f: impl FnOnce(&mut Index) -> R) -> R;
}

impl IndexAccess for Index {
    fn with<R>(&mut self, f: impl FnOnce(&mut Index) -> R) -> R {
        f(self)
    }
}

/// An index shared by the tasks of one process (the TUI's sync worker and
/// its searches). Clones share it.
#[derive(Debug, Clone)]
pub struct SharedIndex(std::sync::Arc<std::sync::Mutex<Index>>);

impl SharedIndex {
    pub fn new(index: Index) -> SharedIndex {
        SharedIndex(std::sync::Arc::new(std::sync::Mutex::new(index)))
    }
}

impl SharedIndex {
    /// Runs `f` when the index can be had within `patience`: another task
    /// (a sync storing a page, or waiting on another process's write) may
    /// hold it. `None` when it could not be had.
    pub fn try_with_for<R>(&self, patience: std::time::Duration, f: impl FnOnce(&mut Index) -> R) -> Option<R> {
        let deadline = std::time::Instant::now() + patience;
        loop {
            match self.0.try_lock() {
                Ok(mut guard) => return Some(f(&mut guard)),
                Err(std::sync::TryLockError::Poisoned(p)) => return Some(f(&mut p.into_inner())),
                Err(std::sync::TryLockError::WouldBlock) if std::time::Instant::now() < deadline => {
                    std::thread::sleep(std::time::Duration::from_millis(5));
                }
                Err(std::sync::TryLockError::WouldBlock) => return None,
            }
        }
    }
}

impl IndexAccess for SharedIndex {
    fn with<R>(&mut self, f: impl FnOnce(&mut Index) -> R) -> R {
        // A panic while holding it leaves SQLite itself consistent (each
        // write is one transaction): go on with it.
        let mut guard = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        f(&mut guard)
    }
}

/// The directory every index file lives in: `frontdesk/` in the platform's
/// cache directory.
pub fn cache_dir() -> Option<PathBuf> {
    directories::BaseDirs::new().map(|d| d.cache_dir().join("frontdesk"))
}

/// The index file of the account (`profile`, `base_url`): named after a hash
/// of the two, never after the key.
pub fn default_path(profile: &str, base_url: &str) -> Option<PathBuf> {
    cache_dir().map(|dir| dir.join(file_name(profile, base_url)))
}

/// `index-<hex of sha256(profile NUL base URL)>.sqlite`.
pub fn file_name(profile: &str, base_url: &str) -> String {
    let mut h = Sha256::new();
    h.update(profile.as_bytes());
    h.update([0u8]);
    h.update(base_url.trim_end_matches('/').as_bytes());
    let digest = h.finalize();
    let hex: String = digest.iter().take(16).map(|b| format!("{b:02x}")).collect();
    format!("index-{hex}.sqlite")
}

#[cfg(test)]
mod tests;
