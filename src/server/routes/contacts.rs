//! Contacts: list (pages and keyset cursors), get, create, update, close, open.

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use rusqlite::types::Value as Sql;
use rusqlite::{Connection, params, params_from_iter};
use serde_json::{Map, Value, json};

use super::body::json_body;
use super::contact_view::{ContactRow, SELECT, find_contact, find_patched, load_contact};
use super::params::{FieldTypesQuery, Flag, Page, Q, non_empty, offset, pages};
use crate::server::config::Paging;
use crate::server::cursor::Cursor;
use crate::server::db::hex32;
use crate::server::error::{ApiError, ApiResult};
use crate::server::state::Shared;
use crate::server::validate::{self, ContactWrite};
use crate::server::webhooks::{Event, emit};

pub const PER_PAGE: i64 = 20;
pub const MAX_PAGE: u64 = 500;

/// Filters of GET /contacts, applied in both modes and never stored in a cursor.
/// `tags` keeps contacts carrying every listed tag (case-insensitive).
fn filters(q: &ListQuery) -> (Vec<String>, Vec<Sql>) {
    let (mut conds, mut args) = (Vec::new(), Vec::new());
    if let Some(source) = non_empty(&q.source) {
        conds.push("c.source = ?".to_string());
        args.push(Sql::Text(source.to_string()));
    }
    if let Some(tags) = &q.tags {
        for tag in tags.split(',').map(str::trim).filter(|t| !t.is_empty()) {
            conds.push("EXISTS (SELECT 1 FROM json_each(c.tags) j WHERE j.value = ? COLLATE NOCASE)".into());
            args.push(Sql::Text(tag.to_string()));
        }
    }
    if let Some(team) = non_empty(&q.team_uuid) {
        conds.push("c.team_id = (SELECT id FROM teams WHERE uuid = ?)".into());
        args.push(Sql::Text(team.to_string()));
    }
    (conds, args)
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct ListQuery {
    after: Option<String>,
    page: Page,
    source: Option<String>,
    tags: Option<String>,
    team_uuid: Option<String>,
    include_field_types: Flag,
}

pub async fn list(State(st): State<Shared>, Q(q): Q<ListQuery>) -> ApiResult<Json<Value>> {
    // The documentation's paging knows no cursor: `after` is not read.
    let docs = st.paging == Paging::Docs;
    let after = q.after.as_deref().filter(|s| !s.is_empty() && !docs);
    let cursor = match after {
        Some(s) => Some(Cursor::decode(s).ok_or_else(|| ApiError::BadRequest("Invalid pagination cursor".into()))?),
        None => None,
    };
    let page = if cursor.is_some() { Page(1) } else { q.page };
    if cursor.is_none() && page.0 > MAX_PAGE {
        return Err(ApiError::BadRequest("Pagination limit exceeded".into()));
    }
    // At most MAX_PAGE here, so the offset is small.
    let offset = offset(page, PER_PAGE as u64).unwrap_or(0);
    let with_fields = q.include_field_types.0;
    let (mut conds, mut args) = filters(&q);
    st.db(move |conn| {
        let defs = if with_fields {
            Some(validate::load_fields(conn)?)
        } else {
            None
        };
        let mut meta = Map::new();
        let max_id = match cursor {
            Some(c) => {
                conds.push("(c.last_activity, c.id) < (?, ?) AND c.id <= ?".into());
                args.extend([Sql::Integer(c.key), Sql::Integer(c.id), Sql::Integer(c.max_id)]);
                c.max_id
            }
            None => {
                let total: i64 = conn.query_row(&count_sql(&conds), params_from_iter(args.iter()), |r| r.get(0))?;
                meta.insert("page".into(), json!(page.0));
                meta.insert("pages".into(), json!(pages(total as u64, PER_PAGE as u64)));
                conn.query_row("SELECT COALESCE(MAX(id), 0) FROM contacts", [], |r| r.get(0))?
            }
        };
        let sql = format!(
            "{SELECT} {} ORDER BY c.last_activity DESC, c.id DESC LIMIT {} OFFSET {offset}",
            where_clause(&conds),
            PER_PAGE + 1
        );
        let mut rows = conn
            .prepare_cached(&sql)?
            .query_map(params_from_iter(args.iter()), ContactRow::from_row)?
            .collect::<Result<Vec<_>, _>>()?;
        let more = rows.len() as i64 > PER_PAGE;
        rows.truncate(PER_PAGE as usize);
        let next = match rows.last() {
            Some(last) if more => json!(
                Cursor {
                    key: last.last_activity,
                    id: last.id,
                    max_id
                }
                .encode()
            ),
            _ => Value::Null,
        };
        meta.insert("next".into(), next);
        let contacts: Vec<Value> = rows.iter().map(|c| c.to_json(defs.as_deref())).collect();
        if docs {
            return Ok(Json(json!({ "contacts": contacts })));
        }
        Ok(Json(json!({ "contacts": contacts, "meta": meta })))
    })
    .await
}

fn where_clause(conds: &[String]) -> String {
    if conds.is_empty() {
        String::new()
    } else {
        format!("WHERE {}", conds.join(" AND "))
    }
}

fn count_sql(conds: &[String]) -> String {
    format!("SELECT COUNT(*) FROM contacts c {}", where_clause(conds))
}

pub async fn show(
    State(st): State<Shared>,
    Path(uuid): Path<String>,
    Q(q): Q<FieldTypesQuery>,
) -> ApiResult<Json<Value>> {
    let with_fields = q.include_field_types.0;
    st.db(move |conn| {
        let id = find_contact(conn, &uuid)?;
        let defs = if with_fields {
            Some(validate::load_fields(conn)?)
        } else {
            None
        };
        Ok(Json(
            json!({ "contact": [load_contact(conn, id)?.to_json(defs.as_deref())] }),
        ))
    })
    .await
}

pub async fn create(State(st): State<Shared>, body: Bytes) -> ApiResult<(StatusCode, Json<Value>)> {
    let map = json_body(&body)?;
    let bot_enabled = st.bot_enabled;
    let (contact, short) = st
        .db_now(move |conn, now| {
            let tx = conn.transaction()?;
            let w = validate::contact_write(&tx, &map, true, bot_enabled)?;
            let id = insert_contact(&tx, &w, bot_enabled, now)?;
            let row = load_contact(&tx, id)?;
            tx.commit()?;
            Ok((row.to_json(None), row.short_json()))
        })
        .await?;
    emit(&st, vec![Event::contact("contact_created", short)]).await;
    Ok((StatusCode::CREATED, Json(json!({ "contact": [contact] }))))
}

fn insert_contact(conn: &Connection, w: &ContactWrite, bot_enabled: bool, now: i64) -> ApiResult<i64> {
    let mut rng = rand::rng();
    let channel_id: i64 = match w.channel_id {
        Some(id) => id,
        None => conn.query_row("SELECT id FROM channels WHERE main = 1 ORDER BY id LIMIT 1", [], |r| {
            r.get(0)
        })?,
    };
    let funnel: String = conn.query_row("SELECT uuid FROM funnels ORDER BY position, id LIMIT 1", [], |r| {
        r.get(0)
    })?;
    let custom: Map<String, Value> = w
        .custom_fields
        .iter()
        .filter_map(|(k, v)| v.as_ref().map(|v| (k.clone(), Value::String(v.clone()))))
        .collect();
    // With a bot in the account a new contact's bot starts by default.
    let bot = if bot_enabled {
        Some(w.bot_status.unwrap_or("started"))
    } else {
        None
    };
    conn.execute(
        "INSERT INTO contacts (uuid, conversation_uuid, name, phone, avatar_url, created_at, source, assigned_user,
           team_id, channel_id, closed_at, funnel_uuid, note, tags, custom_fields, bot_status, bot_started_at,
           last_activity)
         VALUES (?1, ?2, ?3, ?4, NULL, ?5, ?6, ?7, ?8, ?9, NULL, ?10, ?11, ?12, ?13, ?14, ?15, ?5)",
        params![
            hex32(&mut rng),
            hex32(&mut rng),
            w.name,
            w.identifier,
            now,
            w.source,
            w.assigned_user.clone().flatten(),
            w.team_id.flatten(),
            channel_id,
            funnel,
            w.note.clone().flatten(),
            serde_json::to_string(w.tags.as_deref().unwrap_or(&[])).unwrap_or_else(|_| "[]".into()),
            Value::Object(custom).to_string(),
            bot,
            (bot == Some("started")).then_some(now),
        ],
    )?;
    Ok(conn.last_insert_rowid())
}

