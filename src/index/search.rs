//! Full-text search (FTS5) over name, phone number, tags, custom field
//! values, note and cached message text.
//!
//! The search row of a contact shares the contact's rowid and is rewritten
//! whenever the contact or its cached messages change.

use rusqlite::{OptionalExtension, Transaction, params};

use super::{Index, IndexError};
use crate::api::{Contact, FieldValue, Message};

/// Column weights for bm25, in the table's column order: a hit in the name
/// counts most, one in a message least.
const RANK: &str = "bm25(search, 10.0, 8.0, 5.0, 3.0, 2.0, 1.0)";

impl Index {
    /// Contacts matching `text`, best first: every word of it must start a
    /// word somewhere in the contact (prefix matching, as one types). Any
    /// text is accepted; FTS5's own syntax in it is taken literally. An
    /// empty query matches nothing.
    pub fn search(&self, text: &str, limit: usize) -> Result<Vec<(String, f64)>, IndexError> {
        let Some(query) = fts_query(text) else {
            return Ok(Vec::new());
        };
        let sql = format!(
            "SELECT c.uuid, s.rank FROM (
                 SELECT rowid, {RANK} AS rank FROM search WHERE search MATCH ?1 ORDER BY rank LIMIT ?2
             ) s JOIN contacts c ON c.rowid = s.rowid ORDER BY s.rank"
        );
        let mut stmt = self.conn.prepare_cached(&sql)?;
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let rows = stmt.query_map(params![query, limit], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, f64>(1)?))
        })?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }
}

/// The FTS5 query for what the user typed: each run of letters and digits
/// becomes a quoted prefix term (`"word"*`), all of them required. When the
/// text looks like a phone number in pieces ("+44 7700"), the pieces joined
/// ("447700"*) are an alternative, so it also finds the digits-only form.
/// `None` when the text holds no letter or digit.
pub fn fts_query(text: &str) -> Option<String> {
    let words: Vec<&str> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
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
    tx.execute("DELETE FROM search WHERE rowid = ?1", [rowid])?;
    tx.execute(
        "INSERT INTO search (rowid, name, phone, tags, fields, note, messages) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![
            rowid,
            contact.name,
            format!("{} {}", contact.phone_number, digits(&contact.phone_number)),
            contact.tags.join(" "),
            fields.join(" "),
            contact.note.unwrap_or_default(),
            texts.join("\n"),
        ],
    )?;
    Ok(())
}
