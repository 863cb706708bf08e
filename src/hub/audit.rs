//! The audit log: which agent made which write, when. A write is
//! recorded before its answer goes back, so no acknowledged write is
//! missing after a crash.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, SecondsFormat, Utc};
use rusqlite::params;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::error::HubError;
use super::state::HubState;
use super::store::Store;
use super::wire;

/// One write.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub at: String,
    pub agent: String,
    pub method: String,
    pub path: String,
    pub status: u16,
    pub contact: Option<String>,
    /// The contact's name as the hub's index holds it (filled when read).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// Most entries one read returns.
pub const MAX_LIMIT: usize = 1000;

fn stamp(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Micros, true)
}

pub fn record(
    store: &Store,
    agent: &str,
    method: &str,
    path: &str,
    status: u16,
    contact: Option<&str>,
) -> Result<(), HubError> {
    store.conn().execute(
        "INSERT INTO audit (at, agent, method, path, status, contact) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![stamp(Utc::now()), agent, method, path, status, contact],
    )?;
    Ok(())
}

/// Entries at or after `since`, newest first, at most `limit` (so
/// `--limit 3` is the three newest).
pub fn read(store: &Store, since: Option<DateTime<Utc>>, limit: usize) -> Result<Vec<Entry>, HubError> {
    let since = since.map(stamp).unwrap_or_default();
    let limit = i64::try_from(limit.min(MAX_LIMIT)).unwrap_or(100);
    let conn = store.conn();
    let mut stmt = conn.prepare(
        "SELECT at, agent, method, path, status, contact FROM audit WHERE at >= ?1 ORDER BY id DESC LIMIT ?2",
    )?;
    let rows = stmt.query_map(params![since, limit], |r| {
        Ok(Entry {
            at: r.get(0)?,
            agent: r.get(1)?,
            method: r.get(2)?,
            path: r.get(3)?,
            status: r.get(4)?,
            contact: r.get(5)?,
            name: None,
        })
    })?;
    Ok(rows.collect::<Result<Vec<_>, _>>()?)
}

/// Each entry's contact name, from `index` (the hub's, in its data dir).
pub fn name_contacts(index: &mut impl crate::index::IndexAccess, entries: &mut [Entry]) {
    index.with(|ix| {
        for e in entries.iter_mut() {
            if let Some(uuid) = &e.contact {
                e.name = ix.get(uuid).ok().flatten().map(|c| c.name).filter(|n| !n.is_empty());
            }
        }
    });
}

#[derive(Debug, Deserialize)]
pub struct Params {
    since: Option<String>,
    limit: Option<usize>,
}

/// `GET /hub/v1/audit?since=<rfc3339>&limit=N`.
pub async fn get(State(st): State<Arc<HubState>>, Query(p): Query<Params>) -> Response {
    let since = match p.since.as_deref().map(DateTime::parse_from_rfc3339) {
        None => None,
        Some(Ok(t)) => Some(t.with_timezone(&Utc)),
        Some(Err(_)) => {
            return wire::error(StatusCode::BAD_REQUEST, "since must be an RFC 3339 time").into_response();
        }
    };
    match read(&st.store, since, p.limit.unwrap_or(100)) {
        Ok(mut entries) => {
            name_contacts(&mut st.index.clone(), &mut entries);
            Json(json!({ "entries": entries })).into_response()
        }
        Err(e) => {
            tracing::error!("audit: {e}");
            wire::error(StatusCode::SERVICE_UNAVAILABLE, "the audit log cannot be read").into_response()
        }
    }
}
