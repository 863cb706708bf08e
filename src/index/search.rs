//! Full-text search (FTS5) over name, phone number, tags, custom field
//! values, note and cached message text.
//!
//! The search row of a contact shares the contact's rowid and is rewritten
//! whenever the contact or its cached messages change.
//!
//! Ranking: bm25 (a name hit counts most, a message hit least) when the
//! query and each of its words match a few thousand contacts at most. bm25
//! reads every contact matching any word (its term statistics alone walk
//! the whole list), so for a word found in much of the account ("refund",
//! "order", the "44" of "+44 7700 12") the order is by tiers instead:
//! name hits, then phone/tag/field/note hits, then any other; within a
//! tier the newest conversations among a bounded set of candidates. That
//! keeps one search within a frame at 100,000 contacts. A word with no hit at all is looked up among the
//! index's words within a typo or two ([`typo`]); such hits come after any
//! exact or prefix hit.

mod typo;

use std::collections::{BTreeSet, HashSet};

use rusqlite::{OptionalExtension, Transaction, params};

use super::db::Index;
use super::error::IndexError;
use crate::api::{Contact, FieldValue, Message};

/// Column weights for bm25, in the table's column order: a hit in the name
/// counts most, one in a message least.
const RANK: &str = "bm25(search, 10.0, 8.0, 5.0, 3.0, 2.0, 1.0)";

/// A search's answer: the hits, best first, and how many match in all
/// when the hits stopped at their limit (`None` when they hold every match).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Found {
    pub hits: Vec<(String, f64)>,
    pub total: Option<usize>,
}

/// Hits and the FTS5 query they answer.
type Hits = (Vec<(String, f64)>, Option<String>);

/// How many matches of a common query are ranked (by activity) per tier.
const CANDIDATES: i64 = 2_000;

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
        Ok(self.search_counted(text, limit)?.hits)
    }

    /// [`search`](Self::search), and when the answer hit `limit`, how many
    /// contacts match in all (one count over the query that answered; the
    /// hits are the same).
    pub fn search_counted(&self, text: &str, limit: usize) -> Result<Found, IndexError> {
        let (hits, query) = self.search_with_query(text, limit)?;
        let total = match query {
            Some(q) if limit > 0 && hits.len() >= limit => Some(self.count_matches(&q)?.max(hits.len())),
            _ => None,
        };
        Ok(Found { hits, total })
    }

    /// The hits, and the FTS5 query whose matches they are (`None` when
    /// nothing was searched).
    fn search_with_query(&self, text: &str, limit: usize) -> Result<Hits, IndexError> {
        let Some(query) = fts_query(text) else {
            return Ok((Vec::new(), None));
        };
        if limit == 0 {
            return Ok((Vec::new(), None));
        }
        let words = words(text);
        if words.len() > 1 && words.iter().all(|w| w.chars().all(|c| c.is_ascii_digit())) {
            // A phone number typed from its start in pieces ("+44 7700 12"):
            // the number's digits as one prefix say it best, and cheaply
            // (the pieces alone each match nearly every number).
            let joined = format!("\"{}\"*", words.concat());
            let hits = self.ranked(&joined, &[], limit)?;
            if !hits.is_empty() {
                return Ok((hits, Some(joined)));
            }
        }
        let parts: Vec<String> = if words.len() > 1 {
            words.iter().map(|w| format!("\"{w}\"*")).collect()
        } else {
            Vec::new()
        };
        let hits = self.ranked(&query, &parts, limit)?;
        if !hits.is_empty() {
            return Ok((hits, Some(query)));
        }
        // Nothing: the words that start no word of the index may be typos.
        // Nearer ones first; each level adds what it finds after the last.
        let mut out: Vec<(String, f64)> = Vec::new();
        let mut seen = HashSet::new();
        let mut levels: Vec<String> = Vec::new();
        for distance in 1..=typo::MAX_DISTANCE {
            let Some(query) = typo::query(self, &words, distance)? else {
                continue;
            };
            levels.push(format!("({query})"));
            if out.len() >= limit {
                // Full already: the level counts towards the total only.
                continue;
            }
            for (uuid, _) in self.ranked(&query, &[], limit)? {
                if out.len() < limit && seen.insert(uuid.clone()) {
                    // After every exact hit (scores of those are <= 0).
                    out.push((uuid, 1.0 + out.len() as f64));
                }
            }
        }
        // Every level's matches together: their queries joined.
        let any = (!levels.is_empty()).then(|| levels.join(" OR "));
        Ok((out, any))
    }

    /// How many contacts match an FTS5 query.
    fn count_matches(&self, query: &str) -> Result<usize, IndexError> {
        let mut stmt = self
            .conn
            .prepare_cached("SELECT count(*) FROM search WHERE search MATCH ?1")?;
        let found: i64 = stmt.query_row(params![query], |r| r.get(0))?;
        Ok(usize::try_from(found).unwrap_or(0))
    }

    /// The contacts matching an FTS5 query, best first. bm25 walks every
    /// contact matching any of its words, so it is used only when neither
    /// the query nor any of its `parts` (its words, when several) matches
    /// more than [`BM25_MAX`] contacts.
    fn ranked(&self, query: &str, parts: &[String], limit: usize) -> Result<Vec<(String, f64)>, IndexError> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let mut common = self.matches_more_than(query, BM25_MAX)?;
        for part in parts {
            if common {
                break;
            }
            common = self.matches_more_than(part, BM25_MAX)?;
        }
        if common {
            self.by_tiers(query, digits_only(parts), limit)
        } else {
            self.by_bm25(query, limit)
        }
    }

    /// Whether more than `n` contacts match: a walk of `n + 1` matches at
    /// most.
    fn matches_more_than(&self, query: &str, n: i64) -> Result<bool, IndexError> {
        let mut stmt = self
            .conn
            .prepare_cached("SELECT count(*) FROM (SELECT rowid FROM search WHERE search MATCH ?1 LIMIT ?2)")?;
        let found: i64 = stmt.query_row(params![query, n.saturating_add(1)], |r| r.get(0))?;
        Ok(found > n)
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

    /// A query matching much of the account: name hits, then phone, tag,
    /// field and note hits, then any other match; each tier newest first
    /// among the first [`CANDIDATES`] of its matches the search table
    /// yields (a bounded set, never every match).
    fn by_tiers(&self, query: &str, phone_like: bool, limit: i64) -> Result<Vec<(String, f64)>, IndexError> {
        let want = usize::try_from(limit).unwrap_or(usize::MAX);
        let mut order: Vec<String> = Vec::new();
        let mut seen = HashSet::new();
        // Digits only ("+44 7700 12"): a phone number first, then the rest.
        let tiers: &[&str] = if phone_like {
            &["{phone} : ", ""]
        } else {
            &["{name} : ", "{phone tags fields note} : ", ""]
        };
        for columns in tiers {
            if order.len() >= want {
                break;
            }
            let tier = if columns.is_empty() {
                query.to_string()
            } else {
                format!("{columns}({query})")
            };
            for u in self.newest_of_first_matches(&tier, limit)? {
                if order.len() < want && seen.insert(u.clone()) {
                    order.push(u);
                }
            }
        }
        let n = order.len() as f64;
        Ok(order.into_iter().enumerate().map(|(i, u)| (u, i as f64 - n)).collect())
    }

    /// The newest `limit` contacts among the first [`CANDIDATES`] that
    /// match `query` in the search table's order.
    fn newest_of_first_matches(&self, query: &str, limit: i64) -> Result<Vec<String>, IndexError> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT c.uuid FROM (SELECT rowid FROM search WHERE search MATCH ?1 LIMIT ?2) s
             JOIN contacts c ON c.rowid = s.rowid ORDER BY c.activity DESC, c.uuid DESC LIMIT ?3",
        )?;
        let rows = stmt.query_map(params![query, CANDIDATES.max(limit), limit], |r| r.get::<_, String>(0))?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }
}

