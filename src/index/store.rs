//! Contacts, messages and sync state: reads and writes.

use std::collections::HashSet;

use chrono::{DateTime, Utc};
use rusqlite::{OptionalExtension, Transaction, TransactionBehavior, params};

use super::db::Index;
use super::error::IndexError;
pub(crate) use super::stamps::{parse_stamp, stamp};
use crate::api::{Contact, Message};

/// A cached page of messages and the contact's activity when fetched.
pub type CachedThread = (Option<DateTime<Utc>>, Vec<Message>);

/// A contact's uuid, its activity when its messages were fetched, and them.
pub type Thread = (String, Option<DateTime<Utc>>, Vec<Message>);

/// The order of [`Index::list`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Order {
    /// Latest activity first, as GET /contacts.
    #[default]
    Activity,
    /// By name, A to Z.
    Name,
    /// Newest contact first.
    Created,
}

/// How far syncing has got.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SyncState {
    /// When the last complete walk finished.
    pub full_walk_finished_at: Option<DateTime<Utc>>,
    /// The walk under way (or interrupted): when it started.
    pub walk_started_at: Option<DateTime<Utc>>,
    /// Contacts the running walk has stored so far.
    pub walk_done: u64,
    /// About how many contacts the account holds (from the first page).
    pub walk_expected: Option<u64>,
}

impl Index {
    /// Stores `contacts` (insert or replace) in one transaction, marking
    /// them seen at `seen_at`, a state as of `seen_at` (see
    /// [`Index::upsert_states`]). Returns how many were new or changed.
    pub fn upsert_contacts(&mut self, contacts: &[Contact], seen_at: DateTime<Utc>) -> Result<usize, IndexError> {
        self.upsert_states(contacts, seen_at, seen_at)
    }

    /// [`Index::upsert_contacts`] left out of the journal of changes: for a
    /// change its readers learn another way (a hub's `message_created`
    /// event carries the activity it stores).
    pub fn upsert_unannounced(&mut self, contacts: &[Contact], seen_at: DateTime<Utc>) -> Result<usize, IndexError> {
        let journal = self.journal.take();
        let stored = self.upsert_contacts(contacts, seen_at);
        self.journal = journal;
        stored
    }

    /// Stores `contacts` as they were at `state_at` (when the request that
    /// read them was sent, or when a write's answer came), marking them
    /// seen at `seen_at`. A contact the index holds in a newer state is
    /// kept as it is: a slow answer never puts an older state back.
    /// Returns how many were new or changed.
    pub fn upsert_states(
        &mut self,
        contacts: &[Contact],
        seen_at: DateTime<Utc>,
        state_at: DateTime<Utc>,
    ) -> Result<usize, IndexError> {
        let tx = self.conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let seen = stamp(seen_at);
        let state = stamp(state_at);
        let mut changed = 0;
        let mut stored = Vec::new();
        for c in contacts {
            if upsert_one(&tx, c, &seen, &state)? {
                super::search::reindex(&tx, &c.uuid)?;
                changed += 1;
                stored.push(c.uuid.clone());
            }
        }
        tx.commit()?;
        if let Some(j) = self.journal.as_mut() {
            j.upserted.extend(stored);
        }
        Ok(changed)
    }

    /// [`Index::upsert_contacts`] and [`Index::store_threads`] in one
    /// transaction (a snapshot's batch): each contact stored new or
    /// changed, or given a page, has its search row written once, after
    /// both. Returns how many contacts were new or changed.
    pub fn upsert_with_threads(
        &mut self,
        contacts: &[Contact],
        threads: &[Thread],
        seen_at: DateTime<Utc>,
    ) -> Result<usize, IndexError> {
        let tx = self.conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let stored = put_batch(&tx, contacts, threads, seen_at)?;
        let mut touched: HashSet<&str> = stored.iter().map(|c| c.uuid.as_str()).collect();
        touched.extend(threads.iter().map(|t| t.0.as_str()));
        // In the order given, for the search table's sake (rowids ascend
        // as contacts were inserted).
        for uuid in contacts
            .iter()
            .map(|c| c.uuid.as_str())
            .chain(threads.iter().map(|t| t.0.as_str()))
        {
            if touched.remove(uuid) {
                super::search::reindex(&tx, uuid)?;
            }
        }
        tx.commit()?;
        let changed = stored.len();
        if let Some(j) = self.journal.as_mut() {
            j.upserted.extend(stored.into_iter().map(|c| c.uuid.clone()));
        }
        Ok(changed)
    }

