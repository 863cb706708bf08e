//! Messages: a contact's thread, delete (both forms), send, delivery status.

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use rusqlite::{Connection, OptionalExtension, Row, params};
use serde_json::{Map, Value, json};

use super::body::json_body;
use super::contact_view::{find_contact, load_contact};
use super::params::{Page, Q, offset, pages};
use crate::server::cursor::Cursor;
use crate::server::db::{hex32, hyphenated, iso};
use crate::server::error::{ApiError, ApiResult, FieldErrors};
use crate::server::state::Shared;
use crate::server::validate::{TEXT_MAX_CHARS, finish, opt_str, push};
use crate::server::webhooks::{Event, emit, payloads};

const PER_PAGE: i64 = 20;
pub const DELIVERY: [&str; 4] = ["enqueued", "sent", "delivered", "read"];

const COLUMNS: &str = "id, uuid, text, created_at, status, channel, sender, recipient";

pub fn message_json(r: &Row<'_>) -> rusqlite::Result<(i64, i64, Value)> {
    let (id, uuid, created_at, status): (i64, Option<String>, i64, String) =
        (r.get(0)?, r.get(1)?, r.get(3)?, r.get(4)?);
    let mut v = json!({
        "text": r.get::<_, String>(2)?,
        "createdAt": iso(created_at),
        "status": status,
        "channel": r.get::<_, String>(5)?,
        "from": r.get::<_, String>(6)?,
        "to": r.get::<_, String>(7)?,
    });
    // Notes carry no uuid.
    if let (Some(u), false) = (uuid, status == "note") {
        v["uuid"] = json!(u);
    }
    Ok((id, created_at, v))
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct ListQuery {
    after: Option<String>,
    page: Page,
}

pub async fn list(State(st): State<Shared>, Path(uuid): Path<String>, Q(q): Q<ListQuery>) -> ApiResult<Json<Value>> {
    // The documentation's paging knows no cursor: `after` is not read.
    let docs = st.paging == crate::server::config::Paging::Docs;
    let after = q.after.as_deref().filter(|s| !s.is_empty() && !docs);
    let cursor = match after {
        Some(s) => Some(Cursor::decode(s).ok_or_else(|| ApiError::BadRequest("Invalid pagination cursor".into()))?),
        None => None,
    };
    let page = if cursor.is_some() { Page(1) } else { q.page };
    st.db(move |conn| {
        let contact = find_contact(conn, &uuid)?;
        let mut meta = Map::new();
        let (filter, max_id, offset) = match cursor {
            Some(c) => (
                format!("AND (created_at, id) < ({}, {}) AND id <= {}", c.key, c.id, c.max_id),
                c.max_id,
                0,
            ),
            None => {
                let total: i64 =
                    conn.query_row("SELECT COUNT(*) FROM messages WHERE contact_id = ?1", [contact], |r| {
                        r.get(0)
                    })?;
                meta.insert("page".into(), json!(page.0));
                meta.insert("pages".into(), json!(pages(total as u64, PER_PAGE as u64)));
                let max: i64 = conn.query_row("SELECT COALESCE(MAX(id), 0) FROM messages", [], |r| r.get(0))?;
                // Past anything SQLite can skip: an empty page.
                let Some(offset) = offset(page, PER_PAGE as u64) else {
                    meta.insert("next".into(), Value::Null);
                    if docs {
                        return Ok(Json(json!({ "messages": [] })));
                    }
                    return Ok(Json(json!({ "messages": [], "meta": meta })));
                };
                (String::new(), max, offset)
            }
        };
        let sql = format!(
            "SELECT {COLUMNS} FROM messages WHERE contact_id = ?1 {filter}
             ORDER BY created_at DESC, id DESC LIMIT {} OFFSET {offset}",
            PER_PAGE + 1
        );
        let mut rows = conn
            .prepare(&sql)?
            .query_map([contact], message_json)?
            .collect::<Result<Vec<_>, _>>()?;
        let more = rows.len() as i64 > PER_PAGE;
        rows.truncate(PER_PAGE as usize);
        let next = match rows.last() {
            Some((id, at, _)) if more => json!(
                Cursor {
                    key: *at,
                    id: *id,
                    max_id
                }
                .encode()
            ),
            _ => Value::Null,
        };
        meta.insert("next".into(), next);
        let messages: Vec<Value> = rows.into_iter().map(|r| r.2).collect();
        if docs {
            return Ok(Json(json!({ "messages": messages })));
        }
        Ok(Json(json!({ "messages": messages, "meta": meta })))
    })
    .await
}

/// By uuid, or by the external (messaging app) id of a message sent through
/// the interface. Only messages the account's side sent can be deleted: a
/// received message or a note is a 422 (extensions.md).
async fn delete_message(st: &Shared, uuid: String) -> ApiResult<StatusCode> {
    st.db(move |conn| {
        let found: Option<(i64, String)> = conn
            .query_row(
                "SELECT id, status FROM messages WHERE uuid IN
                 (?1, (SELECT uuid FROM send_requests WHERE app_message_id = ?1))",
                [&uuid],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?;
        match found {
            None => Err(ApiError::not_found("message")),
            Some((id, status)) if status == "sent" => {
                conn.execute("DELETE FROM messages WHERE id = ?1", [id])?;
                Ok(StatusCode::NO_CONTENT)
            }
            Some((_, status)) => Err(ApiError::invalid(
                "uuid",
                format!("only a message the account sent can be deleted; this one is {status}"),
            )),
        }
    })
    .await
}

pub async fn delete_by_path(State(st): State<Shared>, Path(uuid): Path<String>) -> ApiResult<StatusCode> {
    delete_message(&st, uuid).await
}

pub async fn delete_by_body(State(st): State<Shared>, body: Bytes) -> ApiResult<StatusCode> {
    let map = json_body(&body)?;
    let mut errs = FieldErrors::new();
    let uuid = opt_str(&map, "uuid", &mut errs);
    if uuid.is_none() && errs.is_empty() {
        push(&mut errs, "uuid", "is required");
    }
    finish(errs)?;
    delete_message(&st, uuid.unwrap_or_default()).await
}

/// Insert an outgoing message and its send-request; bumps the conversation.
/// Returns the message's row id and uuid.
pub fn insert_sent(conn: &Connection, contact: i64, text: &str, now: i64) -> rusqlite::Result<(i64, String)> {
    let mut rng = rand::rng();
    let (phone, source, business): (String, String, String) = conn.query_row(
        "SELECT COALESCE(c.phone, c.bsuid, ''), c.source, COALESCE(ch.phone, '') FROM contacts c
         LEFT JOIN channels ch ON ch.id = COALESCE(c.channel_id, (SELECT id FROM channels WHERE main = 1))
         WHERE c.id = ?1",
        [contact],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
    )?;
    let uuid = hex32(&mut rng);
    conn.execute(
        "INSERT INTO messages (uuid, contact_id, text, created_at, status, channel, sender, recipient)
         VALUES (?1, ?2, ?3, ?4, 'sent', ?5, ?6, ?7)",
        params![uuid, contact, text, now, source, business, phone],
    )?;
    let id = conn.last_insert_rowid();
    conn.execute(
        "INSERT INTO send_requests (uuid, status_id, app_message_id, contact_id, destination, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![
            uuid,
            hyphenated(&mut rng),
            format!("wamid.{}", hex32(&mut rng)),
            contact,
            phone,
            now
        ],
    )?;
    conn.execute(
        "UPDATE contacts SET last_activity = MAX(last_activity, ?1) WHERE id = ?2",
        params![now, contact],
    )?;
    Ok((id, uuid))
}

pub fn template_text(
    conn: &Connection,
    uuid: &str,
    values: Option<&Value>,
    errs: &mut FieldErrors,
) -> ApiResult<String> {
    let found: Option<(String, String)> = conn
        .query_row("SELECT text, status FROM templates WHERE uuid = ?1", [uuid], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .optional()?;
    let values: Vec<String> = match values {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(a)) if a.iter().all(Value::is_string) => {
            a.iter().filter_map(|v| v.as_str().map(str::to_string)).collect()
        }
        Some(_) => {
            push(errs, "template_values", "must be a list of strings");
            Vec::new()
        }
    };
    match found {
        None => {
            push(errs, "template_uuid", format!("unknown template: {uuid}"));
            Ok(String::new())
        }
        Some((_, status)) if status != "approved" => {
            push(
                errs,
                "template_uuid",
                format!("template is {status}, only approved templates can be sent"),
            );
            Ok(String::new())
        }
        Some((mut text, _)) => {
            for (i, v) in values.iter().enumerate() {
                text = text.replace(&format!("{{{{{}}}}}", i + 1), v);
            }
            if text.chars().count() > TEXT_MAX_CHARS {
                push(
                    errs,
                    "template_values",
                    format!("make the message too long ({TEXT_MAX_CHARS} characters at most)"),
                );
            }
            Ok(text)
        }
    }
}

/// The raw status payload; the documentation names the messaging app's id
/// `whatsappMessageId`.
fn status_payload(id: &str, status: &str, app_id: &str, destination: &str) -> Value {
    json!({
        "id": id,
        "type": status,
        "payload": { "type": "session", "whatsappMessageId": app_id },
        "destination": destination,
    })
}

/// Delivery step of a send-request: one step per `step_ms` since creation.
pub fn step(created_at: i64, now: i64, step_ms: i64) -> usize {
    (((now - created_at).max(0) / step_ms) as usize).min(DELIVERY.len() - 1)
}

/// Send-requests that advanced since last reported, as
/// `message_status_updated` events (marked reported).
pub fn progress_events(conn: &Connection, step_ms: i64, only: Option<&str>, now: i64) -> ApiResult<Vec<Event>> {
    let rows: Vec<(i64, String, i64, i64, i64)> = conn
        .prepare_cached(
            "SELECT id, uuid, created_at, reported_step, contact_id FROM send_requests
             WHERE reported_step < 3 AND (?1 IS NULL OR uuid = ?1)",
        )?
        .query_map([only], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)))?
        .collect::<Result<_, _>>()?;
    let mut events = Vec::new();
    for (id, uuid, created, reported, contact) in rows {
        let s = step(created, now, step_ms) as i64;
        if s > reported {
            // As the documentation shows it: the short contact, the
            // message's metadata, and the raw status payload.
            let contact = load_contact(conn, contact)?.short_json();
            let metadata = payloads::metadata_of(conn, &uuid)?;
            let (status_id, app_id, destination): (String, String, String) = conn.query_row(
                "SELECT status_id, app_message_id, destination FROM send_requests WHERE id = ?1",
                [id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )?;
            for k in reported + 1..=s {
                let status = DELIVERY[k as usize];
                let mut p = json!({
                    "uuid": uuid,
                    "status": status,
                    "contact": contact,
                    "messageStatusPayload": status_payload(&status_id, status, &app_id, &destination),
                });
                if let Some(m) = &metadata {
                    p["metadata"] = m.clone();
                }
                events.push(Event::message("message_status_updated", p));
            }
        }
        if s > reported {
            conn.execute(
                "UPDATE send_requests SET reported_step = ?1 WHERE id = ?2",
                params![s, id],
            )?;
        }
    }
    Ok(events)
}

pub async fn status(State(st): State<Shared>, Path(uuid): Path<String>) -> ApiResult<Json<Value>> {
    let step_ms = st.status_step_ms;
    let (body, events) = st
        .db_now(move |conn, now| {
            let row: Option<(String, String, String, i64)> = conn
                .query_row(
                    "SELECT status_id, app_message_id, destination, created_at FROM send_requests WHERE uuid = ?1",
                    [&uuid],
                    |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
                )
                .optional()?;
            let (status_id, app_id, destination, created) = row.ok_or_else(|| ApiError::not_found("message"))?;
            let events = progress_events(conn, step_ms, Some(&uuid), now)?;
            let status = DELIVERY[step(created, now, step_ms)];
            Ok((
                json!({ "message": {
                    "uuid": uuid,
                    "status": status,
                    "messageStatusPayload": status_payload(&status_id, status, &app_id, &destination),
                }}),
                events,
            ))
        })
        .await?;
    emit(&st, events).await;
    Ok(Json(body))
}
