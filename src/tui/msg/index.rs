//! What the index worker reports: contacts read from the index, changes a
//! sync brought in, previews fetched, and how fresh the index is.

use chrono::{DateTime, Utc};

use crate::api::Contact;
use crate::index::{Changes, Preview};

/// How fresh the index is, as the status bar shows it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SyncStatus {
    /// When a sync pass last succeeded (or the walk last finished).
    pub synced_at: Option<DateTime<Utc>>,
    /// A complete walk of the account has finished at least once: the list
    /// holds every contact.
    pub complete: bool,
    /// A full walk under way: contacts seen, and about how many there are.
    pub walking: Option<(u64, Option<u64>)>,
    /// The last pass failed for want of the server (no network, timeouts,
    /// 5xx): the list shows the index as of `synced_at`.
    pub offline: bool,
    /// Background work is paused by the server's rate limit until then.
    pub retry_at: Option<DateTime<Utc>>,
    /// The index is in memory only (`--no-cache`, or the file was busy).
    pub in_memory: bool,
}

#[derive(Debug, Clone)]
pub enum IndexMsg {
    /// Contacts read from the index in activity order, for list
    /// `generation` (a later batch follows unless `done`).
    Loaded {
        generation: u64,
        contacts: Vec<Contact>,
        done: bool,
    },
    /// What a sync pass or a stored write changed.
    Changed(Changes),
    /// Last messages fetched (or read from the index).
    Previews(Vec<(String, Preview)>),
    Status(SyncStatus),
    /// Something went wrong in the background worth one line (never the
    /// passing failures `offline` covers).
    Problem(String),
    /// Something the agent should know worth one line (the index started
    /// over for another account's data).
    Notice(String),
    /// Whether the last `/` search found the index busy (a sync writing)
    /// and served the loaded rows alone.
    SearchBusy(bool),
}