    /// One contact.
    pub fn get(&self, uuid: &str) -> Result<Option<Contact>, IndexError> {
        let json: Option<String> = self
            .conn
            .query_row("SELECT json FROM contacts WHERE uuid = ?1", [uuid], |r| r.get(0))
            .optional()?;
        Ok(json.map(|j| serde_json::from_str(&j)).transpose()?)
    }

    /// How many contacts the index holds.
    pub fn count(&self) -> Result<u64, IndexError> {
        let n: i64 = self.conn.query_row("SELECT count(*) FROM contacts", [], |r| r.get(0))?;
        Ok(u64::try_from(n).unwrap_or(0))
    }

    /// A window of contacts in `order`.
    pub fn list(&self, order: Order, limit: usize, offset: usize) -> Result<Vec<Contact>, IndexError> {
        let by = match order {
            Order::Activity => "activity DESC, uuid DESC",
            Order::Name => "name COLLATE NOCASE, uuid",
            Order::Created => "created_at DESC, uuid DESC",
        };
        let sql = format!("SELECT json FROM contacts ORDER BY {by} LIMIT ?1 OFFSET ?2");
        let mut stmt = self.conn.prepare_cached(&sql)?;
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let offset = i64::try_from(offset).unwrap_or(i64::MAX);
        let rows = stmt.query_map(params![limit, offset], |r| r.get::<_, String>(0))?;
        let mut out = Vec::new();
        for json in rows {
            out.push(serde_json::from_str(&json?)?);
        }
        Ok(out)
    }

