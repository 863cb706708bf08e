//! Channels.

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, State};
use rusqlite::{Connection, OptionalExtension, Row, params};
use serde_json::{Value, json};

use super::body::json_body;
use super::params::{Page, Q, non_empty, paginate};
use crate::server::error::{ApiError, ApiResult};
use crate::server::state::Shared;
use crate::server::validate::rename_title;

const PER_PAGE: u64 = 20;

fn channel_json(r: &Row<'_>) -> rusqlite::Result<Value> {
    Ok(json!({
        "uuid": r.get::<_, String>(0)?,
        "title": r.get::<_, String>(1)?,
        "type": r.get::<_, String>(2)?,
        "main": r.get::<_, bool>(3)?,
    }))
}

fn load(conn: &Connection, uuid: &str) -> ApiResult<Value> {
    conn.query_row(
        "SELECT uuid, title, type, main FROM channels WHERE uuid = ?1",
        [uuid],
        channel_json,
    )
    .optional()?
    .ok_or_else(|| ApiError::not_found("channel"))
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct ListQuery {
    page: Page,
    #[serde(rename = "type")]
    kind: Option<String>,
    /// `true` or `false` (the documentation's filter).
    active: Option<String>,
}

pub async fn list(State(st): State<Shared>, Q(q): Q<ListQuery>) -> ApiResult<Json<Value>> {
    let page = q.page;
    let kind = non_empty(&q.kind).map(str::to_string);
    let active: Option<bool> = match non_empty(&q.active) {
        None => None,
        Some("true") => Some(true),
        Some("false") => Some(false),
        Some(_) => return Err(ApiError::invalid("active", "must be true or false")),
    };
    st.db(move |conn| {
        let all = conn
            .prepare(
                "SELECT uuid, title, type, main FROM channels
                 WHERE (?1 IS NULL OR type = ?1) AND (?2 IS NULL OR active = ?2) ORDER BY id",
            )?
            .query_map(rusqlite::params![kind, active], channel_json)?
            .collect::<Result<Vec<_>, _>>()?;
        let (channels, meta) = paginate(all, page, PER_PAGE);
        Ok(Json(json!({ "channels": channels, "meta": meta })))
    })
    .await
}

pub async fn rename(State(st): State<Shared>, Path(uuid): Path<String>, body: Bytes) -> ApiResult<Json<Value>> {
    let map = json_body(&body)?;
    st.db(move |conn| {
        load(conn, &uuid)?;
        if let Some(t) = rename_title(&map)? {
            conn.execute("UPDATE channels SET title = ?1 WHERE uuid = ?2", params![t, uuid])?;
        }
        Ok(Json(json!({ "channel": load(conn, &uuid)? })))
    })
    .await
}

/// GET /channels/:uuid.
pub async fn show(State(st): State<Shared>, Path(uuid): Path<String>) -> ApiResult<Json<Value>> {
    st.db(move |conn| Ok(Json(json!({ "channel": load(conn, &uuid)? }))))
        .await
}
