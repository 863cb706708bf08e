//! A conversation's activity, learned rather than read: the service sends
//! no `lastMessageAt`, so the index keeps the newest of what frontdesk
//! knows (`Contact::activity_at`): the newest message of a page it
//! fetched, a webhook's `createdAt` (through a hub), its own sends, and the
//! list's order (the service lists the most recent conversation first, so
//! a contact listed above one whose activity is known has activity at
//! least as new: it is given that activity plus a microsecond, which keeps
//! the index's order the service's). A contact read from the service
//! carries none: storing it keeps what the index held.

use std::borrow::Cow;

use chrono::{DateTime, Utc};
use rusqlite::{OptionalExtension, Transaction, TransactionBehavior, params};
use serde::Deserialize;

use super::db::Index;
use super::error::IndexError;
use super::stamps::stamp;
use crate::api::{Contact, Message, time};

#[derive(Deserialize)]
struct Held {
    #[serde(rename = "activityAt", default, with = "time::opt")]
    activity_at: Option<DateTime<Utc>>,
    /// Present (a date or `null`) when the held contact's state is known.
    #[serde(rename = "closedAt", default, deserialize_with = "known_state")]
    closed_at: Option<Option<DateTime<Utc>>>,
}

/// A present `closedAt` (a date, or `null`: open) as `Some`.
fn known_state<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Option<DateTime<Utc>>>, D::Error> {
    time::opt::deserialize(d).map(Some)
}

/// The activity a stored contact's JSON holds.
pub(super) fn held_activity(json: &str) -> Option<DateTime<Utc>> {
    serde_json::from_str::<Held>(json).ok().and_then(|h| h.activity_at)
}

/// `c` with the activity the index held for it, when that is newer than
/// what `c` carries, and with the held open or closed state when `c`'s is
/// unknown (a listed contact: the list answer carries no `closedAt`).
pub(super) fn merged<'a>(c: &'a Contact, held_json: Option<&str>) -> Cow<'a, Contact> {
    let held = held_json.and_then(|j| serde_json::from_str::<Held>(j).ok());
    let mut out = Cow::Borrowed(c);
    if let Some(h) = held.as_ref().and_then(|h| h.activity_at)
        && c.activity_at.is_none_or(|a| a < h)
    {
        out.to_mut().activity_at = Some(h);
    }
    if c.state_unknown
        && let Some(closed_at) = held.and_then(|h| h.closed_at)
    {
        out.to_mut().set_closed_at(closed_at);
    }
    out
}

/// What the list's order tells of a contact listed above one whose activity
/// is `below`: at least as new; a microsecond newer, so that the index's
/// order (by activity) stays the service's.
fn just_above(below: DateTime<Utc>) -> DateTime<Utc> {
    below + chrono::Duration::microseconds(1)
}

/// What a contact's activity tells of the list's order as it was at
/// `listed`: nothing when it was learned after.
fn as_listed(activity: Option<DateTime<Utc>>, listed: DateTime<Utc>) -> Option<DateTime<Utc>> {
    activity.filter(|a| *a <= listed)
}

/// The activity of a thread: `activity` (what the contact had when it was
/// fetched) or its newest message, whichever is newer.
pub fn thread_activity(activity: Option<DateTime<Utc>>, messages: &[Message]) -> Option<DateTime<Utc>> {
    messages.iter().filter_map(|m| m.created_at).chain(activity).max()
}

/// Raises the stored contact's activity to `at`; true when it moved.
pub(super) fn bump(tx: &Transaction<'_>, uuid: &str, at: DateTime<Utc>) -> Result<bool, IndexError> {
    let json: Option<String> = tx
        .prepare_cached("SELECT json FROM contacts WHERE uuid = ?1")?
        .query_row([uuid], |r| r.get(0))
        .optional()?;
    let Some(json) = json else { return Ok(false) };
    let mut c: Contact = serde_json::from_str(&json)?;
    let before = c.last_activity();
    if !c.saw_activity(at) {
        return Ok(false);
    }
    let after = c.last_activity();
    tx.prepare_cached("UPDATE contacts SET json = ?2, activity = ?3 WHERE uuid = ?1")?
        .execute(params![uuid, serde_json::to_string(&c)?, after.map(stamp)])?;
    Ok(after != before)
}

