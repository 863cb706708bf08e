//! Webhook payloads in the shapes the service's public documentation shows
//! (`docs/api/reference/webhooks/`): short contacts, no message uuid in
//! `message_created`, Conversation objects for conversation events.

use rusqlite::{Connection, OptionalExtension};
use serde_json::{Map, Value, json};

use crate::server::db::iso;
use crate::server::error::{ApiError, ApiResult};
use crate::server::routes::contact_view::load_contact;

/// The `message_created` payload of message row `id`: `to, from, text,
/// attachments, status, channel, contact (short), createdAt`, `metadata`
/// when the message has some, and the optional rich fields it carries.
/// No `uuid`: the documentation's payload has none.
pub fn message_created(conn: &Connection, id: i64) -> ApiResult<Value> {
    type Row = (
        i64,
        String,
        i64,
        String,
        String,
        String,
        String,
        Option<String>,
        Option<String>,
        Option<String>,
    );
    let row: Option<Row> = conn
        .query_row(
            "SELECT contact_id, text, created_at, status, channel, sender, recipient, attachments, rich, metadata
             FROM messages WHERE id = ?1",
            [id],
            |r| {
                Ok((
                    r.get(0)?,
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                    r.get(6)?,
                    r.get(7)?,
                    r.get(8)?,
                    r.get(9)?,
                ))
            },
        )
        .optional()?;
    let (contact, text, at, status, channel, from, to, attachments, rich, metadata) =
        row.ok_or_else(|| ApiError::not_found("message"))?;
    let attachments: Value = attachments
        .and_then(|a| serde_json::from_str(&a).ok())
        .unwrap_or_else(|| json!([]));
    let mut v = json!({
        "to": to,
        "from": from,
        "text": text,
        "attachments": attachments,
        "status": status,
        "channel": channel,
        "contact": load_contact(conn, contact)?.short_json(),
        "createdAt": iso(at),
    });
    if let Some(obj) = v.as_object_mut() {
        if let Some(m) = metadata.and_then(|m| serde_json::from_str::<Value>(&m).ok()) {
            obj.insert("metadata".into(), m);
        }
        if let Some(Value::Object(extra)) = rich.and_then(|r| serde_json::from_str::<Value>(&r).ok()) {
            obj.extend(extra);
        }
    }
    Ok(v)
}

/// The stored metadata of the message with `uuid`, if any.
pub fn metadata_of(conn: &Connection, uuid: &str) -> ApiResult<Option<Value>> {
    let raw: Option<Option<String>> = conn
        .query_row("SELECT metadata FROM messages WHERE uuid = ?1", [uuid], |r| r.get(0))
        .optional()?;
    Ok(raw.flatten().and_then(|m| serde_json::from_str(&m).ok()))
}

/// `contact_deleted`: the uuid and when.
pub fn contact_deleted(uuid: &str, now: i64) -> Value {
    json!({ "uuid": uuid, "deleted": iso(now) })
}

/// `agent_status_updated`: the user as a TeamMember (`userCustomStatus`
/// only while the user has one).
pub fn team_member(conn: &Connection, user: i64) -> ApiResult<Value> {
    Ok(conn.query_row(
        "SELECT u.email, u.name, u.available, u.available_at, s.uuid, s.name, s.emoji, u.custom_status_at
         FROM users u LEFT JOIN custom_statuses s ON s.id = u.custom_status_id WHERE u.id = ?1",
        [user],
        |r| {
            let mut m = Map::new();
            m.insert("email".into(), json!(r.get::<_, String>(0)?));
            m.insert("name".into(), json!(r.get::<_, String>(1)?));
            m.insert("available".into(), json!(r.get::<_, bool>(2)?));
            m.insert("lastUpdatedAt".into(), json!(iso(r.get(3)?)));
            if let Some(id) = r.get::<_, Option<String>>(4)? {
                m.insert(
                    "userCustomStatus".into(),
                    json!({
                        "updatedAt": iso(r.get(7)?),
                        "id": id,
                        "name": r.get::<_, String>(5)?,
                        "emoji": r.get::<_, String>(6)?,
                    }),
                );
            }
            Ok(Value::Object(m))
        },
    )?)
}
