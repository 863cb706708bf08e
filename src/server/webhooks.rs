//! The webhook event log. Every recorded event carries the receiver's answer:
//! the real one when `--webhook-url` names a loopback receiver, otherwise a
//! simulated receiver that fails deterministically now and then.

use std::net::IpAddr;

use rusqlite::{Connection, params};
use serde_json::{Value, json};

use super::state::Shared;

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
    /// `message_object` or `contact_object`.
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
    pub fn contact(kind: &'static str, data: Value) -> Self {
        Event {
            kind,
            payload: "contact_object",
            data,
        }
    }
}

/// Deliver events. Simulated deliveries are logged right away; real ones in
/// a spawned task once the receiver has answered (or failed to).
pub async fn emit(state: &Shared, events: Vec<Event>) {
    if events.is_empty() {
        return;
    }
    match &state.webhook {
        None => {
            let _ = state
                .db_now(move |conn, now| {
                    for e in &events {
                        record_simulated(conn, e.kind, e.payload, now)?;
                    }
                    Ok(())
                })
                .await;
        }
        Some((client, url)) => {
            let (client, url, st) = (client.clone(), url.clone(), state.clone());
            tokio::spawn(async move {
                for e in events {
                    let body = json!({ "event": e.kind, "payload": e.payload, "data": e.data });
                    let (response, success) = deliver(&client, &url, &body).await;
                    let _ = st
                        .db_now(move |conn, now| Ok(insert(conn, e.kind, e.payload, &response, success, now)?))
                        .await;
                }
            });
        }
    }
}

async fn deliver(client: &reqwest::Client, url: &str, body: &Value) -> (Value, bool) {
    match client.post(url).json(body).send().await {
        Ok(resp) => {
            let code = resp.status().as_u16();
            let headers: serde_json::Map<String, Value> = resp
                .headers()
                .iter()
                .map(|(k, v)| {
                    (
                        k.to_string(),
                        Value::String(String::from_utf8_lossy(v.as_bytes()).into_owned()),
                    )
                })
                .collect();
            let text = resp.text().await.unwrap_or_default();
            let body = match serde_json::from_str::<Value>(&text) {
                Ok(v @ Value::Object(_)) => v,
                Ok(other) => json!({ "value": other }),
                Err(_) => json!({ "text": text }),
            };
            (
                json!({ "body": body, "code": code, "headers": headers }),
                (200..300).contains(&code),
            )
        }
        Err(e) => {
            let reason = if e.is_timeout() { "timeout" } else { "connection failed" };
            (json!({ "body": { "error": reason }, "code": 0, "headers": {} }), false)
        }
    }
}

#[cfg(test)]
mod tests;
