//! What a message's webhook carried that the REST message list does not:
//! attachments, location, contact card, buttons, list, quoted reply,
//! forward (the documentation's `message_created` fields). The hub keeps
//! them from each `message_created` and puts them back on the message
//! when an agent lists the contact's messages through it.
//!
//! The webhook has no message uuid, so a listed message is matched by
//! contact, status, text and `createdAt` (within [`SLACK`]); the nearest
//! one not matched yet takes the fields. Kept for [`KEEP`].

use chrono::{DateTime, Utc};
use rusqlite::params;
use serde_json::{Map, Value};

use super::error::HubError;
use super::store::Store;

/// The documented fields kept (`messageContext` is read as the
/// documentation's `mesageContext`).
const FIELDS: [&str; 8] = [
    "attachments",
    "messageLocation",
    "messageContactCard",
    "messageReplyButton",
    "messageInteractiveList",
    "mesageContext",
    "messageContext",
    "messageForward",
];

/// How far a listed message's `createdAt` may be from the webhook's.
const SLACK_MS: i64 = 2_000;

/// Fields older than this are forgotten.
const KEEP_DAYS: i64 = 365;

const TABLE: &str = "CREATE TABLE IF NOT EXISTS rich_messages (
    id INTEGER PRIMARY KEY,
    contact TEXT NOT NULL,
    at INTEGER NOT NULL,
    status TEXT NOT NULL,
    text TEXT NOT NULL,
    fields TEXT NOT NULL);
  CREATE INDEX IF NOT EXISTS rich_messages_contact ON rich_messages (contact, at);";

fn millis(v: Option<&Value>) -> Option<i64> {
    let s = v?.as_str()?;
    DateTime::parse_from_rfc3339(s.trim())
        .ok()
        .map(|t| t.timestamp_millis())
}

/// The rich fields of `message` (an object), without empty ones.
fn fields_of(message: &Map<String, Value>) -> Map<String, Value> {
    FIELDS
        .iter()
        .filter_map(|k| {
            let v = message.get(*k)?;
            let empty = match v {
                Value::Null => true,
                Value::Array(a) => a.is_empty(),
                Value::Object(o) => o.is_empty(),
                Value::String(s) => s.is_empty(),
                _ => false,
            };
            (!empty).then(|| (k.to_string(), v.clone()))
        })
        .collect()
}

/// Keeps what `payload` (a `message_created` payload for `contact`)
/// carries beyond text. Nothing when it carries nothing.
pub fn keep(store: &Store, contact: &str, payload: &Value) -> Result<(), HubError> {
    let Some(message) = payload.as_object() else {
        return Ok(());
    };
    let fields = fields_of(message);
    let Some(at) = millis(message.get("createdAt")) else {
        return Ok(());
    };
    if fields.is_empty() {
        return Ok(());
    }
    let status = message.get("status").and_then(Value::as_str).unwrap_or_default();
    let text = message.get("text").and_then(Value::as_str).unwrap_or_default();
    let conn = store.conn();
    conn.execute_batch(TABLE)?;
    let oldest = Utc::now().timestamp_millis() - KEEP_DAYS * 86_400_000;
    conn.execute("DELETE FROM rich_messages WHERE at < ?1", [oldest])?;
    let held: bool = conn.query_row(
        "SELECT EXISTS(SELECT 1 FROM rich_messages WHERE contact = ?1 AND at = ?2 AND status = ?3 AND text = ?4)",
        params![contact, at, status, text],
        |r| r.get(0),
    )?;
    if !held {
        conn.execute(
            "INSERT INTO rich_messages (contact, at, status, text, fields) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![contact, at, status, text, Value::Object(fields).to_string()],
        )?;
    }
    Ok(())
}

/// Puts the kept fields back on the messages of a `{messages: [...]}`
/// answer for `contact`. Returns how many messages got some.
pub fn attach(store: &Store, contact: &str, body: &mut Value) -> Result<usize, HubError> {
    let Some(messages) = body.get_mut("messages").and_then(Value::as_array_mut) else {
        return Ok(0);
    };
    let conn = store.conn();
    conn.execute_batch(TABLE)?;
    let mut kept: Vec<(i64, String, String, String, bool)> = conn
        .prepare("SELECT at, status, text, fields FROM rich_messages WHERE contact = ?1")?
        .query_map([contact], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, false)))?
        .collect::<Result<_, _>>()?;
    if kept.is_empty() {
        return Ok(0);
    }
    let mut put = 0;
    for m in messages.iter_mut() {
        let Some(obj) = m.as_object_mut() else { continue };
        let Some(at) = millis(obj.get("createdAt")) else {
            continue;
        };
        let status = obj
            .get("status")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let text = obj.get("text").and_then(Value::as_str).unwrap_or_default().to_string();
        let nearest = kept
            .iter_mut()
            .filter(|k| !k.4 && k.1 == status && k.2 == text && (k.0 - at).abs() <= SLACK_MS)
            .min_by_key(|k| (k.0 - at).abs());
        let Some(k) = nearest else { continue };
        k.4 = true;
        let Ok(Value::Object(fields)) = serde_json::from_str::<Value>(&k.3) else {
            continue;
        };
        for (key, value) in fields {
            // What the service listed itself wins.
            obj.entry(key).or_insert(value);
        }
        put += 1;
    }
    Ok(put)
}

#[cfg(test)]
#[path = "rich_tests.rs"]
mod tests;
