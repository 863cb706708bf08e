//! The account's webhook: subscribe, unsubscribe, and the event log (newest
//! first).

use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use rusqlite::params_from_iter;
use rusqlite::types::Value as Sql;
use serde_json::{Value, json};

use super::body::json_body;
use super::params::{Page, Q, non_empty, offset, pages};
use crate::server::db::{iso, legacy};
use crate::server::error::{ApiError, ApiResult};
use crate::server::state::Shared;
use crate::server::validate::{finish, push};
use crate::server::webhooks::hooks::{self, KINDS, Subscription};
use crate::server::webhooks::loopback::check_loopback;

const DEFAULT_ITEMS: u64 = 20;
const MAX_ITEMS: u64 = 100;

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct EventsQuery {
    page: Page,
    /// Validated by hand: a bad value is a 422 naming `items` (extensions.md).
    items: Option<String>,
    status: Option<String>,
    subscriptions: Option<String>,
}

pub async fn list(State(st): State<Shared>, Q(q): Q<EventsQuery>) -> ApiResult<Json<Value>> {
    let page = q.page;
    let items = match non_empty(&q.items) {
        None => DEFAULT_ITEMS,
        Some(s) => s
            .parse::<u64>()
            .ok()
            .filter(|n| (1..=MAX_ITEMS).contains(n))
            .ok_or_else(|| ApiError::invalid("items", format!("must be a number from 1 to {MAX_ITEMS}")))?,
    };
    let mut conds = Vec::new();
    let mut args = Vec::new();
    match non_empty(&q.status) {
        None => {}
        Some("success") => conds.push("success = 1".to_string()),
        Some("failed") => conds.push("success = 0".to_string()),
        Some(_) => return Err(ApiError::invalid("status", "must be failed or success")),
    }
    if let Some(subs) = &q.subscriptions {
        let kinds: Vec<&str> = subs.split(',').map(str::trim).filter(|s| !s.is_empty()).collect();
        if !kinds.is_empty() {
            conds.push(format!("event IN ({})", vec!["?"; kinds.len()].join(", ")));
            args.extend(kinds.iter().map(|k| Sql::Text(k.to_string())));
        }
    }
    let filter = if conds.is_empty() {
        String::new()
    } else {
        format!("WHERE {}", conds.join(" AND "))
    };
    st.db(move |conn| {
        let total: i64 = conn.query_row(
            &format!("SELECT COUNT(*) FROM webhook_events {filter}"),
            params_from_iter(args.iter()),
            |r| r.get(0),
        )?;
        // Past anything SQLite can skip: an empty page.
        let Some(offset) = offset(page, items) else {
            return Ok(Json(json!({
                "webhook_events": [],
                "meta": { "page": page.0, "pages": pages(total as u64, items) }
            })));
        };
        let events = conn
            .prepare(&format!(
                "SELECT event, payload, response, success, created_at FROM webhook_events {filter}
                 ORDER BY created_at DESC, id DESC LIMIT {items} OFFSET {offset}"
            ))?
            .query_map(params_from_iter(args.iter()), |r| {
                let response: String = r.get(2)?;
                Ok(json!({
                    "event": r.get::<_, String>(0)?,
                    "payload": r.get::<_, String>(1)?,
                    "response": serde_json::from_str::<Value>(&response).unwrap_or(Value::Null),
                    "success": r.get::<_, bool>(3)?,
                    "createdAt": iso(r.get(4)?),
                }))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Json(
            json!({ "webhook_events": events, "meta": { "page": page.0, "pages": pages(total as u64, items) } }),
        ))
    })
    .await
}

/// POST /webhooks/subscribe `{url, subscriptions: [kind, ...]}`: the
/// account's one webhook; a second subscription replaces the first.
pub async fn subscribe(State(st): State<Shared>, body: Bytes) -> ApiResult<Json<Value>> {
    let map = json_body(&body)?;
    let mut errs = crate::server::error::FieldErrors::new();
    let url = match map.get("url") {
        Some(Value::String(u)) => check_loopback(u).map_err(|m| push(&mut errs, "url", m)).ok(),
        None | Some(Value::Null) => {
            push(&mut errs, "url", "is required");
            None
        }
        Some(_) => {
            push(&mut errs, "url", "must be a string");
            None
        }
    };
    let kinds = match map.get("subscriptions") {
        Some(Value::Array(a)) if !a.is_empty() => {
            let mut kinds: Vec<String> = Vec::new();
            for k in a {
                match k.as_str() {
                    Some(k) if KINDS.contains(&k) => {
                        if !kinds.iter().any(|have| have == k) {
                            kinds.push(k.to_string());
                        }
                    }
                    Some(k) => push(
                        &mut errs,
                        "subscriptions",
                        format!("unknown event kind {k:?}; known: {}", KINDS.join(", ")),
                    ),
                    None => push(&mut errs, "subscriptions", "must list event kinds as strings"),
                }
            }
            kinds
        }
        _ => {
            push(&mut errs, "subscriptions", "must be a non-empty list of event kinds");
            Vec::new()
        }
    };
    finish(errs)?;
    let url = url.ok_or_else(|| ApiError::invalid("url", "is required"))?;
    let sub = Subscription {
        url: url.clone(),
        kinds: kinds.clone(),
    };
    keep(&st, Some(sub.clone())).await?;
    st.hooks.set(Some(sub));
    let created = legacy(st.clock.now_ms());
    Ok(Json(json!({ "webhook": {
        "url": url,
        "subscriptions": kinds,
        "createdAt": created,
        "enabled": true,
    }})))
}

/// DELETE /webhooks/unsubscribe: no webhook any more (also when there was
/// none). Answers as the documentation shows.
pub async fn unsubscribe(State(st): State<Shared>) -> ApiResult<Json<Value>> {
    keep(&st, None).await?;
    st.hooks.set(None);
    Ok(Json(json!({ "status": "webhook was destroyed" })))
}

/// Keeps the subscription in the database, so a restart delivers on.
async fn keep(st: &Shared, sub: Option<Subscription>) -> ApiResult<()> {
    st.db(move |conn| Ok(hooks::store(conn, sub.as_ref())?)).await
}
