//! The last message of each conversation whose latest page is cached: who
//! wrote it, its first line and when, for the list's previews and the
//! waiting time. Kept beside the cached page (`messages.last_*`), with the
//! contact's activity when it was fetched: a contact whose activity has
//! moved since is stale and fetched again.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use rusqlite::params;

use super::db::Index;
use super::error::IndexError;
use super::stamps::{parse_stamp, stamp};
use crate::api::Message;

mod wait;
mod who;
pub use wait::{AUTOMATIC, Author, Behind, Said, Wait, Waiting, authors, waiting};
pub use who::Who;

/// A contact's uuid and its activity now: a conversation whose last
/// message is wanted.
pub type Wanted = (String, Option<DateTime<Utc>>);

/// What the list shows of a conversation's last message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Preview {
    /// `None`: the conversation has no message (or one of an unknown kind).
    pub who: Option<Who>,
    /// The message's first line (empty without a message).
    pub text: String,
    /// When it was written.
    pub at: Option<DateTime<Utc>>,
    /// The contact's activity when the page was fetched.
    pub activity: Option<DateTime<Utc>>,
    /// What the page says about waiting (see [`waiting`]).
    pub wait: Wait,
}

impl Preview {
    /// The preview of a page of messages (any order).
    pub fn of(messages: &[Message], activity: Option<DateTime<Utc>>) -> Preview {
        let last = messages.iter().enumerate().max_by(|(i, a), (j, b)| {
            // The newest; among equal stamps the one listed first (pages
            // come newest first).
            a.created_at.cmp(&b.created_at).then(j.cmp(i))
        });
        match last {
            None => Preview {
                who: None,
                text: String::new(),
                at: None,
                activity,
                wait: Wait::Answered,
            },
            Some((_, m)) => Preview {
                who: Who::of(&m.status),
                text: first_line(&m.text),
                at: m.created_at,
                activity,
                wait: Wait::of(messages),
            },
        }
    }

    /// True when the customer waits for a person's answer (see [`waiting`]).
    pub fn waiting(&self) -> bool {
        self.waiting_now().is_some()
    }

    /// Whether and since when the customer waits (see [`waiting`]).
    pub fn waiting_now(&self) -> Option<Waiting> {
        waiting(self.wait, self.who, self.at)
    }
}

/// The first non-blank line, at most 120 characters (wider than any list
/// column; 100,000 of them stay small).
fn first_line(text: &str) -> String {
    let line = text.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("");
    line.chars().take(120).collect()
}

/// The columns `store_messages` writes beside a page: the last message's
/// status, first line and time, and the page's [`Wait`].
pub(super) fn columns(messages: &[Message]) -> Columns {
    let p = Preview::of(messages, None);
    let status = messages
        .iter()
        .filter(|m| m.created_at == p.at)
        .map(|m| m.status.to_string())
        .next();
    if messages.is_empty() {
        return (None, None, None, p.wait.stored());
    }
    (status, Some(p.text), p.at.map(stamp), p.wait.stored())
}

/// What [`columns`] gives.
pub(super) type Columns = (Option<String>, Option<String>, Option<String>, Option<String>);

/// The columns [`row`] reads, after the contact's uuid.
const COLUMNS: &str = "activity, last_status, last_text, last_at, wait";

fn row(r: &rusqlite::Row<'_>, first: usize) -> rusqlite::Result<Preview> {
    let status: Option<String> = r.get(first + 1)?;
    let wait: Option<String> = r.get(first + 4)?;
    Ok(Preview {
        who: status.as_deref().and_then(Who::from_stored),
        text: r.get::<_, Option<String>>(first + 2)?.unwrap_or_default(),
        at: parse_stamp(r.get(first + 3)?),
        activity: parse_stamp(r.get(first)?),
        wait: Wait::from_stored(wait.as_deref()),
    })
}

impl Index {
    /// The previews of the contacts in `uuids` that have a cached page.
    pub fn previews(&self, uuids: &[&str]) -> Result<HashMap<String, Preview>, IndexError> {
        let mut stmt = self
            .conn
            .prepare_cached(&format!("SELECT {COLUMNS} FROM messages WHERE contact_uuid = ?1"))?;
        let mut out = HashMap::new();
        for uuid in uuids {
            let mut rows = stmt.query([uuid])?;
            if let Some(r) = rows.next()? {
                out.insert(uuid.to_string(), row(r, 0)?);
            }
        }
        Ok(out)
    }

    /// Every cached preview (for the list at start).
    pub fn all_previews(&self) -> Result<Vec<(String, Preview)>, IndexError> {
        let mut stmt = self
            .conn
            .prepare_cached(&format!("SELECT contact_uuid, {COLUMNS} FROM messages"))?;
        let rows = stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, row(r, 1)?)))?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    /// Up to `limit` open conversations, newest first, whose last message
    /// is not cached or was fetched before the contact's latest activity:
    /// their uuid and current activity.
    pub fn stale_previews(&self, limit: usize) -> Result<Vec<Wanted>, IndexError> {
        self.stale_previews_after(None, limit)
    }

    /// [`Index::stale_previews`] from just past `after` (a contact and its
    /// activity, as an earlier call returned it) down, in the same order.
    /// A scan from the top walks every fresh conversation above the stale
    /// ones (200 ms with 50,000 fresh); from a cursor it starts where the
    /// last one stopped (0.1 ms). A contact with no activity sorts last and
    /// is reached only from the top.
    pub fn stale_previews_after(&self, after: Option<&Wanted>, limit: usize) -> Result<Vec<Wanted>, IndexError> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let map = |r: &rusqlite::Row<'_>| Ok((r.get::<_, String>(0)?, parse_stamp(r.get(1)?)));
        let rows = match after {
            None => {
                let mut stmt = self.conn.prepare_cached(
                    "SELECT c.uuid, c.activity FROM contacts c LEFT JOIN messages m ON m.contact_uuid = c.uuid
                     WHERE c.closed_at IS NULL AND (m.contact_uuid IS NULL OR m.activity IS NOT c.activity)
                     ORDER BY c.activity DESC, c.uuid DESC LIMIT ?1",
                )?;
                stmt.query_map(params![limit], map)?.collect::<Result<Vec<_>, _>>()?
            }
            Some((_, None)) => Vec::new(),
            Some((uuid, Some(activity))) => {
                let mut stmt = self.conn.prepare_cached(
                    "SELECT c.uuid, c.activity FROM contacts c LEFT JOIN messages m ON m.contact_uuid = c.uuid
                     WHERE c.closed_at IS NULL AND (m.contact_uuid IS NULL OR m.activity IS NOT c.activity)
                       AND c.activity <= ?1 AND NOT (c.activity = ?1 AND c.uuid >= ?2)
                     ORDER BY c.activity DESC, c.uuid DESC LIMIT ?3",
                )?;
                stmt.query_map(params![stamp(*activity), uuid, limit], map)?
                    .collect::<Result<Vec<_>, _>>()?
            }
        };
        Ok(rows)
    }
}
