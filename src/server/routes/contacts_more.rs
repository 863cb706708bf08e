//! The contact endpoints the public documentation adds to the reference:
//! lookups by phone number and by bsuid, delete, an internal note on the
//! conversation, and a funnel move.

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, State};
use rusqlite::{OptionalExtension, params};
use serde_json::{Value, json};

use super::body::json_body;
use super::contact_view::{find_contact, load_contact};
use super::params::{Q, non_empty};
use crate::server::activity;
use crate::server::error::{ApiError, ApiResult, FieldErrors};
use crate::server::state::Shared;
use crate::server::validate::{TEXT_MAX_CHARS, finish, opt_str, push};
use crate::server::webhooks::{Event, emit};

/// Digits only: `+123 456-789` and `123456789` are the same number.
fn digits(s: &str) -> String {
    s.chars().filter(char::is_ascii_digit).collect()
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct PhoneQuery {
    channel_uuid: Option<String>,
}

/// GET /contacts/phone/:phone: on the given channel, or else on the main
/// channel (the documentation: "the main WhatsApp channel"). Answers the
/// contact as an object, as the documentation's example shows it.
pub async fn by_phone(
    State(st): State<Shared>,
    Path(phone): Path<String>,
    Q(q): Q<PhoneQuery>,
) -> ApiResult<Json<Value>> {
    let channel = non_empty(&q.channel_uuid).map(str::to_string);
    let wanted = digits(&phone);
    st.db(move |conn| {
        let channel: i64 = match &channel {
            Some(uuid) => conn
                .query_row("SELECT id FROM channels WHERE uuid = ?1", [uuid], |r| r.get(0))
                .optional()?
                .ok_or_else(|| ApiError::not_found("channel"))?,
            None => conn.query_row("SELECT id FROM channels WHERE main = 1 ORDER BY id LIMIT 1", [], |r| {
                r.get(0)
            })?,
        };
        if wanted.is_empty() {
            return Err(ApiError::not_found("contact"));
        }
        let id: Option<i64> = conn
            .query_row(
                "SELECT id FROM contacts
                 WHERE REPLACE(REPLACE(REPLACE(REPLACE(phone, '+', ''), ' ', ''), '-', ''), '.', '') = ?1
                   AND COALESCE(channel_id, (SELECT id FROM channels WHERE main = 1 ORDER BY id LIMIT 1)) = ?2
                 ORDER BY id LIMIT 1",
                params![wanted, channel],
                |r| r.get(0),
            )
            .optional()?;
        let id = id.ok_or_else(|| ApiError::not_found("contact"))?;
        Ok(Json(json!({ "contact": load_contact(conn, id)?.to_json(None) })))
    })
    .await
}

/// GET /contacts/bsuid/:bsuid, answered as an object.
pub async fn by_bsuid(State(st): State<Shared>, Path(bsuid): Path<String>) -> ApiResult<Json<Value>> {
    st.db(move |conn| {
        let id: i64 = conn
            .query_row("SELECT id FROM contacts WHERE bsuid = ?1", [&bsuid], |r| r.get(0))
            .optional()?
            .ok_or_else(|| ApiError::not_found("contact"))?;
        Ok(Json(json!({ "contact": load_contact(conn, id)?.to_json(None) })))
    })
    .await
}

/// DELETE /contacts/:uuid: the contact, its messages and send-requests go;
/// `contact_deleted` is emitted.
pub async fn delete(State(st): State<Shared>, Path(uuid): Path<String>) -> ApiResult<Json<Value>> {
    if activity::delete_contact(&st, &uuid).await? {
        Ok(Json(json!({ "status": "contact was destroyed" })))
    } else {
        Err(ApiError::not_found("contact"))
    }
}

/// POST /contacts/:uuid/conversation/note `{text}`: an internal note in the
/// conversation (listed with status `note` and no uuid), written by the
/// API key's user. Answers `{success: true}`.
pub async fn note(State(st): State<Shared>, Path(uuid): Path<String>, body: Bytes) -> ApiResult<Json<Value>> {
    let map = json_body(&body)?;
    st.db_now(move |conn, now| {
        let id = find_contact(conn, &uuid)?;
        let mut errs = FieldErrors::new();
        let text = opt_str(&map, "text", &mut errs).filter(|t| !t.trim().is_empty());
        match &text {
            None if !errs.contains_key("text") => push(&mut errs, "text", "is required"),
            Some(t) if t.chars().count() > TEXT_MAX_CHARS => push(
                &mut errs,
                "text",
                format!("is too long ({TEXT_MAX_CHARS} characters at most)"),
            ),
            _ => {}
        }
        finish(errs)?;
        let author = crate::server::db::get_setting(conn, "api_user")?.unwrap_or_default();
        let source: String = conn.query_row("SELECT source FROM contacts WHERE id = ?1", [id], |r| r.get(0))?;
        conn.execute(
            "INSERT INTO messages (uuid, contact_id, text, created_at, status, channel, sender, recipient)
             VALUES (NULL, ?1, ?2, ?3, 'note', ?4, ?5, '')",
            params![id, text.unwrap_or_default(), now, source, author],
        )?;
        Ok(Json(json!({ "success": true })))
    })
    .await
}

/// PUT /contacts/:uuid/conversation/update_funnel `{funnel_uuid}`: the
/// conversation moves to that funnel; answers the contact (a one-element
/// list, as the documentation's example) and emits `contact_updated`.
pub async fn update_funnel(State(st): State<Shared>, Path(uuid): Path<String>, body: Bytes) -> ApiResult<Json<Value>> {
    let map = json_body(&body)?;
    let (contact, short) = st
        .db(move |conn| {
            let id = find_contact(conn, &uuid)?;
            let mut errs = FieldErrors::new();
            let funnel = opt_str(&map, "funnel_uuid", &mut errs).filter(|f| !f.trim().is_empty());
            match &funnel {
                None if !errs.contains_key("funnel_uuid") => push(&mut errs, "funnel_uuid", "is required"),
                Some(f) => {
                    let known: Option<i64> = conn
                        .query_row("SELECT id FROM funnels WHERE uuid = ?1", [f], |r| r.get(0))
                        .optional()?;
                    if known.is_none() {
                        push(&mut errs, "funnel_uuid", format!("unknown funnel: {f}"));
                    }
                }
                None => {}
            }
            finish(errs)?;
            conn.execute(
                "UPDATE contacts SET funnel_uuid = ?1 WHERE id = ?2",
                params![funnel.unwrap_or_default(), id],
            )?;
            let row = load_contact(conn, id)?;
            Ok((row.to_json(None), row.short_json()))
        })
        .await?;
    emit(&st, vec![Event::contact("contact_updated", short)]).await;
    Ok(Json(json!({ "contact": [contact] })))
}

/// GET /auth/me: the key's user (a seeded collaborator) and the key itself
/// masked, never whole.
pub async fn me(State(st): State<Shared>, headers: axum::http::HeaderMap) -> ApiResult<Json<Value>> {
    let key = headers
        .get(axum::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split_once(' '))
        .map(|(_, k)| mask(k.trim()))
        .unwrap_or_default();
    st.db(move |conn| {
        let email = crate::server::db::get_setting(conn, "api_user")?.unwrap_or_default();
        let name: String = conn
            .query_row("SELECT name FROM users WHERE email = ?1", [&email], |r| r.get(0))
            .optional()?
            .unwrap_or_default();
        Ok(Json(json!({
            "status": "ok",
            "user_email": email,
            "user_name": name,
            "api_key": key,
        })))
    })
    .await
}

/// The first 3 and last 4 characters of a key, the rest as `*`; a short
/// key is all `*`.
pub fn mask(key: &str) -> String {
    let chars: Vec<char> = key.chars().collect();
    if chars.len() < 12 {
        return "*".repeat(chars.len().max(8));
    }
    let head: String = chars[..3].iter().collect();
    let tail: String = chars[chars.len() - 4..].iter().collect();
    format!("{head}{}{tail}", "*".repeat(chars.len() - 7))
}