    /// One page of contacts by activity, newest first (ties by uuid,
    /// descending: the order of [`Index::list`] with `Order::Activity`),
    /// either `offset` rows in or after the contact at `after` (its
    /// activity as stored, `None` when it has none, and its uuid). Each
    /// comes with its stored activity, to make the next cursor from.
    pub fn page_by_activity(
        &self,
        after: Option<(Option<&str>, &str)>,
        offset: usize,
        limit: usize,
    ) -> Result<Vec<(Contact, Option<String>)>, IndexError> {
        let (cond, a, u) = match after {
            None => ("1", String::new(), String::new()),
            Some((Some(a), u)) => (
                "(activity < ?1 OR (activity = ?1 AND uuid < ?2) OR activity IS NULL)",
                a.to_string(),
                u.to_string(),
            ),
            Some((None, u)) => ("(activity IS NULL AND uuid < ?2)", String::new(), u.to_string()),
        };
        let sql = format!(
            "SELECT json, activity FROM contacts WHERE {cond}
             ORDER BY activity DESC, uuid DESC LIMIT ?3 OFFSET ?4"
        );
        let mut stmt = self.conn.prepare_cached(&sql)?;
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let offset = i64::try_from(offset).unwrap_or(i64::MAX);
        // ?3 and ?4 are bound by number, whichever of ?1 and ?2 the
        // condition uses.
        let rows = stmt.query_map(params![a, u, limit, offset], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, Option<String>>(1)?))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (json, activity) = row?;
            out.push((serde_json::from_str(&json)?, activity));
        }
        Ok(out)
    }

    /// The uuids of the contacts whose activity lies strictly between
    /// `oldest` and `newest`, or at `newest`.
    pub fn uuids_between(&self, oldest: DateTime<Utc>, newest: DateTime<Utc>) -> Result<Vec<String>, IndexError> {
        let mut stmt = self
            .conn
            .prepare_cached("SELECT uuid FROM contacts WHERE activity > ?1 AND activity <= ?2")?;
        let rows = stmt.query_map([stamp(oldest), stamp(newest)], |r| r.get::<_, String>(0))?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    /// Whether the index holds `contact` exactly as given.
    /// (The activity the index learned counts as given: the service
    /// sends none.)
    pub fn holds(&self, contact: &Contact) -> Result<bool, IndexError> {
        let stored: Option<String> = self
            .conn
            .query_row("SELECT json FROM contacts WHERE uuid = ?1", [&contact.uuid], |r| {
                r.get(0)
            })
            .optional()?;
        let json = serde_json::to_string(&*super::activity::merged(contact, stored.as_deref()))?;
        Ok(stored.as_deref() == Some(json.as_str()))
    }

    /// Keeps `messages`, the latest page of the contact's thread, fetched
    /// when the contact's activity was `activity`. Their text becomes
    /// searchable.
    pub fn store_messages(
        &mut self,
        uuid: &str,
        activity: Option<DateTime<Utc>>,
        messages: &[Message],
    ) -> Result<(), IndexError> {
        let tx = self.conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let moved = put_messages(&tx, uuid, activity, &stamp(Utc::now()), messages)?;
        tx.commit()?;
        if moved && let Some(j) = self.journal.as_mut() {
            j.upserted.push(uuid.to_string());
        }
        Ok(())
    }

    /// [`Index::store_messages`] for many contacts in one transaction.
    pub fn store_threads(&mut self, threads: &[Thread]) -> Result<(), IndexError> {
        let tx = self.conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let now = stamp(Utc::now());
        let mut moved = Vec::new();
        for (uuid, activity, messages) in threads {
            if put_messages(&tx, uuid, *activity, &now, messages)? {
                moved.push(uuid.clone());
            }
        }
        tx.commit()?;
        if let Some(j) = self.journal.as_mut() {
            j.upserted.extend(moved);
        }
        Ok(())
    }

    /// The cached messages of a contact and the activity they were fetched
    /// at.
    pub fn messages(&self, uuid: &str) -> Result<Option<CachedThread>, IndexError> {
        let row: Option<(Option<String>, String)> = self
            .conn
            .query_row(
                "SELECT activity, json FROM messages WHERE contact_uuid = ?1",
                [uuid],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?;
        match row {
            None => Ok(None),
            Some((activity, json)) => Ok(Some((parse_stamp(activity), serde_json::from_str(&json)?))),
        }
    }

    /// The sync state.
    pub fn sync_state(&self) -> Result<SyncState, IndexError> {
        Ok(self.conn.query_row(
            "SELECT full_walk_finished_at, walk_started_at, walk_done, walk_expected FROM sync_state WHERE id = 1",
            [],
            |r| {
                Ok(SyncState {
                    full_walk_finished_at: parse_stamp(r.get(0)?),
                    walk_started_at: parse_stamp(r.get(1)?),
                    walk_done: u64::try_from(r.get::<_, i64>(2)?).unwrap_or(0),
                    walk_expected: r.get::<_, Option<i64>>(3)?.and_then(|n| u64::try_from(n).ok()),
                })
            },
        )?)
    }

    /// Records a running walk's progress.
    pub fn set_walk_progress(
        &mut self,
        started: DateTime<Utc>,
        done: u64,
        expected: Option<u64>,
    ) -> Result<(), IndexError> {
        self.conn.execute(
            "UPDATE sync_state SET walk_started_at = ?1, walk_done = ?2, walk_expected = ?3 WHERE id = 1",
            params![
                stamp(started),
                i64::try_from(done).unwrap_or(i64::MAX),
                expected.and_then(|n| i64::try_from(n).ok())
            ],
        )?;
        Ok(())
    }

    /// Records a completed walk.
    pub fn finish_walk(&mut self, finished: DateTime<Utc>) -> Result<(), IndexError> {
        self.conn.execute(
            "UPDATE sync_state SET full_walk_finished_at = ?1, walk_started_at = NULL, walk_done = 0 WHERE id = 1",
            [stamp(finished)],
        )?;
        Ok(())
    }

    /// SQLite's own integrity check, including the search table: true when
    /// both are sound.
    pub fn is_consistent(&self) -> Result<bool, IndexError> {
        let verdict: String = self.conn.query_row("PRAGMA integrity_check", [], |r| r.get(0))?;
        let fts = self
            .conn
            .execute("INSERT INTO search (search, rank) VALUES ('integrity-check', 0)", [])
            .is_ok();
        let rows: i64 = self.conn.query_row("SELECT count(*) FROM search", [], |r| r.get(0))?;
        let contacts: i64 = self.conn.query_row("SELECT count(*) FROM contacts", [], |r| r.get(0))?;
        Ok(verdict == "ok" && fts && rows == contacts)
    }

    /// Forgets everything (the file stays, empty).
    pub fn clear(&mut self) -> Result<(), IndexError> {
        let tx = self.conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        tx.execute_batch(
            "DELETE FROM contacts; DELETE FROM messages; DELETE FROM search;
             UPDATE sync_state SET full_walk_finished_at = NULL, walk_started_at = NULL,
                 walk_done = 0, walk_expected = NULL, search_pending = 0;",
        )?;
        tx.commit()?;
        Ok(())
    }
}

/// Inserts or replaces one contact, unless the index holds a newer state
/// of it; true when it was new or changed (its search row is then the
/// caller's to rewrite: [`super::search::reindex`]).
fn upsert_one(tx: &Transaction<'_>, c: &Contact, seen: &str, state: &str) -> Result<bool, IndexError> {
    let old: Option<(String, Option<String>)> = tx
        .prepare_cached("SELECT json, state_at FROM contacts WHERE uuid = ?1")?
        .query_row([&c.uuid], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?;
    // The service sends no activity: what the index learned stays.
    let c = &*super::activity::merged(c, old.as_ref().map(|(j, _)| j.as_str()));
    let json = serde_json::to_string(c)?;
    let newer_held = old
        .as_ref()
        .and_then(|(_, at)| at.as_deref())
        .is_some_and(|at| at > state);
    if newer_held || old.as_ref().is_some_and(|(j, _)| j == &json) {
        tx.prepare_cached(
            "UPDATE contacts SET seen_at = max(seen_at, ?2),
                 state_at = CASE WHEN ?3 = json THEN max(coalesce(state_at, ''), ?4) ELSE state_at END
             WHERE uuid = ?1",
        )?
        .execute(params![c.uuid, seen, json, state])?;
        return Ok(false);
    }
    tx.prepare_cached(
        "INSERT INTO contacts (uuid, name, phone, source, assignee, team_uuid, tags, custom_fields,
             closed_at, note, activity, created_at, json, seen_at, state_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)
         ON CONFLICT (uuid) DO UPDATE SET name = ?2, phone = ?3, source = ?4, assignee = ?5,
             team_uuid = ?6, tags = ?7, custom_fields = ?8, closed_at = ?9, note = ?10,
             activity = ?11, created_at = ?12, json = ?13, seen_at = max(seen_at, ?14), state_at = ?15",
    )?
    .execute(params![
        c.uuid,
        c.name,
        c.phone_number,
        c.source,
        c.assigned_user,
        c.team_uuid(),
        serde_json::to_string(&c.tags)?,
        serde_json::to_string(&c.custom_fields)?,
        c.closed_at.map(stamp),
        c.note,
        c.last_activity().map(stamp),
        c.created_at.map(stamp),
        json,
        seen,
        state,
    ])?;
    Ok(true)
}

/// Stores a batch's contacts (as of `seen_at`) and pages, without search
/// rows; the contacts stored new or changed.
pub(super) fn put_batch<'a>(
    tx: &Transaction<'_>,
    contacts: &'a [Contact],
    threads: &[Thread],
    seen_at: DateTime<Utc>,
) -> Result<Vec<&'a Contact>, IndexError> {
    let seen = stamp(seen_at);
    let now = stamp(Utc::now());
    let mut stored = Vec::new();
    for c in contacts {
        if upsert_one(tx, c, &seen, &seen)? {
            stored.push(c);
        }
    }
    for (uuid, activity, messages) in threads {
        put_page(tx, uuid, *activity, &now, messages)?;
    }
    Ok(stored)
}