/// Whether a query's words are all digits (a phone number in pieces).
fn digits_only(parts: &[String]) -> bool {
    !parts.is_empty() && parts.iter().all(|p| !p.chars().any(char::is_alphabetic))
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
        .prepare_cached("SELECT rowid, json FROM contacts WHERE uuid = ?1")?
        .query_row([uuid], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?;
    let Some((rowid, json)) = row else {
        return Ok(());
    };
    let messages: Option<String> = tx
        .prepare_cached("SELECT json FROM messages WHERE contact_uuid = ?1")?
        .query_row([uuid], |r| r.get(0))
        .optional()?;
    let row = Row::of(&json, messages.as_deref())?;
    let mut words = BTreeSet::new();
    row.words(&mut words);
    typo::remember(tx, words)?;
    tx.prepare_cached("DELETE FROM search WHERE rowid = ?1")?
        .execute([rowid])?;
    row.insert(tx, rowid)
}

/// A contact's search row: its columns' text.
pub(super) struct Row {
    name: String,
    phone: String,
    tags: String,
    fields: String,
    note: String,
    messages: String,
}

impl Row {
    /// The row of a contact stored as `json`, with its cached page's
    /// `messages` (JSON) when it has one.
    pub(super) fn of(json: &str, messages: Option<&str>) -> Result<Row, IndexError> {
        let contact: Contact = serde_json::from_str(json)?;
        let messages: Vec<Message> = match messages {
            Some(m) => serde_json::from_str(m)?,
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
        Ok(Row {
            phone: format!("{} {}", contact.phone_number, digits(&contact.phone_number)),
            name: contact.name,
            tags: contact.tags.join(" "),
            fields: fields.join(" "),
            note: contact.note.unwrap_or_default(),
            messages: texts.join("\n"),
        })
    }

    /// Adds the row's words for typo lookups to `words`.
    pub(super) fn words(&self, words: &mut BTreeSet<String>) {
        typo::words_of(
            &[&self.name, &self.tags, &self.fields, &self.note, &self.messages],
            words,
        );
    }

    /// Inserts the row at `rowid` (which holds none).
    pub(super) fn insert(&self, tx: &Transaction<'_>, rowid: i64) -> Result<(), IndexError> {
        tx.prepare_cached(
            "INSERT INTO search (rowid, name, phone, tags, fields, note, messages) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        )?
        .execute(params![
            rowid,
            self.name,
            self.phone,
            self.tags,
            self.fields,
            self.note,
            self.messages,
        ])?;
        Ok(())
    }
}

/// Keeps `words` for typo lookups (see [`typo`]).
pub(super) fn remember(tx: &Transaction<'_>, words: BTreeSet<String>) -> Result<(), IndexError> {
    typo::remember(tx, words)
}
