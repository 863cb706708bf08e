//! Full-text search (FTS5) over name, phone number, tags, custom field
//! values, note and cached message text.
//!
//! The search row of a contact shares the contact's rowid and is rewritten
//! whenever the contact or its cached messages change.
//!
//! Ranking: bm25 (a name hit counts most, a message hit least) when the
//! query matches a few thousand contacts at most. bm25 reads every match
//! (its term statistics alone walk the whole list), so for a word found in
//! much of the account ("refund", "order") the order is by tiers instead:
//! name hits, then phone/tag/field/note hits, then the newest
//! conversations that match. That keeps one search within a frame at
//! 100,000 contacts. A word with no hit at all is looked up among the
//! index's words within a typo or two ([`typo`]); such hits come after any
//! exact or prefix hit.

mod typo;

use std::collections::HashSet;

use rusqlite::{OptionalExtension, Transaction, params};

use super::{Index, IndexError};
use crate::api::{Contact, FieldValue, Message};

/// Column weights for bm25, in the table's column order: a hit in the name
/// counts most, one in a message least.
const RANK: &str = "bm25(search, 10.0, 8.0, 5.0, 3.0, 2.0, 1.0)";

/// How many of the newest contacts the density probe looks at.
const PROBE: i64 = 400;

/// Matches beyond which bm25 is not used (about 1 µs each).
const BM25_MAX: i64 = 6_000;

impl Index {
    /// Contacts matching `text`, best first, with a score (lower is better;
    /// comparable within one answer only): every word of it must start a
    /// word somewhere in the contact (prefix matching, as one types), or,
    /// when a word starts none, be within a typo or two of one. Any text is
    /// accepted; FTS5's own syntax in it is taken literally. An empty query
    /// matches nothing.
    pub fn search(&self, text: &str, limit: usize) -> Result<Vec<(String, f64)>, IndexError> {
        let Some(query) = fts_query(text) else {
            return Ok(Vec::new());
        };
        if limit == 0 {
            return Ok(Vec::new());
        }
        let hits = self.ranked(&query, limit)?;
        if !hits.is_empty() {
            return Ok(hits);
        }
        // Nothing: the words that start no word of the index may be typos.
        // Nearer ones first; each level adds what it finds after the last.
        let words = words(text);
        let mut out: Vec<(String, f64)> = Vec::new();
        let mut seen = HashSet::new();
        for distance in 1..=typo::MAX_DISTANCE {
            let Some(query) = typo::query(self, &words, distance)? else {
                continue;
            };
            for (uuid, _) in self.ranked(&query, limit)? {
                if out.len() < limit && seen.insert(uuid.clone()) {
                    // After every exact hit (scores of those are <= 0).
                    out.push((uuid, 1.0 + out.len() as f64));
                }
            }
            if out.len() >= limit {
                break;
            }
        }
        Ok(out)
    }

    /// The contacts matching an FTS5 query, best first.
    fn ranked(&self, query: &str, limit: usize) -> Result<Vec<(String, f64)>, IndexError> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let newest = self.newest_matching(query)?;
        // Rowids are never reused below the largest: an upper bound of the
        // contacts held, read from the end of the table.
        let held: i64 = self
            .conn
            .query_row("SELECT coalesce(max(rowid), 0) FROM contacts", [], |r| r.get(0))?;
        let estimate = held.saturating_mul(newest.len() as i64) / PROBE.min(held).max(1);
        if estimate <= BM25_MAX {
            return self.by_bm25(query, limit);
        }
        self.by_tiers(query, newest, limit)
    }

    fn by_bm25(&self, query: &str, limit: i64) -> Result<Vec<(String, f64)>, IndexError> {
        let sql = format!(
            "SELECT c.uuid, s.rank FROM (
                 SELECT rowid, {RANK} AS rank FROM search WHERE search MATCH ?1 ORDER BY rank LIMIT ?2
             ) s JOIN contacts c ON c.rowid = s.rowid ORDER BY s.rank"
        );
        let mut stmt = self.conn.prepare_cached(&sql)?;
        let rows = stmt.query_map(params![query, limit], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, f64>(1)?))
        })?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    /// The uuids of the newest [`PROBE`] contacts that match, newest first:
    /// one lookup each in the search table, never a walk of every match.
    fn newest_matching(&self, query: &str) -> Result<Vec<String>, IndexError> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT n.uuid FROM (
                 SELECT rowid, uuid, activity FROM contacts ORDER BY activity DESC, uuid DESC LIMIT ?2
             ) n CROSS JOIN search s ON s.rowid = n.rowid
             WHERE s.search MATCH ?1 ORDER BY n.activity DESC, n.uuid DESC",
        )?;
        let rows = stmt.query_map(params![query, PROBE], |r| r.get::<_, String>(0))?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    /// A query matching much of the account: name hits, then phone, tag,
    /// field and note hits (each tier newest first), then the newest
    /// matching conversations, then any other match.
    fn by_tiers(&self, query: &str, newest: Vec<String>, limit: i64) -> Result<Vec<(String, f64)>, IndexError> {
        let want = usize::try_from(limit).unwrap_or(usize::MAX);
        let mut order: Vec<String> = Vec::new();
        let mut seen = HashSet::new();
        let mut add = |uuids: Vec<String>, order: &mut Vec<String>| {
            for u in uuids {
                if order.len() < want && seen.insert(u.clone()) {
                    order.push(u);
                }
            }
        };
        for columns in ["{name}", "{phone tags fields note}"] {
            let tier = format!("{columns} : ({query})");
            add(self.some_matching(&tier, limit, true)?, &mut order);
        }
        add(newest, &mut order);
        if order.len() < want {
            let more = limit.saturating_add(i64::try_from(order.len()).unwrap_or(0));
            add(self.some_matching(query, more, false)?, &mut order);
        }
        let n = order.len() as f64;
        Ok(order.into_iter().enumerate().map(|(i, u)| (u, i as f64 - n)).collect())
    }

    /// Up to `limit` contacts matching `query`, in the search table's order
    /// (the first met), or sorted newest first.
    fn some_matching(&self, query: &str, limit: i64, newest_first: bool) -> Result<Vec<String>, IndexError> {
        let sql = format!(
            "SELECT c.uuid FROM (SELECT rowid FROM search WHERE search MATCH ?1 LIMIT ?2) s
             JOIN contacts c ON c.rowid = s.rowid{}",
            if newest_first {
                " ORDER BY c.activity DESC, c.uuid DESC"
            } else {
                ""
            }
        );
        let mut stmt = self.conn.prepare_cached(&sql)?;
        let rows = stmt.query_map(params![query, limit], |r| r.get::<_, String>(0))?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }
}

