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

/// How far before the newest `seen_at` already reported another process's
/// writes are looked for (see [`Index::note_outside_writes`]).
const OUTSIDE_MARGIN_SECS: i64 = 30;

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

    /// Puts in the journal the contacts another process stored since the
    /// last call (the CLI or `frontdesk mcp` writing the same index file
    /// beside the TUI): SQLite's `data_version` says whether any other
    /// connection committed, and `seen_at` which contacts it stored. Their
    /// writes change the file, so the same change arriving here later (a
    /// hub's event, a sync pass) finds nothing to store and would never
    /// reach the screen. The first call only takes the measure. True when
    /// contacts were added.
    pub fn note_outside_writes(&mut self) -> Result<bool, IndexError> {
        if self.journal.is_none() {
            return Ok(false);
        }
        let version: i64 = self.conn.query_row("PRAGMA data_version", [], |r| r.get(0))?;
        let before = self.outside.version.replace(version);
        if before.is_none() {
            self.outside.seen = self
                .conn
                .query_row("SELECT max(seen_at) FROM contacts", [], |r| r.get(0))?;
            return Ok(false);
        }
        if before == Some(version) {
            return Ok(false);
        }
        // A little before the newest reported: the other process stamps
        // `seen_at` with its own clock reading, which may be a moment
        // older than this one's latest write. A contact reported twice is
        // harmless.
        let since = self
            .outside
            .seen
            .as_deref()
            .and_then(|s| super::stamps::parse_stamp(Some(s.to_string())))
            .map(|t| super::stamps::stamp(t - chrono::Duration::seconds(OUTSIDE_MARGIN_SECS)))
            .unwrap_or_default();
        let mut stmt = self
            .conn
            .prepare_cached("SELECT uuid, seen_at FROM contacts WHERE seen_at > ?1")?;
        let rows = stmt
            .query_map([&since], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))?
            .collect::<Result<Vec<_>, _>>()?;
        drop(stmt);
        if let Some(newest) = rows.iter().map(|(_, at)| at).max()
            && self.outside.seen.as_ref().is_none_or(|held| newest > held)
        {
            self.outside.seen = Some(newest.clone());
        }
        let found = !rows.is_empty();
        if let Some(j) = self.journal.as_mut() {
            j.upserted.extend(rows.into_iter().map(|(uuid, _)| uuid));
        }
        Ok(found)
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
