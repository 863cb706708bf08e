//! Filling an empty index fast (a new agent's snapshot from the team hub):
//! contacts and last messages first, without search rows, so the views
//! and their counts are complete as soon as they are stored; then the
//! search rows, in chunks, each written once, in rowid order, with the
//! words for typo lookups gathered per chunk.
//!
//! A contact without a search row is simply not found by search until
//! [`Index::build_search`] reaches it; any later write to the contact
//! writes its row as usual. An index left half-built (the process ended)
//! is finished by the next build, which finds the contacts lacking a row.

use std::collections::BTreeSet;

use chrono::{DateTime, Utc};
use rusqlite::{OptionalExtension, TransactionBehavior, params};

use super::db::Index;
use super::error::IndexError;
use super::search::{Row, remember};
use super::store::Thread;
use super::store::put_batch;
use crate::api::Contact;

/// Where a search build stands: the next call goes on after `after`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SearchBuild {
    /// The highest contact rowid looked at so far.
    pub after: i64,
    /// Search rows written so far.
    pub written: u64,
    /// Every contact has its search row.
    pub done: bool,
}

impl Index {
    /// Whether the index holds no contact.
    pub fn is_empty(&self) -> Result<bool, IndexError> {
        let any: Option<i64> = self
            .conn
            .query_row("SELECT rowid FROM contacts LIMIT 1", [], |r| r.get(0))
            .optional()?;
        Ok(any.is_none())
    }

    /// Stores a batch of contacts and conversations' last pages in one
    /// transaction, without their search rows (see [`Index::build_search`]):
    /// for an index being filled from empty. A contact held in a newer
    /// state stays as it is. Returns how many contacts were new or changed.
    pub fn load_batch(
        &mut self,
        contacts: &[Contact],
        threads: &[Thread],
        seen_at: DateTime<Utc>,
    ) -> Result<usize, IndexError> {
        let tx = self.conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let stored = put_batch(&tx, contacts, threads, seen_at)?;
        if !stored.is_empty() {
            tx.execute("UPDATE sync_state SET search_pending = 1 WHERE id = 1", [])?;
        }
        tx.commit()?;
        let changed = stored.len();
        if let Some(j) = self.journal.as_mut() {
            // Stored as given: the journal keeps them, not read back.
            j.loaded.extend(stored.into_iter().cloned());
        }
        Ok(changed)
    }

    /// Writes the search rows of up to `limit` contacts that lack one,
    /// after `from.after` in rowid order, in one transaction. Call again
    /// with the answer until it is `done`.
    pub fn build_search(&mut self, from: SearchBuild, limit: usize) -> Result<SearchBuild, IndexError> {
        let tx = self.conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let limit = i64::try_from(limit.max(1)).unwrap_or(i64::MAX);
        let rows: Vec<(i64, String, Option<String>)> = {
            let mut stmt = tx.prepare_cached(
                "SELECT c.rowid, c.json, m.json FROM contacts c
                     LEFT JOIN messages m ON m.contact_uuid = c.uuid
                 WHERE c.rowid > ?1 AND NOT EXISTS (SELECT 1 FROM search s WHERE s.rowid = c.rowid)
                 ORDER BY c.rowid LIMIT ?2",
            )?;
            let rows = stmt.query_map(params![from.after, limit], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
            rows.collect::<Result<_, _>>()?
        };
        let mut words = BTreeSet::new();
        let mut after = from.after;
        for (rowid, json, messages) in &rows {
            let row = Row::of(json, messages.as_deref())?;
            row.words(&mut words);
            row.insert(&tx, *rowid)?;
            after = *rowid;
        }
        remember(&tx, words)?;
        let done = (rows.len() as i64) < limit;
        if done {
            tx.execute("UPDATE sync_state SET search_pending = 0 WHERE id = 1", [])?;
        }
        tx.commit()?;
        Ok(SearchBuild {
            after,
            written: from.written + rows.len() as u64,
            done,
        })
    }

    /// Whether contacts were stored without their search rows and no build
    /// has finished since (see [`Index::load_batch`]).
    pub fn search_pending(&self) -> Result<bool, IndexError> {
        let n: i64 = self
            .conn
            .query_row("SELECT search_pending FROM sync_state WHERE id = 1", [], |r| r.get(0))?;
        Ok(n != 0)
    }

    /// Builds every missing search row (a command's load, with no screen
    /// to keep responsive). Returns how many were written.
    pub fn build_all_search(&mut self) -> Result<u64, IndexError> {
        let mut at = SearchBuild::default();
        while !at.done {
            at = self.build_search(at, SEARCH_CHUNK)?;
        }
        Ok(at.written)
    }

    /// How many contacts have no search row yet (a walk of the contacts).
    pub fn search_missing(&self) -> Result<u64, IndexError> {
        let n: i64 = self.conn.query_row(
            "SELECT count(*) FROM contacts c WHERE NOT EXISTS (SELECT 1 FROM search s WHERE s.rowid = c.rowid)",
            [],
            |r| r.get(0),
        )?;
        Ok(u64::try_from(n).unwrap_or(0))
    }
}

/// Search rows written per transaction by a build: about a tenth of a
/// second's work, so a search or a write waits no longer than that.
pub const SEARCH_CHUNK: usize = 2_000;

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;
    use crate::api::{Message, MessageStatus};