/// The runs of letters and digits of what the user typed.
fn words(text: &str) -> Vec<&str> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect()
}

/// The FTS5 query for what the user typed: each run of letters and digits
/// becomes a quoted prefix term (`"word"*`), all of them required. When the
/// text looks like a phone number in pieces ("+44 7700"), the pieces joined
/// ("447700"*) are an alternative, so it also finds the digits-only form.
/// `None` when the text holds no letter or digit.
pub fn fts_query(text: &str) -> Option<String> {
    let words = words(text);
    if words.is_empty() {
        return None;
    }
    let all: Vec<String> = words.iter().map(|w| format!("\"{w}\"*")).collect();
    let all = all.join(" AND ");
    let phone_like = words.len() > 1 && words.iter().all(|w| w.chars().all(|c| c.is_ascii_digit()));
    if phone_like {
        Some(format!("({all}) OR \"{}\"*", words.concat()))
    } else {
        Some(all)
    }
}

/// The digits of a phone number, joined.
fn digits(phone: &str) -> String {
    phone.chars().filter(char::is_ascii_digit).collect()
}

/// Rewrites the search row of contact `uuid` from what the index holds.
pub(super) fn reindex(tx: &Transaction<'_>, uuid: &str) -> Result<(), IndexError> {
    let row: Option<(i64, String)> = tx
        .query_row("SELECT rowid, json FROM contacts WHERE uuid = ?1", [uuid], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .optional()?;
    let Some((rowid, json)) = row else {
        return Ok(());
    };
    let contact: Contact = serde_json::from_str(&json)?;
    let messages: Option<String> = tx
        .query_row("SELECT json FROM messages WHERE contact_uuid = ?1", [uuid], |r| {
            r.get(0)
        })
        .optional()?;
    let messages: Vec<Message> = match messages {
        Some(m) => serde_json::from_str(&m)?,
        None => Vec::new(),
    };
    let fields: Vec<String> = contact
        .custom_fields
        .values()
        .map(|v| match v {
            FieldValue::Text(s) => s.clone(),
            FieldValue::List(items) => items.join(" "),
        })
        .collect();
    let texts: Vec<&str> = messages.iter().map(|m| m.text.as_str()).collect();
    let note = contact.note.unwrap_or_default();
    let tags = contact.tags.join(" ");
    let fields = fields.join(" ");
    let texts = texts.join("\n");
    typo::remember(tx, &[&contact.name, &tags, &fields, &note, &texts])?;
    tx.execute("DELETE FROM search WHERE rowid = ?1", [rowid])?;
    tx.execute(
        "INSERT INTO search (rowid, name, phone, tags, fields, note, messages) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![
            rowid,
            contact.name,
            format!("{} {}", contact.phone_number, digits(&contact.phone_number)),
            tags,
            fields,
            note,
            texts,
        ],
    )?;
    Ok(())
}
