//! Opaque keyset cursors. A cursor names the last row a batch returned by its
//! sort key and id, plus the highest id that existed when the walk began, so
//! rows created during a walk stay out of it. Filters are never stored: the
//! client resends them.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

/// Position after which the next batch starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cursor {
    /// Sort key of the last row returned (milliseconds since the epoch).
    pub key: i64,
    /// Row id of the last row returned (tie-break).
    pub id: i64,
    /// Highest row id visible to this walk.
    pub max_id: i64,
}

const PREFIX: &str = "fd1";

impl Cursor {
    pub fn encode(&self) -> String {
        URL_SAFE_NO_PAD.encode(format!("{PREFIX}:{}:{}:{}", self.key, self.id, self.max_id))
    }

    /// `None` for anything that is not a cursor this server wrote.
    pub fn decode(s: &str) -> Option<Cursor> {
        if s.is_empty() || s.len() > 200 {
            return None;
        }
        let raw = URL_SAFE_NO_PAD.decode(s.trim_end_matches('=')).ok()?;
        let text = String::from_utf8(raw).ok()?;
        let mut parts = text.split(':');
        if parts.next()? != PREFIX {
            return None;
        }
        let key = parts.next()?.parse().ok()?;
        let id: i64 = parts.next()?.parse().ok()?;
        let max_id: i64 = parts.next()?.parse().ok()?;
        if parts.next().is_some() || id < 0 || max_id < 0 {
            return None;
        }
        Some(Cursor { key, id, max_id })
    }
}

#[cfg(test)]
mod tests;
