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
mod db;
mod error;
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
mod stamps;
mod store;
pub mod sync;

use std::path::PathBuf;

use sha2::{Digest, Sha256};

pub use activity::thread_activity;
pub use bulk::{SEARCH_CHUNK, SearchBuild};
pub use db::{Index, IndexAccess, Opened, SharedIndex};
pub use error::IndexError;
pub use facts::WaitingFacts;
pub use journal::Changes;
pub use merge::{Merged, overlay};
pub use open::{Health, inspect};
pub use preview::{AUTOMATIC, Behind, Preview, Wait, Waiting, Wanted, Who, waiting};
pub use report::{HeldMessage, HeldPage, ReportRow};
pub use search::{Found, fts_query};
pub use store::{CachedThread, Order, SyncState, Thread};

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
