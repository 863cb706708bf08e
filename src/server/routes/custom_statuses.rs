//! Custom statuses (timestamps in `YYYY-MM-DD HH:MM:SS +0000` form).

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use rusqlite::{Connection, OptionalExtension, Row, params};
use serde_json::{Map, Value, json};

use super::body::json_body;
use super::params::{PageQuery, Q, paginate};
use crate::server::db::{hyphenated, legacy};
use crate::server::error::{ApiError, ApiResult, FieldErrors};
use crate::server::state::Shared;
use crate::server::validate::{finish, opt_str, push};

const PER_PAGE: u64 = 20;
const COLUMNS: &str = "uuid, name, emoji, created_at, updated_at";

fn status_json(r: &Row<'_>) -> rusqlite::Result<Value> {
    Ok(json!({
        "id": r.get::<_, String>(0)?,
        "name": r.get::<_, String>(1)?,
        "emoji": r.get::<_, String>(2)?,
        "createdAt": legacy(r.get(3)?),
        "updatedAt": legacy(r.get(4)?),
    }))
}

fn load(conn: &Connection, id: &str) -> ApiResult<Value> {
    conn.query_row(
        &format!("SELECT {COLUMNS} FROM custom_statuses WHERE uuid = ?1"),
        [id],
        status_json,
    )
    .optional()?
    .ok_or_else(|| ApiError::not_found("custom status"))
}

/// `name` (required on create) and `emoji`.
fn fields(map: &Map<String, Value>, creating: bool) -> ApiResult<(Option<String>, Option<String>)> {
    let mut errs = FieldErrors::new();
    let name = opt_str(map, "name", &mut errs).map(|s| s.trim().to_string());
    match name.as_deref() {
        Some("") => push(&mut errs, "name", "must not be empty"),
        Some(n) if n.chars().count() > 100 => push(&mut errs, "name", "is too long (100 characters at most)"),
        None if creating && !errs.contains_key("name") => push(&mut errs, "name", "is required"),
        _ => {}
    }
    let emoji = opt_str(map, "emoji", &mut errs);
    if emoji.as_ref().is_some_and(|e| e.chars().count() > 16) {
        push(&mut errs, "emoji", "is too long");
    }
    finish(errs)?;
    Ok((name, emoji))
}

pub async fn list(State(st): State<Shared>, Q(q): Q<PageQuery>) -> ApiResult<Json<Value>> {
    let page = q.page;
    st.db(move |conn| {
        let all = conn
            .prepare(&format!("SELECT {COLUMNS} FROM custom_statuses ORDER BY id"))?
            .query_map([], status_json)?
            .collect::<Result<Vec<_>, _>>()?;
        let (statuses, meta) = paginate(all, page, PER_PAGE);
        Ok(Json(json!({ "customStatuses": statuses, "meta": meta })))
    })
    .await
}

pub async fn show(State(st): State<Shared>, Path(id): Path<String>) -> ApiResult<Json<Value>> {
    st.db(move |conn| Ok(Json(json!({ "customStatus": load(conn, &id)? }))))
        .await
}

pub async fn create(State(st): State<Shared>, body: Bytes) -> ApiResult<(StatusCode, Json<Value>)> {
    let (name, emoji) = fields(&json_body(&body)?, true)?;
    st.db_now(move |conn, now| {
        let id = hyphenated(&mut rand::rng());
        conn.execute(
            "INSERT INTO custom_statuses (uuid, name, emoji, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?4)",
            params![id, name.unwrap_or_default(), emoji.unwrap_or_default(), now],
        )?;
        Ok((StatusCode::CREATED, Json(json!({ "customStatus": load(conn, &id)? }))))
    })
    .await
}

pub async fn update(State(st): State<Shared>, Path(id): Path<String>, body: Bytes) -> ApiResult<Json<Value>> {
    let map = json_body(&body)?;
    st.db_now(move |conn, now| {
        load(conn, &id)?;
        let (name, emoji) = fields(&map, false)?;
        conn.execute(
            "UPDATE custom_statuses SET name = COALESCE(?1, name), emoji = COALESCE(?2, emoji), updated_at = ?3
             WHERE uuid = ?4",
            params![name, emoji, now, id],
        )?;
        Ok(Json(json!({ "customStatus": load(conn, &id)? })))
    })
    .await
}

/// Users wearing a deleted status lose it.
pub async fn remove(State(st): State<Shared>, Path(id): Path<String>) -> ApiResult<Json<Value>> {
    st.db_now(move |conn, now| {
        let tx = conn.transaction()?;
        let row: i64 = tx
            .query_row("SELECT id FROM custom_statuses WHERE uuid = ?1", [&id], |r| r.get(0))
            .optional()?
            .ok_or_else(|| ApiError::not_found("custom status"))?;
        tx.execute(
            "UPDATE users SET custom_status_id = NULL, custom_status_at = ?1 WHERE custom_status_id = ?2",
            params![now, row],
        )?;
        tx.execute("DELETE FROM custom_statuses WHERE id = ?1", [row])?;
        tx.commit()?;
        Ok(Json(json!({ "status": "custom status was destroyed" })))
    })
    .await
}
