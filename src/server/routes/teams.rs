//! Teams and their members.

use axum::Json;
use axum::extract::{Path, State};
use rusqlite::{Connection, OptionalExtension, Row};
use serde_json::{Value, json};

use super::params::{Page, PageQuery, Q, non_empty, paginate};
use crate::server::db::{iso, rfc3339_offset};
use crate::server::error::{ApiError, ApiResult};
use crate::server::state::Shared;
use crate::server::validate::{NAME_MAX_CHARS, finish, opt_str, push};

const PER_PAGE: u64 = 20;
const SELECT: &str = "SELECT t.uuid, t.name, t.created_at, t.is_default,
  (SELECT COUNT(*) FROM team_members m WHERE m.team_id = t.id) FROM teams t";

fn team_json(r: &Row<'_>) -> rusqlite::Result<Value> {
    Ok(json!({
        "uuid": r.get::<_, String>(0)?,
        "name": r.get::<_, String>(1)?,
        "createdAt": iso(r.get(2)?),
        "default": r.get::<_, bool>(3)?,
        "members": r.get::<_, i64>(4)?,
    }))
}

pub fn all_teams(conn: &Connection) -> rusqlite::Result<Vec<Value>> {
    conn.prepare(&format!("{SELECT} ORDER BY t.id"))?
        .query_map([], team_json)?
        .collect()
}

pub async fn list(State(st): State<Shared>, Q(q): Q<PageQuery>) -> ApiResult<Json<Value>> {
    let page = q.page;
    st.db(move |conn| {
        let (teams, meta) = paginate(all_teams(conn)?, page, PER_PAGE);
        Ok(Json(json!({ "teams": teams, "meta": meta })))
    })
    .await
}

fn load(conn: &Connection, uuid: &str) -> ApiResult<Value> {
    conn.query_row(&format!("{SELECT} WHERE t.uuid = ?1"), [uuid], team_json)
        .optional()?
        .ok_or_else(|| ApiError::not_found("team"))
}

pub async fn show(State(st): State<Shared>, Path(uuid): Path<String>) -> ApiResult<Json<Value>> {
    st.db(move |conn| Ok(Json(json!({ "team": load(conn, &uuid)? })))).await
}

/// PATCH /teams/:uuid `{name}` (optional): the team renamed.
pub async fn rename(
    State(st): State<Shared>,
    Path(uuid): Path<String>,
    body: axum::body::Bytes,
) -> ApiResult<Json<Value>> {
    let map = super::body::json_body(&body)?;
    st.db(move |conn| {
        load(conn, &uuid)?;
        let mut errs = crate::server::error::FieldErrors::new();
        let name = opt_str(&map, "name", &mut errs).map(|n| n.trim().to_string());
        match name.as_deref() {
            Some("") => push(&mut errs, "name", "must not be empty"),
            Some(n) if n.chars().count() > NAME_MAX_CHARS => push(
                &mut errs,
                "name",
                format!("is too long ({NAME_MAX_CHARS} characters at most)"),
            ),
            _ => {}
        }
        finish(errs)?;
        if let Some(n) = name {
            conn.execute("UPDATE teams SET name = ?1 WHERE uuid = ?2", rusqlite::params![n, uuid])?;
        }
        Ok(Json(json!({ "team": load(conn, &uuid)? })))
    })
    .await
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct MembersQuery {
    page: Page,
    status: Option<String>,
}

pub async fn members(
    State(st): State<Shared>,
    Path(uuid): Path<String>,
    Q(q): Q<MembersQuery>,
) -> ApiResult<Json<Value>> {
    let page = q.page;
    let available: Option<bool> = match non_empty(&q.status) {
        None => None,
        Some("available") => Some(true),
        Some("away") => Some(false),
        Some(_) => return Err(ApiError::invalid("status", "must be available or away")),
    };
    st.db(move |conn| {
        let team: i64 = conn
            .query_row("SELECT id FROM teams WHERE uuid = ?1", [&uuid], |r| r.get(0))
            .optional()?
            .ok_or_else(|| ApiError::not_found("team"))?;
        let users = conn
            .prepare(
                "SELECT u.email, u.name, u.available, u.available_at, s.uuid, s.name, s.emoji
                 FROM team_members m JOIN users u ON u.id = m.user_id
                 LEFT JOIN custom_statuses s ON s.id = u.custom_status_id
                 WHERE m.team_id = ?1 AND (?2 IS NULL OR u.available = ?2) ORDER BY u.id",
            )?
            .query_map(rusqlite::params![team, available], |r| {
                let status: Option<String> = r.get(4)?;
                Ok(json!({
                    "email": r.get::<_, String>(0)?,
                    "name": r.get::<_, String>(1)?,
                    "available": r.get::<_, bool>(2)?,
                    "lastUpdatedAt": rfc3339_offset(r.get(3)?),
                    "userCustomStatus": match status {
                        Some(id) => json!({ "id": id, "name": r.get::<_, String>(5)?, "emoji": r.get::<_, String>(6)? }),
                        None => Value::Null,
                    },
                }))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        let (users, meta) = paginate(users, page, PER_PAGE);
        Ok(Json(json!({ "users": users, "meta": meta })))
    })
    .await
}
