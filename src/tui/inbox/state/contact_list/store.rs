//! The loaded contacts, once, compactly: one [`Row`] per contact (see
//! `row`), indexed by uuid, and the search haystacks kept beside them so
//! `/` never rebuilds them.

mod row;

use std::collections::HashMap;
use std::sync::Arc;

use chrono::{DateTime, Utc};

use crate::api::Contact;
use row::Interner;
pub use row::{FUNNEL_MARK, LastMessage, Row};

/// What [`ContactStore::upsert_sorted`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Upserted {
    New(usize),
    InPlace(usize),
    Moved { from: usize, to: usize },
}

/// The search haystacks in row order, shared with a search running off the
/// UI thread (copied only if the store changes while one holds them).
pub type Haystacks = Arc<Vec<Box<str>>>;

/// The loaded contacts in server order (most recent conversation first).
#[derive(Debug, Default)]
pub struct ContactStore {
    rows: Vec<Row>,
    index: HashMap<Arc<str>, usize>,
    hay: Haystacks,
    strings: Interner,
    /// Bumped when rows move (inserted in front, cleared): row numbers of
    /// an older layout no longer name the same contacts.
    layout: u64,
    /// Bumped on every change.
    version: u64,
    /// Bumped when only what the agent has seen changes (views, search
    /// and sorting do not depend on it).
    seen_version: u64,
}

impl ContactStore {
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    pub fn get(&self, i: usize) -> Option<&Row> {
        self.rows.get(i)
    }

    pub fn iter(&self) -> impl Iterator<Item = &Row> {
        self.rows.iter()
    }

    /// Row number of `uuid`: a hash lookup, no scan.
    pub fn position(&self, uuid: &str) -> Option<usize> {
        self.index.get(uuid).copied()
    }

    pub fn by_id(&self, uuid: &str) -> Option<&Row> {
        self.position(uuid).map(|i| &self.rows[i])
    }

    pub fn haystacks(&self) -> Haystacks {
        self.hay.clone()
    }

    pub fn layout(&self) -> u64 {
        self.layout
    }

    pub fn version(&self) -> u64 {
        self.version
    }

    pub fn seen_version(&self) -> u64 {
        self.seen_version
    }

    /// Sets what the agent has seen of `uuid` (the row's `seen`); false
    /// when it is not loaded.
    pub fn set_seen(&mut self, uuid: &str, seen: impl FnOnce(&Row) -> Option<DateTime<Utc>>) -> bool {
        let Some(i) = self.position(uuid) else { return false };
        let row = &mut self.rows[i];
        row.seen = seen(row);
        self.seen_version += 1;
        true
    }

    /// Sets what is known of `uuid`'s last message; false when it is not
    /// loaded.
    pub fn set_last(&mut self, uuid: &str, last: LastMessage) -> bool {
        let Some(i) = self.position(uuid) else { return false };
        if self.rows[i].last != Some(last) {
            self.rows[i].last = Some(last);
            self.version += 1;
        }
        true
    }

    /// Gives back what growing one row at a time reserved (up to a third
    /// of the rows' memory): for when a long load has finished.
    pub fn shrink_to_fit(&mut self) {
        self.rows.shrink_to_fit();
        self.index.shrink_to_fit();
        Arc::make_mut(&mut self.hay).shrink_to_fit();
    }

    /// Drops everything.
    pub fn clear(&mut self) {
        self.rows.clear();
        self.index.clear();
        self.hay = Haystacks::default();
        self.layout += 1;
        self.version += 1;
    }

    /// Replaces a known contact in place (keeping what the agent has seen);
    /// false when it is not loaded.
    pub fn replace(&mut self, c: Contact) -> bool {
        let Some(i) = self.position(&c.uuid) else { return false };
        let mut row = Row::new(c, self.rows[i].seen, &mut self.strings);
        row.last = self.rows[i].last;
        Arc::make_mut(&mut self.hay)[i] = row.haystack();
        self.rows[i] = row;
        self.version += 1;
        true
    }

