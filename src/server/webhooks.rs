//! Webhook events. Every recorded event carries the receiver's answer: the
//! real one when the account has a subscription (POST /webhooks/subscribe,
//! or `--webhook-url`; see [`delivery`]), otherwise a simulated receiver's
//! that fails deterministically now and then.

pub mod checks;
pub mod delivery;
pub mod payloads;

use std::net::IpAddr;

use rusqlite::{Connection, params};
use serde_json::{Value, json};

use super::state::Shared;
use delivery::Enqueued;

/// Only loopback receivers: the demo server must never post data elsewhere.
pub fn check_loopback(raw: &str) -> Result<String, String> {
    let url = url::Url::parse(raw).map_err(|e| format!("webhook URL {raw:?} is not a URL: {e}"))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err("webhook URL must use http or https".into());
    }
    let loopback = match url.host() {
        Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => IpAddr::V4(ip).is_loopback(),
        Some(url::Host::Ipv6(ip)) => IpAddr::V6(ip).is_loopback(),
        None => false,
    };
    if loopback {
        Ok(url.to_string())
    } else {
        Err(format!(
            "webhook URL must be on a loopback address, got host {:?}",
            url.host_str().unwrap_or("")
        ))
    }
}

/// The simulated receiver: every fifth delivery fails, alternating between
/// a server error and a timeout-like gateway error.
pub fn simulated_response(n: i64) -> (Value, bool) {
    if n % 5 == 0 {
        let code = if n % 10 == 0 { 504 } else { 500 };
        let body = json!({ "error": if code == 504 { "upstream timeout" } else { "receiver crashed" } });
        (
            json!({ "body": body, "code": code, "headers": { "content-type": "application/json" } }),
            false,
        )
    } else {
        (
            json!({ "body": { "ok": true }, "code": 200, "headers": { "content-type": "application/json" } }),
            true,
        )
    }
}

fn insert(
    conn: &Connection,
    event: &str,
    payload: &str,
    response: &Value,
    success: bool,
    now: i64,
) -> rusqlite::Result<()> {
    conn.execute(
        "INSERT INTO webhook_events (event, payload, response, success, created_at) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![event, payload, response.to_string(), success, now],
    )?;
    Ok(())
}

/// Record a simulated delivery inside the caller's database work.
pub fn record_simulated(conn: &Connection, event: &str, payload: &str, now: i64) -> rusqlite::Result<()> {
    let n: i64 = conn.query_row("SELECT COALESCE(MAX(id), 0) + 1 FROM webhook_events", [], |r| r.get(0))?;
    let (response, success) = simulated_response(n);
    insert(conn, event, payload, &response, success, now)
}

/// An event that happened: deliver it (really or simulated) and log it.
pub struct Event {
    pub kind: &'static str,
    /// `message_object`, `contact_object` or `user_object`.
    pub payload: &'static str,
    pub data: Value,
}

impl Event {
    pub fn message(kind: &'static str, data: Value) -> Self {
        Event {
            kind,
            payload: "message_object",
            data,
        }
    }
    /// An agent's availability or custom status, with the user.
    pub fn user(kind: &'static str, data: Value) -> Self {
        Event {
            kind,
            payload: "user_object",
            data,
        }
    }
    pub fn contact(kind: &'static str, data: Value) -> Self {
        Event {
            kind,
            payload: "contact_object",
            data,
        }
    }
}

/// Deliver events: queued for the subscriber when the account has a
/// webhook (only the kinds it subscribed to); otherwise logged right away
/// with the simulated receiver's answer. Never waits for a receiver.
pub async fn emit(state: &Shared, events: Vec<Event>) {
    if events.is_empty() {
        return;
    }
    let mut simulated = Vec::new();
    let mut lost = Vec::new();
    for e in events {
        match state.hooks.enqueue(e.kind, e.payload, &e.data) {
            Enqueued::NoWebhook => simulated.push(e),
            Enqueued::Full => lost.push(e),
            Enqueued::Waiting | Enqueued::NotSubscribed => {}
        }
    }
    if simulated.is_empty() && lost.is_empty() {
        return;
    }
    let logged = state
        .db_now(move |conn, now| {
            for e in &simulated {
                record_simulated(conn, e.kind, e.payload, now)?;
            }
            let full = json!({ "body": { "error": "delivery queue full" }, "code": 0, "headers": {} });
            for e in &lost {
                insert(conn, e.kind, e.payload, &full, false, now)?;
            }
            Ok(())
        })
        .await;
    if let Err(e) = logged {
        tracing::warn!(error = ?e, "could not log webhook events");
    }
}

#[cfg(test)]
mod tests;
