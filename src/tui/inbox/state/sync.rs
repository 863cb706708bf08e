//! The local index as the inbox sees it: whether the list is backed by it,
//! how fresh it is, and the last message of each conversation.

use std::collections::HashMap;

use chrono::{DateTime, Utc};

pub use crate::fill::msg::{HubLink, SyncStatus};
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
