//! The contact list, in parts with one job each:
//! - [`ContactStore`]: the loaded contacts, once, compactly, indexed by id;
//! - [`Paging`]: the walk over GET /contacts (cursor, guard, generation,
//!   request in flight, top-up pass, round trip);
//! - [`ListView`]: what is on screen (selection, offset, `/` search);
//! - [`PendingWrites`]: writes in flight, with what to restore on failure;
//! - the bot state per contact.

pub mod lookup;
mod paging;
mod search;
mod store;

use std::collections::HashMap;
use std::sync::Arc;

use chrono::{DateTime, Utc};

pub use lookup::{Looked, Lookup, LookupJob, LookupKey};
pub use paging::{PAGE_ROWS, Paging, TopUp};
pub use search::{Funnels, Search, SearchDone, SearchJob, admits, funnel_filter, words_of};
pub use store::{ContactStore, Haystacks, LastMessage, Row, Upserted};

use crate::api::{Contact, ContactFilter};
use crate::tui::shared::scroll::Scroll;
use crate::tui::shared::{ReqId, WriteKind};

/// A write in flight on one contact.
#[derive(Debug, Clone)]
pub struct PendingWrite {
    pub id: ReqId,
    pub kind: WriteKind,
    /// The contact as it was, restored if the write fails.
    pub before: Option<Contact>,
}

/// Writes in flight, by contact uuid: their rows show a spinner and a
/// refresh does not overwrite them.
#[derive(Debug, Clone, Default)]
pub struct PendingWrites(HashMap<String, PendingWrite>);

