//! The bot of a contact.

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, State};
use rusqlite::Connection;
use serde_json::{Value, json};

use super::body::json_body;
use super::contact_view::{find_contact, load_contact};
use super::contacts::set_bot;
use crate::server::db::{get_setting, iso};
use crate::server::error::{ApiError, ApiResult, FieldErrors};
use crate::server::state::Shared;
use crate::server::validate::{self, finish, opt_str, push};
use crate::server::webhooks::{Event, emit};

fn bot_json(conn: &Connection, contact: i64) -> ApiResult<Value> {
    let (status, started): (Option<String>, Option<i64>) = conn.query_row(
        "SELECT bot_status, bot_started_at FROM contacts WHERE id = ?1",
        [contact],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    let version: i64 = get_setting(conn, "bot_version")?
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    Ok(json!({ "bot": {
        "uuid": get_setting(conn, "bot_uuid")?.unwrap_or_default(),
        "name": get_setting(conn, "bot_name")?.unwrap_or_default(),
        "status": status.unwrap_or_else(|| "started".into()),
        "conversationStartedAt": started.map(iso),
        "version": version,
        "latestBotVersion": true,
    }}))
}

pub async fn show(State(st): State<Shared>, Path(uuid): Path<String>) -> ApiResult<Json<Value>> {
    if !st.bot_enabled {
        return Err(ApiError::NotFound("this account has no bot".into()));
    }
    st.db(move |conn| {
        let id = find_contact(conn, &uuid)?;
        Ok(Json(bot_json(conn, id)?))
    })
    .await
}

pub async fn set(State(st): State<Shared>, Path(uuid): Path<String>, body: Bytes) -> ApiResult<Json<Value>> {
    let map = json_body(&body)?;
    let bot_enabled = st.bot_enabled;
    let (out, contact) = st
        .db_now(move |conn, now| {
            let id = find_contact(conn, &uuid)?;
            let mut errs = FieldErrors::new();
            let status = match opt_str(&map, "status", &mut errs) {
                None => {
                    push(&mut errs, "status", "is required");
                    None
                }
                Some(s) => validate::bot_status(&s, bot_enabled)
                    .map_err(|m| push(&mut errs, "status", m))
                    .ok(),
            };
            finish(errs)?;
            if let Some(s) = status {
                set_bot(conn, id, s, now)?;
            }
            Ok((bot_json(conn, id)?, load_contact(conn, id)?.short_json()))
        })
        .await?;
    // The bot's status is part of the contact.
    emit(&st, vec![Event::contact("contact_updated", contact)]).await;
    Ok(Json(out))
}
