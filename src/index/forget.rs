//! Removing contacts from the index: those a complete walk shows gone,
//! one a `contact_deleted` event names, and everything when the account
//! behind the index changed. Nothing of a removed contact stays readable
//! in the files: SQLite's `secure_delete` and FTS5's `secure-delete`
//! (see `schema`) overwrite what a delete frees, and a checkpoint after
//! each removal takes the old pages out of the WAL.

use std::collections::HashSet;
use std::time::Duration;

use chrono::{DateTime, Utc};
use rusqlite::{OptionalExtension, Transaction, TransactionBehavior};

use super::db::Index;
use super::error::IndexError;
use super::stamps::stamp;

/// How long the checkpoint after a removal waits for readers: a reader
/// holding the WAL only delays the erasing to the next checkpoint.
const CHECKPOINT_PATIENCE: Duration = Duration::from_millis(200);

impl Index {
    /// Removes the contacts a completed walk that started at `walk_started`
    /// did not see (`seen`: the uuids it yielded). Only what the walk could
    /// not have missed goes: a contact stored after the walk started (by an
    /// incremental pass), or whose activity is newer than the start (it
    /// moved while the walk ran, and the walk's top-up pass or the next
    /// walk sees it), is kept. Returns how many were removed.
    pub fn remove_missing(&mut self, walk_started: DateTime<Utc>, seen: &HashSet<String>) -> Result<usize, IndexError> {
        let tx = self.conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let stale: Vec<String> = {
            let mut stmt =
                tx.prepare("SELECT uuid FROM contacts WHERE seen_at < ?1 AND (activity IS NULL OR activity < ?1)")?;
            let rows = stmt.query_map([stamp(walk_started)], |r| r.get::<_, String>(0))?;
            rows.filter_map(Result::ok).filter(|u| !seen.contains(u)).collect()
        };
        for uuid in &stale {
            remove_one(&tx, uuid)?;
        }
        forget_words(&tx, &stale)?;
        tx.commit()?;
        Ok(self.removed(stale))
    }

    /// Removes one contact the service deleted (a `contact_deleted`
    /// event), with its messages, its search text and the words only it
    /// held. True when the index held it.
    pub fn apply_contact_deleted(&mut self, uuid: &str) -> Result<bool, IndexError> {
        let tx = self.conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let held = tx
            .query_row("SELECT 1 FROM contacts WHERE uuid = ?1", [uuid], |_| Ok(()))
            .optional()?
            .is_some();
        // Messages may be cached for a contact not stored (yet): go too.
        remove_one(&tx, uuid)?;
        let removed = if held { vec![uuid.to_string()] } else { Vec::new() };
        forget_words(&tx, &removed)?;
        tx.commit()?;
        self.removed(removed);
        Ok(held)
    }

    /// The index holds another account's data (the server was reset, or
    /// the profile points at another account): forgets every contact,
    /// message and word, and the sync state (a full walk is due), and
    /// keeps `account` as the fingerprint of the account it holds now.
    pub fn start_over(&mut self, account: &str) -> Result<(), IndexError> {
        let tx = self.conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let all: Vec<String> = {
            let mut stmt = tx.prepare("SELECT uuid FROM contacts")?;
            let rows = stmt.query_map([], |r| r.get::<_, String>(0))?;
            rows.collect::<Result<_, _>>()?
        };
        tx.execute_batch(
            "DELETE FROM contacts; DELETE FROM messages; DELETE FROM search; DELETE FROM search_terms;
             UPDATE sync_state SET full_walk_finished_at = NULL, walk_started_at = NULL,
                 walk_done = 0, walk_expected = NULL, search_pending = 0;",
        )?;
        tx.execute("UPDATE sync_state SET account = ?1 WHERE id = 1", [account])?;
        tx.commit()?;
        self.removed(all);
        Ok(())
    }

    /// The fingerprint of the account the index holds (see
    /// `sync::identity`); `None` before the first check.
    pub fn account(&self) -> Result<Option<String>, IndexError> {
        Ok(self
            .conn
            .query_row("SELECT account FROM sync_state WHERE id = 1", [], |r| r.get(0))?)
    }

    /// Keeps the fingerprint of the account the index holds.
    pub fn set_account(&mut self, account: &str) -> Result<(), IndexError> {
        self.conn
            .execute("UPDATE sync_state SET account = ?1 WHERE id = 1", [account])?;
        Ok(())
    }

    /// After removals were committed: records them in the journal and
    /// checkpoints, so the freed pages leave the WAL too. Returns how many.
    fn removed(&mut self, removed: Vec<String>) -> usize {
        let n = removed.len();
        if n > 0 {
            self.checkpoint();
        }
        if let Some(j) = self.journal.as_mut() {
            j.removed.extend(removed);
        }
        n
    }

    /// Copies the WAL into the file and empties it, waiting briefly for
    /// readers; a failure only leaves it to the next checkpoint.
    fn checkpoint(&mut self) {
        if self.path.is_none() {
            return;
        }
        let _ = self.conn.busy_timeout(CHECKPOINT_PATIENCE);
        if let Err(e) = self.conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(())) {
            tracing::debug!("checkpoint after a removal: {e}");
        }
        let _ = self.conn.busy_timeout(super::open::BUSY_TIMEOUT);
    }
}

/// Forgets the words no contact holds any more, once some were removed:
/// customers' words are not kept on disk for contacts the account no
/// longer has.
fn forget_words(tx: &Transaction<'_>, removed: &[String]) -> Result<(), IndexError> {
    if !removed.is_empty() {
        tx.execute_batch(
            "CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_vocab USING fts5vocab(main, 'search', 'row');
             DELETE FROM search_terms WHERE term NOT IN (SELECT term FROM temp.search_vocab);",
        )?;
    }
    Ok(())
}

/// Removes one contact, its search row and its cached messages.
fn remove_one(tx: &Transaction<'_>, uuid: &str) -> Result<(), IndexError> {
    tx.execute(
        "DELETE FROM search WHERE rowid = (SELECT rowid FROM contacts WHERE uuid = ?1)",
        [uuid],
    )?;
    tx.execute("DELETE FROM contacts WHERE uuid = ?1", [uuid])?;
    tx.execute("DELETE FROM messages WHERE contact_uuid = ?1", [uuid])?;
    Ok(())
}
