//! The local index as the inbox sees it: whether the list is backed by it,
//! how fresh it is, and the last message of each conversation.

use std::collections::HashMap;

use chrono::{DateTime, Utc};

use crate::index::Preview;

#[derive(Debug, Clone, Default)]
pub struct SyncView {
    /// `None`: no index (tests, or it could not be opened at all): the list
    /// is the API walk alone, as before the index existed.
    pub status: Option<SyncStatus>,
    /// The last message of each conversation known, by contact uuid.
    pub previews: HashMap<String, Preview>,
    /// Bumped whenever `previews` changes.
    pub previews_version: u64,
    /// Previews asked of the worker, with the activity they were asked at:
    /// not asked again until the contact moves.
    pub asked: HashMap<String, Option<DateTime<Utc>>>,
    /// Contacts are still being read from the index (list generation).
    pub loading: Option<u64>,
    /// Where the next batch read from the index starts: one batch is asked
    /// for at a time, so the reader never runs ahead of the list (100,000
    /// contacts decoded at once and queued took 160 MB at the peak, and
    /// left the memory they freed in holes).
    pub load_next: usize,
    /// The last search found the index busy (a sync writing to it).
    pub index_busy: bool,
}

impl SyncView {
    pub fn enabled(&self) -> bool {
        self.status.is_some()
    }

    /// True once a complete walk has finished: the list holds every contact.
    pub fn complete(&self) -> bool {
        self.status.as_ref().is_some_and(|s| s.complete && s.walking.is_none())
    }
}

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
    /// Search rows being written for contacts loaded without them (a new
    /// agent's snapshot): written, of how many. Search misses the rest.
    pub indexing: Option<(u64, u64)>,
    /// The last pass failed for want of the server (no network, timeouts,
    /// 5xx): the list shows the index as of `synced_at`.
    pub offline: bool,
    /// Background work is paused by the server's rate limit until then.
    pub retry_at: Option<DateTime<Utc>>,
    /// The index is in memory only (`--no-cache`, or the file was busy).
    pub in_memory: bool,
    /// Through a team hub: how its event stream stands (`None`: no hub).
    pub hub: Option<HubLink>,
}

/// The hub's event stream, as the status bar shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HubLink {
    /// Loading the snapshot or opening the stream.
    Connecting,
    /// Events arrive as they happen: nothing is polled.
    Live,
    /// The stream dropped: the hub is polled until it is back, and the
    /// stream reconnects at `retry_at`.
    Down { error: String, retry_at: DateTime<Utc> },
    /// The hub refused the token: nothing will change by trying again.
    Refused(String),
}
