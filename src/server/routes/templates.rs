//! Message templates.

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, State};
use rusqlite::{Connection, OptionalExtension, Row, params};
use serde_json::{Value, json};

use super::body::json_body;
use super::params::{PageQuery, Q, paginate};
use crate::server::db::iso;
use crate::server::error::{ApiError, ApiResult};
use crate::server::state::Shared;
use crate::server::validate::rename_title;

const PER_PAGE: u64 = 20;
const COLUMNS: &str = "uuid, title, template_type, category, status, text, created_at";

fn template_json(r: &Row<'_>) -> rusqlite::Result<Value> {
    Ok(json!({
        "uuid": r.get::<_, String>(0)?,
        "title": r.get::<_, String>(1)?,
        "templateType": r.get::<_, String>(2)?,
        "category": r.get::<_, String>(3)?,
        "status": r.get::<_, String>(4)?,
        "text": r.get::<_, String>(5)?,
        "createdAt": iso(r.get(6)?),
    }))
}

fn load(conn: &Connection, uuid: &str) -> ApiResult<Value> {
    conn.query_row(
        &format!("SELECT {COLUMNS} FROM templates WHERE uuid = ?1"),
        [uuid],
        template_json,
    )
    .optional()?
    .ok_or_else(|| ApiError::not_found("template"))
}

pub async fn list(State(st): State<Shared>, Q(q): Q<PageQuery>) -> ApiResult<Json<Value>> {
    let page = q.page;
    st.db(move |conn| {
        let all = conn
            .prepare(&format!(
                "SELECT {COLUMNS} FROM templates ORDER BY created_at DESC, id DESC"
            ))?
            .query_map([], template_json)?
            .collect::<Result<Vec<_>, _>>()?;
        let (templates, meta) = paginate(all, page, PER_PAGE);
        Ok(Json(json!({ "templates": templates, "meta": meta })))
    })
    .await
}

pub async fn show(State(st): State<Shared>, Path(uuid): Path<String>) -> ApiResult<Json<Value>> {
    st.db(move |conn| Ok(Json(json!({ "template": load(conn, &uuid)? }))))
        .await
}

/// The reference's example wraps the renamed template under `templates`.
pub async fn rename(State(st): State<Shared>, Path(uuid): Path<String>, body: Bytes) -> ApiResult<Json<Value>> {
    let map = json_body(&body)?;
    st.db(move |conn| {
        load(conn, &uuid)?;
        if let Some(t) = rename_title(&map)? {
            conn.execute("UPDATE templates SET title = ?1 WHERE uuid = ?2", params![t, uuid])?;
        }
        Ok(Json(json!({ "templates": load(conn, &uuid)? })))
    })
    .await
}
