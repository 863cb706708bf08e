//! A user's availability and custom status.

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, State};
use rusqlite::{OptionalExtension, params};
use serde_json::{Value, json};

use super::body::json_body;
use crate::server::db::rfc3339_offset;
use crate::server::error::{ApiError, ApiResult, FieldErrors};
use crate::server::state::Shared;
use crate::server::validate::{finish, opt_bool, push};
use crate::server::webhooks::{Event, emit, payloads};

/// Body: `available` (absent leaves it), `custom_status_uuid` (absent leaves
/// it, null unassigns, a value must name an existing custom status).
pub async fn set_status(State(st): State<Shared>, Path(uuid): Path<String>, body: Bytes) -> ApiResult<Json<Value>> {
    let map = json_body(&body)?;
    let (out, event) = st
        .db_now(move |conn, now| {
            let tx = conn.transaction()?;
            let user: i64 = tx
                .query_row("SELECT id FROM users WHERE uuid = ?1", [&uuid], |r| r.get(0))
                .optional()?
                .ok_or_else(|| ApiError::not_found("user"))?;
            let mut errs = FieldErrors::new();
            let available = opt_bool(&map, "available", &mut errs);
            let status: Option<Option<i64>> = match map.get("custom_status_uuid") {
                None => None,
                Some(Value::Null) => Some(None),
                Some(Value::String(s)) => {
                    let id: Option<i64> = tx
                        .query_row("SELECT id FROM custom_statuses WHERE uuid = ?1", [s], |r| r.get(0))
                        .optional()?;
                    if id.is_none() {
                        push(&mut errs, "custom_status_uuid", format!("unknown custom status: {s}"));
                    }
                    id.map(Some)
                }
                Some(_) => {
                    push(&mut errs, "custom_status_uuid", "must be a string or null");
                    None
                }
            };
            finish(errs)?;
            if let Some(a) = available {
                tx.execute(
                    "UPDATE users SET available = ?1, available_at = ?2 WHERE id = ?3",
                    params![a, now, user],
                )?;
            }
            if let Some(s) = status {
                tx.execute(
                    "UPDATE users SET custom_status_id = ?1, custom_status_at = ?2 WHERE id = ?3",
                    params![s, now, user],
                )?;
            }
            let out = tx.query_row(
                "SELECT u.available, u.available_at, s.uuid, s.name, u.custom_status_at
             FROM users u LEFT JOIN custom_statuses s ON s.id = u.custom_status_id WHERE u.id = ?1",
                [user],
                |r| {
                    Ok(json!({ "user_status": {
                        "custom_status": {
                            "id": r.get::<_, Option<String>>(2)?,
                            "name": r.get::<_, Option<String>>(3)?,
                            "last_updated_at": rfc3339_offset(r.get(4)?),
                        },
                        "appearance": {
                            "available": r.get::<_, bool>(0)?,
                            "last_updated_at": rfc3339_offset(r.get(1)?),
                        },
                    }}))
                },
            )?;
            // The documentation's agent_status_updated carries a TeamMember.
            let event = payloads::team_member(&tx, user)?;
            tx.commit()?;
            Ok((out, event))
        })
        .await?;
    emit(&st, vec![Event::user("agent_status_updated", event)]).await;
    Ok(Json(out))
}

/// DELETE /users/:uuid/status: the user's custom status is unassigned. The
/// documentation says the answer is empty.
pub async fn clear_status(State(st): State<Shared>, Path(uuid): Path<String>) -> ApiResult<axum::http::StatusCode> {
    let event = st
        .db_now(move |conn, now| {
            let user: i64 = conn
                .query_row("SELECT id FROM users WHERE uuid = ?1", [&uuid], |r| r.get(0))
                .optional()?
                .ok_or_else(|| ApiError::not_found("user"))?;
            let changed = conn.execute(
                "UPDATE users SET custom_status_id = NULL, custom_status_at = ?1
                 WHERE id = ?2 AND custom_status_id IS NOT NULL",
                params![now, user],
            )?;
            (changed > 0).then(|| payloads::team_member(conn, user)).transpose()
        })
        .await?;
    if let Some(e) = event {
        emit(&st, vec![Event::user("agent_status_updated", e)]).await;
    }
    Ok(axum::http::StatusCode::NO_CONTENT)
}