impl PendingWrites {
    pub fn get(&self, uuid: &str) -> Option<&PendingWrite> {
        self.0.get(uuid)
    }
    pub fn contains_key(&self, uuid: &str) -> bool {
        self.0.contains_key(uuid)
    }
    pub fn insert(&mut self, uuid: String, write: PendingWrite) {
        self.0.insert(uuid, write);
    }
    pub fn remove(&mut self, uuid: &str) -> Option<PendingWrite> {
        self.0.remove(uuid)
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// What the list pane shows: rows are positions in the search results when
/// a search is active, else in the current view's rows, else in the store.
#[derive(Debug, Clone, Default)]
pub struct ListView {
    /// Position in the visible rows.
    pub selected: usize,
    /// First visible row.
    pub offset: usize,
    pub search: Option<Search>,
    /// The current view's contacts, in the view's order; `None` when it
    /// shows the whole store in its order (All). Kept by contact, not by
    /// store position, so they stay right while the store changes under
    /// them until the view is recomputed.
    pub rows: Option<Vec<Arc<str>>>,
    /// Contacts that came in (or moved up) above the first row shown since
    /// the agent last saw the top: "↑ N new" on the list's border.
    pub new_above: std::collections::HashSet<String>,
}

impl ListView {
    /// True when the list shows the store as it is: no search, no view.
    pub fn shows_store(&self) -> bool {
        self.searched().is_none() && self.rows.is_none()
    }

    /// The active search's matches (the whole account, whatever the view).
    pub fn searched(&self) -> Option<&[u32]> {
        self.search
            .as_ref()
            .filter(|s| s.active())
            .map(|s| s.matches.as_slice())
    }
}

#[derive(Debug, Default)]
pub struct ContactList {
    pub store: ContactStore,
    pub paging: Paging,
    pub view: ListView,
    pub filter: ContactFilter,
    pub pending: PendingWrites,
    /// Known bot state per contact (true: running).
    pub bots: HashMap<String, bool>,
    pub error: Option<String>,
    /// Messages this session sent that no refresh has brought back yet,
    /// by contact: when they were sent.
    sent_here: HashMap<String, DateTime<Utc>>,
}

/// How long after a send a new message on its contact is taken for it.
const OWN_WITHIN_SECS: i64 = 120;

impl ContactList {
    /// Number of rows the list shows (search results when searching).
    pub fn visible_len(&self) -> usize {
        match (self.view.searched(), &self.view.rows) {
            (Some(m), _) => m.len(),
            (None, Some(rows)) => rows.len(),
            (None, None) => self.store.len(),
        }
    }

    /// Store position of visible row `row`.
    pub fn contact_index(&self, row: usize) -> Option<usize> {
        match (self.view.searched(), &self.view.rows) {
            (Some(m), _) => m.get(row).map(|&i| i as usize),
            (None, Some(rows)) => rows.get(row).and_then(|u| self.store.position(u)),
            (None, None) => (row < self.store.len()).then_some(row),
        }
    }

    pub fn row(&self, row: usize) -> Option<&Row> {
        self.contact_index(row).and_then(|i| self.store.get(i))
    }

    pub fn selected_row(&self) -> Option<&Row> {
        self.row(self.view.selected)
    }

    /// The selected contact in the API's shape (a copy of one contact).
    pub fn selected_contact(&self) -> Option<Contact> {
        self.selected_row().map(Row::to_contact)
    }

    pub fn selected_uuid(&self) -> Option<String> {
        self.selected_row().map(|r| r.uuid.to_string())
    }

    /// The loaded row of `uuid`.
    pub fn get(&self, uuid: &str) -> Option<&Row> {
        self.store.by_id(uuid)
    }

    /// The loaded contact `uuid` in the API's shape (a copy).
    pub fn contact(&self, uuid: &str) -> Option<Contact> {
        self.get(uuid).map(Row::to_contact)
    }

    /// The visible row showing `uuid`.
    pub fn row_of(&self, uuid: &str) -> Option<usize> {
        let i = self.store.position(uuid)?;
        match (self.view.searched(), &self.view.rows) {
            (Some(m), _) => m.iter().position(|&r| r as usize == i),
            (None, Some(rows)) => rows.iter().position(|r| **r == *uuid),
            (None, None) => Some(i),
        }
    }

    /// The active search's matches by contact: taken before the store's
    /// rows move (a refresh, a sync pass) and given back to
    /// [`ContactList::rematch`] after, so the results (and the selection,
    /// a range of marks) stay on their contacts, not on row numbers that
    /// name others now, until the search's new answer arrives.
    pub fn matched_contacts(&self) -> Option<Vec<Arc<str>>> {
        let m = self.view.searched()?;
        Some(
            m.iter()
                .filter_map(|&i| self.store.get(i as usize).map(|r| r.uuid.clone()))
                .collect(),
        )
    }

    /// Puts the matches `matched_contacts` took back at the contacts' rows
    /// now (those no longer loaded drop out).
    pub fn rematch(&mut self, kept: Option<Vec<Arc<str>>>) {
        let Some(kept) = kept else { return };
        let layout = self.store.layout();
        let Some(s) = self.view.search.as_mut() else { return };
        s.matches = kept
            .iter()
            .filter_map(|u| self.store.position(u).map(|i| i as u32))
            .collect();
        s.layout = layout;
    }

    /// The agent has read `uuid`'s conversation up to its last message.
    pub fn mark_seen(&mut self, uuid: &str) {
        self.store.set_seen(uuid, |r| r.activity_at.or(r.seen));
    }

    /// The agent sent `uuid` a message at `at`: what is there is seen, and
    /// the message the next refresh brings is the agent's own, not new.
    pub fn sent(&mut self, uuid: &str, at: DateTime<Utc>) {
        self.mark_seen(uuid);
        let back = self
            .get(uuid)
            .and_then(|r| r.activity_at)
            .is_some_and(|last| last >= at);
        if !back {
            self.sent_here.insert(uuid.to_string(), at);
        }
    }

    /// True when the newer message `c` brings is the one this session
    /// sent (then it is no longer waited for): the caller stores `c` and
    /// calls [`ContactList::mark_seen`]. A refresh that comes much later
    /// than the send is not taken for it.
    pub fn brings_own(&mut self, c: &Contact) -> bool {
        let Some(at) = self.sent_here.get(&c.uuid).copied() else {
            return false;
        };
        if !self.get(&c.uuid).is_some_and(|old| old.new_message_in(c)) {
            return false;
        }
        self.sent_here.remove(&c.uuid);
        c.activity_at
            .is_some_and(|last| last <= at + chrono::Duration::seconds(OWN_WITHIN_SECS))
    }

    /// Seen state as of `at` (tests and fixtures).
    pub fn set_seen(&mut self, uuid: &str, at: DateTime<Utc>) {
        self.store.set_seen(uuid, |_| Some(at));
    }

    /// Keeps `selected` in range and on screen for a window of `height` rows
    /// (the one scroll rule of every selectable list: `model/scroll.rs`).
    /// How many open conversations each collaborator holds (email, lower
    /// case), among the loaded contacts: the assign picker's load.
    pub fn open_by_assignee(&self) -> HashMap<String, usize> {
        let mut n = HashMap::new();
        for r in self.store.iter().filter(|r| r.is_open()) {
            if let Some(a) = r.assigned_user.as_deref().filter(|a| !a.trim().is_empty()) {
                *n.entry(a.to_lowercase()).or_insert(0) += 1;
            }
        }
        n
    }

    /// Notes the contacts of `arrived` that sit above the first row shown,
    /// and forgets the ones no longer above it (the agent scrolled up).
    pub fn note_new_above(&mut self, arrived: &[String]) {
        let offset = self.view.offset;
        for uuid in arrived {
            if self.row_of(uuid).is_some_and(|r| r < offset) {
                self.view.new_above.insert(uuid.clone());
            }
        }
        if self.view.new_above.is_empty() {
            return;
        }
        let above: std::collections::HashSet<String> = self
            .view
            .new_above
            .iter()
            .filter(|u| self.row_of(u).is_some_and(|r| r < offset))
            .cloned()
            .collect();
        self.view.new_above = above;
    }

    pub fn clamp(&mut self, height: usize) {
        let len = self.visible_len();
        let v = &mut self.view;
        let mut scroll = Scroll {
            selected: v.selected,
            offset: v.offset,
        };
        scroll.clamp(len, height);
        v.selected = scroll.selected;
        v.offset = scroll.offset;
    }
}

impl crate::tui::shared::Contacts for ContactList {
    fn contact(&self, uuid: &str) -> Option<Contact> {
        self.get(uuid).map(Row::to_contact)
    }
    fn label(&self, uuid: &str) -> Option<String> {
        self.get(uuid).map(|r| r.label().to_string())
    }
    fn last_activity(&self, uuid: &str) -> Option<chrono::DateTime<chrono::Utc>> {
        self.get(uuid).and_then(Row::last_activity)
    }
    fn bot_running(&self, uuid: &str) -> Option<bool> {
        self.bots.get(uuid).copied()
    }
    fn customer_wrote_last(&self, uuid: &str) -> Option<bool> {
        let row = self.get(uuid)?;
        let last = row
            .last
            .as_ref()
            .filter(|l| l.activity.is_none() || l.activity == row.last_activity())?;
        Some(last.who? == crate::index::Who::Customer)
    }
}
