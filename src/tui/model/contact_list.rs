//! The loaded contacts: a window over a long list, cursor paging, filters,
//! the fuzzy search view and per-contact request state.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};

use crate::api::{Contact, ContactFilter};
use crate::tui::msg::{ReqId, WriteKind};

/// `/` search over what is loaded.
#[derive(Debug, Clone, Default)]
pub struct Search {
    pub query: String,
    /// Indices into `contacts`, best first.
    pub matches: Vec<usize>,
    /// True while the query is being typed.
    pub editing: bool,
}

/// A write in flight on one contact.
#[derive(Debug, Clone)]
pub struct PendingWrite {
    pub id: ReqId,
    pub kind: WriteKind,
    /// The contact as it was, restored if the write fails.
    pub before: Option<Contact>,
}

#[derive(Debug, Clone, Default)]
pub struct ContactList {
    /// In server order (most recent conversation first).
    pub contacts: Vec<Contact>,
    /// The uuids in `contacts`: merging a page stays O(page), not O(loaded).
    pub uuids: HashSet<String>,
    /// Position in the visible rows (the search view when searching).
    pub selected: usize,
    /// First visible row.
    pub offset: usize,
    pub filter: ContactFilter,
    /// Bumped when the filter changes: pages of an older generation are dropped.
    pub generation: u64,
    /// Cursor of the next batch; `None` before the first page and at the end.
    pub next_cursor: Option<String>,
    /// True once `meta.next` came back null.
    pub exhausted: bool,
    /// Id of the next-page request in flight.
    pub loading: Option<ReqId>,
    /// Id of the refresh in flight.
    pub refreshing: Option<ReqId>,
    /// `G` was pressed: stay at the end while more pages arrive.
    pub follow_end: bool,
    pub search: Option<Search>,
    /// Per contact, the `lastMessageAt` the agent has seen.
    pub last_seen: HashMap<String, DateTime<Utc>>,
    pub pending: HashMap<String, PendingWrite>,
    /// Known bot state per contact (true: running).
    pub bots: HashMap<String, bool>,
    pub error: Option<String>,
}

impl ContactList {
    /// Number of rows the list shows (search results when searching).
    pub fn visible_len(&self) -> usize {
        match &self.search {
            Some(s) if !s.query.is_empty() => s.matches.len(),
            _ => self.contacts.len(),
        }
    }

    /// Index into `contacts` of visible row `row`.
    pub fn contact_index(&self, row: usize) -> Option<usize> {
        match &self.search {
            Some(s) if !s.query.is_empty() => s.matches.get(row).copied(),
            _ => (row < self.contacts.len()).then_some(row),
        }
    }

    pub fn row(&self, row: usize) -> Option<&Contact> {
        self.contact_index(row).map(|i| &self.contacts[i])
    }

    pub fn selected_contact(&self) -> Option<&Contact> {
        self.row(self.selected)
    }

    pub fn selected_uuid(&self) -> Option<String> {
        self.selected_contact().map(|c| c.uuid.clone())
    }

    pub fn position(&self, uuid: &str) -> Option<usize> {
        if !self.uuids.contains(uuid) {
            return None;
        }
        self.contacts.iter().position(|c| c.uuid == uuid)
    }

    /// Replaces everything loaded.
    pub fn set_contacts(&mut self, contacts: Vec<Contact>) {
        self.uuids = contacts.iter().map(|c| c.uuid.clone()).collect();
        self.contacts = contacts;
    }

    /// The contact `uuid`; the selected one is found without a scan.
    pub fn get(&self, uuid: &str) -> Option<&Contact> {
        match self.selected_contact() {
            Some(c) if c.uuid == uuid => Some(c),
            _ => self.position(uuid).map(|i| &self.contacts[i]),
        }
    }

    pub fn get_mut(&mut self, uuid: &str) -> Option<&mut Contact> {
        self.contacts.iter_mut().find(|c| c.uuid == uuid)
    }

    /// The visible row showing `uuid`.
    pub fn row_of(&self, uuid: &str) -> Option<usize> {
        let i = self.position(uuid)?;
        match &self.search {
            Some(s) if !s.query.is_empty() => s.matches.iter().position(|&m| m == i),
            _ => Some(i),
        }
    }

    /// True when the contact has a message the agent has not seen.
    pub fn has_new(&self, c: &Contact) -> bool {
        match (c.last_message_at, self.last_seen.get(&c.uuid)) {
            (Some(at), Some(seen)) => at > *seen,
            _ => false,
        }
    }

    /// Keeps `selected` in range and on screen for a window of `height` rows.
    pub fn clamp(&mut self, height: usize) {
        let len = self.visible_len();
        if len == 0 {
            self.selected = 0;
            self.offset = 0;
            return;
        }
        self.selected = self.selected.min(len - 1);
        let height = height.max(1);
        if self.selected < self.offset {
            self.offset = self.selected;
        } else if self.selected >= self.offset + height {
            self.offset = self.selected + 1 - height;
        }
        self.offset = self.offset.min(len.saturating_sub(1));
    }

    /// Tags seen on loaded contacts, sorted and unique.
    pub fn known_tags(&self) -> Vec<String> {
        let mut tags: Vec<String> = self.contacts.iter().flat_map(|c| c.tags.iter().cloned()).collect();
        tags.sort_by_key(|t| t.to_lowercase());
        tags.dedup();
        tags
    }

    /// The haystack `/` searches: name, phone and tags.
    pub fn haystack(c: &Contact) -> String {
        format!("{} {} {}", c.name, c.phone_number, c.tags.join(" "))
    }
}