    /// Appends `c`, or replaces it in place when it is already loaded (a
    /// refresh put it on top): never a duplicate. True when it was new.
    pub fn push(&mut self, c: Contact) -> bool {
        if self.index.contains_key(c.uuid.as_str()) {
            self.replace(c);
            return false;
        }
        let row = Row::new(c, None, &mut self.strings);
        self.index.insert(row.uuid.clone(), self.rows.len());
        Arc::make_mut(&mut self.hay).push(row.haystack());
        self.rows.push(row);
        self.version += 1;
        true
    }

    /// Inserts new contacts (none of them loaded) before row `at`, in their
    /// order.
    pub fn insert(&mut self, at: usize, fresh: Vec<Contact>) {
        if fresh.is_empty() {
            return;
        }
        let at = at.min(self.rows.len());
        let n = fresh.len();
        let rows: Vec<Row> = fresh
            .into_iter()
            .map(|c| Row::new(c, None, &mut self.strings))
            .collect();
        let hay = Arc::make_mut(&mut self.hay);
        hay.splice(at..at, rows.iter().map(Row::haystack));
        for v in self.index.values_mut() {
            if *v >= at {
                *v += n;
            }
        }
        for (k, r) in rows.iter().enumerate() {
            self.index.insert(r.uuid.clone(), at + k);
        }
        self.rows.splice(at..at, rows);
        self.layout += 1;
        self.version += 1;
    }

    /// Changes one row in place (an optimistic close, what the agent has
    /// seen); false when it is not loaded.
    pub fn update(&mut self, uuid: &str, f: impl FnOnce(&mut Row)) -> bool {
        let Some(i) = self.position(uuid) else { return false };
        f(&mut self.rows[i]);
        self.version += 1;
        true
    }

    /// Re-points the index at rows `from..to` after they moved.
    fn reindex(&mut self, from: usize, to: usize) {
        for i in from..to.min(self.rows.len()) {
            if let Some(v) = self.index.get_mut(&*self.rows[i].uuid) {
                *v = i;
            }
        }
    }

    /// Removes `uuid`; false when it is not loaded.
    pub fn remove(&mut self, uuid: &str) -> bool {
        let Some(i) = self.index.remove(uuid) else { return false };
        self.rows.remove(i);
        Arc::make_mut(&mut self.hay).remove(i);
        self.reindex(i, self.rows.len());
        self.layout += 1;
        self.version += 1;
        true
    }

    /// Where a contact with latest activity `at` goes in a list sorted
    /// newest first (after the rows as new as it).
    fn sorted_position(&self, at: Option<DateTime<Utc>>) -> usize {
        self.rows.partition_point(|r| r.last_activity() >= at)
    }

    /// Stores `c` where its latest activity puts it (the list is kept
    /// newest first): in place when that has not changed, else moved or
    /// inserted. Only the rows between the old and new places are
    /// re-pointed, so a contact moving to the top of 100,000 costs what
    /// lies above it.
    pub fn upsert_sorted(&mut self, c: Contact) -> Upserted {
        let at = c.last_activity();
        let Some(old) = self.position(&c.uuid) else {
            let to = self.sorted_position(at);
            let row = Row::new(c, None, &mut self.strings);
            self.index.insert(row.uuid.clone(), to);
            Arc::make_mut(&mut self.hay).insert(to, row.haystack());
            self.rows.insert(to, row);
            self.reindex(to + 1, self.rows.len());
            self.layout += 1;
            self.version += 1;
            return Upserted::New(to);
        };
        if self.rows[old].last_activity() == at {
            self.replace(c);
            return Upserted::InPlace(old);
        }
        let seen = self.rows[old].seen;
        let mut row = Row::new(c, seen, &mut self.strings);
        row.last = self.rows[old].last;
        let hay = row.haystack();
        self.rows.remove(old);
        Arc::make_mut(&mut self.hay).remove(old);
        let to = self.sorted_position(at);
        self.rows.insert(to, row);
        Arc::make_mut(&mut self.hay).insert(to, hay);
        self.reindex(old.min(to), old.max(to) + 1);
        self.layout += 1;
        self.version += 1;
        Upserted::Moved { from: old, to }
    }

    /// Replaces everything loaded.
    pub fn set(&mut self, contacts: Vec<Contact>) {
        self.clear();
        for c in contacts {
            self.push(c);
        }
    }
}

#[cfg(test)]
mod tests;
