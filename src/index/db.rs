//! The index itself ([`Index`]: its connection), and the ways code holds it
//! ([`IndexAccess`], [`SharedIndex`]).

use std::path::{Path, PathBuf};

use rusqlite::Connection;

use super::error::IndexError;
use crate::api::Contact;

/// The account's local index.
pub struct Index {
    pub(super) conn: Connection,
    pub(super) path: Option<PathBuf>,
    /// What changed since the last [`Index::take_changes`], when recorded.
    pub(super) journal: Option<Journal>,
    /// What [`Index::note_outside_writes`] last saw of other connections'
    /// commits.
    pub(super) outside: Outside,
}

/// Other connections' commits as last seen: SQLite's `data_version` (it
/// moves only when another connection commits) and the newest `seen_at`
/// already reported.
#[derive(Debug, Default)]
pub(crate) struct Outside {
    pub(super) version: Option<i64>,
    pub(super) seen: Option<String>,
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
    /// An index kept in memory only (`--no-cache`).
    pub fn in_memory() -> Result<Index, IndexError> {
        let conn = Connection::open_in_memory()?;
        let mut index = Index {
            conn,
            path: None,
            journal: None,
            outside: Outside::default(),
        };
        super::schema::configure(&index.conn)?;
        super::schema::migrate(&mut index.conn)?;
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

/// Uuids changed or removed since the journal was last read.
#[derive(Debug, Default)]
pub(crate) struct Journal {
    pub(super) upserted: Vec<String>,
    pub(super) removed: Vec<String>,
    /// Contacts stored by a load exactly as given (see
    /// [`Index::load_batch`]): reported without reading them back.
    pub(super) loaded: Vec<Contact>,
}
