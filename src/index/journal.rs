//! What changed in the index since the caller last looked: the journal
//! the TUI's worker forwards to the screen.

use std::collections::HashSet;

use super::db::{Index, Journal};
use super::error::IndexError;
use crate::api::Contact;

/// What changed in the index: the contacts stored new or changed (as
/// stored now) and the uuids removed.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Changes {
    pub upserted: Vec<Contact>,
    pub removed: Vec<String>,
}

impl Changes {
    pub fn is_empty(&self) -> bool {
        self.upserted.is_empty() && self.removed.is_empty()
    }
}

impl Index {
    /// Starts (or stops) recording what changes, for [`Index::take_changes`].
    pub fn record_changes(&mut self, on: bool) {
        self.journal = on.then(Journal::default);
    }

    /// How many changes wait in the journal (a uuid changed twice counts
    /// twice): a caller can decide to announce them in bulk.
    pub fn pending_changes(&self) -> usize {
        self.journal
            .as_ref()
            .map_or(0, |j| j.upserted.len() + j.removed.len() + j.loaded.len())
    }

    /// Forgets the journal's changes without reading the contacts back;
    /// returns how many there were (as [`Index::pending_changes`]).
    pub fn discard_changes(&mut self) -> usize {
        let n = self.pending_changes();
        if let Some(j) = self.journal.as_mut() {
            *j = Journal::default();
        }
        n
    }

    /// What changed since the last call (empty when not recording). A
    /// contact changed then removed is reported removed only.
    pub fn take_changes(&mut self) -> Result<Changes, IndexError> {
        let Some(journal) = self.journal.as_mut() else {
            return Ok(Changes::default());
        };
        let Journal {
            upserted,
            removed,
            loaded,
        } = std::mem::take(journal);
        let gone: HashSet<&str> = removed.iter().map(String::as_str).collect();
        let mut seen = HashSet::new();
        let mut out = Changes::default();
        for uuid in upserted {
            if gone.contains(uuid.as_str()) || !seen.insert(uuid.clone()) {
                continue;
            }
            if let Some(c) = self.get(&uuid)? {
                out.upserted.push(c);
            }
        }
        // Read back above when changed since: that state is newer.
        for c in loaded {
            if !gone.contains(c.uuid.as_str()) && seen.insert(c.uuid.clone()) {
                out.upserted.push(c);
            }
        }
        out.removed = removed;
        Ok(out)
    }
}
