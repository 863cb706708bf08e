//! Typo tolerance: a query word that starts no word of the index is
//! matched to the index's words within a small edit distance (optimal
//! string alignment: a swap of two neighbours counts one), so "lovelaec"
//! finds Lovelace and "refnud" finds refund.
//!
//! The words come from `search_terms`, filled as contacts and messages are
//! indexed (letters and digits split as the search table splits them,
//! lower-cased; words of 3 to 40 characters with a letter). A word is never
//! taken out again while contacts remain: a stale one only makes a
//! candidate that matches nothing.

use std::collections::BTreeSet;

use rusqlite::{OptionalExtension, Transaction, params};

use super::super::db::Index;
use super::super::error::IndexError;

/// The largest edit distance tried.
pub const MAX_DISTANCE: usize = 2;

/// Near words tried per query word and distance.
const CANDIDATES: usize = 12;

/// How far a word of `len` characters may be from a match: none below 4
/// characters (too many near neighbours), one up to 6, two beyond.
fn allowed(len: usize) -> usize {
    match len {
        0..=3 => 0,
        4..=6 => 1,
        _ => MAX_DISTANCE,
    }
}

/// Adds the words of `texts` worth keeping for typo lookups to `words`.
pub(super) fn words_of(texts: &[&str], words: &mut BTreeSet<String>) {
    for text in texts {
        for w in text.split(|c: char| !c.is_alphanumeric()) {
            let n = w.chars().count();
            if (3..=40).contains(&n) && w.chars().any(char::is_alphabetic) {
                words.insert(w.to_lowercase());
            }
        }
    }
}

/// Keeps `words` (from [`words_of`]) for later typo lookups.
pub(super) fn remember(tx: &Transaction<'_>, words: BTreeSet<String>) -> Result<(), IndexError> {
    let mut stmt = tx.prepare_cached("INSERT OR IGNORE INTO search_terms (term) VALUES (?1)")?;
    for w in words {
        stmt.execute([w])?;
    }
    Ok(())
}

/// The FTS5 query for `words` where each word that starts no word of the
/// index is replaced by the index's words at most `distance` edits from it
/// (or from their start plus one, for a word still being typed). `None` when no
/// word was replaced, or one that starts nothing has no near word either.
pub(super) fn query(index: &Index, words: &[&str], distance: usize) -> Result<Option<String>, IndexError> {
    let mut parts = Vec::with_capacity(words.len());
    let mut replaced = false;
    for word in words {
        let prefix = format!("\"{word}\"*");
        if starts_something(index, &prefix)? {
            parts.push(prefix);
            continue;
        }
        let word = word.to_lowercase();
        let limit = allowed(word.chars().count()).min(distance);
        if limit == 0 {
            return Ok(None);
        }
        let near = near_words(index, &word, limit)?;
        if near.is_empty() {
            return Ok(None);
        }
        let alternatives: Vec<String> = near.iter().map(|t| format!("\"{}\"", t.replace('"', "\"\""))).collect();
        parts.push(format!("({})", alternatives.join(" OR ")));
        replaced = true;
    }
    Ok(replaced.then(|| parts.join(" AND ")))
}

fn starts_something(index: &Index, fts: &str) -> Result<bool, IndexError> {
    let mut stmt = index
        .conn
        .prepare_cached("SELECT 1 FROM search WHERE search MATCH ?1 LIMIT 1")?;
    Ok(stmt.query_row([fts], |_| Ok(())).optional()?.is_some())
}

/// The index's words sharing `word`'s first letter within `limit` edits of
/// it (whole, or cut to its length plus one edit), nearest first.
fn near_words(index: &Index, word: &str, limit: usize) -> Result<Vec<String>, IndexError> {
    let Some(first) = word.chars().next() else {
        return Ok(Vec::new());
    };
    let Some(after) = char::from_u32(u32::from(first) + 1) else {
        return Ok(Vec::new());
    };
    let len = word.chars().count();
    let shortest = i64::try_from(len.saturating_sub(limit)).unwrap_or(0);
    let mut stmt = index
        .conn
        .prepare_cached("SELECT term FROM search_terms WHERE term >= ?1 AND term < ?2 AND length(term) >= ?3")?;
    let rows = stmt.query_map(params![first.to_string(), after.to_string(), shortest], |r| {
        r.get::<_, String>(0)
    })?;
    let mut near: Vec<(usize, String)> = Vec::new();
    for term in rows {
        let term = term?;
        let whole = strsim::osa_distance(word, &term);
        let start: String = term.chars().take(len).collect();
        // A word still being typed matches the start of a longer one, at
        // one more edit than the whole word would.
        let d = whole.min(strsim::osa_distance(word, &start) + 1);
        if d <= limit {
            near.push((d, term));
        }
    }
    near.sort();
    near.truncate(CANDIDATES);
    Ok(near.into_iter().map(|(_, t)| t).collect())
}