/// Keeps one contact's latest page, its last message's preview columns,
/// and its search row; true when the page moved the contact's activity.
fn put_messages(
    tx: &Transaction<'_>,
    uuid: &str,
    activity: Option<DateTime<Utc>>,
    fetched_at: &str,
    messages: &[Message],
) -> Result<bool, IndexError> {
    let moved = put_page(tx, uuid, activity, fetched_at, messages)?;
    super::search::reindex(tx, uuid)?;
    Ok(moved)
}

/// [`put_messages`] but the search row, the caller's to rewrite.
fn put_page(
    tx: &Transaction<'_>,
    uuid: &str,
    activity: Option<DateTime<Utc>>,
    fetched_at: &str,
    messages: &[Message],
) -> Result<bool, IndexError> {
    // The newest message is activity the contact's list entry never says.
    let activity = super::activity::thread_activity(activity, messages);
    let moved = match activity {
        Some(at) => super::activity::bump(tx, uuid, at)?,
        None => false,
    };
    let (status, text, at, wait) = super::preview::columns(messages);
    tx.prepare_cached(
        "INSERT INTO messages (contact_uuid, activity, fetched_at, json, last_status, last_text, last_at, wait)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
         ON CONFLICT (contact_uuid) DO UPDATE SET activity = ?2, fetched_at = ?3, json = ?4,
             last_status = ?5, last_text = ?6, last_at = ?7, wait = ?8",
    )?
    .execute(params![
        uuid,
        activity.map(stamp),
        fetched_at,
        serde_json::to_string(messages)?,
        status,
        text,
        at,
        wait
    ])?;
    Ok(moved)
}
