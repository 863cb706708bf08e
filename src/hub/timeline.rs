//! One conversation's timeline (issue 36): who closed, opened, assigned,
//! tagged or moved it, and when, for the thread to show between messages.
//! The audit log keeps each write's method and path; what the write did
//! (to whom it assigned, which tags) is in its body, kept here in words
//! when the service took it (`note`, called once the write's answer is
//! in). A close's reason comes from the webhook (`closings`); a close made
//! elsewhere (the dashboard, a rule) shows from it alone, by "someone".
//!
//! `GET /hub/v1/timeline/{contact}`: `{"events": [{"at", "agent", "what"}]}`,
//! oldest first (at most [`MAX_EVENTS`], the newest). Words are built from
//! what the agents and the service sent: the reader makes them inert.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{Method, StatusCode};
use axum::response::{IntoResponse, Response};
use chrono::{SecondsFormat, Utc};
use rusqlite::{OptionalExtension, params};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::error::HubError;
use super::state::HubState;
use super::store::Store;
use super::wire;

/// The newest events one read returns.
pub const MAX_EVENTS: usize = 200;

const TABLE: &str = "CREATE TABLE IF NOT EXISTS timeline (
        id INTEGER PRIMARY KEY,
        at TEXT NOT NULL,
        agent TEXT NOT NULL,
        contact TEXT NOT NULL,
        what TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS timeline_by_contact ON timeline (contact, id);";

/// One change of a conversation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    /// RFC 3339.
    pub at: String,
    /// The agent who made it (`None`: not through this hub).
    pub agent: Option<String>,
    /// "closed", "assigned to bea@…", "tags set to vip, urgent".
    pub what: String,
    /// A close's reason (the service's `closingReason`), when it gave one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// What a write of `method` on `path` with `body` did to its contact, in
/// words; `None` for what is no change of the conversation (a send, a
/// read).
pub fn what(method: &Method, path: &str, body: &[u8]) -> Option<String> {
    let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
    let body: Value = serde_json::from_slice(body).unwrap_or(Value::Null);
    let s = |k: &str| body.get(k).and_then(Value::as_str).map(str::to_string);
    match (method.as_str(), parts.as_slice()) {
        ("POST", ["contacts", _, "conversation", "close"]) => Some("closed".into()),
        ("POST", ["contacts", _, "conversation", "open"]) => Some("opened".into()),
        ("PUT", ["contacts", _, "conversation", "update_funnel"]) => Some("moved funnel".into()),
        ("PATCH", ["contacts", _]) => {
            let mut did = Vec::new();
            if let Some(to) = s("assigned_user") {
                did.push(format!("assigned to {to}"));
            }
            if body.get("unassign_user").and_then(Value::as_bool) == Some(true) {
                did.push("unassigned".into());
            }
            if let Some(tags) = body.get("tags").and_then(Value::as_array) {
                let tags: Vec<&str> = tags.iter().filter_map(Value::as_str).collect();
                did.push(if tags.is_empty() {
                    "untagged all".into()
                } else {
                    format!("tags set to {}", tags.join(", "))
                });
            }
            if body.get("team_uuid").is_some() {
                did.push("moved to another team".into());
            }
            (!did.is_empty()).then(|| did.join("; "))
        }
        _ => None,
    }
}

fn ensure(store: &Store) -> Result<(), HubError> {
    store.conn().execute_batch(TABLE)?;
    Ok(())
}

/// Keeps what `agent`'s write did to `contact`, once the service took it.
pub fn note(store: &Store, agent: &str, method: &Method, path: &str, body: &[u8], contact: Option<&str>) {
    let (Some(contact), Some(what)) = (contact, what(method, path, body)) else {
        return;
    };
    let at = Utc::now().to_rfc3339_opts(SecondsFormat::Micros, true);
    let kept = ensure(store).and_then(|()| {
        store.conn().execute(
            "INSERT INTO timeline (at, agent, contact, what) VALUES (?1, ?2, ?3, ?4)",
            params![at, agent, contact, what],
        )?;
        Ok(())
    });
    if let Err(e) = kept {
        tracing::warn!("the timeline could not be written: {e}");
    }
}

/// `contact`'s events, oldest first; the last close carries its reason.
pub fn read(store: &Store, contact: &str) -> Result<Vec<Event>, HubError> {
    ensure(store)?;
    let conn = store.conn();
    let mut stmt = conn.prepare("SELECT at, agent, what FROM timeline WHERE contact = ?1 ORDER BY id DESC LIMIT ?2")?;
    let limit = i64::try_from(MAX_EVENTS).unwrap_or(200);
    let rows = stmt.query_map(params![contact, limit], |r| {
        Ok(Event {
            at: r.get(0)?,
            agent: Some(r.get(1)?),
            what: r.get(2)?,
            reason: None,
        })
    })?;
    let mut events = rows.collect::<Result<Vec<_>, _>>()?;
    events.reverse();
    let closing: Option<(Option<String>, Option<String>)> = conn
        .query_row(
            "SELECT closed_at, reason FROM closings WHERE contact = ?1",
            [contact],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    if let Some((Some(closed_at), reason)) = closing {
        let reason = reason.filter(|r| !r.trim().is_empty());
        match events.iter_mut().rev().find(|e| e.what == "closed") {
            Some(e) => e.reason = reason,
            None => {
                events.push(Event {
                    at: closed_at,
                    agent: None,
                    what: "closed".into(),
                    reason,
                });
                events.sort_by(|a, b| a.at.cmp(&b.at));
            }
        }
    }
    Ok(events)
}

/// `GET /hub/v1/timeline/{contact}`.
pub async fn get(State(st): State<Arc<HubState>>, Path(contact): Path<String>) -> Response {
    if !super::presence::valid_uuid(&contact) {
        return wire::error(StatusCode::BAD_REQUEST, "the path must name a contact uuid").into_response();
    }
    match read(&st.store, &contact) {
        Ok(events) => Json(json!({ "events": events })).into_response(),
        Err(e) => {
            tracing::error!("timeline: {e}");
            wire::error(StatusCode::SERVICE_UNAVAILABLE, "the timeline cannot be read").into_response()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_is_said_by_what_it_did() {
        let patch = |b: Value| what(&Method::PATCH, "/contacts/u1", b.to_string().as_bytes());
        assert_eq!(
            patch(json!({"assigned_user": "bea@x.co"})).as_deref(),
            Some("assigned to bea@x.co")
        );
        assert_eq!(patch(json!({"unassign_user": true})).as_deref(), Some("unassigned"));
        assert_eq!(patch(json!({"tags": ["vip"]})).as_deref(), Some("tags set to vip"));
        assert_eq!(patch(json!({"name": "Ana"})), None, "an edit of fields is no event");
        let close = what(&Method::POST, "/contacts/u1/conversation/close", b"");
        assert_eq!(close.as_deref(), Some("closed"));
        assert_eq!(what(&Method::POST, "/messages/send", b"{}"), None);
    }
}