pub async fn update(State(st): State<Shared>, Path(uuid): Path<String>, body: Bytes) -> ApiResult<Json<Value>> {
    let map = json_body(&body)?;
    let bot_enabled = st.bot_enabled;
    let (contact, short) = st
        .db_now(move |conn, now| {
            let tx = conn.transaction()?;
            let id = find_patched(&tx, &uuid)?;
            let w = validate::contact_write(&tx, &map, false, bot_enabled)?;
            let row = load_contact(&tx, id)?;
            if let Some(name) = &w.name {
                tx.execute("UPDATE contacts SET name = ?1 WHERE id = ?2", params![name, id])?;
            }
            if let Some(tags) = &w.tags {
                tx.execute(
                    "UPDATE contacts SET tags = ?1 WHERE id = ?2",
                    params![serde_json::to_string(tags).unwrap_or_else(|_| "[]".into()), id],
                )?;
            }
            if !w.custom_fields.is_empty() {
                let mut custom: Map<String, Value> = serde_json::from_str(&row.custom_fields).unwrap_or_default();
                for (k, v) in &w.custom_fields {
                    match v {
                        Some(v) => custom.insert(k.clone(), Value::String(v.clone())),
                        None => custom.remove(k),
                    };
                }
                tx.execute(
                    "UPDATE contacts SET custom_fields = ?1 WHERE id = ?2",
                    params![Value::Object(custom).to_string(), id],
                )?;
            }
            if let Some(user) = &w.assigned_user {
                tx.execute(
                    "UPDATE contacts SET assigned_user = ?1 WHERE id = ?2",
                    params![user, id],
                )?;
            }
            if let Some(team) = w.team_id {
                tx.execute("UPDATE contacts SET team_id = ?1 WHERE id = ?2", params![team, id])?;
            }
            if let Some(channel) = w.channel_id {
                tx.execute(
                    "UPDATE contacts SET channel_id = ?1 WHERE id = ?2",
                    params![channel, id],
                )?;
            }
            if let Some(status) = w.bot_status {
                set_bot(&tx, id, status, now)?;
            }
            if let Some(note) = &w.note {
                tx.execute("UPDATE contacts SET note = ?1 WHERE id = ?2", params![note, id])?;
            }
            let row = load_contact(&tx, id)?;
            tx.commit()?;
            Ok((row.to_json(None), row.short_json()))
        })
        .await?;
    emit(&st, vec![Event::contact("contact_updated", short)]).await;
    Ok(Json(json!({ "contact": [contact] })))
}