impl Index {
    /// Notes activity in `uuid`'s conversation at `at` (a webhook, a send
    /// of frontdesk's own); true when it was newer than what was known.
    pub fn note_activity(&mut self, uuid: &str, at: DateTime<Utc>) -> Result<bool, IndexError> {
        let tx = self.conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let moved = bump(&tx, uuid, at)?;
        tx.commit()?;
        if moved && let Some(j) = self.journal.as_mut() {
            j.upserted.push(uuid.to_string());
        }
        Ok(moved)
    }

    /// Stores one page of GET /contacts (see [`Index::upsert_states`]),
    /// first raising each contact's activity to the newest activity known
    /// of any contact listed below it on the page: the service lists the
    /// most recent conversation first. Returns how many were new or changed.
    pub fn upsert_listed(
        &mut self,
        page: &[Contact],
        seen_at: DateTime<Utc>,
        state_at: DateTime<Utc>,
    ) -> Result<usize, IndexError> {
        let ordered = self.known_activity(page, state_at)?;
        self.upsert_states(&ordered, seen_at, state_at)
    }

    /// Raises each contact's activity, `order` being the whole list in the
    /// service's order (a finished walk's, begun at `listed`), to the
    /// newest activity of any contact listed below it. Activity learned
    /// after `listed` (a webhook, a send during the walk) is no part of the
    /// order the walk saw, and lifts nothing: a colleague's reply in the
    /// first seconds of a hub's first walk once lifted the 125 contacts
    /// the walk had listed above that conversation to just after the
    /// reply, each of them then reading as active and its last message as
    /// stale. Returns how many moved.
    pub fn settle_order(&mut self, order: &[String], listed: DateTime<Utc>) -> Result<usize, IndexError> {
        let tx = self.conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let mut floor: Option<DateTime<Utc>> = None;
        let mut moved = Vec::new();
        for uuid in order.iter().rev() {
            let json: Option<String> = tx
                .prepare_cached("SELECT json FROM contacts WHERE uuid = ?1")?
                .query_row([uuid], |r| r.get(0))
                .optional()?;
            let Some(json) = json else { continue };
            let c: Contact = serde_json::from_str(&json)?;
            // Strictly older only, as in `known_activity`.
            match floor {
                Some(f) if c.last_activity().is_none_or(|a| a < f) => {
                    let above = just_above(f);
                    if bump(&tx, uuid, above)? {
                        moved.push(uuid.clone());
                    }
                    floor = Some(above);
                }
                _ => floor = floor.max(as_listed(c.last_activity(), listed)),
            }
        }
        tx.commit()?;
        let n = moved.len();
        if let Some(j) = self.journal.as_mut() {
            j.upserted.extend(moved);
        }
        Ok(n)
    }

    /// Every contact's uuid and activity, newest first (the order of
    /// [`Index::list`] with `Order::Activity`): the list's order as the
    /// index last learned it.
    pub fn order_by_activity(&self) -> Result<Vec<super::preview::Wanted>, IndexError> {
        let mut stmt = self
            .conn
            .prepare_cached("SELECT uuid, activity FROM contacts ORDER BY activity DESC, uuid DESC")?;
        let rows = stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, Option<String>>(1)?)))?;
        let mut out = Vec::new();
        for row in rows {
            let (uuid, at) = row?;
            out.push((uuid, super::stamps::parse_stamp(at)));
        }
        Ok(out)
    }

    /// `page` (one page of GET /contacts, in the service's order, asked
    /// for at `listed`) with the activity the index learned of each
    /// contact, raised to the newest activity (as of `listed`) of any
    /// contact listed below it on the page.
    pub fn known_activity(&self, page: &[Contact], listed: DateTime<Utc>) -> Result<Vec<Contact>, IndexError> {
        let mut out = page.to_vec();
        let mut floor: Option<DateTime<Utc>> = None;
        let mut stmt = self.conn.prepare_cached("SELECT json FROM contacts WHERE uuid = ?1")?;
        for c in out.iter_mut().rev() {
            let held: Option<String> = stmt.query_row([&c.uuid], |r| r.get(0)).optional()?;
            if let Some(h) = held.as_deref().and_then(held_activity) {
                c.saw_activity(h);
            }
            // Strictly older only: two conversations active in the same
            // instant may be listed either way, and a microsecond added to
            // a tie made the last message known at that instant read as
            // stale (a TUI's Open and Waiting a conversation short).
            if let Some(f) = floor
                && c.last_activity().is_none_or(|a| a < f)
            {
                c.activity_at = Some(just_above(f));
            }
            floor = floor.max(as_listed(c.last_activity(), listed));
        }
        Ok(out)
    }
}
