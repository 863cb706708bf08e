//! Who is looking at or answering which contact. A presence lasts
//! `presence_ttl` (30 s) after its last renewal; on expiry the others get
//! an `idle` event.

use std::sync::{Arc, PoisonError};
use std::time::Duration;

use axum::Extension;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, SecondsFormat, Utc};
use serde_json::{Value, json};

use super::auth::Authed;
use super::state::HubState;
use super::wire;

const STATES: &[&str] = &["viewing", "composing", "idle"];

/// A contact uuid as the service writes them: letters, digits, '-'.
pub fn valid_uuid(s: &str) -> bool {
    (1..=64).contains(&s.len()) && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
}

fn stamp(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Millis, true)
}

fn event(agent: &str, contact: &str, state: &str, expires: DateTime<Utc>) -> Value {
    json!({ "agent": agent, "contact": contact, "state": state, "expires_at": stamp(expires) })
}

/// `POST /hub/v1/presence {contact, state}` → 204.
pub async fn post(State(st): State<Arc<HubState>>, Extension(who): Extension<Authed>, body: Bytes) -> Response {
    let v: Value = match serde_json::from_slice(&body) {
        Ok(v) => v,
        Err(_) => return wire::error(StatusCode::BAD_REQUEST, "the body is not JSON").into_response(),
    };
    let contact = v.get("contact").and_then(Value::as_str).unwrap_or_default();
    let state = v.get("state").and_then(Value::as_str).unwrap_or_default();
    if !valid_uuid(contact) {
        return wire::error(StatusCode::UNPROCESSABLE_ENTITY, "contact must be a contact uuid").into_response();
    }
    if !STATES.contains(&state) {
        return wire::error(
            StatusCode::UNPROCESSABLE_ENTITY,
            "state must be viewing, composing or idle",
        )
        .into_response();
    }
    let now = Utc::now();
    let ttl = chrono::Duration::from_std(st.config.presence_ttl).unwrap_or(chrono::Duration::seconds(30));
    let key = (who.agent.name.clone(), contact.to_string());
    {
        let mut map = st.presence.0.lock().unwrap_or_else(PoisonError::into_inner);
        if state == "idle" {
            map.remove(&key);
        } else {
            map.insert(key, now + ttl);
        }
    }
    let expires = if state == "idle" { now } else { now + ttl };
    st.bus
        .publish(wire::kind::PRESENCE, &event(&who.agent.name, contact, state, expires));
    StatusCode::NO_CONTENT.into_response()
}

/// Ends presences not renewed in time, telling everyone they went idle.
pub async fn sweep(st: Arc<HubState>) {
    let every = (st.config.presence_ttl / 10).clamp(Duration::from_millis(20), Duration::from_secs(1));
    loop {
        tokio::time::sleep(every).await;
        let now = Utc::now();
        let expired: Vec<(String, String)> = {
            let mut map = st.presence.0.lock().unwrap_or_else(PoisonError::into_inner);
            let gone: Vec<_> = map.iter().filter(|(_, t)| **t <= now).map(|(k, _)| k.clone()).collect();
            for k in &gone {
                map.remove(k);
            }
            gone
        };
        for (agent, contact) in expired {
            st.bus
                .publish(wire::kind::PRESENCE, &event(&agent, &contact, "idle", now));
        }
    }
}