/// Set a contact's bot status; a start restarts the bot's conversation.
pub fn set_bot(conn: &Connection, id: i64, status: &str, now: i64) -> rusqlite::Result<()> {
    if status == "started" {
        conn.execute(
            "UPDATE contacts SET bot_status = 'started', bot_started_at = ?1 WHERE id = ?2",
            params![now, id],
        )?;
    } else {
        conn.execute("UPDATE contacts SET bot_status = ?1 WHERE id = ?2", params![status, id])?;
    }
    Ok(())
}

async fn set_closed(st: &Shared, uuid: String, close: bool) -> ApiResult<Value> {
    let contact = st
        .db_now(move |conn, now| {
            let id = find_contact(conn, &uuid)?;
            // Closing a closed conversation keeps its first closedAt, and
            // opening an open one changes nothing: a retry is harmless.
            let changed = if close {
                conn.execute(
                    "UPDATE contacts SET closed_at = ?1 WHERE id = ?2 AND closed_at IS NULL",
                    params![now, id],
                )?
            } else {
                conn.execute(
                    "UPDATE contacts SET closed_at = NULL WHERE id = ?1 AND closed_at IS NOT NULL",
                    [id],
                )?
            };
            let row = load_contact(conn, id)?;
            // The API's close takes no reason: on a close the field is
            // there, empty.
            let conversation = row.conversation_json(close.then_some(None));
            Ok((row.to_json(None), conversation, changed > 0))
        })
        .await?;
    let (contact, conversation, changed) = contact;
    if !changed {
        return Ok(contact);
    }
    let kind = if close {
        "conversation_closed"
    } else {
        "conversation_opened"
    };
    let event = Event::contact(kind, conversation);
    emit(st, vec![event]).await;
    Ok(contact)
}

/// The reference shows this response's contact as an object.
pub async fn close(State(st): State<Shared>, Path(uuid): Path<String>) -> ApiResult<Json<Value>> {
    Ok(Json(json!({ "contact": set_closed(&st, uuid, true).await? })))
}

pub async fn open(State(st): State<Shared>, Path(uuid): Path<String>) -> ApiResult<Json<Value>> {
    Ok(Json(json!({ "contact": [set_closed(&st, uuid, false).await?] })))
}
