//! Messages: a contact's thread, delete (both forms), send, delivery status.

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use rusqlite::{Connection, OptionalExtension, Row, params};
use serde_json::{Map, Value, json};

use super::contact_view::{find_contact, load_contact};
use super::json_body;
use super::params::{Page, Q, offset, pages};
use crate::server::cursor::Cursor;
use crate::server::db::{hex32, hyphenated, iso};
use crate::server::error::{ApiError, ApiResult, FieldErrors};
use crate::server::state::Shared;
use crate::server::validate::{TEXT_MAX_CHARS, finish, opt_str, push};
use crate::server::webhooks::{Event, emit};

const PER_PAGE: i64 = 20;
const DAY_MS: i64 = 24 * 60 * 60 * 1000;
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
    let cursor = match q.after.as_deref().filter(|s| !s.is_empty()) {
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
pub fn insert_sent(conn: &Connection, contact: i64, text: &str, now: i64) -> rusqlite::Result<String> {
    let mut rng = rand::rng();
    let (phone, source, business): (String, String, String) = conn.query_row(
        "SELECT c.phone, c.source, COALESCE(ch.phone, '') FROM contacts c
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
    Ok(uuid)
}

pub async fn send(State(st): State<Shared>, body: Bytes) -> ApiResult<Json<Value>> {
    let map = json_body(&body)?;
    let (message, uuid) = st
        .db_now(move |conn, now| {
            let mut errs = FieldErrors::new();
            let to = opt_str(&map, "to", &mut errs);
            let _from = opt_str(&map, "from", &mut errs);
            match opt_str(&map, "type", &mut errs).as_deref() {
                None | Some("text") => {}
                Some(other) => push(&mut errs, "type", format!("must be text, not {other:?}")),
            }
            let template = opt_str(&map, "template_uuid", &mut errs);
            let text = match map.get("content") {
                None | Some(Value::Null) => None,
                Some(Value::Object(c)) => opt_str(c, "text", &mut errs),
                Some(_) => {
                    push(&mut errs, "content", "must be an object with text");
                    None
                }
            };
            let contact = match &to {
                None => {
                    push(&mut errs, "to", "is required");
                    None
                }
                Some(t) => match find_contact(conn, t) {
                    Ok(id) => Some(id),
                    Err(_) => {
                        push(&mut errs, "to", format!("no contact with identifier {t}"));
                        None
                    }
                },
            };
            if let Some(ch) = opt_str(&map, "channel_uuid", &mut errs) {
                let found: Option<i64> = conn
                    .query_row("SELECT id FROM channels WHERE uuid = ?1", [&ch], |r| r.get(0))
                    .optional()?;
                if found.is_none() {
                    push(&mut errs, "channel_uuid", format!("unknown channel: {ch}"));
                }
            }
            let body_text = match template {
                Some(t) => template_text(conn, &t, map.get("template_values"), &mut errs)?,
                None => {
                    match text.as_deref().map(str::trim) {
                        None | Some("") => push(&mut errs, "content.text", "is required"),
                        Some(t) if t.chars().count() > TEXT_MAX_CHARS => push(
                            &mut errs,
                            "content.text",
                            format!("is too long ({TEXT_MAX_CHARS} characters at most)"),
                        ),
                        Some(_) => {}
                    }
                    if let Some(c) = contact {
                        let last: Option<i64> = conn.query_row(
                            "SELECT MAX(created_at) FROM messages WHERE contact_id = ?1 AND status = 'received'",
                            [c],
                            |r| r.get(0),
                        )?;
                        if last.is_none_or(|at| now - at > DAY_MS) {
                            push(
                                &mut errs,
                                "content",
                                "the 24-hour window is closed: the contact last wrote more than 24 hours ago \
                                 (or never); send a template instead",
                            );
                        }
                    }
                    text.unwrap_or_default()
                }
            };
            finish(errs)?;
            let contact = contact.ok_or_else(|| ApiError::not_found("contact"))?;
            let uuid = insert_sent(conn, contact, &body_text, now)?;
            let mut msg = conn
                .query_row(
                    &format!("SELECT {COLUMNS} FROM messages WHERE uuid = ?1"),
                    [&uuid],
                    message_json,
                )?
                .2;
            // The webhook's message carries its contact (extensions.md).
            msg["contact"] = load_contact(conn, contact)?.to_json(None);
            Ok((msg, uuid))
        })
        .await?;
    emit(&st, vec![Event::message("message_created", message)]).await;
    Ok(Json(json!({ "message": { "uuid": uuid, "status": "enqueued" } })))
}

fn template_text(conn: &Connection, uuid: &str, values: Option<&Value>, errs: &mut FieldErrors) -> ApiResult<String> {
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
            // A receiver needs the contact to place the message.
            let contact = load_contact(conn, contact)?.to_json(None);
            for k in reported + 1..=s {
                events.push(Event::message(
                    "message_status_updated",
                    json!({ "uuid": uuid, "status": DELIVERY[k as usize], "contact": contact }),
                ));
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
                    "messageStatusPayload": {
                        "id": status_id,
                        "type": status,
                        "payload": { "type": "session", "messagingAppMessageId": app_id },
                        "destination": destination,
                    }
                }}),
                events,
            ))
        })
        .await?;
    emit(&st, events).await;
    Ok(Json(body))
}