    fn uuids(contacts: &[Contact]) -> HashSet<&str> {
        contacts.iter().map(|c| c.uuid.as_str()).collect()
    }

    fn contact(i: usize) -> Contact {
        Contact {
            uuid: format!("c{i:05}"),
            name: format!("Person{i} Lovelace"),
            phone_number: format!("+4477009{i:05}"),
            tags: vec!["vip".into()],
            activity_at: Some(Utc::now() - chrono::Duration::minutes(i as i64)),
            ..Default::default()
        }
    }

    fn page(c: &Contact, text: &str) -> Thread {
        (
            c.uuid.clone(),
            c.last_activity(),
            vec![Message {
                uuid: None,
                text: text.into(),
                created_at: c.last_activity(),
                status: MessageStatus::Received,
                channel: String::new(),
                from: String::new(),
                to: String::new(),
                sent_by: None,
                rich: Default::default(),
            }],
        )
    }

    #[test]
    fn a_loaded_batch_is_listed_at_once_and_searchable_once_built() {
        let mut ix = Index::in_memory().unwrap();
        assert!(ix.is_empty().unwrap());
        let contacts: Vec<Contact> = (0..25).map(contact).collect();
        let threads = vec![page(&contacts[3], "where is my parcel")];
        ix.record_changes(true);
        assert_eq!(ix.load_batch(&contacts, &threads, Utc::now()).unwrap(), 25);
        assert!(!ix.is_empty().unwrap());
        assert_eq!(ix.count().unwrap(), 25);
        let changed = ix.take_changes().unwrap();
        assert_eq!(
            changed.upserted.iter().map(|c| c.uuid.as_str()).collect::<HashSet<_>>(),
            uuids(&contacts)
        );
        // The last message is there for the views...
        let p = ix.previews(&["c00003"]).unwrap();
        assert!(p["c00003"].waiting());
        // ...and search finds nothing yet.
        assert!(ix.search("Lovelace", 50).unwrap().is_empty());
        assert_eq!(ix.search_missing().unwrap(), 25);
        assert!(ix.search_pending().unwrap());
        assert!(!ix.is_consistent().unwrap());

        // In chunks of 10: three calls, the last one short.
        let mut at = SearchBuild::default();
        let mut calls = 0;
        while !at.done {
            at = ix.build_search(at, 10).unwrap();
            calls += 1;
        }
        assert_eq!((calls, at.written), (3, 25));
        assert_eq!(ix.search_missing().unwrap(), 0);
        assert!(!ix.search_pending().unwrap());
        assert!(ix.is_consistent().unwrap());
        assert_eq!(ix.search("Lovelace", 50).unwrap().len(), 25);
        assert_eq!(ix.search("parcel", 50).unwrap()[0].0, "c00003");
        assert_eq!(ix.search("+44 7700 900003", 5).unwrap()[0].0, "c00003");
        // A typo finds the words gathered per chunk.
        assert_eq!(ix.search("lovelaec", 50).unwrap().len(), 25);
        // Nothing left: a build writes nothing and says done.
        let again = ix.build_search(SearchBuild::default(), 10).unwrap();
        assert_eq!((again.written, again.done), (0, true));
    }

    #[test]
    fn the_journal_reports_a_loaded_contact_once_in_its_newest_state() {
        let mut ix = Index::in_memory().unwrap();
        ix.record_changes(true);
        let contacts: Vec<Contact> = (0..3).map(contact).collect();
        ix.load_batch(&contacts, &[], Utc::now()).unwrap();
        let mut renamed = contacts[1].clone();
        renamed.name = "Grace Hopper".into();
        ix.upsert_contacts(std::slice::from_ref(&renamed), Utc::now()).unwrap();
        ix.remove_missing(
            Utc::now() + chrono::Duration::seconds(1),
            &["c00000".to_string(), "c00001".to_string()].into(),
        )
        .unwrap();
        let changes = ix.take_changes().unwrap();
        let names: Vec<&str> = changes.upserted.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["Grace Hopper", "Person0 Lovelace"]);
        assert_eq!(changes.removed, ["c00002"]);
    }

    #[test]
    fn a_half_built_index_is_finished_and_a_contact_written_meanwhile_keeps_one_row() {
        let mut ix = Index::in_memory().unwrap();
        let contacts: Vec<Contact> = (0..30).map(contact).collect();
        ix.load_batch(&contacts, &[], Utc::now()).unwrap();
        ix.build_search(SearchBuild::default(), 10).unwrap();
        // A write to a contact not yet built gives it its row the usual way.
        let mut renamed = contacts[20].clone();
        renamed.name = "Grace Hopper".into();
        ix.upsert_contacts(&[renamed], Utc::now()).unwrap();
        assert_eq!(ix.search_missing().unwrap(), 19);
        assert!(ix.search_pending().unwrap());
        // The process ended: a new build from the start finishes the rest.
        assert_eq!(ix.build_all_search().unwrap(), 19);
        assert!(ix.is_consistent().unwrap());
        assert_eq!(ix.search("Hopper", 5).unwrap().len(), 1);
        assert_eq!(ix.search("Lovelace", 50).unwrap().len(), 29);
    }
}
